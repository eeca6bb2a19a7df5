//! Exact endgame values: the position as a `search-core` [`Game`] searched to the end of the
//! game by negamax alpha-beta with a transposition table, moves ordered fastest-first, inside
//! an aspiration window around a shallower pre-search; the last [`LAST_EMPTIES`] empties go to
//! a dedicated small solver. Scores are final disc differences with the empties given to the
//! winner, as in the FFO test suite.

use crate::eval::pattern;
use crate::rules::bitboard::{
    adjacent, flips, last_flip_count, legal_moves, weighted_mobility, CORNERS,
};
use crate::rules::position::Line;
use crate::rules::position::{position_hash, sort_moves_by_key, Move, Position};
use crate::rules::stability::stable_discs;
use search_core::{
    aspiration_windows, parallel_search_root, shared_search_root, Game, Score, SearchOptions,
    Searcher, SharedTable, INF,
};

/// The solver's searcher: its table a [`SharedTable`] handle, so that the threads of
/// [`solve_parallel`] share one table.
pub type EndgameSearcher = Searcher<Endgame, SharedTable<Move>>;

/// A searcher with a table of about `megabytes` MiB (see [`table_megabytes`]).
///
/// # Panics
/// When the memory cannot be had; [`searchers`] says so instead.
pub fn searcher(megabytes: usize) -> EndgameSearcher {
    Searcher::with_table(SharedTable::with_megabytes(megabytes))
}

/// `threads` searchers sharing one table of about `megabytes` MiB, for [`solve_parallel`], or
/// a message when the memory cannot be had.
///
/// ```
/// let s = othello::endgame::searchers(2, 4).unwrap();
/// assert_eq!(s.len(), 2);
/// assert!(othello::endgame::searchers(1, usize::MAX).is_err());
/// ```
pub fn searchers(threads: usize, megabytes: usize) -> Result<Vec<EndgameSearcher>, String> {
    let table = SharedTable::try_with_megabytes(megabytes)?;
    Ok((0..threads.max(1))
        .map(|_| Searcher::with_table(table.share()))
        .collect())
}

/// The position during a search: the current node and the stack of its ancestors.
///
/// Move order: the reply that leaves the opponent fewest moves, corner moves counted double,
/// then the mover's discs at the corners, then fewest potential moves; from 12 empties on, the
/// learned pattern evaluation of the position after the move plus that mobility, from 14 a
/// one-ply search on it, two plies from 18, three from 25 and four from 26, cut short 8 discs
/// below alpha; from 14 to 17 empties, a move the evaluation puts 12 discs above beta is tried
/// before any search. The exact score is found by principal-variation search inside an
/// aspiration window around the value of a shallower pre-search. The last [`LAST_EMPTIES`]
/// empties go to a small solver through the `leaf_solve` hook: a list of empty squares instead
/// of move generation, odd quadrants first (parity), the last square counted without playing it.
pub struct Endgame {
    line: Line,
    /// Positions visited by the last-empties solver (the searcher counts the others).
    leaf_nodes: std::cell::Cell<u64>,
    /// True during the ordering pre-search of [`solve`], whose scores are all in hundredths of
    /// a disc, the evaluation's unit: finished games count 100 per disc, and the shortcuts that
    /// answer in discs (stability cut-offs, the last-empties solver) are off.
    presearch: bool,
    /// The ordering searches' game and buffers, reused from node to node.
    order_search: std::cell::RefCell<(
        pattern::game::PatternGame<'static>,
        search_core::AlphaBetaSearch<Move>,
    )>,
}

impl Endgame {
    /// Starts at `p`.
    pub fn new(p: Position) -> Endgame {
        Endgame {
            line: Line::new(p, 64),
            leaf_nodes: std::cell::Cell::new(0),
            presearch: false,
            order_search: std::cell::RefCell::new((
                pattern::game::PatternGame::new(p, pattern::evaluator()).fastest_first(),
                search_core::AlphaBetaSearch::new(),
            )),
        }
    }
}

/// From this many empty squares on, the solver tries enhanced transposition cut-offs.
const ETC_MIN_EMPTIES: u32 = 10;

/// From this many empty squares on, [`solve`] first runs the ordering pre-search. Measured on
/// FFO #40..#48 (nodes, pre-search included): #40 −1%, #41 −11%, #42 −6%, #44 −45%, #46 −37%,
/// #47 −60%, #48 −12%; #43 +2%, #45 +10%.
const PRESEARCH_MIN_EMPTIES: u32 = 18;

/// The ordering pre-search stops this many plies short of the end. FFO #40..#49 on one core
/// (with the exact search's aspiration around the pre-search's value): 8 → 88 s, 10 → 61 s,
/// 12 → 54 s, 14 → 61 s, 16 → 70 s.
const PRESEARCH_GAP: u32 = 12;

/// The ordering pre-search goes at most this many plies deep: FFO #59 (34 empties) takes
/// 1.0 s with 12, 4.4 s with 14 and 25 s with 16; FFO #40..#49 (20 to 26 empties) 51.5 s
/// with 12 and 44.7 s with 14.
const PRESEARCH_MAX_DEPTH: u32 = 14;

