//! The NBoard engine's thinking, apart from the protocol that asks for it: iterative-deepening
//! principal-variation search to the `set depth` depth with the learned pattern evaluation
//! ([`crate::eval::pattern`]), a selective win-draw-loss search just before the solves
//! ([`selective_wld_empties`]), a win-draw-loss solve once few squares are empty
//! ([`solve_empties`]), an exact one once fewer are ([`exact_empties`]), each move within its
//! [`MoveBudget`] (`set timelimit`, the GGF clock). EVAL is in discs ([`Analysis::eval`]).

use crate::eval::pattern::game::PatternGame;
use crate::rules::position::{Move, Position};
use crate::search::endgame::{
    solve_until, solve_wld_until, table_megabytes, EndgameSearcher, Solution,
};
use search_core::{
    iterative_deepening, Deadline, IterationKind, IterativeOptions, ProbCut, SearchOptions,
    Searcher, INF,
};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

/// The name the engine gives the GUI (`set myname`).
pub const ENGINE_NAME: &str = "othello-rs";

/// The midgame depth until the GUI sets one.
pub const DEFAULT_DEPTH: u32 = 10;

/// The most seconds a move may take until the GUI sets another limit (`set timelimit`): past
/// it the search stops and the best move found so far is played.
pub const DEFAULT_TIME_LIMIT: f64 = 10.0;

/// Seconds before the move time limit at which the search stops, so that the answer is out
/// within the limit (at most a tenth of the limit).
pub const LIMIT_RESERVE: f64 = 0.05;

/// How long the engine may think about one move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct MoveBudget {
    /// When the move was asked for.
    pub start: Instant,
    /// No new iteration of the midgame search starts after this.
    pub soft: Deadline,
    /// The search stops here and the best move found so far is played.
    pub hard: Deadline,
}

impl MoveBudget {
    /// No limit: every search runs to its depth.
    pub fn unlimited() -> MoveBudget {
        MoveBudget {
            start: Instant::now(),
            soft: Deadline::none(),
            hard: Deadline::none(),
        }
    }

    /// The budget of a move asked for at `start` with `empties` squares empty: at most `limit`
    /// seconds (none when 0; the search stops [`LIMIT_RESERVE`] before it), and with a game
    /// clock `time_left` seconds on the mover's clock shared out over the mover's moves still
    /// to come: a soft target of the time left over those moves, a hard stop at three targets
    /// or half the time left, whichever is less, and a reserve of a tenth of the time left (at
    /// most 0.3 s) for answering.
    ///
    /// ```
    /// use othello::nboard::MoveBudget;
    /// use std::time::Instant;
    /// let start = Instant::now();
    /// let after = |d: search_core::Deadline| d.instant().map(|t| (t - start).as_secs_f64());
    /// let b = MoveBudget::new(start, 10.0, Some(31.0), 40); // 20 moves to come
    /// assert!((after(b.soft).unwrap() - 30.7 / 20.0).abs() < 1e-6);
    /// assert!((after(b.hard).unwrap() - 3.0 * 30.7 / 20.0).abs() < 1e-6);
    /// let b = MoveBudget::new(start, 10.0, None, 40);
    /// assert_eq!(after(b.soft), None);
    /// assert!((after(b.hard).unwrap() - (10.0 - 0.05)).abs() < 1e-6);
    /// ```
    pub fn new(start: Instant, limit: f64, time_left: Option<f64>, empties: u32) -> MoveBudget {
        let seconds = |s: f64| Deadline::at(start + std::time::Duration::from_secs_f64(s.max(0.0)));
        // The search stops a little before the limit, so that the answer is out by then.
        let limit = (limit > 0.0).then(|| limit - (limit / 10.0).min(LIMIT_RESERVE));
        let Some(left) = time_left else {
            return MoveBudget {
                start,
                soft: Deadline::none(),
                hard: limit.map_or(Deadline::none(), seconds),
            };
        };
        let usable = left - (left / 10.0).min(0.3);
        let moves_to_come = f64::from(empties.div_ceil(2).max(1));
        let target = usable / moves_to_come;
        let hard = (3.0 * target).min(usable / 2.0).max(target.min(usable));
        let hard = limit.map_or(hard, |l| hard.min(l));
        MoveBudget {
            start,
            soft: seconds(target.min(hard)),
            hard: seconds(hard),
        }
    }

