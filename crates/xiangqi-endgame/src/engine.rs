//! Choosing a move: the position as a `search-core` [`Game`] and the search drivers.

use crate::eval::{evaluate, net_eval, piece_value, EvalKind};
use crate::framework;
use crate::movegen::{captures_first, in_check, lands_attacked, legal_captures, legal_moves};
use crate::nnue::{Accumulator, Network};
use crate::piece::{Color, Kind};
use crate::position::Position;
use crate::repetition::GameLine;
use crate::square::{Move, Square};
use search_core::{
    alphabeta, iterative_deepening, mate_distance, mate_in, minimax, Deadline, Game, GameResult,
    GameStats, IterativeOptions, ProbCut, Score, SearchOptions, Searcher, Singular, WIN,
};
use std::time::{Duration, Instant};

/// Which move rules the search follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Rules {
    /// Standard xiangqi: legal moves only, no legal move loses.
    #[default]
    Legal,
    /// The course framework: pseudo-legal moves, unhobbled horses, game over when a king is taken.
    Framework,
}

/// A position with the rules and evaluation the search should use.
#[derive(Debug, Clone)]
pub struct SearchPosition {
    /// The position (mutated by play/undo during search).
    pub pos: Position,
    /// Move rules.
    pub rules: Rules,
    /// Evaluation.
    pub eval: EvalKind,
    /// The game so far and the search line, for the repetition rulings (`None`: no repetition
    /// rules, as in the course).
    pub line: Option<GameLine>,
    /// Index in `line` of the search's root, which is never ruled over itself.
    pub root: usize,
    /// Evaluations already made, by position hash, for the evaluations that cost a board
    /// scan ([`EvalCache`]).
    cache: Option<EvalCache>,
    /// The network's accumulators along the search line, for [`EvalKind::Net`].
    net: Option<NetStack>,
    /// Captures ordered and judged by their static exchange ([`crate::see`]) instead of by
    /// victim and attacker alone, with the verdicts remembered: the selective search's with
    /// [`Experiment::StaticExchange`] (see [`SearchPosition::use_static_exchange`]).
    exchanges: Option<ExchangeMemo>,
}

/// How much material captures lose by their static exchange, remembered by position hash and
/// move: a node orders its captures by it and then asks again for each capture it might skip.
#[derive(Debug, Clone)]
struct ExchangeMemo(Memo);

impl ExchangeMemo {
    fn new() -> ExchangeMemo {
        // 32 KiB.
        ExchangeMemo(Memo::new(12))
    }

    /// How much material `mv` loses in `pos` ([`crate::see::material_lost`]).
    #[inline]
    fn material_lost(&self, pos: &Position, mv: Move) -> i32 {
        let code = u64::from(mv.from.0) << 8 | u64::from(mv.to.0);
        let key = pos.hash() ^ code.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0
            .get_or(key, || crate::see::material_lost(pos, mv) as u32) as i32
    }
}

/// A small direct-mapped table of 32-bit values by 64-bit key: each entry the key's upper 32
/// bits and the value, so a hit is a key match on 32 more bits than the index. A zero entry is
/// empty (a key whose upper half and value are both zero is computed again, never wrong).
#[derive(Debug, Clone)]
struct Memo {
    entries: Box<[std::cell::Cell<u64>]>,
}

impl Memo {
    /// A table of `2^bits` entries.
    fn new(bits: u32) -> Memo {
        Memo {
            entries: (0..1usize << bits)
                .map(|_| std::cell::Cell::new(0))
                .collect(),
        }
    }

    /// The value remembered for `key`, or `compute`'s (then remembered).
    #[inline]
    fn get_or(&self, key: u64, compute: impl FnOnce() -> u32) -> u32 {
        let slot = &self.entries[key as usize & (self.entries.len() - 1)];
        let entry = slot.get();
        if entry >> 32 == key >> 32 && entry != 0 {
            return entry as u32;
        }
        let v = compute();
        slot.set((key >> 32) << 32 | u64::from(v));
        v
    }
}

/// The accumulators of [`crate::nnue`] from the root to the current position: a move pushes
/// the updated one, its undo pops it.
#[derive(Debug, Clone)]
struct NetStack {
    net: &'static Network,
    stack: Vec<Accumulator>,
}

