//! Learning the activity terms' weights ([`crate::eval::activity::ActivityWeights`]) on top of the
//! built-in piece-square tables: every `every`-th quiet position of the games is searched by
//! the engine with its own evaluation (`piece-square`) to a fixed number of nodes, that score
//! through the logistic curve the piece-square evaluation fits to the games' results is the
//! label, and the weights (an opening and an endgame value per term) are fitted to the labels
//! by gradient descent ([`crate::learn::train_tables`]'s Adam) on the squared error plus a ridge
//! penalty. What the terms learn is what the deeper search sees that the tables do not. Every
//! tenth game is held back; deterministic for any number of threads.

use crate::eval::activity::{activity_terms, ActivityWeights, ACTIVITY_TERMS, WEIGHT_UNIT};
use crate::eval::{endgame_phase, mating_material, mating_material_factor, piece_square_raw};
use crate::eval::{EvalKind, PHASE_FULL};
use crate::learn::train::{logistic, mean_squared_error};
use crate::learn::train_tables::{adam, labelled_samples, LabelledFit, TableOptions};
use crate::learn::train_tables::{Labelled, Labels};
use batch::InputError;

/// What an activity training run found (the piece-square evaluation is where it starts
/// from).
pub type ActivityTraining = LabelledFit<ActivityWeights>;

struct Sample {
    /// The piece-square evaluation before the mating-material rule.
    base: f64,
    late: f64,
    can_mate: [bool; 2],
    terms: [f64; ACTIVITY_TERMS],
    labels: Labels,
}

impl Labelled for Sample {
    fn labels(&mut self) -> &mut Labels {
        &mut self.labels
    }
}

/// The ridge penalty per weight, per (16 sixteenths)².
const RIDGE: f64 = 1e-7;
/// Rounds of gradient descent, and Adam's step in sixteenths.
const ROUNDS: usize = 800;
const STEP: f64 = 1.0;

/// A sample's evaluation under weights `w` (`[term * 2 + phase]`, in sixteenths) and the
/// mating-material factor applied.
fn value(s: &Sample, w: &[f64]) -> (f64, f64) {
    let mut raw = s.base;
    for (t, &x) in s.terms.iter().enumerate() {
        raw += x * ((1.0 - s.late) * w[2 * t] + s.late * w[2 * t + 1]) / WEIGHT_UNIT as f64;
    }
    let factor = mating_material_factor(raw, s.can_mate);
    (raw * factor, factor)
}

fn error(samples: &[Sample], w: &[f64], k: f64, target: impl Fn(&Sample) -> f64) -> f64 {
    mean_squared_error(samples, |s| logistic(value(s, w).0, k), target)
}

/// Fits the activity weights to deeper searches of the quiet positions of `texts` (each the
/// games of one file, as `match --games` writes them). An error names the text and the line.
///
/// ```
/// use xiangqi_endgame::train_activity::fit_activity;
/// use xiangqi_endgame::train_tables::TableOptions;
/// // A made-up game: red, a chariot up, wins.
/// let game = r#"{"result":"RedWins","start":"3k5/9/9/9/9/9/9/9/4R4/4K4 b","moves":"d9d8 e1e3 d8d9 e3e4"}"#;
/// let options = TableOptions { label_nodes: 500, every: 1, threads: 2, quiet: true };
/// let t = fit_activity(&[format!("{game}\n{game}\n")], &options).unwrap();
/// assert_eq!(t.positions, (8, 0));
/// assert!(t.fitted_error.0 <= t.base_error.0);
/// ```
pub fn fit_activity(
    texts: &[String],
    options: &TableOptions,
) -> Result<ActivityTraining, (usize, InputError)> {
    let zero = vec![0.0; 2 * ACTIVITY_TERMS];
    let (fit, held, k) = labelled_samples(
        texts,
        options,
        EvalKind::PieceSquare,
        |pos, labels| {
            let eg = endgame_phase(&pos);
            Sample {
                base: piece_square_raw(&pos, eg) as f64,
                late: eg as f64 / PHASE_FULL as f64,
                can_mate: mating_material(&pos),
                terms: activity_terms(&pos).map(f64::from),
                labels,
            }
        },
        |fit, k| error(fit, &zero, k, |s| s.labels.result),
    )?;
    let scale = 1.0 / fit.len().max(1) as f64;
    let w = adam(2 * ACTIVITY_TERMS, ROUNDS, STEP, |w, grad| {
        let unit = WEIGHT_UNIT as f64;
        for (g, &x) in grad.iter_mut().zip(w) {
            *g = 2.0 * RIDGE * x / (unit * unit);
        }
        for s in &fit {
            let (val, factor) = value(s, w);
            let p = logistic(val, k);
            let d = 2.0 * (p - s.labels.label) * p * (1.0 - p) / k * factor * scale / unit;
            for (t, &x) in s.terms.iter().enumerate() {
                grad[2 * t] += d * x * (1.0 - s.late);
                grad[2 * t + 1] += d * x * s.late;
            }
        }
    });
    let mut weights = ActivityWeights::default();
    for (t, pair) in weights.0.iter_mut().enumerate() {
        *pair = [w[2 * t].round() as i32, w[2 * t + 1].round() as i32];
    }
    Ok(LabelledFit::measure(
        weights,
        k,
        (&fit, &held),
        (&zero, &w),
        |set, w, target| error(set, w, k, target),
        |s| s.labels.label,
        |s| s.labels.result,
    ))
}
