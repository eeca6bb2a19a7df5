//! How long moves take, as a grader's clock sees them: the distribution of the wall times a
//! match recorded (median, 99th and 99.9th percentiles, maximum, moves over the budget), and a
//! load of busy threads to measure it on a machine that is not idle, as graders run several
//! matches per core.

use crate::course::compete::Contestant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use crate::engine::DEFAULT_LIBRARY_BUDGET;

/// The time per move a contestant is given: `mcts:MS` (and its variants) say it, a library
/// reads `CONNECT4_TIME_MS` (default [`DEFAULT_LIBRARY_BUDGET`]); other built-ins have none.
///
/// ```
/// use connect4::{compete::Contestant, move_times::budget};
/// use std::time::Duration;
/// assert_eq!(budget(&Contestant::Builtin("mcts:100".into())), Some(Duration::from_millis(100)));
/// assert_eq!(budget(&Contestant::Builtin("mcts-lgr:250:0.6".into())), Some(Duration::from_millis(250)));
/// assert_eq!(budget(&Contestant::Builtin("alphabeta:4".into())), None);
/// ```
pub fn budget(c: &Contestant) -> Option<Duration> {
    match c {
        Contestant::Builtin(spec) => {
            let mut parts = spec.split(':');
            let kind = parts.next()?;
            if !kind.starts_with("mcts") {
                return None;
            }
            parts.next()?.parse().ok().map(Duration::from_millis)
        }
        Contestant::Library(_) => Some(
            std::env::var("CONNECT4_TIME_MS")
                .ok()
                .and_then(|v| v.parse().ok())
                .map_or(DEFAULT_LIBRARY_BUDGET, Duration::from_millis),
        ),
    }
}

/// The distribution of a contestant's move times.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Distribution {
    /// Moves timed.
    pub moves: usize,
    /// Median.
    pub median: Duration,
    /// 99th percentile (nearest rank).
    pub p99: Duration,
    /// 99.9th percentile (nearest rank).
    pub p999: Duration,
    /// Longest.
    pub max: Duration,
    /// Moves longer than the budget, when there is one.
    pub over_budget: Option<usize>,
}

/// The distribution of `times` (`None` when there are none), counting the moves over `budget`.
///
/// ```
/// use connect4::move_times::distribution;
/// use std::time::Duration;
/// let ms = |v: u64| Duration::from_millis(v);
/// let times: Vec<_> = (1..=100).map(ms).collect();
/// let d = distribution(&times, Some(ms(95))).unwrap();
/// assert_eq!((d.median, d.p99, d.max, d.over_budget), (ms(50), ms(99), ms(100), Some(5)));
/// ```
pub fn distribution(times: &[Duration], budget: Option<Duration>) -> Option<Distribution> {
    if times.is_empty() {
        return None;
    }
    let mut sorted = times.to_vec();
    sorted.sort();
    let rank =
        |q: f64| sorted[((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    Some(Distribution {
        moves: sorted.len(),
        median: rank(0.5),
        p99: rank(0.99),
        p999: rank(0.999),
        max: *sorted.last().expect("not empty"),
        over_budget: budget.map(|b| sorted.iter().filter(|&&t| t > b).count()),
    })
}

impl std::fmt::Display for Distribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        write!(
            f,
            "{} moves: median {:.1} ms, 99th percentile {:.1} ms, 99.9th {:.1} ms, max {:.1} ms",
            self.moves,
            ms(self.median),
            ms(self.p99),
            ms(self.p999),
            ms(self.max)
        )?;
        if let Some(n) = self.over_budget {
            write!(f, ", {n} over budget")?;
        }
        Ok(())
    }
}

/// Busy threads that keep cores loaded while they live (`compete --load N`).
pub struct Load {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl Load {
    /// Starts `n` threads that spin until the load is dropped.
    pub fn start(n: usize) -> Load {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut x = 1u64;
                    while !stop.load(Ordering::Relaxed) {
                        for _ in 0..10_000 {
                            x = std::hint::black_box(
                                x.wrapping_mul(6364136223846793005).wrapping_add(1),
                            );
                        }
                    }
                })
            })
            .collect();
        Load { stop, threads }
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