impl NetStack {
    fn new(pos: &Position) -> NetStack {
        let net = crate::nnue::built_in();
        let mut stack = Vec::with_capacity(256);
        stack.push(net.accumulate(pos));
        NetStack { net, stack }
    }

    #[inline]
    fn top(&self) -> &Accumulator {
        self.stack
            .last()
            .expect("the root's accumulator is never popped")
    }
}

/// A small table of evaluations by position hash ([`Memo`]). Iterative deepening and the
/// quiescence search value the same positions again and again; the activity evaluation
/// ([`EvalKind::Activity`]) costs a scan of the board, a hit a load.
#[derive(Debug, Clone)]
struct EvalCache {
    /// The evaluation whose values it holds.
    kind: EvalKind,
    values: Memo,
}

impl EvalCache {
    fn new(kind: EvalKind) -> EvalCache {
        // 128 KiB.
        EvalCache {
            kind,
            values: Memo::new(14),
        }
    }

    /// The cached value of the position with `hash`, or `compute`'s (then remembered).
    #[inline]
    fn get_or(&self, hash: u64, compute: impl FnOnce() -> i32) -> i32 {
        self.values.get_or(hash, || compute() as u32) as i32
    }
}

impl SearchPosition {
    /// A position to search under `rules` with `eval`, without repetition rules.
    pub fn new(pos: Position, rules: Rules, eval: EvalKind) -> SearchPosition {
        SearchPosition {
            rules,
            eval,
            line: None,
            root: 0,
            cache: (eval == EvalKind::Activity).then(|| EvalCache::new(eval)),
            net: (eval == EvalKind::Net).then(|| NetStack::new(&pos)),
            exchanges: None,
            pos,
        }
    }

    /// The same with the repetition rulings on, `line` holding the game up to `pos`.
    pub fn with_line(pos: Position, eval: EvalKind, line: GameLine) -> SearchPosition {
        SearchPosition {
            root: line.len() - 1,
            line: Some(line),
            ..SearchPosition::new(pos, Rules::Legal, eval)
        }
    }

    /// Orders and judges captures by their static exchange ([`crate::see`]) or, with `on`
    /// false, by the victim's and the capturer's values alone, as the course searches do.
    pub fn use_static_exchange(&mut self, on: bool) {
        if on != self.exchanges.is_some() {
            self.exchanges = on.then(ExchangeMemo::new);
        }
    }

    /// The course value of the piece on `sq` (0 when it is empty), which orders and judges
    /// captures.
    fn value_at(&self, sq: Square) -> i32 {
        self.pos.at(sq).map_or(0, |p| piece_value(p.kind))
    }
}

/// Chariots count two, horses and cannons one: with less than two, a side can rarely win by
/// itself and zugzwang is common, so the null move is not tried.
fn attacking_material(pos: &Position, side: Color) -> u32 {
    pos.board()
        .iter()
        .flatten()
        .filter(|p| p.color == side)
        .map(|p| match p.kind {
            Kind::Chariot => 2,
            Kind::Horse | Kind::Cannon => 1,
            _ => 0,
        })
        .sum()
}

