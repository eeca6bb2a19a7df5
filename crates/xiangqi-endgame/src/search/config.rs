//! How the engine searches: the selective rules and experiments that can be switched on and off,
//! their constants, and the configuration a search runs under.

use crate::eval::EvalKind;
use crate::search::search_position::Rules;
use search_core::{Deadline, IterativeOptions, ProbCut, Score, SearchOptions, Singular};
use std::time::Duration;

/// A rule of the selective search that an experiment may switch off (`uci --without`), to
/// measure in games what it is worth.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Pruning {
    /// Null-move pruning.
    NullMove,
    /// Late-move reductions.
    LateMoveReductions,
    /// Late-move pruning.
    LateMovePruning,
    /// Futility pruning of quiet moves near the horizon.
    Futility,
    /// Reverse futility pruning.
    ReverseFutility,
    /// Internal iterative reduction.
    InternalReduction,
    /// The quiescence search's skipping of losing captures.
    LosingCaptures,
    /// The history malus of the quiet moves tried before a cut-off.
    HistoryMalus,
    /// The counter-move heuristic in move order.
    CounterMoves,
    /// The proof-number search for a mate by checks before the alpha-beta search (not a
    /// pruning rule, but switched off the same way to measure it).
    MateByChecks,
}

impl Pruning {
    /// `options` without this rule.
    ///
    /// ```
    /// use xiangqi_endgame::engine::Pruning;
    /// let o = Pruning::NullMove.switch_off(search_core::SearchOptions::selective(100));
    /// assert_eq!(o.null_move, None);
    /// assert!(o.late_move_reductions);
    /// ```
    pub fn switch_off(self, mut options: SearchOptions) -> SearchOptions {
        match self {
            Pruning::NullMove => options.null_move = None,
            Pruning::LateMoveReductions => options.late_move_reductions = false,
            Pruning::LateMovePruning => options.late_move_pruning = false,
            Pruning::Futility => options.futility_depth = 0,
            Pruning::ReverseFutility => options.reverse_futility_depth = None,
            Pruning::InternalReduction => options.internal_reduction_depth = None,
            Pruning::LosingCaptures => options.skip_losing_captures = false,
            Pruning::HistoryMalus => options.history_malus = false,
            Pruning::CounterMoves => options.counter_moves = false,
            Pruning::MateByChecks => {}
        }
        options
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// An idea of the selective search that is off by default, switched on for an experiment
/// (`uci --with`): each measured without a gain in games (docs/xiangqi-endgame.md).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Experiment {
    /// Captures ordered and judged by their static exchange ([`crate::eval::see`]): those that lose
    /// material after the quiet moves, skipped [`LOSING_CAPTURES_DEPTH`] plies from the horizon
    /// and in the quiescence search.
    StaticExchange,
    /// Singular extensions ([`SINGULAR`]).
    SingularExtensions,
    /// ProbCut with a fixed margin ([`PROBCUT`]).
    Probcut,
    /// The continuation history in the order of quiet moves.
    ContinuationHistory,
    /// The "improving" signal in late-move reductions and reverse futility.
    Improving,
    /// Late moves of null-window nodes reduced one ply more.
    DeeperReductions,
    /// Time management by the best move's stability under a clock (`go wtime ...`): more time
    /// when the best move keeps changing, less when it stays
    /// ([`IterativeOptions::stability_time`]).
    TimeByStability,
}

impl Experiment {
    /// `options` with this idea switched on (the static exchange also needs
    /// [`SearchPosition::use_static_exchange`](crate::search::search_position::SearchPosition::use_static_exchange)).
    ///
    /// ```
    /// use xiangqi_endgame::engine::Experiment;
    /// let o = Experiment::SingularExtensions.switch_on(search_core::SearchOptions::selective(100));
    /// assert!(o.singular.is_some());
    /// ```
    pub fn switch_on(self, mut options: SearchOptions) -> SearchOptions {
        match self {
            Experiment::StaticExchange => {
                options.losing_captures_depth = Some(LOSING_CAPTURES_DEPTH)
            }
            Experiment::SingularExtensions => options.singular = Some(SINGULAR),
            Experiment::Probcut => options.probcut = Some(PROBCUT),
            Experiment::ContinuationHistory => options.continuation_history = true,
            Experiment::Improving => options.improving = true,
            Experiment::DeeperReductions => options.deeper_reductions_off_pv = true,
            // A setting of the iterations, not of the search: see `iterative_options`.
            Experiment::TimeByStability => {}
        }
        options
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// The singular extensions of the experiment: from 6 plies of remaining depth, the other moves
/// must stay two units a ply under the table move's value.
pub const SINGULAR: Singular = Singular {
    min_depth: 6,
    margin_per_ply: 2,
};
/// ProbCut of the experiment: from 5 plies of remaining depth, a shallow search beyond the
/// window by about two pawns decides the node.
pub const PROBCUT: ProbCut = ProbCut {
    min_depth: 5,
    margin: 200,
    confidence: None,
    one_side_by_evaluation: false,
};

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchConfig {
    /// Deepest iteration (plies).
    pub depth: u32,
    /// Time budget for one decision.
    pub time: Option<Duration>,
    /// Move rules.
    pub rules: Rules,
    /// Evaluation.
    pub eval: EvalKind,
    /// `false`: plain minimax to exactly `depth` (no pruning, no table), for comparisons.
    pub prune: bool,
    /// Transposition table size.
    pub tt_megabytes: usize,
    /// The engine's selective search (null move, reductions, futility, aspiration) instead of
    /// the full-width one the course answers were chosen with.
    pub selective: bool,
    /// Rules of the selective search switched off (a set of [`Pruning`] bits; see
    /// [`SearchConfig::without`]).
    pub switched_off: u16,
    /// Ideas of the selective search switched on (a set of [`Experiment`] bits; see
    /// [`SearchConfig::with`]). Without [`Experiment::StaticExchange`], captures are ordered by
    /// victim and capturer, and a capture by a more valuable piece onto an attacked square
    /// counts as losing.
    pub switched_on: u16,
}

/// Futility margin per ply of the selective search, in the course evaluation's units (a
/// little more than a pawn).
pub const FUTILITY_MARGIN: Score = 120;
/// The selective search skips captures that lose material by their static exchange up to
/// this many plies from the horizon (off the principal variation, out of check).
pub const LOSING_CAPTURES_DEPTH: i32 = 2;
/// Half-width of the selective search's aspiration window.
pub const ASPIRATION_WINDOW: Score = 40;

impl SearchConfig {
    /// The engine's own settings: the selective search, legal moves, the learned piece-square
    /// tables corrected by the network ([`EvalKind::Net`]: the first network scored 82.5%
    /// against the tables alone, the second 71.4% against the first, the built-in third 66.6%
    /// against the second, 400 games each at 50 ms a move).
    pub fn engine() -> SearchConfig {
        SearchConfig {
            depth: 64,
            selective: true,
            eval: EvalKind::Net,
            ..SearchConfig::default()
        }
    }

    /// These settings with `rule` of the selective search switched off.
    pub fn without(self, rule: Pruning) -> SearchConfig {
        SearchConfig {
            switched_off: self.switched_off | rule.bit(),
            ..self
        }
    }

    /// These settings with the experiment `idea` of the selective search switched on.
    pub fn with(self, idea: Experiment) -> SearchConfig {
        SearchConfig {
            switched_on: self.switched_on | idea.bit(),
            ..self
        }
    }

    /// The search options of `search-core` these settings ask for.
    ///
    /// ```
    /// use xiangqi_endgame::engine::{Pruning, SearchConfig};
    /// let o = SearchConfig::engine().without(Pruning::Futility).search_options();
    /// assert_eq!(o.futility_depth, 0);
    /// assert!(o.null_move.is_some() && o.reverse_futility_depth.is_some());
    /// ```
    pub fn search_options(&self) -> SearchOptions {
        if !self.selective {
            return SearchOptions::default();
        }
        let all = <Pruning as clap::ValueEnum>::value_variants();
        let options = all
            .iter()
            .filter(|r| self.switched_off & r.bit() != 0)
            .fold(SearchOptions::selective(FUTILITY_MARGIN), |o, r| {
                r.switch_off(o)
            });
        <Experiment as clap::ValueEnum>::value_variants()
            .iter()
            .filter(|idea| self.switched_on & idea.bit() != 0)
            .fold(options, |o, idea| idea.switch_on(o))
    }

    /// Whether the engine asks the proof-number search for a mate by checks before its
    /// selective search ([`think`](crate::search::engine::think)).
    pub fn mate_by_checks(&self) -> bool {
        self.selective
            && self.rules == Rules::Legal
            && self.switched_off & Pruning::MateByChecks.bit() == 0
    }

    /// Whether captures are ordered and judged by their static exchange: the selective search
    /// with [`Experiment::StaticExchange`].
    pub fn exchanges(&self) -> bool {
        self.selective && self.switched_on & Experiment::StaticExchange.bit() != 0
    }

    /// The iterative-deepening budgets these settings ask for, counted from now.
    pub fn iterative_options(&self) -> IterativeOptions {
        IterativeOptions {
            max_depth: self.depth,
            deadline: self.time.map_or(Deadline::none(), Deadline::after),
            aspiration: self.selective.then_some(ASPIRATION_WINDOW),
            stability_time: self.switched_on & Experiment::TimeByStability.bit() != 0,
            ..Default::default()
        }
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            depth: 7,
            time: Some(Duration::from_secs(10)),
            rules: Rules::Legal,
            eval: EvalKind::Course,
            prune: true,
            tt_megabytes: 8,
            selective: false,
            switched_off: 0,
            switched_on: 0,
        }
    }
}
