//! Where a game was decided: replays a game's moves and, at every position, asks the engine's
//! wins-only proof search ([`BitSearch`] under `search-core`'s [`Searcher`]) whether a side can
//! force four in a row, deepening until a proof, the end of the game or a time budget.

use crate::engine::bit_search::{proof_searcher, BitSearch};
use crate::engine::zugzwang::FillUpSolver;
use crate::engine::GameState;
use crate::rules::bitstate::BitState;
use search_core::{Deadline, ProofResult, ProofSearch, Searcher, WIN, WIN_BOUND};
use std::time::Duration;

/// What the proof search established about one position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Proof {
    /// `winner` (1 moves first, 2 second) forces four in a row within `plies` plies.
    Win {
        /// The side that wins.
        winner: u8,
        /// Plies to the win under best play (the winner's fastest, the loser's slowest).
        plies: u32,
    },
    /// `winner` forces four in a row in more than `searched` plies: proof-number search proved
    /// the win beyond the depth alpha-beta completed, without measuring its distance.
    WinBeyond {
        /// The side that wins.
        winner: u8,
        /// Plies alpha-beta searched completely without finding the win.
        searched: u32,
    },
    /// Best play fills the board without four in a row.
    Draw,
    /// No side forces a win within `searched` plies (the deepest search completed in time).
    Open {
        /// Plies searched completely.
        searched: u32,
    },
    /// The game is over.
    Over {
        /// The winner, or `None` for a draw.
        winner: Option<u8>,
    },
}

/// One position of the game: the moves played so far and what is proven.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Verdict {
    /// Moves played before this position.
    pub ply: usize,
    /// The side to move, 1 or 2.
    pub to_move: u8,
    /// What is proven.
    pub proof: Proof,
    /// The fill-up game's verdict (`None` once the game is over).
    pub fill_up: Option<FillUp>,
}

/// Who wins the fill-up game of a position ([`crate::engine::zugzwang`]): the columns fill up with the
/// threats now on the board, and nobody makes a new one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FillUp {
    /// This side (1 or 2) wins it.
    Win(u8),
    /// The board fills up without four in a row.
    Draw,
    /// Not solved within the node budget.
    Unsolved,
}

/// Node budget of one position's fill-up game.
const FILL_UP_NODES: u64 = 1_000_000;

/// Size of the proof table, MiB.
const TABLE_MB: usize = 64;

/// Plays `moves` (columns from 0) from `start` and proves every position after the first
/// `from` of them, `start` included when `from` is 0, spending at most `per_position` on each;
/// verdicts count plies from `start`. Fails with the number of the first move that is not
/// legal there.
///
/// ```
/// use connect4::{analyze::{analyze, FillUp, Proof}, engine::GameState, Board};
/// use std::time::Duration;
/// // The first player builds three in a row on the bottom row with both ends open.
/// let start = GameState::new(Board::new(9, 9, 0, 0), 1);
/// let verdicts = analyze(&start, &[3, 3, 4, 4, 5], 0, Duration::from_millis(200)).unwrap();
/// assert_eq!(verdicts.len(), 6);
/// // After the fifth move the second player to move cannot stop four in a row.
/// assert_eq!(verdicts[5].proof, Proof::Win { winner: 1, plies: 2 });
/// // The second player's move 4 (column 4) was the last chance: after it, the first wins.
/// assert_eq!(connect4::analyze::losing_move(&verdicts), Some(3));
/// // The empty board fills up without four in a row if nobody makes a threat; after the
/// // fifth move the first player has a threat at each end of its three on the bottom row.
/// assert_eq!(verdicts[0].fill_up, Some(FillUp::Draw));
/// assert_eq!(verdicts[5].fill_up, Some(FillUp::Win(1)));
/// // Only the last three positions: the same verdicts, numbered from the start.
/// let tail = analyze(&start, &[3, 3, 4, 4, 5], 3, Duration::from_millis(200)).unwrap();
/// assert_eq!(tail[0].ply, 3);
/// assert_eq!(tail[2].proof, verdicts[5].proof);
/// assert_eq!(connect4::analyze::losing_move(&tail), Some(3));
/// ```
///
/// A student who lost a match wants to know which move lost it: the first position from which
/// the eventual winner forces the win, and the loser's move just before it. A proof is exact
/// (the search values unfinished positions at 0 and decides only wins, losses and, when it
/// reaches the end of the game, draws); an unproven position is reported with the depth that
/// was searched completely, which says "no forced win within that many plies". Half of each
/// position's time goes to that deepening; when it proves nothing, the rest goes to
/// proof-number search (`search-core`'s [`ProofSearch`]), which proves deeper wins by following
/// forcing lines, without their distance.
///
/// Beside the proof, every position gets the verdict of its fill-up game ([`crate::engine::zugzwang`]):
/// who wins if the columns fill up with the threats on the board and nobody makes a new one.
/// It is no proof (new threats change it), but it shows the zugzwang a long game turns on, often
/// dozens of plies before a search can prove anything.
pub fn analyze(
    start: &GameState,
    moves: &[usize],
    from: usize,
    per_position: Duration,
) -> Result<Vec<Verdict>, String> {
    let mut state = start.clone();
    let mut searcher: Searcher<BitSearch> = proof_searcher(TABLE_MB);
    let mut deep: ProofSearch<BitSearch> = ProofSearch::new(TABLE_MB);
    let mut fill_up = FillUpSolver::default();
    let mut verdicts = Vec::with_capacity((moves.len() + 1).saturating_sub(from));
    for ply in 0..=moves.len() {
        if ply >= from {
            let proof = match state.result {
                Some(w) => Proof::Over {
                    winner: (w != 0).then_some(w),
                },
                None => prove(&state, &mut searcher, &mut deep, per_position),
            };
            let fill_up = state.result.is_none().then(|| {
                let me = state.to_move;
                match fill_up.solve(&BitState::from_game(&state), FILL_UP_NODES) {
                    Some(1) => FillUp::Win(me),
                    Some(-1) => FillUp::Win(3 - me),
                    Some(_) => FillUp::Draw,
                    None => FillUp::Unsolved,
                }
            });
            verdicts.push(Verdict {
                ply,
                to_move: state.to_move,
                proof,
                fill_up,
            });
        }
        let Some(&y) = moves.get(ply) else { break };
        if state.result.is_some() {
            return Err(format!("move {} ({y}) after the end of the game", ply + 1));
        }
        if y >= state.board.n || !state.board.can_play(y) {
            return Err(format!("move {} ({y}) is not a legal column", ply + 1));
        }
        state.play(y);
    }
    Ok(verdicts)
}