impl Game for SearchPosition {
    type Move = Move;

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        match self.rules {
            Rules::Legal => legal_moves(&self.pos, moves),
            Rules::Framework => moves.extend(
                framework::moves(&self.pos, self.pos.side())
                    .into_iter()
                    .map(|m| m.mv),
            ),
        }
    }

    fn play(&mut self, mv: Move) {
        if let Some(n) = &mut self.net {
            let next = n.top().after_move(n.net, &self.pos, mv);
            n.stack.push(next);
        }
        let captured = self.pos.at(mv.to).is_some();
        self.pos.make(mv);
        if let Some(line) = &mut self.line {
            line.push(self.pos.hash(), captured);
        }
    }

    fn undo(&mut self, _mv: Move) {
        if let Some(n) = &mut self.net {
            n.stack.pop();
        }
        self.pos.unmake();
        if let Some(line) = &mut self.line {
            line.pop();
        }
    }

    fn outcome(&self) -> Option<Score> {
        let side = self.pos.side();
        if self.pos.king(side).is_none() {
            Some(-WIN)
        } else if self.pos.king(side.opposite()).is_none() {
            Some(WIN)
        } else {
            let line = self.line.as_ref()?;
            line.ruling(self.root, || in_check(&self.pos))
        }
    }

    fn null_move_allowed(&self) -> bool {
        self.rules == Rules::Legal && attacking_material(&self.pos, self.pos.side()) >= 2
    }

    fn play_null(&mut self) {
        self.pos.set_side(self.pos.side().opposite());
        if let Some(line) = &mut self.line {
            line.push_null(&self.pos);
        }
    }

    fn undo_null(&mut self) {
        self.pos.set_side(self.pos.side().opposite());
        if let Some(line) = &mut self.line {
            line.pop();
        }
    }

    fn evaluate(&self) -> Score {
        let v = match (&self.cache, &self.net) {
            (Some(cache), _) if cache.kind == self.eval => {
                cache.get_or(self.pos.hash(), || evaluate(&self.pos, self.eval))
            }
            (_, Some(n)) if self.eval == EvalKind::Net => {
                net_eval(&self.pos, n.net.output(n.top(), self.pos.side()))
            }
            _ => evaluate(&self.pos, self.eval),
        };
        if self.pos.side() == Color::Red {
            v
        } else {
            -v
        }
    }

    fn hash(&self) -> u64 {
        self.pos.hash() ^ (self.rules as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn order_moves(&self, moves: &mut [Move]) {
        if let Some(memo) = &self.exchanges {
            order_by_exchange(&self.pos, memo, moves);
            return;
        }
        // Captures first, sorted by most valuable victim then least valuable attacker; quiet
        // moves keep their generation order. In place, no allocation.
        let captures = captures_first(&self.pos, moves);
        let key = |m: &Move| self.value_at(m.to) * 16 - self.value_at(m.from) / 16;
        for i in 1..captures {
            let k = key(&moves[i]);
            let mut j = i;
            while j > 0 && key(&moves[j - 1]) < k {
                j -= 1;
            }
            moves[j..=i].rotate_right(1);
        }
    }

    fn is_tactical(&self, mv: Move) -> bool {
        self.pos.at(mv.to).is_some()
    }

    fn in_check(&self) -> bool {
        match &self.line {
            Some(line) => line.in_check(&self.pos),
            None => self.rules == Rules::Legal && in_check(&self.pos),
        }
    }

    fn generate_tactical(&self, moves: &mut Vec<Move>) {
        if self.rules == Rules::Legal {
            legal_captures(&self.pos, moves);
        }
    }

    /// A piece taking a less valuable one on a square the opponent attacks (after the capture):
    /// the exchange most likely loses the difference.
    fn losing_capture(&self, mv: Move) -> bool {
        if let Some(memo) = &self.exchanges {
            return memo.material_lost(&self.pos, mv) > 0;
        }
        self.value_at(mv.from) > self.value_at(mv.to) && lands_attacked(&self.pos, mv)
    }

    fn history_index(&self, mv: Move) -> Option<usize> {
        Some(mv.from.index() * 90 + mv.to.index())
    }

    fn continuation_index(&self, mv: Move) -> Option<usize> {
        let p = self.pos.at(mv.from)?;
        Some(((p.color as usize) * 7 + p.kind as usize) * 90 + mv.to.index())
    }
}

/// The selective search's capture order: captures that do not lose material by their static
/// exchange first (by victim, then by least valuable attacker), then the quiet moves in their
/// order, then the losing captures, the least losing first. In place, no allocation.
fn order_by_exchange(pos: &Position, memo: &ExchangeMemo, moves: &mut [Move]) {
    let captures = captures_first(pos, moves);
    // Keys of the captures: good ones above every losing one.
    let value = |sq: Square| pos.at(sq).map_or(0, |p| crate::see::exchange_value(p.kind));
    let key = |m: &Move| match memo.material_lost(pos, *m) {
        0 => (1, value(m.to) * 16 - value(m.from) / 16),
        lost => (0, -lost),
    };
    let mut keys = [(0i32, 0i32); 64];
    let n = captures.min(keys.len());
    for (k, m) in keys.iter_mut().zip(&moves[..n]) {
        *k = key(m);
    }
    search_core::sort_descending_by_keys(&mut moves[..n], &mut keys[..n]);
    let good = keys[..n].iter().filter(|k| k.0 == 1).count();
    // The losing captures go behind the quiet moves.
    moves[good..].rotate_left(n - good);
}

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
    /// Captures ordered and judged by their static exchange ([`crate::see`]): those that lose
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
    /// [`SearchPosition::use_static_exchange`]).
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
    /// selective search ([`think`]).
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

/// The chosen move and how it was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The move (`None` only when red has no legal move at all).
    pub mv: Option<Move>,
    /// Score for the side to move.
    pub score: Score,
    /// Principal variation.
    pub pv: Vec<Move>,
    /// Mate in this many moves of the side to move, when the score is a forced win.
    pub mate_in: Option<u32>,
    /// Why the game is already over, when it is.
    pub game_over: Option<String>,
    /// Search work.
    pub stats: GameStats,
}