    /// Seconds from the start to the hard stop (`None` without one).
    fn hard_seconds(&self) -> Option<f64> {
        let end = self.hard.instant()?;
        Some(end.saturating_duration_since(self.start).as_secs_f64())
    }
}

/// At `depth`, positions with at most this many empty squares are solved: ten more than the
/// midgame depth, at most 20. `go` works out their result (win, draw or loss) alone down to
/// [`exact_empties`] and the exact disc difference below; `hint` the exact value of each move.
/// Against NTest at depth 8 (600 games), solving from 16, 17 and 18 empties scored 52.3%,
/// 54.9% and 56.9% for 0.64, 0.70 and 0.82 times NTest's thinking time; at depth 12 a
/// solve from 21 cost 1.12 times NTest's time for 51.8% (400 games) against 50.5% from 20.
///
/// ```
/// assert_eq!(othello::nboard::solve_empties(4), 14);
/// assert_eq!(othello::nboard::solve_empties(30), 20);
/// ```
pub fn solve_empties(depth: u32) -> u32 {
    depth.saturating_add(10).min(MAX_SOLVE_EMPTIES)
}

/// At `depth`, the engine's moves come from an exact solve with at most this many empty
/// squares: four more than the midgame depth, at most 16. Up to [`solve_empties`] the
/// result alone is worked out, several times cheaper, and all a game's result needs.
///
/// ```
/// assert_eq!(othello::nboard::exact_empties(4), 8);
/// assert_eq!(othello::nboard::exact_empties(30), 16);
/// ```
pub fn exact_empties(depth: u32) -> u32 {
    depth.saturating_add(4).min(MAX_EXACT_EMPTIES)
}

/// At `depth`, positions with more empty squares than [`solve_empties`] but at most this
/// many get a selective win-draw-loss search after the midgame search: the midgame search,
/// Multi-ProbCut and all, to the end of the game in a null window around a draw
/// ([`SELECTIVE_WLD_EMPTIES_ABOVE`] more than the solve).
///
/// ```
/// assert_eq!(othello::nboard::selective_wld_empties(12), 22);
/// assert_eq!(othello::nboard::selective_wld_empties(8), 20);
/// ```
pub fn selective_wld_empties(depth: u32) -> u32 {
    solve_empties(depth) + SELECTIVE_WLD_EMPTIES_ABOVE
}

/// How far above [`solve_empties`] the selective win-draw-loss search reaches. Against NTest
/// at `set depth 12`, from balanced positions with 22 empties (400 games), the engine scored
/// 47.8% with its 12-ply midgame search there, 49.9% with this search, 52.4% with a full
/// window to the end at 3.8 times NTest's time; from 8-ply openings (800 games) 45.6% → 47.4%
/// (docs/othello-engine.md).
pub const SELECTIVE_WLD_EMPTIES_ABOVE: u32 = 2;

/// The most empty squares at which the engine's moves come from an exact solve.
pub const MAX_EXACT_EMPTIES: u32 = 16;

/// The most empty squares at which the engine starts an exact solve.
pub const MAX_SOLVE_EMPTIES: u32 = 20;

/// Seconds an exact solve of a position with `empties` empty squares is expected to take on
/// one core: about 0.1 s at 16 empties, each further empty square multiplying it by 1.5.
pub fn expected_solve_seconds(empties: u32) -> f64 {
    0.1 * 1.5f64.powi(empties as i32 - 16)
}

/// What the engine thinks of one move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Analysis {
    /// The move.
    pub mv: Move,
    /// Its value for the side to move in discs: exact when `exact`; after a win-draw-loss
    /// solve (depth the number of empties, not `exact`) a bound of the result's sign
    /// (positive a win by at least that, 0 a draw, negative a loss by at least that), the
    /// same from the selective one ([`selective_wld_empties`]) but found selectively; the
    /// pattern evaluation's estimate otherwise.
    pub eval: f64,
    /// Whether `eval` is the proven final disc difference.
    pub exact: bool,
    /// Depth searched (plies; the number of empties for a solve).
    pub depth: u32,
    /// Nodes searched for it.
    pub nodes: u64,
}

