//! `othello fit-probcut`: Multi-ProbCut's error model ([`crate::eval::probcut`]) measured and fitted.
//! On positions of the engine's own seeded games, the full-width midgame search's values at
//! every depth from 2 on are compared with those of its shallow depth, tabulated per stage and
//! depth pair, and their mean and standard deviation fitted as linear functions of the empties,
//! the depth and the shallow depth.

use crate::eval::probcut::{dot, features, ErrorModel};
use crate::rules::position::Position;
use crate::search::deciders::{CourseGame, HeuristicKind, MoveOrder};
use crate::search::engine::{midgame_options, MoveBudget, Thinker};
use search_core::{ProbCut, Searcher, INF};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Deep minus shallow values measured for one stage (four empties) and depth pair.
#[derive(Debug, Clone, PartialEq)]
pub struct Measured {
    /// The stage ([`crate::eval::pattern::stage`]).
    pub stage: usize,
    /// The deep search's depth.
    pub depth: i32,
    /// The shallow search's depth.
    pub shallow: i32,
    /// Positions measured.
    pub count: usize,
    /// Mean of deep minus shallow, hundredths of a disc.
    pub mean: f64,
    /// Their standard deviation.
    pub sigma: f64,
}

impl std::fmt::Display for Measured {
    /// The stage's empties, depth, shallow depth, positions, mean and sigma, in columns.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:2}-{:2} {:2} {:2} {:4} {:7.1} {:6.1}",
            self.stage * 4,
            self.stage * 4 + 3,
            self.depth,
            self.shallow,
            self.count,
            self.mean,
            self.sigma
        )
    }
}

/// One position's deep minus shallow value: empties, depth, shallow depth, difference.
pub type Sample = (u32, i32, i32, f64);

/// `count` positions of the engine's own games for calibration, seeded: each game opens with
/// four random plies, then the engine's full-width search plays itself at depth 3 for 0 to 43
/// plies (the game's number decides how many), so the positions spread over 13 to 56 empties.
///
/// ```
/// let p = othello::probcut_fit::calibration_positions(3, 1);
/// assert_eq!(p, othello::probcut_fit::calibration_positions(3, 1));
/// assert!(p.iter().all(|p| p.empties() > 12 && !p.game_over()));
/// ```
pub fn calibration_positions(count: usize, seed: u64) -> Vec<Position> {
    // The full-width search: the positions must not depend on the model they calibrate.
    let mut thinker = Thinker::with_probcut(Arc::new(AtomicBool::new(false)), None);
    let mut positions = Vec::new();
    for game in 0.. {
        if positions.len() == count {
            break;
        }
        let Some(mut p) = Position::random_game(seed.wrapping_mul(1_000_003) + game + 1).nth(4)
        else {
            continue;
        };
        for _ in 0..(game * 7) % 44 {
            match thinker.best(&p, 3, &MoveBudget::unlimited()) {
                Some(a) => p = p.play(a.mv),
                None => break,
            }
        }
        if !p.game_over() && p.moves() != 0 && p.empties() > 12 {
            positions.push(p);
        }
    }
    positions
}

/// Deep minus shallow values of the engine's full-width midgame search (no ProbCut) at each
/// position, for every depth from 2 (against the static value) to `max_depth` against
/// [`ProbCut::shallow_depth`], the
/// positions shared over `threads` threads.
pub fn measure(positions: &[Position], max_depth: i32, threads: usize) -> Vec<Sample> {
    let per_position = batch::parallel_map(
        positions.len(),
        threads,
        || (),
        |_, i| {
            let p = positions[i];
            let mut searcher = Searcher::new(16);
            searcher.options = midgame_options();
            let mut game = CourseGame::with_heuristic(p, HeuristicKind::Pattern)
                .with_order(MoveOrder::Mobility);
            let mut values = vec![search_core::Game::evaluate(&game)];
            for depth in 1..=max_depth {
                values.push(searcher.search_root(&mut game, depth as u32, -INF, INF));
            }
            (2..=max_depth)
                .map(|d| {
                    let s = ProbCut::shallow_depth(d);
                    let diff = f64::from(values[d as usize] - values[s as usize]);
                    (p.empties(), d, s, diff)
                })
                .collect::<Vec<Sample>>()
        },
    );
    per_position.into_iter().flatten().collect()
}