/// Picks a move for the side to move.
///
/// ```
/// use xiangqi_endgame::{engine::{decide, SearchConfig}, Position};
/// // The chariot on e1 goes to e8: the black king on d9 has no square left (d8 is covered by
/// // the chariot, e9 by the chariot and the facing red king's file is closed by it).
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// let d = decide(&p, &SearchConfig::default(), |_| {});
/// assert_eq!(d.mate_in, Some(1));
/// assert_eq!(d.mv.unwrap().to_string(), "e1e8");
/// ```
pub fn decide(
    pos: &Position,
    config: &SearchConfig,
    on_iteration: impl FnMut(&GameResult<Move>),
) -> Decision {
    let mut game = SearchPosition::new(pos.clone(), config.rules, config.eval);
    if !config.prune {
        let timer = Instant::now();
        if let Some(over) = game_over_decision(&mut game, timer) {
            return over;
        }
        return decision(minimax(&mut game, config.depth), timer);
    }
    let mut searcher = Searcher::new(config.tt_megabytes);
    searcher.options = config.search_options();
    think(
        &mut game,
        &mut searcher,
        config,
        &config.iterative_options(),
        on_iteration,
    )
}

/// A decided `score` in moves, as UCI reports it: mate in N moves of the side to move
/// (positive) or mated in N (negative); `None` when the score is not decided.
///
/// ```
/// use xiangqi_endgame::engine::mate_moves;
/// use search_core::WIN;
/// assert_eq!((mate_moves(WIN - 3), mate_moves(-(WIN - 4)), mate_moves(120)), (Some(2), Some(-2), None));
/// ```
pub fn mate_moves(score: Score) -> Option<i32> {
    mate_distance(score).map(|plies| {
        if score > 0 {
            plies.div_ceil(2) as i32
        } else {
            -((plies / 2) as i32)
        }
    })
}

/// The engine's own play ([`SearchConfig::engine`]) on `pos`, reached by the game `line`,
/// thinking at most `time` with a fresh table; `stop`, when set, ends the search early (the
/// best move so far is played). `on_iteration` sees every finished iteration.
///
/// ```
/// use xiangqi_endgame::{engine::own_move, repetition::GameLine, Position};
/// use std::time::Duration;
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// let d = own_move(&p, GameLine::new(&p), Duration::from_millis(200), None, |_| {});
/// assert_eq!(d.mate_in, Some(1));
/// ```
pub fn own_move(
    pos: &Position,
    line: GameLine,
    time: Duration,
    stop: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    on_iteration: impl FnMut(&GameResult<Move>),
) -> Decision {
    let config = SearchConfig {
        time: Some(time),
        ..SearchConfig::engine()
    };
    let mut game = SearchPosition::with_line(pos.clone(), config.eval, line);
    let mut searcher = Searcher::new(config.tt_megabytes);
    searcher.options = config.search_options();
    searcher.set_stop_signal(stop);
    think(
        &mut game,
        &mut searcher,
        &config,
        &config.iterative_options(),
        on_iteration,
    )
}

/// The longest mate by checks the engine looks for before its search, in plies.
pub const MATE_BY_CHECKS_PLIES: u32 = 63;
/// The share of the time (or node budget) the mate-by-checks step may spend.
const MATE_BY_CHECKS_SHARE: u32 = 4;
/// Nodes a proof-number step may spend when the search has no clock (`go depth`, `go
/// infinite`): about a second.
const PROOF_NODES_WITHOUT_CLOCK: u64 = 300_000;

