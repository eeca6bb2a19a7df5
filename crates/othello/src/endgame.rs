//! Exact endgame values: the position as a `search-core` [`Game`] searched to the end of the
//! game by negamax alpha-beta with a transposition table, the moves ordered fastest-first (the
//! reply that leaves the opponent fewest moves first, corners breaking ties), and the exact score
//! found by MTD(f) null-window probes. Scores are final disc differences with the empties given
//! to the winner, as in the FFO test suite.

use crate::position::{Move, Position};
use search_core::{mtdf, Game, Score, Searcher};

/// The position during a search: the current node and the stack of its ancestors.
pub struct Endgame {
    cur: Position,
    stack: Vec<Position>,
}

impl Endgame {
    /// Starts at `p`.
    pub fn new(p: Position) -> Endgame {
        Endgame {
            cur: p,
            stack: Vec::with_capacity(64),
        }
    }
}

const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Fastest-first ordering is used only with more empty squares than this.
const ORDER_ABOVE_EMPTIES: u32 = 7;

/// Positions with at most this many empty squares are valued by [`last_empties`].
pub const LAST_EMPTIES: u32 = 6;

/// The exact final score of a position with few empties inside `(alpha, beta)` (fail-soft):
/// Othello's classic last-empties solver, a windowed negamax over bitboards with no table and
/// no ordering beyond trying squares in a fixed order, which is what is fastest this close to
/// the end.
pub fn last_empties(p: &Position, mut alpha: Score, beta: Score) -> Score {
    let m = p.moves();
    if m == 0 {
        if p.game_over() {
            return p.final_score();
        }
        return -last_empties(&p.play(Move::Pass), -beta, -alpha);
    }
    let mut best = Score::MIN + 1;
    let mut bits = m;
    while bits != 0 {
        let s = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        let v = -last_empties(&p.play(Move::Square(s)), -beta, -alpha);
        if v > best {
            best = v;
            if v > alpha {
                alpha = v;
                if v >= beta {
                    break;
                }
            }
        }
    }
    best
}

/// A hash of (own discs, other discs) for transposition tables.
pub fn position_hash(p: &Position) -> u64 {
    mix(p.me) ^ mix(p.opp ^ 0x9e37_79b9_7f4a_7c15).rotate_left(29)
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Game for Endgame {
    type Move = Move;

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let mut m = self.cur.moves();
        if m == 0 {
            if !self.cur.game_over() {
                moves.push(Move::Pass);
            }
            return;
        }
        while m != 0 {
            moves.push(Move::Square(m.trailing_zeros() as u8));
            m &= m - 1;
        }
    }

    fn play(&mut self, mv: Move) {
        self.stack.push(self.cur);
        self.cur = self.cur.play(mv);
    }

    fn undo(&mut self, _mv: Move) {
        self.cur = self.stack.pop().expect("a move to undo");
    }

    fn outcome(&self) -> Option<Score> {
        self.cur.game_over().then(|| self.cur.final_score())
    }

    fn leaf_solve(&self, alpha: Score, beta: Score) -> Option<Score> {
        // The last empties are valued by the dedicated small solver below.
        (self.cur.empties() <= LAST_EMPTIES).then(|| last_empties(&self.cur, alpha, beta))
    }

    fn evaluate(&self) -> Score {
        // Only reached when a depth limit cuts the search: the disc difference.
        self.cur.me.count_ones() as Score - self.cur.opp.count_ones() as Score
    }

    fn hash(&self) -> u64 {
        position_hash(&self.cur)
    }

    fn order_moves(&self, moves: &mut [Move]) {
        // Near the end, ordering costs more than it saves.
        if self.cur.empties() <= ORDER_ABOVE_EMPTIES {
            return;
        }
        let key = |mv: &Move| match *mv {
            Move::Pass => 0,
            Move::Square(s) => {
                let next = self.cur.play(*mv);
                let mobility = next.moves().count_ones() as i32;
                mobility * 2 - i32::from(CORNERS >> s & 1 == 1)
            }
        };
        // Insertion sort (short lists, no allocation).
        for i in 1..moves.len() {
            let k = key(&moves[i]);
            let mut j = i;
            while j > 0 && key(&moves[j - 1]) > k {
                j -= 1;
            }
            moves[j..=i].rotate_right(1);
        }
    }

    fn history_index(&self, mv: Move) -> Option<usize> {
        match mv {
            Move::Square(s) => Some(s as usize),
            Move::Pass => None,
        }
    }
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
/// let s = solve(&p, &mut search_core::Searcher::new(1));
/// assert_eq!(s.best.unwrap().to_string(), "a1");
/// assert_eq!(s.score, 64);
/// ```
pub fn solve(p: &Position, searcher: &mut Searcher<Endgame>) -> Solution {
    let mut game = Endgame::new(*p);
    if p.game_over() {
        return Solution {
            score: p.final_score(),
            best: None,
            nodes: 0,
        };
    }
    let depth = 2 * p.empties() + 2;
    searcher.reset_stats();
    let r = mtdf(&mut game, searcher, depth, 0).expect("no deadline set");
    Solution {
        score: r.score,
        best: r.best,
        nodes: r.stats.nodes,
    }
}
