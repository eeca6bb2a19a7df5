//! Learning piece-square tables by phase ([`PieceSquareTables`]) from the project's own games,
//! with labels from deeper searches rather than game results: every `every`-th quiet position
//! of the games ([`crate::learn::train`]'s reader) is searched by the engine to a fixed number of
//! nodes (course evaluation), and that score, through the logistic curve the course
//! evaluation fits to the games' results, is the label. The tables are then fitted to the
//! labels by gradient descent (Adam, full batch) on the squared error plus a ridge penalty,
//! which keeps the squares the data says little about near 0. Every tenth game is held back.
//! Deterministic for any number of threads: each position is searched with a cleared table.

use crate::board::piece::Color;
use crate::board::square::Square;
use crate::eval::{endgame_phase, mating_material, mating_material_factor, EvalKind, PHASE_FULL};
use crate::learn::train::{fit_scale, for_each_quiet, logistic, mean_squared_error};
use crate::rules::position::Position;
use crate::search::config::SearchConfig;
use crate::search::engine::think;
use crate::search::search_position::SearchPosition;
use crate::values::piece_square::{cell, PieceSquareTables, CELLS};
use batch::InputError;
use search_core::Searcher;

/// How to make the training data.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableOptions {
    /// Nodes of the search that labels each position.
    pub label_nodes: u64,
    /// Keep every `every`-th quiet position (neighbours in a game say much the same).
    pub every: usize,
    /// Threads for the labelling searches (the result does not depend on it).
    pub threads: usize,
    /// No progress bar.
    pub quiet: bool,
}

/// What a fit to search labels found (`train --tables`, `train --activity`): the values
/// learned and how well they predict on the fitted and the held-back positions.
#[derive(Debug, Clone, PartialEq)]
pub struct LabelledFit<T> {
    /// The fitted values.
    pub learned: T,
    /// The logistic curve's scale (fitted on the evaluation the fit starts from and the
    /// games' results).
    pub scale: f64,
    /// Positions fitted and held back.
    pub positions: (usize, usize),
    /// Mean squared error against the search labels with the evaluation the fit starts from,
    /// fitted and held back.
    pub base_error: (f64, f64),
    /// The same with the fitted values.
    pub fitted_error: (f64, f64),
    /// Mean squared error against the held-back games' results: the evaluation the fit
    /// starts from, with the fitted values, and the labelling search itself.
    pub result_error: (f64, f64, f64),
}

/// What a table training run found (the course evaluation is where it starts from).
pub type TablesTraining = LabelledFit<PieceSquareTables>;

impl<T> LabelledFit<T> {
    /// Measures `learned`, the weights `w` (all-zero weights `zero` being the evaluation the
    /// fit starts from), on the `fit` and `held` samples: `error(samples, weights, target)` is
    /// the mean squared error of the predictions against `target`; `label` and `result` read a
    /// sample's search label and game result.
    pub(crate) fn measure<S>(
        learned: T,
        scale: f64,
        (fit, held): (&[S], &[S]),
        (zero, w): (&[f64], &[f64]),
        error: impl Fn(&[S], &[f64], &dyn Fn(&S) -> f64) -> f64,
        label: impl Fn(&S) -> f64,
        result: impl Fn(&S) -> f64,
    ) -> LabelledFit<T> {
        let search_result_error = held
            .iter()
            .map(|s| (result(s) - label(s)).powi(2))
            .sum::<f64>()
            / held.len().max(1) as f64;
        LabelledFit {
            learned,
            scale,
            positions: (fit.len(), held.len()),
            base_error: (error(fit, zero, &label), error(held, zero, &label)),
            fitted_error: (error(fit, w, &label), error(held, w, &label)),
            result_error: (
                error(held, zero, &result),
                error(held, w, &result),
                search_result_error,
            ),
        }
    }
}

/// One training position.
struct Sample {
    course: f64,
    /// How far towards the bare endgame (0 to 1): the endgame table's share.
    late: f64,
    can_mate: [bool; 2],
    /// Per piece: its table index (`kind * CELLS + cell`) and its sign (+1 red, −1 black).
    pieces: Vec<(u16, f64)>,
    labels: Labels,
}

impl Labelled for Sample {
    fn labels(&mut self) -> &mut Labels {
        &mut self.labels
    }
}

/// Search scores beyond this (mates) are capped before they become labels.
const LABEL_CAP: i32 = 3000;
/// The ridge penalty per table value: this much per (100 units)². On 8,801 positions of 500
/// games (labels at 20,000 nodes), the held-back error against the labels was 0.00272 at
/// 1e-4 and 1e-5, 0.00259 at 1e-6, 0.00246 at 1e-7 and 0.00247 at 1e-8 and 0: below 1e-7
/// the rounds of descent, not the penalty, keep the tables small.
const RIDGE: f64 = 1e-7;
/// Rounds of gradient descent, and Adam's step in the evaluation's units.
const ROUNDS: usize = 600;
const STEP: f64 = 2.0;

/// The table slot of a piece's value in `phase` (0 opening, 1 endgame).
#[inline]
fn slot(index: u16, phase: usize) -> usize {
    let (kind, c) = (index as usize / CELLS, index as usize % CELLS);
    (kind * 2 + phase) * CELLS + c
}

