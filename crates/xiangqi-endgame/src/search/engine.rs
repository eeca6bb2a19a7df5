//! Choosing a move: the search drivers over [`SearchPosition`] under a [`SearchConfig`]: a move within a time or depth,
//! with the mate-by-checks proof beside it, fixed-depth course searches, and mate finding.

use crate::board::piece::Color;
use crate::board::square::Move;
use crate::eval::EvalKind;
use crate::rules::position::Position;
use crate::rules::repetition::GameLine;
use crate::search::config::SearchConfig;
use crate::search::search_position::{Rules, SearchPosition};
use search_core::{
    alphabeta, iterative_deepening, mate_distance, mate_in, minimax, Deadline, Game, GameResult,
    GameStats, IterativeOptions, Score, SearchOptions, Searcher, WIN,
};
use std::time::{Duration, Instant};

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
/// search for a mate by checks before it and for a shorter mate after it ([`crate::search::proof`]),
/// and the repetition rulings of [`crate::rules::repetition`]; the course's `run` keeps the
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
) -> crate::search::proof::MateProver {
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
    crate::search::proof::MateProver::new(4, deadline, nodes)
        .with_stop_signal(searcher.stop_signal())
}

/// A forced mate by checks of at most [`MATE_BY_CHECKS_PLIES`] plies, the shortest such, with
/// its line, by proof-number search ([`crate::search::proof::MateProver::by_checks`]) in a quarter of
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
/// one, a mate by checks may not be the quickest), by proof-number search ([`crate::search::proof`])
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

pub use crate::search::proof::MateSearch;

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