/// Deepening wins-only searches of one unfinished position within half of `budget`, then
/// proof-number searches for either side's win within a quarter each.
fn prove(
    state: &GameState,
    searcher: &mut Searcher<BitSearch>,
    deep: &mut ProofSearch<BitSearch>,
    budget: Duration,
) -> Proof {
    let mut game = BitSearch::new(BitState::from_game(state));
    searcher.set_deadline(Deadline::after(budget / 2));
    let empty = game.state().empty_cells();
    let mut searched = 0;
    for depth in 1..=empty {
        // One window answers both questions: a value beyond ±WIN_BOUND is a proven result,
        // anything inside is "no forced win within `depth` plies".
        let v = searcher.search_root(&mut game, depth, -WIN_BOUND, WIN_BOUND);
        if searcher.aborted() {
            break;
        }
        let me = state.to_move;
        if v >= WIN_BOUND {
            return Proof::Win {
                winner: me,
                plies: (WIN - v) as u32,
            };
        }
        if v <= -WIN_BOUND {
            return Proof::Win {
                winner: 3 - me,
                plies: (WIN + v) as u32,
            };
        }
        searched = depth;
    }
    if searched == empty {
        return Proof::Draw;
    }
    let me = state.to_move;
    deep.budget_mut().deadline = Deadline::after(budget / 4);
    if deep.prove(&mut game) == ProofResult::Proven {
        return Proof::WinBeyond {
            winner: me,
            searched,
        };
    }
    deep.budget_mut().deadline = Deadline::after(budget / 4);
    if deep.prove_loss(&mut game) == ProofResult::Proven {
        return Proof::WinBeyond {
            winner: 3 - me,
            searched,
        };
    }
    Proof::Open { searched }
}

/// The move that lost the game: the index in the game's moves (its ply) of the last move after
/// which the eventual winner (the winner of a finished game, or the side proven to win the last
/// position) is proven to win at every position (`None` when there is no winner, or the loser
/// was lost from the first position analysed).
pub fn losing_move(verdicts: &[Verdict]) -> Option<usize> {
    let winner = match verdicts.last()?.proof {
        Proof::Over { winner: Some(w) }
        | Proof::Win { winner: w, .. }
        | Proof::WinBeyond { winner: w, .. } => w,
        _ => return None,
    };
    let proven = |v: &Verdict| match v.proof {
        Proof::Win { winner: w, .. } | Proof::WinBeyond { winner: w, .. } => w == winner,
        Proof::Over { winner: w } => w == Some(winner),
        _ => false,
    };
    // The first position of the final run of proven wins.
    let start = verdicts
        .iter()
        .rposition(|v| !proven(v))
        .map_or(0, |i| i + 1);
    Some(verdicts[start.checked_sub(1)?].ply)
}