/// A sample's evaluation under tables `w` (flattened as [`slot`] indexes them), and the
/// factor the mating-material rule applied (1 or 1/16).
fn value(s: &Sample, w: &[f64]) -> (f64, f64) {
    let mut raw = s.course;
    for &(i, sign) in &s.pieces {
        raw += sign * ((1.0 - s.late) * w[slot(i, 0)] + s.late * w[slot(i, 1)]);
    }
    let factor = mating_material_factor(raw, s.can_mate);
    (raw * factor, factor)
}

/// Mean squared error of the predictions against `target` (the label or the result).
fn error(samples: &[Sample], w: &[f64], k: f64, target: impl Fn(&Sample) -> f64) -> f64 {
    mean_squared_error(samples, |s| logistic(value(s, w).0, k), target)
}

/// The engine's score for `pos` after `nodes` nodes with evaluation `eval`, from red's side,
/// capped at ±[`LABEL_CAP`].
fn search_score(
    pos: &Position,
    nodes: u64,
    eval: EvalKind,
    searcher: &mut Searcher<SearchPosition>,
) -> i32 {
    searcher.clear();
    let config = SearchConfig {
        time: None,
        eval,
        ..SearchConfig::engine()
    };
    let mut game = SearchPosition::new(pos.clone(), config.rules, config.eval);
    let mut options = config.iterative_options();
    options.node_limit = Some(nodes);
    let d = think(&mut game, searcher, &config, &options, |_| {});
    let s = d.score.clamp(-LABEL_CAP, LABEL_CAP);
    if pos.side() == Color::Red {
        s
    } else {
        -s
    }
}

/// Searches every position with evaluation `eval`, on `options.threads` threads, each with
/// its own searcher.
pub(crate) fn search_all(
    positions: &[Position],
    options: &TableOptions,
    eval: EvalKind,
) -> Vec<i32> {
    let bar = batch::progress_bar(positions.len() as u64, "positions searched", options.quiet);
    let scores = batch::parallel_map(
        positions.len(),
        options.threads,
        || {
            let mut searcher = Searcher::new(4);
            searcher.options = SearchConfig::engine().search_options();
            searcher
        },
        |searcher, i| {
            let score = search_score(&positions[i], options.label_nodes, eval, searcher);
            bar.inc(1);
            score
        },
    );
    bar.finish_and_clear();
    scores
}

/// A quiet position, its game's result for red, and whether the game is held back.
pub(crate) type QuietPosition = (Position, f64, bool);

/// Every `every`-th quiet position of the games in `texts` ([`for_each_quiet`]), with its
/// game's result for red and whether the game is held back. An error names the text (its
/// index) and the line.
pub(crate) fn quiet_positions(
    texts: &[String],
    every: usize,
) -> Result<Vec<QuietPosition>, (usize, InputError)> {
    let every = every.max(1);
    let mut positions = Vec::new();
    let mut seen = 0usize;
    for (t, text) in texts.iter().enumerate() {
        for_each_quiet(text, |pos, result, held| {
            if seen.is_multiple_of(every) {
                // A fresh copy: the game's move history is not needed.
                let fresh = pos.to_string().parse::<Position>().expect("a FEN of ours");
                positions.push((fresh, result, held));
            }
            seen += 1;
        })
        .map_err(|e| (t, e))?;
    }
    if positions.is_empty() {
        return Err((0, InputError::at(0, "no quiet positions to learn from")));
    }
    Ok(positions)
}

/// What a sample of a fit to search labels is fitted to and measured against.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Labels {
    /// The search's expected result for red (set once the logistic scale is known).
    pub label: f64,
    /// The game's result for red.
    pub result: f64,
    /// The labelling search's score, from red's side.
    pub searched: f64,
}

/// The samples fitted and held back, and the logistic scale of their labels.
pub(crate) type SampleSplit<S> = (Vec<S>, Vec<S>, f64);

/// A sample with [`Labels`].
pub(crate) trait Labelled {
    fn labels(&mut self) -> &mut Labels;
}

/// The samples of a fit to search labels, fitted and held back, and the logistic scale `k`
/// the base evaluation fits to the games' results: every quiet position of `texts`
/// ([`quiet_positions`]) searched with `eval` ([`search_all`]) becomes `sample(position,
/// its labels)` (the label still 0); `base_error(samples, k)` is the base evaluation's error
/// against the results at scale `k`, and each label is then the searched score's expected
/// result at that scale.
pub(crate) fn labelled_samples<S: Labelled>(
    texts: &[String],
    options: &TableOptions,
    eval: EvalKind,
    sample: impl Fn(Position, Labels) -> S,
    base_error: impl Fn(&[S], f64) -> f64,
) -> Result<SampleSplit<S>, (usize, InputError)> {
    let (positions, games): (Vec<Position>, Vec<(f64, bool)>) =
        quiet_positions(texts, options.every)?
            .into_iter()
            .map(|(pos, result, is_held)| (pos, (result, is_held)))
            .unzip();
    let searched = search_all(&positions, options, eval);
    let (mut fit, mut held) = (Vec::new(), Vec::new());
    for ((pos, (result, is_held)), score) in positions.into_iter().zip(games).zip(searched) {
        let labels = Labels {
            label: 0.0,
            result,
            searched: score as f64,
        };
        let s = sample(pos, labels);
        if is_held { &mut held } else { &mut fit }.push(s);
    }
    let k = fit_scale(|k| base_error(&fit, k));
    for s in fit.iter_mut().chain(held.iter_mut()) {
        let l = s.labels();
        l.label = logistic(l.searched, k);
    }
    Ok((fit, held, k))
}

