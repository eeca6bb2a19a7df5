//! Counters every search reports, so that algorithms can be compared on the same footing.
//!
//! `expanded` counts states whose successors were generated, `generated` counts successor
//! states produced, `max_frontier` is the largest open list (or recursion depth for depth-first
//! searches), and `elapsed` is wall time. All of it serialises with serde for `--json` output.

use serde::{Serialize, Serializer};
use std::time::Duration;

/// Work done by one single-agent search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct SearchStats {
    /// States taken from the frontier and expanded (their successors generated).
    pub expanded: u64,
    /// Successor states generated (before duplicate detection).
    pub generated: u64,
    /// Largest frontier size seen (open list length, or stack depth).
    pub max_frontier: usize,
    /// Wall-clock time spent, serialised as seconds.
    #[serde(serialize_with = "serialize_secs", rename = "elapsed_s")]
    pub elapsed: Duration,
}

impl SearchStats {
    /// Adds the counters of `other` into `self` (max for the frontier size).
    ///
    /// ```
    /// use search_core::SearchStats;
    /// let mut a = SearchStats { expanded: 2, generated: 3, ..Default::default() };
    /// a.add(&SearchStats { expanded: 1, generated: 1, max_frontier: 5, ..Default::default() });
    /// assert_eq!((a.expanded, a.generated, a.max_frontier), (3, 4, 5));
    /// ```
    pub fn add(&mut self, other: &SearchStats) {
        self.expanded += other.expanded;
        self.generated += other.generated;
        self.max_frontier = self.max_frontier.max(other.max_frontier);
        self.elapsed += other.elapsed;
    }
}

/// Work done by one two-player (adversarial) search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct GameStats {
    /// Nodes visited (interior and leaves).
    pub nodes: u64,
    /// Leaves scored by the static evaluation or as finished games.
    pub leaves: u64,
    /// Beta cut-offs.
    pub cutoffs: u64,
    /// Transposition-table probes that ended the node without searching it.
    pub tt_cutoffs: u64,
    /// Deepest iteration fully completed (iterative deepening), or the fixed depth.
    pub depth: u32,
    /// Wall-clock time spent, serialised as seconds.
    #[serde(serialize_with = "serialize_secs", rename = "elapsed_s")]
    pub elapsed: Duration,
}

impl GameStats {
    /// Nodes per second, or 0 when no time was measured.
    ///
    /// ```
    /// use search_core::GameStats;
    /// let s = GameStats { nodes: 1000, elapsed: std::time::Duration::from_millis(10), ..Default::default() };
    /// assert_eq!(s.nodes_per_second() as u64, 100_000);
    /// ```
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.elapsed.as_secs_f64();
        if secs > 0.0 {
            self.nodes as f64 / secs
        } else {
            0.0
        }
    }

    /// Adds the counters of `other` into `self`.
    pub fn add(&mut self, other: &GameStats) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.cutoffs += other.cutoffs;
        self.tt_cutoffs += other.tt_cutoffs;
        self.depth = self.depth.max(other.depth);
        self.elapsed += other.elapsed;
    }
}

fn serialize_secs<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_f64(d.as_secs_f64())
}
