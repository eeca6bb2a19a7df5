//! Learning the endgame evaluation's weights ([`EndgameWeights`]) from the project's own games,
//! by Texel's method: every quiet position of the games (`match --games` records: not in check,
//! and the move played from it not a capture), labelled with the game's result, and the weights
//! fitted so that a logistic curve of the evaluation predicts the results best (least squares).
//! The curve's scale is fitted first on the course evaluation alone; then each weight in turn
//! is moved while that lowers the error plus a small ridge penalty (which keeps weights the
//! data does not call for near 0), in steps of 16, 8, 4, 2 and 1, within ±[`MAX_WEIGHT`]. Every tenth game is held
//! back to report the error on games the fit never saw. Deterministic: the same games give the
//! same weights.

use crate::board::square::Move;
use crate::eval::{endgame_terms, mating_material_factor, EndgameWeights, ENDGAME_TERMS};
use crate::rules::movegen::{in_check, legal_moves};
use crate::rules::position::Position;
use batch::InputError;

/// One training position: what the evaluation is made of there, and the game's result.
#[derive(Debug, Clone, Copy)]
struct Sample {
    course: f64,
    features: [f64; ENDGAME_TERMS],
    can_mate: [bool; 2],
    /// Red's result: 1 won, 0.5 drawn, 0 lost.
    result: f64,
}

/// Calls `visit` with every quiet position of the games in `text` (JSON lines with `start`,
/// `moves` and `result`, as `match --games` writes them): not in check, and the move played
/// from it not a capture. It also gets red's result (1 won, 0.5 drawn, 0 lost) and whether the
/// game is held back (every tenth game). A line that cannot be read or replayed is an error
/// with its line number.
pub(crate) fn for_each_quiet(
    text: &str,
    mut visit: impl FnMut(&Position, f64, bool),
) -> Result<(), InputError> {
    let mut legal = Vec::new();
    for (i, line) in text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
    {
        let err = |m: String| InputError::at(i + 1, m);
        let g: serde_json::Value =
            serde_json::from_str(line).map_err(|e| err(format!("not a game record: {e}")))?;
        let field = |name: &str| {
            g.get(name)
                .and_then(|v| v.as_str())
                .ok_or_else(|| err(format!("no `{name}`")))
        };
        let result = match field("result")? {
            "RedWins" => 1.0,
            "BlackWins" => 0.0,
            "Draw" => 0.5,
            other => return Err(err(format!("unknown result `{other}`"))),
        };
        let mut pos: Position = field("start")?
            .parse()
            .map_err(|e: InputError| err(format!("start: {}", e.message)))?;
        let held = i % 10 == 9;
        for text in field("moves")?.split_whitespace() {
            let mv: Move = text
                .parse()
                .map_err(|_| err(format!("`{text}` is not a move")))?;
            legal.clear();
            legal_moves(&pos, &mut legal);
            if !legal.contains(&mv) {
                return Err(err(format!("`{text}` is not legal in {pos}")));
            }
            if !in_check(&pos) && pos.at(mv.to).is_none() {
                visit(&pos, result, held);
            }
            pos.make(mv);
        }
    }
    Ok(())
}

/// The quiet positions of the games in `texts` ([`for_each_quiet`]), split into (fitted, held
/// back); an error comes with the index of its text.
fn samples(texts: &[String]) -> Result<(Vec<Sample>, Vec<Sample>), (usize, InputError)> {
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for (t, text) in texts.iter().enumerate() {
        for_each_quiet(text, |pos, result, is_held| {
            let terms = endgame_terms(pos);
            let into = if is_held { &mut held } else { &mut fit };
            into.push(Sample {
                course: pos.material() as f64,
                features: terms.features,
                can_mate: terms.can_mate,
                result,
            });
        })
        .map_err(|e| (t, e))?;
    }
    Ok((fit, held))
}

/// The evaluation of a sample under weights `w` (as [`crate::eval::endgame_eval`] computes
/// it, without its rounding).
fn value(s: &Sample, w: &[i32; ENDGAME_TERMS]) -> f64 {
    let raw = s.course
        + s.features
            .iter()
            .zip(w)
            .map(|(f, &w)| f * w as f64)
            .sum::<f64>();
    raw * mating_material_factor(raw, s.can_mate)
}