/// Iterative deepening on `game` with a searcher that may live across moves (its table, killers
/// and history carry over, as a UCI engine's do), under `options`' budgets. With the
/// selective search ([`SearchConfig::selective`]) it first asks the proof-number search for a
/// mate by checks in a quarter of the time (the forcing lines of classic problems, too long
/// for the alpha-beta horizon), and after a mate is found, for a shorter one.
///
/// Under the standard rules the search uses legal moves (no legal move = loss, checks extended,
/// captures resolved by quiescence), scores decided games by distance so the shortest mate wins,
/// orders captures by victim value then attacker (MVV/LVA) before the table move, killers and
/// history do the rest. Under the framework rules it uses the framework's pseudo-legal moves and
/// ends the game when a king is captured, as the course code does. The default search is
/// iterative deepening with a transposition table under a depth and time limit; `--no-prune`
/// runs plain minimax to a fixed depth for the assignment's comparison. The engine's own play
/// (UCI, `best`) adds the selective search of `search-core` (principal variation, null move
/// with a material guard, late-move reductions, futility, aspiration windows, a quiescence
/// search without losing captures, a history malus), a proof-number
/// search for a mate by checks before it and for a shorter mate after it ([`crate::proof`]),
/// and the repetition rulings of [`crate::repetition`]; the course's `run` keeps the
/// full-width search and rules its answers were made with.
pub fn think(
    game: &mut SearchPosition,
    searcher: &mut Searcher<SearchPosition>,
    config: &SearchConfig,
    options: &IterativeOptions,
    on_iteration: impl FnMut(&GameResult<Move>),
) -> Decision {
    let timer = Instant::now();
    game.use_static_exchange(config.exchanges());
    if let Some(over) = game_over_decision(game, timer) {
        return over;
    }
    let mut on_iteration = on_iteration;
    let by_checks = if config.mate_by_checks() {
        mate_by_checks(game, searcher, options)
    } else {
        None
    };
    let mut result = match by_checks {
        Some(found) => {
            on_iteration(&found);
            found
        }
        None => iterative_deepening(game, searcher, options, &mut on_iteration),
    };
    if !searcher.options.is_exact() {
        if let Some(shorter) = shorter_mate(game, searcher, &result, options) {
            on_iteration(&shorter);
            result = shorter;
        }
    }
    decision(result, timer)
}

/// A prover for a proof-number step of the search run by `searcher` under `options`, given a
/// `share` of its budget: that share of the time left (to the soft deadline when there is one)
/// and of the node budget, with neither a fixed number of nodes; it stops on the searcher's
/// stop signal.
fn step_prover(
    searcher: &Searcher<SearchPosition>,
    options: &IterativeOptions,
    share: u32,
) -> crate::proof::MateProver {
    let left = [options.deadline, options.soft_deadline]
        .iter()
        .filter_map(Deadline::remaining)
        .min();
    let deadline = left.map_or(Deadline::none(), |l| Deadline::after(l / share));
    let nodes = match (options.node_limit, left) {
        (Some(n), _) => Some(n / share as u64),
        (None, None) => Some(PROOF_NODES_WITHOUT_CLOCK),
        (None, Some(_)) => None,
    };
    crate::proof::MateProver::new(4, deadline, nodes).with_stop_signal(searcher.stop_signal())
}

/// A forced mate by checks of at most [`MATE_BY_CHECKS_PLIES`] plies, the shortest such, with
/// its line, by proof-number search ([`crate::proof::MateProver::by_checks`]) in a quarter of
/// the budget; `None` when there is none or the budget ran out first.
fn mate_by_checks(
    game: &SearchPosition,
    searcher: &Searcher<SearchPosition>,
    options: &IterativeOptions,
) -> Option<GameResult<Move>> {
    let started = Instant::now();
    let mut prover = step_prover(searcher, options, MATE_BY_CHECKS_SHARE).by_checks();
    let plies = prover.distance(&game.pos, MATE_BY_CHECKS_PLIES).ok()??;
    let line = prover.mating_line(&game.pos, plies);
    Some(GameResult {
        score: mate_in(WIN, plies),
        best: Some(*line.first()?),
        pv: line,
        stats: GameStats {
            nodes: prover.nodes(),
            depth: plies,
            elapsed: started.elapsed(),
            ..Default::default()
        },
    })
}

