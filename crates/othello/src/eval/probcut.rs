//! Multi-ProbCut's error model for the engine's midgame search: how far the value of a shallow
//! search is from a deep one's, by empty squares and depth pair, so that `search-core`'s
//! ProbCut can cut a node whose shallow value clears the window by a few standard deviations
//! (Buro's method). The model is fitted by [`crate::learn::probcut_fit`] (`othello fit-probcut`) and
//! ships as `data/probcut.txt`, embedded in the binary.

use search_core::{ProbCut, ProbCutError};
use std::sync::OnceLock;

/// Deepest search depth the model's table covers (deeper ones use this depth's error).
pub const MAX_DEPTH: usize = 60;

/// The fitted error: mean and standard deviation of deep minus shallow values in hundredths
/// of a disc, each `c[0] + c[1]·empties + c[2]·depth + c[3]·shallow`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorModel {
    /// Coefficients of the mean.
    pub mean: [f64; 4],
    /// Coefficients of the standard deviation.
    pub sigma: [f64; 4],
    /// `table[empties][depth]`, computed once from the coefficients.
    table: Vec<ProbCutError>,
}

/// The smallest standard deviation the model gives (half a disc): a fit extrapolated to few
/// empties must not claim a shallow search is exact.
const MIN_SIGMA: f64 = 50.0;

impl ErrorModel {
    /// The model with these coefficients.
    pub fn new(mean: [f64; 4], sigma: [f64; 4]) -> ErrorModel {
        let mut table = Vec::with_capacity(61 * (MAX_DEPTH + 1));
        for empties in 0..=60 {
            for depth in 0..=MAX_DEPTH as i32 {
                let x = features(empties, depth, ProbCut::shallow_depth(depth));
                table.push(ProbCutError {
                    mean: dot(&mean, &x).round() as i32,
                    sigma: dot(&sigma, &x).max(MIN_SIGMA).round() as i32,
                });
            }
        }
        ErrorModel { mean, sigma, table }
    }

    /// The error at a position with `empties` empty squares for a search of `depth` plies
    /// predicted by one of [`ProbCut::shallow_depth`] plies.
    ///
    /// ```
    /// let e = othello::probcut::model().error(30, 8);
    /// assert!(e.sigma >= 50 && e.sigma < 1500, "{e:?}");
    /// ```
    #[inline]
    pub fn error(&self, empties: u32, depth: i32) -> ProbCutError {
        let depth = depth.clamp(0, MAX_DEPTH as i32) as usize;
        self.table[empties.min(60) as usize * (MAX_DEPTH + 1) + depth]
    }

    /// The model's file: the coefficients, then `measured` (the table it was fitted on, a
    /// row a line) as comment lines.
    pub fn to_text(&self, made_by: &str, measured: &[impl std::fmt::Display]) -> String {
        let coefficients = |c: &[f64; 4]| c.map(|v| format!("{v:.4}")).join(" ");
        let mut s = format!(
            "# Multi-ProbCut error model of othello's midgame search: deep minus shallow values\n\
             # in hundredths of a disc, each a + b*empties + c*depth + d*shallow.\n\
             # Made by: {made_by}\n\
             mean {}\nsigma {}\n\
             # measured: empties (stage) depth shallow positions mean sigma\n",
            coefficients(&self.mean),
            coefficients(&self.sigma)
        );
        for m in measured {
            s += &format!("# {m}\n");
        }
        s
    }

    /// Reads the form [`ErrorModel::to_text`] writes.
    pub fn from_text(text: &str) -> Result<ErrorModel, String> {
        let (mut mean, mut sigma) = (None, None);
        for (number, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default();
            let values: Result<Vec<f64>, _> = words.map(str::parse).collect();
            let values = match values {
                Ok(v) if v.len() == 4 && v.iter().all(|x| x.is_finite()) => {
                    [v[0], v[1], v[2], v[3]]
                }
                _ => return Err(format!("line {}: `{name}` needs four numbers", number + 1)),
            };
            match name {
                "mean" => mean = Some(values),
                "sigma" => sigma = Some(values),
                other => return Err(format!("line {}: unknown `{other}`", number + 1)),
            }
        }
        match (mean, sigma) {
            (Some(m), Some(s)) => Ok(ErrorModel::new(m, s)),
            _ => Err("a `mean` and a `sigma` line are needed".into()),
        }
    }
}

pub(crate) fn features(empties: u32, depth: i32, shallow: i32) -> [f64; 4] {
    [
        1.0,
        f64::from(empties),
        f64::from(depth),
        f64::from(shallow),
    ]
}

pub(crate) fn dot(c: &[f64; 4], x: &[f64; 4]) -> f64 {
    c.iter().zip(x).map(|(a, b)| a * b).sum()
}

/// The model in use: the embedded one unless [`use_model`] chose another first.
static MODEL: OnceLock<ErrorModel> = OnceLock::new();

/// Makes `m` the model of [`model`] for the rest of the process (`othello fit-probcut`'s
/// output for other weights, for `othello nboard --probcut-model`); an error once the model
/// in use has been read.
pub fn use_model(m: ErrorModel) -> Result<(), String> {
    MODEL
        .set(m)
        .map_err(|_| "Multi-ProbCut's model is already in use".to_string())
}

/// The shipped model (`data/probcut.txt`, made by `othello fit-probcut` with its defaults).
pub fn model() -> &'static ErrorModel {
    MODEL.get_or_init(|| {
        ErrorModel::from_text(include_str!("../../data/probcut.txt"))
            .unwrap_or_else(|e| panic!("data/probcut.txt: {e}"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_model_files_are_refused_with_their_line() {
        assert!(ErrorModel::from_text("mean 1 2 3\n")
            .unwrap_err()
            .contains("line 1"));
        assert!(ErrorModel::from_text("mean 1 2 3 4\nsigmo 1 2 3 4\n")
            .unwrap_err()
            .contains("line 2"));
        assert!(ErrorModel::from_text("mean 1 2 3 4\n").is_err());
        assert!(ErrorModel::from_text("mean 1 2 3 4\nsigma 1 2 3 NaN\n").is_err());
    }

    #[test]
    fn the_shipped_model_reads_and_gives_errors_of_a_few_discs() {
        let m = model();
        for empties in 13..=60 {
            for depth in 3..=30 {
                let e = m.error(empties, depth);
                assert!((50..=1000).contains(&e.sigma), "{empties} {depth}: {e:?}");
                assert!(e.mean.abs() < 500, "{empties} {depth}: {e:?}");
            }
        }
    }
}