impl Analysis {
    /// The forced pass, valued by the opponent's best answer after it (`reply`), seen from the
    /// side that passes.
    fn pass(reply: Analysis) -> Analysis {
        Analysis {
            mv: Move::Pass,
            eval: -reply.eval,
            ..reply
        }
    }
}

/// The options of the engine's midgame search. Measured on the positions of depth-12 games
/// against NTest (22 positions with 21 to 56 empties): plain alpha-beta 115 M nodes, 87.7 s;
/// principal-variation search 88 M, 62.7 s; with enhanced transposition cut-offs 85 M, 57.9 s;
/// with internal iterative reduction as well 52 M, 35.6 s, and 10-10 at equal depth in 20 games
/// against the search without it. The moves keep the game's fewest-replies-first order: killer
/// moves and the history heuristic, which reorder them, cost 43% more positions at depth 11
/// (docs/othello-engine.md). The horizon's positions skip the table (a probe there is a cache
/// miss that costs more than the evaluation it saves): 25% less time at depth 10 for 0.5%
/// more positions. This is the full-width search; the engine adds Multi-ProbCut
/// ([`engine_options`]).
pub fn midgame_options() -> SearchOptions {
    SearchOptions {
        pvs: true,
        etc_min_depth: Some(4),
        internal_reduction_depth: Some(6),
        killers: false,
        history: false,
        tt_min_depth: 1,
        prefetch_children: true,
        ..SearchOptions::default()
    }
}

/// The engine's Multi-ProbCut confidence by default, in hundredths of a standard deviation
/// of the fitted error ([`crate::eval::probcut`]).
pub const DEFAULT_PROBCUT_CONFIDENCE: i32 = 130;

/// [`midgame_options`] with Multi-ProbCut at `confidence` hundredths of a standard deviation
/// of the shallow search's fitted error (`None`: the full-width search), from 2 plies left
/// (there against the static value), one test a node on the side its static value lies
/// ([`ProbCut::one_side_by_evaluation`]). From 2 plies instead of 3, on 100 positions of
/// depth-12 games: 5.81 → 4.39 M positions, about a quarter less time, and the same strength
/// in games against NTest (docs/othello-engine.md).
pub fn engine_options(confidence: Option<i32>) -> SearchOptions {
    SearchOptions {
        probcut: confidence.map(|t| ProbCut {
            min_depth: 2,
            margin: 400,
            confidence: Some(t),
            one_side_by_evaluation: true,
        }),
        ..midgame_options()
    }
}

/// Nodes fewer plies than this above the horizon (those one ply above it) order their moves
/// by square alone (see [`PatternGame::with_cheap_order_below`]): there the fastest-first
/// order's reply counts cost as much as the evaluations they would spare.
pub const CHEAP_ORDER_BELOW: i32 = 2;

/// The position as the engine's midgame search sees it: the learned evaluation, moves
/// fastest-first, by square near the horizon ([`CHEAP_ORDER_BELOW`]) and by evaluation far
/// from it ([`EVALUATION_ORDER_FROM`]).
pub fn engine_game(p: Position) -> PatternGame<'static> {
    PatternGame::new(p, crate::eval::pattern::evaluator())
        .fastest_first()
        .with_cheap_order_below(CHEAP_ORDER_BELOW)
        .with_evaluation_order_from(EVALUATION_ORDER_FROM)
}

/// Nodes this many plies or more above the horizon order their moves by the evaluation (see
/// [`PatternGame::with_evaluation_order_from`]). On 100 positions of depth-12 games against
/// NTest, the midgame searches visit 7.67 M positions with fastest-first order alone; 6.72 M
/// from 3 plies and 6.77 M from 4 (10% less time; 3 saves no more); without the replies in
/// the key 6.34 M from 2 plies, no faster (the evaluations cost what they spare).
pub const EVALUATION_ORDER_FROM: i32 = 4;