/// With several threads, the nodes of the leftmost line with at least this many empty squares
/// share out their moves (`search_core::parallel_search_root`), the threads sharing one table.
/// FFO #56 on two threads (one thread 75.7 s that day): 10 → 53.9 s, 12 → 48.0 s, 15 → 51.6 s;
/// all threads on the whole tree, deferring busy moves (`search_core::shared_search_root`)
/// instead: 59–61 s from 9, 12 or 16 empties, with 1.0–1.07 G positions against 0.85 G.
const SPLIT_MIN_EMPTIES: u32 = 12;

/// With several threads, the ordering pre-search defers busy moves at nodes with at least this
/// many plies left (see [`solve_parallel`]).
const PRESEARCH_DEFER_DEPTH: u32 = 4;

/// Half-width, in discs, of the exact search's first window around the pre-search's value:
/// scores are even, so a window of ±3 holds the guess and its two neighbours.
const ASPIRATION_DISCS: Score = 3;

/// From this many empty squares on, moves are ordered by a shallow search of the position
/// after them (`search-core` alpha-beta, one ply, on [`pattern::game::PatternGame`], the learned
/// pattern evaluation at its leaves, plus the opponent's mobility) instead of fastest-first.
/// FFO #40..#49 on one core, by this threshold: 18 → 2.37 G positions; 16 → 1.97 G, 84 s; 14 → 1.51 G, 81.7 s; 12 → 1.57 G,
/// 142 s (the evaluation's cost outgrows what it saves). #59 costs more CPU at 14 than at 16
/// (53 s against 41 s, with the same 0.33 G positions).
const SHALLOW_ORDER_MIN_EMPTIES: u32 = 14;

/// From this many empty squares on (and below [`SHALLOW_ORDER_MIN_EMPTIES`]), moves are ordered
/// by the learned pattern evaluation of the position after them, plus the opponent's mobility,
/// without a search: one evaluation per move. FFO #40..#49: fastest-first below 14 → 748 M
/// positions; this from 12 → 722 M (from 11: 717 M; from 10: 709 M), with 1.9% more
/// instructions on #40..#44 for 6.9% fewer positions; the one-ply search from 12 instead gave
/// 702 M for 20% more instructions. The project's own 22- to 24-empties positions: 348 M →
/// 323 M (from 11: 332 M).
const EVAL_ORDER_MIN_EMPTIES: u32 = 12;

/// The evaluation-only ordering (12 and 13 empties) adds this much per reply left to the
/// opponent (corners twice), and takes off [`EVAL_ORDER_CORNER_STABILITY`] per corner-anchored
/// disc of the mover: with no search behind the value, mobility and safe discs count for more.
/// FFO #40..#49 by (mobility, corner stability): (300, 0) → 722 M positions; (150, 0) → 736 M;
/// (600, 0) → 707 M; (900, 0) → 715 M; (1200, 0) → 720 M; (300, 100) → 714 M; (600, 100) →
/// 703 M. The project's own 22- to 24-empties positions: (300, 0) → 322.6 M, (600, 100) →
/// 320.6 M. Counting the opponent's potential mobility too changed either by under 0.1%.
const EVAL_ORDER_MOBILITY: i32 = 600;

/// See [`EVAL_ORDER_MOBILITY`].
const EVAL_ORDER_CORNER_STABILITY: i32 = 100;

/// From this many empty squares on, the ordering search looks two plies ahead (`search-core`
/// alpha-beta on the pattern evaluation, moves fastest-first) instead of one. Lowered from 22
/// with [`DEEPER_ORDER_MIN_EMPTIES`] and [`DEEPEST_ORDER_MIN_EMPTIES`] on 2026-11-28 (one core;
/// the rows at 29.6, 29.2 and 153.0 s ran with the other core busy; "hard" is FFO #51, #53
/// and #56, with 27 to 29 empties):
///
/// | two, three, four plies from | #40..#49 | hard |
/// |---|---|---|
/// | 22, 28, – (the build of 2026-11-28 04:50) | 0.672 G, 29.7 s | 3.18 G, 171.6 s |
/// | 20, – , – | – | 2.93 G |
/// | 18, – , – | – | 2.80 G |
/// | 20, 26, 28 | 0.666 G | 2.74 G |
/// | 18, 26, 28 | 0.647 G, 29.6 s | 2.63 G |
/// | 18, 25, 27 | 0.638 G, 29.2 s | 2.53 G, 156.1 s |
/// | 18, 24, 26 | 0.678 G, 30.9 s | 2.50 G, 147.3 s |
/// | 18, 24, 26, five plies from 28 | – | 2.48 G |
/// | **18, 25, 26** | **0.638 G**, 29.5 s | **2.48 G**, 153.0 s |
///
/// Earlier, with one-ply ordering below and without the deeper searches: none → 1.51 G on
/// #40..#49; 22 → 1.14 G; 20 → 1.23 G.
const DEEP_ORDER_MIN_EMPTIES: u32 = 18;

/// From this many empty squares on, the ordering search looks three plies ahead (see
/// [`DEEP_ORDER_MIN_EMPTIES`]). Far from the end it also finds short forced lines sooner:
/// FFO #59 (34 empties, +64) took 58 s with two plies and takes 2.2 s now.
const DEEPER_ORDER_MIN_EMPTIES: u32 = 25;

/// From this many empty squares on, the ordering search looks four plies ahead (see
/// [`DEEP_ORDER_MIN_EMPTIES`]).
const DEEPEST_ORDER_MIN_EMPTIES: u32 = 26;