/// A shorter mate than the one found (a selective search's pruning may skip the quickest
/// one, a mate by checks may not be the quickest), by proof-number search ([`crate::proof`])
/// in what is left of the budget: "a mate within 1, 3, ... plies?" up to two plies less than
/// the one found. Its work is added to the search's.
fn shorter_mate(
    game: &SearchPosition,
    searcher: &Searcher<SearchPosition>,
    found: &GameResult<Move>,
    options: &IterativeOptions,
) -> Option<GameResult<Move>> {
    let plies = mate_distance(found.score).filter(|_| found.score > 0)?;
    if plies < 3 || options.deadline.expired() {
        return None;
    }
    let started = Instant::now();
    let mut prover = step_prover(searcher, options, 1);
    let shorter = prover.distance(&game.pos, plies - 2).ok()??;
    let best = prover.mating_move(&game.pos, shorter)?;
    Some(GameResult {
        score: mate_in(WIN, shorter),
        best: Some(best),
        pv: vec![best],
        stats: GameStats {
            nodes: found.stats.nodes + prover.nodes(),
            elapsed: found.stats.elapsed + started.elapsed(),
            ..found.stats
        },
    })
}

fn decision(result: GameResult<Move>, timer: Instant) -> Decision {
    let mate_in = mate_distance(result.score)
        .filter(|_| result.score > 0)
        .map(|plies| plies.div_ceil(2));
    let mut stats = result.stats;
    stats.elapsed = timer.elapsed();
    Decision {
        mv: result.best,
        score: result.score,
        pv: result.pv,
        mate_in,
        game_over: None,
        stats,
    }
}

/// When a king is already gone: still answer with a legal move so that an output file exists.
fn game_over_decision(game: &mut SearchPosition, timer: Instant) -> Option<Decision> {
    let over = game_over(&game.pos, game.pos.side())?;
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    game.order_moves(&mut moves);
    Some(Decision {
        mv: moves.first().copied(),
        score: 0,
        pv: moves.first().copied().into_iter().collect(),
        mate_in: None,
        game_over: Some(over),
        stats: GameStats {
            elapsed: timer.elapsed(),
            ..Default::default()
        },
    })
}

/// Fixed-depth search with or without pruning (plain `search-core` alphabeta / minimax, no
/// table, no extensions), for the assignment's comparison table.
pub fn fixed_depth(
    pos: &Position,
    depth: u32,
    prune: bool,
    rules: Rules,
    eval: EvalKind,
) -> GameResult<Move> {
    let mut game = SearchPosition::new(pos.clone(), rules, eval);
    if prune {
        alphabeta(&mut game, depth)
    } else {
        minimax(&mut game, depth)
    }
}

fn game_over(pos: &Position, side: Color) -> Option<String> {
    let name = |c: Color| if c == Color::Red { "red" } else { "black" };
    if pos.king(side).is_none() {
        Some(format!("{} has no king: the game is over", name(side)))
    } else if pos.king(side.opposite()).is_none() {
        Some(format!(
            "{} has no king: {} has won",
            name(side.opposite()),
            name(side)
        ))
    } else {
        None
    }
}

pub use crate::proof::MateSearch;

/// The shortest forced mate for the side to move of at most `max_plies` plies, by
/// full-width iterative deepening (no selective pruning, so "no mate" is a proof): a mate of
/// `p` plies shows at depth `p + 1`, when the mated side's missing move is seen.
///
/// ```
/// use xiangqi_endgame::{engine::{find_mate, MateSearch}, Position};
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// match find_mate(&p, 5, None) {
///     MateSearch::Mate { moves, line, .. } => {
///         assert_eq!(moves, 1);
///         assert_eq!(line[0].to_string(), "e1e8");
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn find_mate(pos: &Position, max_plies: u32, time: Option<Duration>) -> MateSearch {
    find_mate_within(pos, max_plies, time, None)
}

/// [`find_mate`] under a node budget as well (`None`: none): a budget makes the answer the same
/// on every machine, as problem generators need.
pub fn find_mate_within(
    pos: &Position,
    max_plies: u32,
    time: Option<Duration>,
    nodes: Option<u64>,
) -> MateSearch {
    let mut game = SearchPosition::new(pos.clone(), Rules::Legal, EvalKind::Course);
    let mut searcher = mate_searcher(16);
    let options = IterativeOptions {
        max_depth: max_plies + 1,
        deadline: time.map_or(Deadline::none(), Deadline::after),
        node_limit: nodes,
        ..Default::default()
    };
    let mut completed = 0;
    let r = iterative_deepening(&mut game, &mut searcher, &options, |r| {
        completed = r.stats.depth
    });
    let nodes = r.stats.nodes;
    match mate_distance(r.score).filter(|_| r.score > 0) {
        Some(plies) if plies <= max_plies => MateSearch::Mate {
            moves: plies.div_ceil(2),
            line: mating_line(&mut game, &mut searcher, plies),
            nodes,
        },
        // Searched deep enough, or proven lost (or without a move): no mate to find.
        _ if completed > max_plies
            || r.score < 0 && mate_distance(r.score).is_some()
            || r.best.is_none() =>
        {
            MateSearch::NoMate {
                plies: max_plies,
                nodes,
            }
        }
        _ => MateSearch::Unknown {
            plies: completed.saturating_sub(1),
            nodes,
        },
    }
}

