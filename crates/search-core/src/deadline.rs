//! Time and node budgets shared by every search.
//!
//! A [`Deadline`] is an optional instant; a [`Limits`] bundles it with an optional cap on
//! expanded nodes. Searches poll them cheaply (the clock is read only every few hundred nodes)
//! and report [`Stop`] when a budget ran out, so a caller always gets an answer back in time.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An optional point in time after which a search must stop.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Deadline {
    end: Option<Instant>,
}

impl Deadline {
    /// No deadline: the search may run until it is done.
    pub const fn none() -> Self {
        Deadline { end: None }
    }

    /// A deadline `budget` from now.
    ///
    /// ```
    /// use search_core::Deadline;
    /// let d = Deadline::after(std::time::Duration::from_secs(60));
    /// assert!(!d.expired());
    /// assert!(Deadline::after(std::time::Duration::ZERO).expired());
    /// ```
    pub fn after(budget: Duration) -> Self {
        Deadline {
            end: Some(Instant::now() + budget),
        }
    }

    /// A deadline at a given instant.
    pub const fn at(end: Instant) -> Self {
        Deadline { end: Some(end) }
    }

    /// Whether the deadline has passed (never, for [`Deadline::none`]).
    #[inline]
    pub fn expired(&self) -> bool {
        self.end.is_some_and(|e| Instant::now() >= e)
    }

    /// Time left, `None` when there is no deadline.
    pub fn remaining(&self) -> Option<Duration> {
        self.end
            .map(|e| e.saturating_duration_since(Instant::now()))
    }

    /// The instant itself, if any.
    pub fn instant(&self) -> Option<Instant> {
        self.end
    }
}

/// Budgets for a single-agent search: an optional node cap and a deadline.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after expanding this many states.
    pub max_expanded: Option<u64>,
    /// Stop when this deadline passes.
    pub deadline: Deadline,
}

impl Limits {
    /// No limits at all.
    pub const fn none() -> Self {
        Limits {
            max_expanded: None,
            deadline: Deadline::none(),
        }
    }

    /// Limits with only a node cap.
    pub const fn nodes(max_expanded: u64) -> Self {
        Limits {
            max_expanded: Some(max_expanded),
            deadline: Deadline::none(),
        }
    }

    /// Limits with only a deadline.
    pub const fn deadline(deadline: Deadline) -> Self {
        Limits {
            max_expanded: None,
            deadline,
        }
    }

    /// Checks the budgets after `expanded` expansions; reads the clock every 256 expansions.
    #[inline]
    pub(crate) fn check(&self, expanded: u64) -> Option<Stop> {
        if self.max_expanded.is_some_and(|m| expanded >= m) {
            return Some(Stop::NodeLimit);
        }
        if expanded & 255 == 0 && self.deadline.expired() {
            return Some(Stop::Deadline);
        }
        None
    }
}

/// Why a search stopped before it could prove its answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Stop {
    /// The node cap of [`Limits::max_expanded`] was reached.
    NodeLimit,
    /// The [`Deadline`] passed.
    Deadline,
}

/// What stops a two-player search: a deadline, a node budget and a flag another thread may
/// raise (a UCI `stop`).
#[derive(Debug, Clone, Default)]
pub struct Budget {
    /// Stop when this passes.
    pub deadline: Deadline,
    /// Stop after this many nodes.
    pub node_limit: Option<u64>,
    /// Stop once another thread sets this.
    pub stop_signal: Option<Arc<AtomicBool>>,
    /// Stop once another thread of the same search has its answer
    /// ([`shared_search_root`](crate::shared_search_root) sets it for the search).
    pub(crate) team_done: Option<Arc<AtomicBool>>,
}

impl Budget {
    /// A budget of a deadline and an optional node limit, with no stop signal.
    ///
    /// ```
    /// use search_core::{Budget, Deadline};
    /// let b = Budget::new(Deadline::after(std::time::Duration::from_secs(10)), Some(5000));
    /// assert_eq!(b.node_limit, Some(5000));
    /// ```
    pub fn new(deadline: Deadline, node_limit: Option<u64>) -> Budget {
        Budget {
            deadline,
            node_limit,
            ..Budget::default()
        }
    }

    /// Whether a search that has entered `nodes` nodes must stop. The node budget costs a
    /// comparison per node; the clock and the stop signal are read every 1024 nodes.
    #[inline]
    pub(crate) fn exhausted(&self, nodes: u64) -> bool {
        self.node_limit.is_some_and(|l| nodes > l)
            || (nodes & 1023 == 0 && (self.deadline.expired() || self.stop_requested()))
    }

    /// Whether another thread raised the stop signal.
    #[inline]
    pub(crate) fn stop_requested(&self) -> bool {
        [&self.stop_signal, &self.team_done]
            .into_iter()
            .flatten()
            .any(|s| s.load(Ordering::Relaxed))
    }
}