/// Adam from all-zero weights: `rounds` full passes of `step` (in the weights' units), each
/// asking `gradient(weights, out)` for the gradient of the loss.
pub(crate) fn adam(
    n: usize,
    rounds: usize,
    step: f64,
    mut gradient: impl FnMut(&[f64], &mut [f64]),
) -> Vec<f64> {
    let (mut w, mut m, mut v) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut grad = vec![0.0; n];
    let (b1, b2, eps) = (0.9f64, 0.999f64, 1e-8);
    for round in 1..=rounds {
        grad.iter_mut().for_each(|g| *g = 0.0);
        gradient(&w, &mut grad);
        let (c1, c2) = (1.0 - b1.powi(round as i32), 1.0 - b2.powi(round as i32));
        for j in 0..n {
            m[j] = b1 * m[j] + (1.0 - b1) * grad[j];
            v[j] = b2 * v[j] + (1.0 - b2) * grad[j] * grad[j];
            w[j] -= step * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
        }
    }
    w
}

/// Fits piece-square tables to deeper searches of the quiet positions of `texts` (each the
/// games of one file: JSON lines with `start`, `moves` and `result`, as `match --games` writes
/// them). An error names the text (its index) and the line.
///
/// ```
/// use xiangqi_endgame::train_tables::{fit_tables, TableOptions};
/// // A made-up game: red, a chariot up, wins.
/// let game = r#"{"result":"RedWins","start":"3k5/9/9/9/9/9/9/9/4R4/4K4 b","moves":"d9d8 e1e3 d8d9 e3e4"}"#;
/// let options = TableOptions { label_nodes: 500, every: 1, threads: 2, quiet: true };
/// let t = fit_tables(&[format!("{game}\n{game}\n")], &options).unwrap();
/// assert_eq!(t.positions, (8, 0));
/// assert!(t.fitted_error.0 <= t.base_error.0);
/// ```
pub fn fit_tables(
    texts: &[String],
    options: &TableOptions,
) -> Result<TablesTraining, (usize, InputError)> {
    let zero = vec![0.0; 7 * 2 * CELLS];
    // The course evaluation labels: the tables learn what a deeper search of it sees.
    let (fit, held, k) = labelled_samples(
        texts,
        options,
        EvalKind::Course,
        |pos, labels| Sample {
            course: pos.material() as f64,
            late: endgame_phase(&pos) as f64 / PHASE_FULL as f64,
            can_mate: mating_material(&pos),
            pieces: pos
                .board()
                .iter()
                .enumerate()
                .filter_map(|(i, p)| {
                    let p = (*p)?;
                    let sign = if p.color == Color::Red { 1.0 } else { -1.0 };
                    let index = p.kind as usize * CELLS + cell(p.color, Square(i as u8));
                    Some((index as u16, sign))
                })
                .collect(),
            labels,
        },
        |fit, k| error(fit, &zero, k, |s| s.labels.result),
    )?;
    let w = descend(&fit, k);
    let mut tables = PieceSquareTables::default();
    for (kind, phases) in tables.values.iter_mut().enumerate() {
        for (phase, cells) in phases.iter_mut().enumerate() {
            for (c, v) in cells.iter_mut().enumerate() {
                *v = w[(kind * 2 + phase) * CELLS + c].round() as i32;
            }
        }
    }
    Ok(LabelledFit::measure(
        tables,
        k,
        (&fit, &held),
        (&zero, &w),
        |set, w, target| error(set, w, k, target),
        |s| s.labels.label,
        |s| s.labels.result,
    ))
}

/// Adam on the mean squared error against the labels plus the ridge penalty, from all-zero
/// tables, [`ROUNDS`] full passes.
fn descend(samples: &[Sample], k: f64) -> Vec<f64> {
    let scale = 1.0 / samples.len().max(1) as f64;
    adam(7 * 2 * CELLS, ROUNDS, STEP, |w, grad| {
        for (g, &x) in grad.iter_mut().zip(w) {
            *g = 2.0 * RIDGE * x / 1e4;
        }
        for s in samples {
            let (val, factor) = value(s, w);
            let p = logistic(val, k);
            // d/dv of (label − p)², through the curve and the mating-material factor.
            let d = 2.0 * (p - s.labels.label) * p * (1.0 - p) / k * factor * scale;
            for &(i, sign) in &s.pieces {
                grad[slot(i, 0)] += d * sign * (1.0 - s.late);
                grad[slot(i, 1)] += d * sign * s.late;
            }
        }
    })
}