/// The searches behind `go` and `hint`, with their tables, stopped by `stop`.
pub struct Thinker {
    midgame: Searcher<PatternGame<'static>>,
    /// The exact solver's searcher, kept from move to move: the position after two more
    /// moves lies inside the last solve's tree, so its table answers most of the next one.
    /// Made with the thinker (sized for the deepest solve the engine starts, 20 empties), so
    /// that clearing its table is not part of the first solve's time.
    endgame: EndgameSearcher,
    stop: Arc<AtomicBool>,
}

impl Thinker {
    /// A thinker that stops whenever `stop` is set, with Multi-ProbCut at the default
    /// confidence.
    pub fn new(stop: Arc<AtomicBool>) -> Thinker {
        Thinker::with_probcut(stop, Some(DEFAULT_PROBCUT_CONFIDENCE))
    }

    /// A thinker that stops whenever `stop` is set, with Multi-ProbCut at `confidence`
    /// hundredths of a standard deviation (`None`: the full-width search).
    pub fn with_probcut(stop: Arc<AtomicBool>, confidence: Option<i32>) -> Thinker {
        // The evaluation's tables and the Multi-ProbCut model are made with the thinker, as
        // its tables are, not in its first move's time (about 10 ms of it).
        crate::eval::pattern::evaluator();
        crate::eval::probcut::model();
        let mut midgame = Searcher::new(32);
        midgame.set_stop_signal(Some(stop.clone()));
        midgame.options = engine_options(confidence);
        let mut endgame = crate::search::endgame::searcher(table_megabytes(MAX_SOLVE_EMPTIES));
        endgame.set_stop_signal(Some(stop.clone()));
        Thinker {
            midgame,
            endgame,
            stop,
        }
    }

    fn exact(&mut self, p: &Position, deadline: Deadline) -> Option<Solution> {
        self.endgame.set_deadline(deadline);
        solve_until(p, &mut self.endgame)
    }

    fn win_draw_loss(&mut self, p: &Position, deadline: Deadline) -> Option<Solution> {
        self.endgame.set_deadline(deadline);
        solve_wld_until(p, &mut self.endgame)
    }

    /// The selective win-draw-loss search ([`selective_wld_empties`]): a move that wins or
    /// draws by the midgame search to the end in a null window around a draw, ordered by the
    /// midgame search just done (its table). `None` when it finds the position lost (the
    /// midgame search's move then stands, as the better try), or when the budget's soft
    /// deadline has passed or its hard one cuts the search short.
    fn selective_win_or_draw(&mut self, p: &Position, budget: &MoveBudget) -> Option<Analysis> {
        if budget.soft.expired() {
            return None;
        }
        let mut game = engine_game(*p);
        self.midgame.set_deadline(budget.hard);
        // Its nodes add to the midgame search's: the answer's count is both.
        // Values are in hundredths of a disc: inside (-1, 1) only an exact draw.
        let value = self.midgame.search_root(&mut game, p.empties(), -1, 1);
        self.midgame.set_deadline(Deadline::none());
        if self.midgame.aborted() || value < 0 {
            return None;
        }
        Some(Analysis {
            mv: self.midgame.best_move()?,
            eval: f64::from(value) / 100.0,
            exact: false,
            depth: p.empties(),
            nodes: self.midgame.stats.nodes,
        })
    }

    fn midgame(
        &mut self,
        p: &Position,
        depth: u32,
        budget: &MoveBudget,
    ) -> (i32, Option<Move>, u32, u64) {
        let mut game = engine_game(*p);
        let opts = IterativeOptions {
            max_depth: depth.max(1),
            deadline: budget.hard,
            soft_deadline: budget.soft,
            kind: IterationKind::AlphaBeta,
            ..Default::default()
        };
        let r = iterative_deepening(&mut game, &mut self.midgame, &opts, |_| {});
        (r.score, r.best, r.stats.depth, r.stats.nodes)
    }