/// A searcher for exact mate searches: full width (no pruning that could skip a mate, so "no
/// mate" is a proof), with mate-distance pruning, a table of `megabytes` MiB.
fn mate_searcher(megabytes: usize) -> Searcher<SearchPosition> {
    let mut searcher = Searcher::new(megabytes);
    searcher.options = SearchOptions {
        mate_distance_pruning: true,
        ..SearchOptions::default()
    };
    searcher
}

/// The whole line of a mate of `plies` plies from `game`: the principal variation stops where
/// the table answered, so each move is asked of a search of the remaining length (the
/// defender's is the longest resistance), with the table the proof left.
fn mating_line(
    game: &mut SearchPosition,
    searcher: &mut Searcher<SearchPosition>,
    plies: u32,
) -> Vec<Move> {
    let mut line = Vec::new();
    for left in (1..=plies).rev() {
        let options = IterativeOptions {
            max_depth: left + 1,
            ..Default::default()
        };
        let Some(mv) = iterative_deepening(game, searcher, &options, |_| {}).best else {
            break;
        };
        game.play(mv);
        line.push(mv);
    }
    for &mv in line.iter().rev() {
        game.undo(mv);
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_cached_and_updated_evaluations_return_what_the_evaluation_does() {
        for kind in [EvalKind::Activity, EvalKind::Net] {
            let mut rng = search_core::SmallRng::seed_from_u64(9);
            let mut moves = Vec::new();
            let start: Position = crate::fen::START_FEN.parse().unwrap();
            let mut game = SearchPosition::new(start, Rules::Legal, kind);
            assert!(game.cache.is_some() || game.net.is_some());
            for _ in 0..20 {
                // Back to the start by undoing, so that undo is checked as well as play.
                while game.pos.ply() > 0 {
                    game.undo(game.pos.last_move().unwrap());
                }
                for _ in 0..100 {
                    let direct = evaluate(&game.pos, kind);
                    let side = if game.pos.side() == Color::Red { 1 } else { -1 };
                    // Twice: a miss that fills the cache's entry, then a hit.
                    assert_eq!(game.evaluate(), side * direct, "{}", game.pos);
                    assert_eq!(game.evaluate(), side * direct, "{}", game.pos);
                    moves.clear();
                    game.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    game.play(moves[rng.random_range(0..moves.len())]);
                }
            }
            // Another evaluation set afterwards is not served from the cache or the network.
            game.eval = EvalKind::Course;
            let side = if game.pos.side() == Color::Red { 1 } else { -1 };
            assert_eq!(game.evaluate(), side * game.pos.material());
        }
    }

    #[test]
    fn the_exchange_order_puts_losing_captures_after_the_quiet_moves() {
        // The chariot on d0 can take the pawn on d7, which the advisor defends, and the
        // chariot on a0 the pawn on a3, which nothing defends.
        let p: Position = "4k4/4a4/3p5/9/9/9/p8/9/9/R2RK4 w".parse().unwrap();
        let mut game = SearchPosition::new(p, Rules::Legal, EvalKind::Course);
        game.use_static_exchange(true);
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        game.order_moves(&mut moves);
        let (good, losing): (Move, Move) = ("a0a3".parse().unwrap(), "d0d7".parse().unwrap());
        assert_eq!(moves[0], good, "{moves:?}");
        assert_eq!(*moves.last().unwrap(), losing, "{moves:?}");
        assert!(game.losing_capture(losing) && !game.losing_capture(good));
        // Without it, both captures of a pawn come before every quiet move.
        game.use_static_exchange(false);
        game.order_moves(&mut moves);
        assert!(
            moves[..2].contains(&good) && moves[..2].contains(&losing),
            "{moves:?}"
        );
    }
}