/// A node with fewer empties than [`DEEP_ORDER_MIN_EMPTIES`] (from
/// [`SHALLOW_ORDER_MIN_EMPTIES`] on) and no hash move first tries the move the evaluation-only
/// ordering puts first, before the ordering searches, when the evaluation already puts it this
/// far (hundredths of a disc) above `beta` (`Game::likely_cutoff`): such nodes are refuted by
/// their first move 99.8% of the time (FFO #50), so the one-ply searches under every move are
/// mostly wasted; the others are ordered in full only if it does not cut off. Measured on one
/// core with the other busy ("hard" is FFO #51, #53 and #56):
///
/// | change | #40..#49 | #50 + #51 | hard |
/// |---|---|---|---|
/// | none (the build of 2026-11-28 10:20) | 0.638 G, 30.4 s | 0.710 G, 46.3 s | 2.48 G, 147–153 s |
/// | from 14 empties up, margin 1200 | 0.660 G, 28.7 s | 0.666 G, 40.2 s | 3.50 G, 163 s |
/// | 14 to 17 empties, margin 600 | 0.651 G, 29.0 s | – | – |
/// | **14 to 17 empties, margin 1200** | 0.650 G, 28.5 s | 0.704 G, 41.6 s | 2.57 G, 137.7 s |
/// | 14 to 17 empties, margin 2000 | 0.643 G, 28.3 s | 0.697 G, 40.5 s | 2.62 G, 144.8 s |
///
/// Picking by the evaluation alone, without the mobility term of [`eval_order_key`]: #50 +
/// #51 1.36 G positions. Ordering every move by that key instead of searching once the first
/// is likely to cut (no lazy second stage): #50 + #51 0.658 G, 38.1 s, but FFO #56 0.65 →
/// 1.24 G.
const LIKELY_CUTOFF_MARGIN: Score = 1200;

/// The ordering search's value is in hundredths of a disc; each reply left to the opponent
/// (corners counted twice) adds this much to a move's key, as Edax weighs mobility next to its
/// evaluation. Measured with the pattern evaluation, nodes on FFO #40..#44: 0 → 197 M, 300 →
/// 176 M, 600 → 182 M (without the pattern evaluation: 204 M).
const SHALLOW_ORDER_MOBILITY: i32 = 300;

/// The ordering searches of a node searched inside `(alpha, beta)` stop once a move is known to
/// be worth this much (hundredths of a disc) below `alpha` (Edax's sort window).
const SORT_WINDOW_MARGIN: Score = 800;

/// Fastest-first ordering counts each disc of [`corner_stability`] the mover holds after a
/// move as this much (16 is one reply left to the opponent): Edax's corner-stability term.
/// Positions for FFO #40..#49 by its value: 0 → 809 M, 2 → 768 M, 3 → 763 M, 4 → 772 M,
/// 8 → 797 M, 16 → 918 M; the project's own 22- to 24-empties positions (`othello generate
/// --empties 22,23,24 --count 4 --seed 777`): 0 → 367 M, 3 → 361 M, 4 → 364 M.
const CORNER_STABILITY_WEIGHT: i32 = 3;

/// Own corners and the own discs orthogonally next to them: discs that can never flip.
#[inline]
fn corner_stability(b: u64) -> u32 {
    let near = ((b & 0x0100_0000_0000_0001) << 1)
        | ((b & 0x8000_0000_0000_0080) >> 1)
        | ((b & 0x0000_0000_0000_0081) << 8)
        | ((b & 0x8100_0000_0000_0000) >> 8)
        | CORNERS;
    (near & b).count_ones()
}

/// Fastest-first ordering is used only with more empty squares than this (below it, only the
/// ordering pre-search reaches a node).
const ORDER_ABOVE_EMPTIES: u32 = LAST_EMPTIES;

/// Positions with at most this many empty squares are valued by [`last_empties`], without the
/// table. From 8 instead of 7, with the lower stability cut-off threshold: FFO #40..#49
/// 0.693 G → 0.672 G positions and 31.8–33.4 s → 30.0–30.4 s (interleaved runs); #50 798 M →
/// 645 M, 41.1 → 35.6 s; the project's own 22- to 24-empties positions 318 M → 324 M, 15.3 →
/// 14.5 s. From 8 alone: 0.731 G, 31.0–31.6 s.
pub const LAST_EMPTIES: u32 = 8;

/// Squares next to each square (the eight neighbours): a move on `sq` can only flip when an
/// opponent disc is among them, a test far cheaper than computing the flips.
const fn neighbour_table() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = adjacent(1 << sq);
        sq += 1;
    }
    t
}
static NEIGHBOURS: [u64; 64] = neighbour_table();

/// The board quadrant of a square (0..4): with an odd number of empties in a quadrant, the
/// side moving there usually also gets its last move ("parity"), so those squares go first.
#[inline]
fn quadrant(sq: u8) -> u8 {
    (sq >> 2 & 1) | (sq >> 4 & 2)
}

/// Final disc difference for `me` when the game ends with `empties` squares left (given to the
/// winner, as in the FFO convention).
#[inline]
fn final_diff(me: u64, opp: u64, empties: u32) -> Score {
    let d = me.count_ones() as Score - opp.count_ones() as Score;
    match d.signum() {
        1 => d + empties as Score,
        -1 => d - empties as Score,
        _ => 0,
    }
}