/// The samples grouped by stage and depth pair, with their mean and standard deviation.
pub fn tabulate(samples: &[Sample]) -> Vec<Measured> {
    let mut groups: std::collections::BTreeMap<(usize, i32, i32), Vec<f64>> = Default::default();
    for &(e, d, s, diff) in samples {
        groups
            .entry((crate::eval::pattern::stage(e), d, s))
            .or_default()
            .push(diff);
    }
    groups
        .into_iter()
        .map(|((stage, depth, shallow), diffs)| {
            let n = diffs.len() as f64;
            let mean = diffs.iter().sum::<f64>() / n;
            let var = diffs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
            Measured {
                stage,
                depth,
                shallow,
                count: diffs.len(),
                mean,
                sigma: var.sqrt(),
            }
        })
        .collect()
}

/// Least-squares fit of the model to the samples: the mean as a linear function of the
/// features, then the standard deviation as one fitted to each sample's absolute deviation
/// from that mean (times sqrt(pi/2), the ratio of a normal error's deviation to its mean
/// absolute value).
pub fn fit(samples: &[Sample]) -> ErrorModel {
    let xs: Vec<[f64; 4]> = samples
        .iter()
        .map(|&(e, d, s, _)| features(e, d, s))
        .collect();
    let mean = least_squares(&xs, samples.iter().map(|s| s.3));
    let scale = (std::f64::consts::PI / 2.0).sqrt();
    let sigma = least_squares(
        &xs,
        samples
            .iter()
            .zip(&xs)
            .map(|(s, x)| scale * (s.3 - dot(&mean, x)).abs()),
    );
    ErrorModel::new(mean, sigma)
}

/// The coefficients minimising the squared error of `x · c` against `y` (normal equations,
/// solved by Gaussian elimination with partial pivoting; a small ridge keeps them solvable).
fn least_squares(xs: &[[f64; 4]], ys: impl Iterator<Item = f64>) -> [f64; 4] {
    let mut a = [[0.0f64; 5]; 4];
    for (x, y) in xs.iter().zip(ys) {
        for (row, &xi) in a.iter_mut().zip(x) {
            for (cell, &xj) in row.iter_mut().zip(x) {
                *cell += xi * xj;
            }
            row[4] += xi * y;
        }
    }
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    for col in 0..4 {
        let pivot = (col..4)
            .max_by(|&r, &s| a[r][col].abs().total_cmp(&a[s][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        let pivot_row = a[col];
        if pivot_row[col] == 0.0 {
            continue;
        }
        for (r, row) in a.iter_mut().enumerate() {
            if r != col {
                let f = row[col] / pivot_row[col];
                for (x, p) in row.iter_mut().zip(&pivot_row).skip(col) {
                    *x -= f * p;
                }
            }
        }
    }
    std::array::from_fn(|i| {
        if a[i][i] == 0.0 {
            0.0
        } else {
            a[i][4] / a[i][i]
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_recovers_a_known_linear_error() {
        // Differences whose mean and spread are known linear functions of the features.
        let mut samples = Vec::new();
        let mut x = 12345u64;
        for e in 14..58u32 {
            for d in 3..=10 {
                let s = ProbCut::shallow_depth(d);
                let mean = 20.0 + 2.0 * f64::from(e) - 5.0 * f64::from(d);
                let sigma = 100.0 + 4.0 * f64::from(e);
                for _ in 0..40 {
                    // A symmetric two-point error of size sigma: its mean absolute deviation
                    // is sigma, so the fitted sigma is sigma * sqrt(pi/2).
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    let sign = if x & 1 == 0 { 1.0 } else { -1.0 };
                    samples.push((e, d, s, mean + sign * sigma));
                }
            }
        }
        let m = fit(&samples);
        let at = |c: &[f64; 4], e: u32, d: i32| dot(c, &features(e, d, ProbCut::shallow_depth(d)));
        assert!(
            (at(&m.mean, 30, 8) - (20.0 + 60.0 - 40.0)).abs() < 3.0,
            "{m:?}"
        );
        let scale = (std::f64::consts::PI / 2.0).sqrt();
        assert!((at(&m.sigma, 30, 8) - scale * 220.0).abs() < 5.0, "{m:?}");
        let again = ErrorModel::from_text(&m.to_text("test", &tabulate(&samples))).unwrap();
        for (a, b) in again
            .mean
            .iter()
            .chain(&again.sigma)
            .zip(m.mean.iter().chain(&m.sigma))
        {
            assert!((a - b).abs() < 1e-3);
        }
    }
}