    /// The move to play at `p` with midgame depth `depth` within `budget` (`None` when the
    /// game is over; a pass when the side to move has no move). Near the end the position is
    /// solved, for its result alone ([`solve_empties`]) and then exactly ([`exact_empties`]),
    /// when the solve is expected to take at most half the budget's hard limit, and given
    /// three quarters of it; past that, or when the solve is cut short, the midgame search
    /// answers. A stopped search gives the best move of its last finished iteration.
    pub fn best(&mut self, p: &Position, depth: u32, budget: &MoveBudget) -> Option<Analysis> {
        if p.game_over() {
            return None;
        }
        if p.moves() == 0 {
            return self
                .best(&p.play(Move::Pass), depth, budget)
                .map(Analysis::pass);
        }
        let hard = budget.hard_seconds();
        let fits = hard.is_none_or(|h| expected_solve_seconds(p.empties()) <= h / 2.0);
        if p.empties() <= solve_empties(depth) && fits {
            let deadline = hard.map_or(Deadline::none(), |h| {
                Deadline::at(budget.start + std::time::Duration::from_secs_f64(0.75 * h))
            });
            let exact = p.empties() <= exact_empties(depth);
            let solution = if exact {
                self.exact(p, deadline)
            } else {
                self.win_draw_loss(p, deadline)
            };
            if let Some(Solution {
                score,
                best: Some(mv),
                nodes,
            }) = solution
            {
                return Some(Analysis {
                    mv,
                    eval: f64::from(score),
                    exact,
                    depth: p.empties(),
                    nodes,
                });
            }
        }
        let (score, best, reached, nodes) = self.midgame(p, depth, budget);
        if p.empties() > solve_empties(depth) && p.empties() <= selective_wld_empties(depth) {
            if let Some(win_or_draw) = self.selective_win_or_draw(p, budget) {
                return Some(win_or_draw);
            }
        }
        let first = Move::Square(p.moves().trailing_zeros() as u8);
        Some(Analysis {
            mv: best.unwrap_or(first),
            eval: f64::from(score) / 100.0,
            exact: false,
            depth: reached,
            nodes,
        })
    }

    /// Every move at `p` valued by a search of the position after it, deepening from 1 to
    /// `depth` (or solved exactly near the end); `on_depth` gets the moves best first after
    /// each depth. Stops early when `stop` is set.
    pub fn hint(&mut self, p: &Position, depth: u32, mut on_depth: impl FnMut(&[Analysis])) {
        if p.moves() == 0 {
            if let Some(reply) = (!p.game_over())
                .then(|| self.best(&p.play(Move::Pass), depth, &MoveBudget::unlimited()))
                .flatten()
            {
                on_depth(&[Analysis::pass(reply)]);
            }
            return;
        }
        let mut moves = Vec::new();
        p.push_moves(&mut moves);
        let exact = p.empties() <= solve_empties(depth);
        let depths = if exact {
            depth..=depth
        } else {
            1..=depth.max(1)
        };
        for d in depths {
            let mut found = Vec::with_capacity(moves.len());
            for &mv in &moves {
                let after = p.play(mv);
                let a = if exact {
                    let Some(solved) = self.exact(&after, Deadline::none()) else {
                        return;
                    };
                    Analysis {
                        mv,
                        eval: -f64::from(solved.score),
                        exact: true,
                        depth: p.empties(),
                        nodes: solved.nodes,
                    }
                } else {
                    let mut game = engine_game(after);
                    let (score, nodes) = if d == 1 {
                        (search_core::Game::evaluate(&game), 1)
                    } else {
                        self.midgame.reset_stats();
                        let score = self.midgame.search_root(&mut game, d - 1, -INF, INF);
                        (score, self.midgame.stats.nodes)
                    };
                    if self.stop.load(Ordering::Relaxed) {
                        return;
                    }
                    Analysis {
                        mv,
                        eval: -f64::from(score) / 100.0,
                        exact: false,
                        depth: d,
                        nodes,
                    }
                };
                found.push(a);
            }
            found.sort_by(|a, b| b.eval.total_cmp(&a.eval));
            on_depth(&found);
        }
    }
}