/// The exact score with one empty square `sq` left: whoever can play there does (the side to
/// move first), and the count follows from the number of flips ([`last_flip_count`]) without
/// making the move.
#[inline]
fn last_one(me: u64, opp: u64, sq: u8) -> Score {
    let n = last_flip_count(me, sq as u32);
    if n != 0 {
        return 2 * (me.count_ones() + n) as Score + 2 - 64;
    }
    let n = last_flip_count(opp, sq as u32);
    if n != 0 {
        return 64 - 2 * (opp.count_ones() + n) as Score - 2;
    }
    final_diff(me, opp, 1)
}

/// See [`stability_cutoff`]. FFO #40..#49 with the small solver from 8 empties, by this
/// margin: 0 → 0.731 G positions; 4 → 0.715 G; 8 → 0.681 G; 12 → 0.672 G, 29.3–30.4 s; 16 →
/// 0.671 G, 29.6–29.9 s (with it from 7 empties: 0 → 0.693 G, 8 → 0.648 G, 16 → 0.638 G, the
/// time the same as with 0).
const STABILITY_MARGIN: Score = 12;

/// Stability cut-off: the opponent's stable discs stay theirs, so the side to move scores at
/// most 64 − 2·(their count). Returns that bound when it already fails low. Counting stable
/// discs costs about as much as a few moves, so it is tried only when `alpha` is at least
/// [`STABILITY_MARGIN`] below twice the number of empties: a cheap guess at when a cut-off is
/// likely (the lower `alpha`, the more stable discs the opponent would need).
#[inline]
fn stability_cutoff(me: u64, opp: u64, alpha: Score, empties: u32) -> Option<Score> {
    if alpha < 2 * empties as Score - STABILITY_MARGIN {
        return None;
    }
    let bound = 64 - 2 * stable_discs(opp, me).count_ones() as Score;
    (bound <= alpha).then_some(bound)
}

/// From this many empties on, [`small_solve`] orders moves fastest-first instead of by parity.
const SMALL_FASTEST_FIRST: usize = 6;

/// Two empties `a` and `b`: each playable one is followed by [`last_one`] on the other,
/// without building a list.
fn last_two(
    (me, opp): (u64, u64),
    (alpha, beta): (Score, Score),
    (a, b): (u8, u8),
    passed: bool,
    nodes: &mut u64,
) -> Score {
    let mut best = -Score::MAX;
    for (sq, other) in [(a, b), (b, a)] {
        if NEIGHBOURS[sq as usize] & opp == 0 {
            continue;
        }
        let f = flips(me, opp, sq as u32);
        if f == 0 {
            continue;
        }
        *nodes += 1;
        let v = -last_one(opp ^ f, me | f | 1 << sq, other);
        if v > best {
            best = v;
            if v >= beta {
                return best;
            }
        }
    }
    if best > -Score::MAX {
        return best;
    }
    if passed {
        return final_diff(me, opp, 2);
    }
    *nodes += 1;
    -last_two((opp, me), (-beta, -alpha), (a, b), true, nodes)
}

/// Three empties, odd quadrants first: each playable one is followed by [`last_two`] on the
/// other two, without the general loop of [`small_solve`] (three squares are ordered once, here,
/// instead of filtered in two passes).
fn last_three(
    (me, opp): (u64, u64),
    (mut alpha, beta): (Score, Score),
    squares: [u8; 3],
    parity: u8,
    passed: bool,
    nodes: &mut u64,
) -> Score {
    // Odd quadrants first, each group in list order; the two squares left after a move stay in
    // list order, as in `small_solve`.
    let odd = |i: usize| parity >> quadrant(squares[i]) & 1 == 1;
    let mut order = [0usize; 3];
    let mut k = 0;
    for want_odd in [true, false] {
        for i in 0..3 {
            if odd(i) == want_odd {
                order[k] = i;
                k += 1;
            }
        }
    }
    let mut best = -Score::MAX;
    for i in order {
        let sq = squares[i];
        if NEIGHBOURS[sq as usize] & opp == 0 {
            continue;
        }
        let f = flips(me, opp, sq as u32);
        if f == 0 {
            continue;
        }
        let (x, y) = match i {
            0 => (squares[1], squares[2]),
            1 => (squares[0], squares[2]),
            _ => (squares[0], squares[1]),
        };
        *nodes += 1;
        let v = -last_two(
            (opp ^ f, me | f | 1 << sq),
            (-beta, -alpha),
            (x, y),
            false,
            nodes,
        );
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    return best;
                }
            }
        }
    }
    if best > -Score::MAX {
        return best;
    }
    if passed {
        return final_diff(me, opp, 3);
    }
    *nodes += 1;
    -last_three((opp, me), (-beta, -alpha), squares, parity, true, nodes)
}

/// From this many empties on, [`small_solve`] tries the [`stability_cutoff`].
const SMALL_STABILITY: usize = 5;

/// Largest number of empties [`small_solve`] handles (its empties list is one `u128`).
const SMALL_MAX: usize = 16;

/// The empty squares of [`small_solve`], one byte each, packed in a `u128` so that removing one
/// is a few shifts instead of a copy.
#[derive(Clone, Copy)]
struct EmptyList {
    squares: u128,
    len: usize,
}