/// The logistic curve of scale `k`: the expected result for red of an evaluation `v`.
pub(crate) fn logistic(v: f64, k: f64) -> f64 {
    1.0 / (1.0 + (-v / k).exp())
}

/// Mean squared error of `predict`ed win probabilities against `target` over `samples` (the
/// table fits' objective).
pub(crate) fn mean_squared_error<S>(
    samples: &[S],
    predict: impl Fn(&S) -> f64,
    target: impl Fn(&S) -> f64,
) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (target(s) - predict(s)).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// Mean squared error of the predicted results, a logistic curve of scale `k` (the evaluation
/// at which red's expected score is about 0.76 is `k`).
fn error(samples: &[Sample], w: &[i32; ENDGAME_TERMS], k: f64) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| (s.result - logistic(value(s, w), k)).powi(2))
        .sum();
    total / samples.len().max(1) as f64
}

/// The logistic curve's scale that minimises `error`: golden-section search over 10..2000.
pub(crate) fn fit_scale(error: impl Fn(f64) -> f64) -> f64 {
    let (mut lo, mut hi) = (10.0f64, 2000.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The ridge penalty per weight: this much per (100 units)² of the weight.
const RIDGE: f64 = 1e-4;
/// No weight goes beyond this (five pawns).
pub const MAX_WEIGHT: i32 = 500;

fn penalty(w: &[i32; ENDGAME_TERMS]) -> f64 {
    RIDGE * w.iter().map(|&v| (v as f64 / 100.0).powi(2)).sum::<f64>()
}

/// What a training run found.
#[derive(Debug, Clone, PartialEq)]
pub struct Training {
    /// The fitted weights.
    pub weights: EndgameWeights,
    /// The logistic curve's scale.
    pub scale: f64,
    /// Positions fitted and held back.
    pub positions: (usize, usize),
    /// Mean squared error with the course evaluation alone, fitted and held back.
    pub course_error: (f64, f64),
    /// The same with the fitted weights.
    pub fitted_error: (f64, f64),
}

/// Fits the weights to the games of `texts` (each the games of one file: JSON lines with
/// `start`, `moves` and `result`, as `match --games` writes them; see the module header). An
/// error names the text (its index) and the line.
///
/// ```
/// // Two made-up games from the same position: red, a chariot up, wins both.
/// let game = r#"{"result":"RedWins","start":"3k5/9/9/9/9/9/9/9/4R4/4K4 b","moves":"d9d8 e1e3 d8d9 e3e4"}"#;
/// let t = xiangqi_endgame::train::fit(&[format!("{game}\n{game}\n")]).unwrap();
/// assert_eq!(t.positions, (8, 0));
/// assert!(t.fitted_error.0 <= t.course_error.0);
/// ```
pub fn fit(texts: &[String]) -> Result<Training, (usize, InputError)> {
    let (fit, held) = samples(texts)?;
    if fit.is_empty() {
        return Err((0, InputError::at(0, "no quiet positions to learn from")));
    }
    let zero = [0; ENDGAME_TERMS];
    // The curve's scale, fitted on the course evaluation alone.
    let k = fit_scale(|k| error(&fit, &zero, k));
    let mut w = zero;
    let mut best = error(&fit, &w, k) + penalty(&w);
    for step in [16, 8, 4, 2, 1] {
        loop {
            let mut improved = false;
            for i in 0..ENDGAME_TERMS {
                for delta in [step, -step] {
                    let mut trial = w;
                    trial[i] += delta;
                    if trial[i].abs() > MAX_WEIGHT {
                        continue;
                    }
                    let e = error(&fit, &trial, k) + penalty(&trial);
                    if e < best {
                        (best, w) = (e, trial);
                        improved = true;
                        break;
                    }
                }
            }
            if !improved {
                break;
            }
        }
    }
    Ok(Training {
        weights: EndgameWeights(w),
        scale: k,
        positions: (fit.len(), held.len()),
        course_error: (error(&fit, &zero, k), error(&held, &zero, k)),
        fitted_error: (error(&fit, &w, k), error(&held, &w, k)),
    })
}