impl EmptyList {
    #[inline(always)]
    fn get(self, i: usize) -> u8 {
        (self.squares >> (8 * i)) as u8
    }

    /// The list without its `i`-th square, the others in the same order.
    #[inline(always)]
    fn without(self, i: usize) -> EmptyList {
        let low = self.squares & ((1u128 << (8 * i)) - 1);
        let high = (self.squares >> (8 * i + 8)) << (8 * i);
        EmptyList {
            squares: low | high,
            len: self.len - 1,
        }
    }
}

/// The squares by how good they usually are to play on, best first: corners, the edge squares
/// two from a corner (a3, c1, ...), the middle of the edges, the centre, the squares next to a
/// corner on the edge (b1, a2, ...), the diagonal neighbours of the corners (b2, ...) last.
/// [`small_solve`] keeps its empties in this order, which breaks its ordering's ties.
const SQUARE_CLASSES: [u64; 6] = [
    0x8100_0000_0000_0081,
    0x2400_8100_0081_0024,
    0x1800_0081_8100_0018,
    0x003c_7e7e_7e7e_3c00 & !0x0042_0000_0000_4200,
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];

/// A node of [`small_solve`]: what its children need.
struct SmallNode {
    me: u64,
    opp: u64,
    beta: Score,
    empties: EmptyList,
    parity: u8,
}

impl SmallNode {
    /// Plays the `i`-th empty square (flipping `f`), searches the rest, and raises `best` and
    /// `alpha`; `true` on a beta cut-off.
    #[inline(always)]
    fn try_move(
        &self,
        i: usize,
        f: u64,
        alpha: &mut Score,
        best: &mut Score,
        nodes: &mut u64,
    ) -> bool {
        let sq = self.empties.get(i);
        let v = -small_solve(
            (self.opp ^ f, self.me | f | 1 << sq),
            (-self.beta, -*alpha),
            self.empties.without(i),
            self.parity ^ 1 << quadrant(sq),
            false,
            nodes,
        );
        if v > *best {
            *best = v;
            if v > *alpha {
                *alpha = v;
                return v >= self.beta;
            }
        }
        false
    }
}

/// Negamax over an explicit list of the empty squares (no move generation: each empty next to
/// an opponent disc is tried directly), odd quadrants first, the last square counted without
/// playing it. `passed` says the opponent just passed (two passes end the game).
fn small_solve(
    (me, opp): (u64, u64),
    (mut alpha, beta): (Score, Score),
    empties: EmptyList,
    parity: u8,
    passed: bool,
    nodes: &mut u64,
) -> Score {
    *nodes += 1;
    let n = empties.len;
    if n == 1 {
        return last_one(me, opp, empties.get(0));
    }
    if n == 2 {
        return last_two(
            (me, opp),
            (alpha, beta),
            (empties.get(0), empties.get(1)),
            passed,
            nodes,
        );
    }
    if n == 3 {
        return last_three(
            (me, opp),
            (alpha, beta),
            [empties.get(0), empties.get(1), empties.get(2)],
            parity,
            passed,
            nodes,
        );
    }
    if n >= SMALL_STABILITY {
        if let Some(bound) = stability_cutoff(me, opp, alpha, n as u32) {
            return bound;
        }
    }
    let node = SmallNode {
        me,
        opp,
        beta,
        empties,
        parity,
    };
    let mut best = -Score::MAX;
    if n >= SMALL_FASTEST_FIRST {
        // Fastest first: the replies leaving the opponent fewest moves, odd quadrants breaking
        // ties; the keys are computed once and the list sorted by insertion. The legal moves,
        // generated once, spare the flips of empties next to an opponent disc that flip
        // nothing (FFO #40..#44: 3.30, 3.32 s → 3.21, 3.18 s, interleaved); the parity passes
        // below gain nothing from them, and handing each child the replies counted for its
        // key saved nothing measurable either.
        let mut cand = [(0i32, 0usize, 0u64); SMALL_MAX];
        let mut k = 0;
        let legal = legal_moves(me, opp);
        for i in 0..n {
            let sq = empties.get(i);
            if legal >> sq & 1 == 0 {
                continue;
            }
            let f = flips(me, opp, sq as u32);
            let mobility = legal_moves(opp ^ f, me | f | 1 << sq);
            let key = 4 * weighted_mobility(mobility) as i32 - (parity >> quadrant(sq) & 1) as i32;
            let mut j = k;
            while j > 0 && cand[j - 1].0 > key {
                cand[j] = cand[j - 1];
                j -= 1;
            }
            cand[j] = (key, i, f);
            k += 1;
        }
        for &(_, i, f) in &cand[..k] {
            if node.try_move(i, f, &mut alpha, &mut best, nodes) {
                return best;
            }
        }
    } else {
        // Two passes: squares in odd quadrants, then the others; flips computed lazily.
        for want_odd in [true, false] {
            for i in 0..n {
                let sq = empties.get(i);
                if (parity >> quadrant(sq) & 1 == 1) != want_odd
                    || NEIGHBOURS[sq as usize] & opp == 0
                {
                    continue;
                }
                let f = flips(me, opp, sq as u32);
                if f != 0 && node.try_move(i, f, &mut alpha, &mut best, nodes) {
                    return best;
                }
            }
        }
    }
    if best > -Score::MAX {
        return best;
    }
    if passed {
        // Neither side can move: the game is over.
        return final_diff(me, opp, n as u32);
    }
    -small_solve((opp, me), (-beta, -alpha), empties, parity, true, nodes)
}

/// The exact final score of a position inside `(alpha, beta)` (fail-soft), by `small_solve`
/// once at most 16 squares are empty (plain negamax plies before that, so any position is
/// accepted, if slowly); `nodes` counts the positions visited.
pub fn last_empties(p: &Position, mut alpha: Score, beta: Score, nodes: &mut u64) -> Score {
    let empty = !(p.me | p.opp);
    if empty.count_ones() as usize > SMALL_MAX {
        *nodes += 1;
        let moves = p.moves();
        if moves == 0 {
            if p.game_over() {
                return p.final_score();
            }
            return -last_empties(&p.play(Move::Pass), -beta, -alpha, nodes);
        }
        let mut best = -Score::MAX;
        let mut bits = moves;
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            let v = -last_empties(&p.play(Move::Square(sq)), -beta, -alpha, nodes);
            if v > best {
                best = v;
                alpha = alpha.max(v);
                if v >= beta {
                    break;
                }
            }
        }
        return best;
    }
    let mut list = EmptyList { squares: 0, len: 0 };
    let mut parity = 0u8;
    for class in SQUARE_CLASSES {
        let mut bits = empty & class;
        while bits != 0 {
            let sq = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            list.squares |= (sq as u128) << (8 * list.len);
            list.len += 1;
            parity ^= 1 << quadrant(sq);
        }
    }
    if list.len == 0 {
        return final_diff(p.me, p.opp, 0);
    }
    small_solve((p.me, p.opp), (alpha, beta), list, parity, false, nodes)
}

impl Game for Endgame {
    type Move = Move;

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        self.line.cur.push_moves(moves);
    }

    fn play(&mut self, mv: Move) {
        self.line.push(mv);
    }

    fn undo(&mut self, _mv: Move) {
        self.line.pop();
    }

    fn outcome(&self) -> Option<Score> {
        let unit = if self.presearch { 100 } else { 1 };
        self.line
            .cur
            .game_over()
            .then(|| unit * self.line.cur.final_score())
    }

    fn leaf_solve(&self, alpha: Score, beta: Score) -> Option<Score> {
        if self.presearch {
            return None;
        }
        // The last empties are valued by the dedicated small solver above; before that, the
        // stability cut-off may already settle a fail-low.
        let empties = self.line.cur.empties();
        if empties > LAST_EMPTIES {
            return stability_cutoff(self.line.cur.me, self.line.cur.opp, alpha, empties);
        }
        let mut nodes = self.leaf_nodes.get();
        let v = last_empties(&self.line.cur, alpha, beta, &mut nodes);
        self.leaf_nodes.set(nodes);
        Some(v)
    }

    fn evaluate(&self) -> Score {
        // Only reached when a depth limit cuts the search, that is in the ordering pre-search
        // of `solve`: the learned pattern evaluation, from the side to move.
        pattern::evaluate(&self.line.cur)
    }

    fn hash(&self) -> u64 {
        position_hash(&self.line.cur)
    }

    fn order_moves(&self, moves: &mut [Move]) {
        self.order(moves, -INF);
    }

    fn order_moves_in_window(&self, moves: &mut [Move], alpha: Score, _beta: Score) {
        // Scores are discs in the exact search, hundredths in the pre-search (which orders by
        // the evaluation alone, without searches to cut short).
        let floor = if self.presearch || alpha <= -64 {
            -INF
        } else {
            100 * alpha - SORT_WINDOW_MARGIN
        };
        self.order(moves, floor);
    }

    fn likely_cutoff(&self, moves: &[Move], _alpha: Score, beta: Score) -> Option<usize> {
        let empties = self.line.cur.empties();
        if self.presearch
            || !(SHALLOW_ORDER_MIN_EMPTIES..DEEP_ORDER_MIN_EMPTIES).contains(&empties)
            || beta >= 64
        {
            return None;
        }
        // The move the evaluation-only ordering would put first, and its value for this side.
        let mut first: Option<(Score, usize, Score)> = None;
        for (i, mv) in moves.iter().enumerate() {
            if let Move::Square(_) = mv {
                let next = self.line.cur.play(*mv);
                let value = pattern::evaluate(&next);
                let key = eval_order_key(&next, value, weighted_mobility(next.moves()) as i32);
                if first.is_none_or(|(best, _, _)| key < best) {
                    first = Some((key, i, -value));
                }
            }
        }
        first
            .filter(|&(_, _, value)| value >= 100 * beta + LIKELY_CUTOFF_MARGIN)
            .map(|(_, i, _)| i)
    }

    fn history_index(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Square(s) => Some(s as usize),
            Move::Pass => None,
        }
    }
}

impl Endgame {
    /// Orders `moves` best first. The ordering searches stop once a move is known to be worth
    /// at most `floor` (hundredths of a disc, for the side to move here): such a move gets that
    /// bound as its value instead of its exact shallow value.
    fn order(&self, moves: &mut [Move], floor: Score) {
        // Near the end, ordering costs more than it saves.
        if self.line.cur.empties() <= ORDER_ABOVE_EMPTIES {
            return;
        }
        let shallow = self.line.cur.empties() >= EVAL_ORDER_MIN_EMPTIES;
        let key = |mv: &Move| match *mv {
            Move::Pass => 0,
            // Far from the end: the position after the move (from 14 empties on, the opponent's
            // best reply) by the midgame evaluation, from the opponent's side (lower first).
            Move::Square(_) if shallow => {
                let next = self.line.cur.play(*mv);
                let replies = next.moves();
                let mobility = weighted_mobility(replies) as i32;
                let plies = match self.line.cur.empties() {
                    // The pre-search orders by the evaluation alone: it only needs good
                    // moves near the root and a value, and searching under every move of it
                    // cost more than half of the whole solve.
                    _ if self.presearch => 0,
                    e if e >= DEEPEST_ORDER_MIN_EMPTIES => 4,
                    e if e >= DEEPER_ORDER_MIN_EMPTIES => 3,
                    e if e >= DEEP_ORDER_MIN_EMPTIES => 2,
                    e if e >= SHALLOW_ORDER_MIN_EMPTIES => 1,
                    _ => 0,
                };
                let value = if plies == 0 {
                    pattern::evaluate(&next)
                } else {
                    let (after, search) = &mut *self.order_search.borrow_mut();
                    after.reset(next);
                    search.value(after, plies, -INF, -floor)
                };
                if plies == 0 && !self.presearch {
                    eval_order_key(&next, value, mobility)
                } else {
                    value + SHALLOW_ORDER_MOBILITY * mobility
                }
            }
            Move::Square(s) => {
                let next = self.line.cur.play(*mv);
                let empty = !(next.me | next.opp);
                let potential = (adjacent(next.opp) & empty).count_ones() as i32;
                16 * weighted_mobility(next.moves()) as i32 + potential
                    - 8 * i32::from(CORNERS >> s & 1 == 1)
                    - CORNER_STABILITY_WEIGHT * corner_stability(next.opp) as i32
            }
        };
        sort_moves_by_key(moves, key);
    }
}

/// The evaluation-only ordering key of the position `next` after a move (lower first), given
/// its learned evaluation `value` (for the side to move there, the opponent) and the replies
/// it leaves, `mobility` (corners twice, [`weighted_mobility`]): that value, plus
/// [`EVAL_ORDER_MOBILITY`] per reply, minus [`EVAL_ORDER_CORNER_STABILITY`] per
/// corner-anchored disc of the mover.
fn eval_order_key(next: &Position, value: Score, mobility: i32) -> Score {
    value + EVAL_ORDER_MOBILITY * mobility
        - EVAL_ORDER_CORNER_STABILITY * corner_stability(next.opp) as i32
}

/// A transposition table size in MiB for solving positions with up to `empties` empty
/// squares: 8 MiB at 20 empties, four times more per two more empties, from 2 up to 128 MiB
/// (8.4 M positions of 16 bytes). A table far larger than the search fills only costs the time
/// to clear it (0.13 s for 256 MiB, a sixth of FFO #40's solve), and a larger one made the hard
/// positions slower: 256 MiB gave FFO #50 526 M positions against 506 M, and #51 + #53 + #56
/// 2.65 G against 2.57 G, the pre-search's moves, worse than the exact search's own ordering,
/// surviving at more nodes.
///
/// ```
/// assert_eq!(othello::endgame::table_megabytes(20), 8);
/// assert_eq!(othello::endgame::table_megabytes(10), 2);
/// assert_eq!(othello::endgame::table_megabytes(30), 128);
/// ```
pub fn table_megabytes(empties: u32) -> usize {
    let shift = empties.saturating_sub(17).min(11);
    (1usize << shift).clamp(2, 128)
}

/// The exact result of an endgame.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solution {
    /// Final disc difference for the side to move under perfect play.
    pub score: i32,
    /// A best move (`None` when the game is already over).
    pub best: Option<Move>,
    /// Nodes searched.
    pub nodes: u64,
}

/// Solves `p` exactly.
///
/// ```
/// use othello::{endgame::solve, Position};
/// // One empty square, a1; black to move takes it, flips b1..g1 and owns every disc.
/// let board = format!("-OOOOOOX{} X", "X".repeat(56));
/// let p: Position = board.parse().unwrap();
/// let s = solve(&p, &mut othello::endgame::searcher(1));
/// assert_eq!(s.best.unwrap().to_string(), "a1");
/// assert_eq!(s.score, 64);
/// ```
pub fn solve(p: &Position, searcher: &mut EndgameSearcher) -> Solution {
    solve_until(p, searcher).expect("no deadline, node limit or stop signal is set")
}

/// Solves `p` exactly unless the searcher's deadline, node limit or stop signal cuts the
/// search short (then `None`).
pub fn solve_until(p: &Position, searcher: &mut EndgameSearcher) -> Option<Solution> {
    solve_parallel(p, std::slice::from_mut(searcher))
}

/// Solves `p` exactly with one thread per searcher, unless a searcher's deadline, node limit
/// or stop signal cuts the search short (then `None`). The threads share the table when the
/// searchers do (made by [`searchers`]). The ordering pre-search runs on all of them, each on
/// the whole tree, putting off the moves another is searching (`search_core::shared_search_root`);
/// the exact search splits the nodes of the leftmost line with 12 or more empty squares: the
/// first move alone, the others shared out (`search_core::parallel_search_root`).
///
/// ```
/// use othello::{endgame::{searcher, searchers, solve, solve_parallel}, Position};
/// let p: Position = "--XXXXXO---OOOOO--OOOOOO--OOOXOO--OOOXOO--OXOXOO--XXXXX-----XXXX X"
///     .parse()
///     .unwrap();
/// let mut two = searchers(2, 4).unwrap();
/// let s = solve_parallel(&p, &mut two).unwrap();
/// assert_eq!(s.score, solve(&p, &mut searcher(4)).score);
/// ```
///
/// # Panics
/// When `searchers` is empty.
pub fn solve_parallel(p: &Position, searchers: &mut [EndgameSearcher]) -> Option<Solution> {
    solve_within(p, searchers, None)
}

/// Whether the side to move wins, draws or loses `p` under perfect play, unless the
/// searcher's deadline, node limit or stop signal cuts the search short (then `None`): the
/// solution's score is positive for a win (at least that many discs), 0 for a draw (exact)
/// and negative for a loss (at most that many), its move one that keeps the result. A
/// null-window question around 0 instead of the exact score: several times cheaper, and all
/// a game's result needs.
///
/// ```
/// use othello::{endgame::{searcher, solve, solve_wld_until}, Position};
/// let p: Position = "--XXXXXO---OOOOO--OOOOOO--OOOXOO--OOOXOO--OXOXOO--XXXXX-----XXXX X"
///     .parse()
///     .unwrap();
/// let exact = solve(&p, &mut searcher(4));
/// let wld = solve_wld_until(&p, &mut searcher(4)).unwrap();
/// assert_eq!(wld.score.signum(), exact.score.signum());
/// assert!(wld.nodes < exact.nodes);
/// ```
pub fn solve_wld_until(p: &Position, searcher: &mut EndgameSearcher) -> Option<Solution> {
    solve_within(p, std::slice::from_mut(searcher), Some((-1, 1)))
}

/// [`solve_parallel`], or with `window` the fail-soft value within that window.
fn solve_within(
    p: &Position,
    searchers: &mut [EndgameSearcher],
    window: Option<(Score, Score)>,
) -> Option<Solution> {
    if p.game_over() {
        return Some(Solution {
            score: p.final_score(),
            best: None,
            nodes: 0,
        });
    }
    let depth = 2 * p.empties() + 2;
    for searcher in searchers.iter_mut() {
        // Fastest-first is the ordering that works in Othello endgames; killer and history
        // reordering would override it.
        searcher.options = SearchOptions {
            use_tt: true,
            killers: false,
            history: false,
            // A node with `e` empties sits `empties - e` plies (passes aside) below the root.
            etc_min_depth: Some((p.empties() + ETC_MIN_EMPTIES + 2) as i32),
            pvs: true,
            ..SearchOptions::default()
        };
        // The hard positions store tens of times more positions than the table holds.
        searcher.tt.set_two_way(true);
        searcher.reset_stats();
    }
    let mut games: Vec<Endgame> = searchers.iter().map(|_| Endgame::new(*p)).collect();
    // Ordering pre-search: iterative deepening to `empties - PRESEARCH_GAP` plies (at most
    // `PRESEARCH_MAX_DEPTH`), cut off by the learned evaluation, leaves a best move in the
    // table at every node near the root, which the exact search then tries first, and a value
    // in hundredths of a disc, its guess. Its entries are too shallow to settle anything in
    // the exact search.
    let mut guess = pattern::evaluate(p);
    if p.empties() >= PRESEARCH_MIN_EMPTIES {
        games.iter_mut().for_each(|g| g.presearch = true);
        let last = (p.empties() - PRESEARCH_GAP).min(PRESEARCH_MAX_DEPTH);
        for d in (2..=last).step_by(2) {
            let r = shared_search_root(&mut games, searchers, d, -INF, INF, PRESEARCH_DEFER_DEPTH);
            if r.aborted {
                return None;
            }
            guess = r.score;
        }
        games.iter_mut().for_each(|g| g.presearch = false);
    }
    // The nearest even score (every final score is even).
    let guess = (2 * ((guess as f64 / 200.0).round() as Score)).clamp(-64, 64);
    // Principal-variation search inside an aspiration window around the guess: FFO #40..#49
    // 0.86 G positions with MTD(f) probes stepping from the guess, 0.80 G this way (and
    // 1.14 G with MTD(f) from 0 and a pre-search whose scores mixed discs and hundredths).
    let split_depth = p.empties() + 2 + SPLIT_MIN_EMPTIES;
    let mut best = None;
    let mut search = |alpha, beta| {
        let r = parallel_search_root(&mut games, searchers, depth, alpha, beta, split_depth);
        best = r.best;
        (!r.aborted).then_some(r.score)
    };
    let score = match window {
        Some((alpha, beta)) => search(alpha, beta)?,
        None => aspiration_windows(guess, ASPIRATION_DISCS, search)?,
    };
    let nodes = searchers.iter().map(|s| s.stats.nodes).sum::<u64>()
        + games.iter().map(|g| g.leaf_nodes.get()).sum::<u64>();
    Some(Solution { score, best, nodes })
}
