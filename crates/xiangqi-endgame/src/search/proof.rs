//! "Can the side to move mate within `n` plies?" as a game for `search-core`'s proof-number
//! search ([`search_core::ProofSearch`]): the position with a count of plies left, a mate
//! counting as the attacker's win and anything else (running out of plies, a stalemate of the
//! attacker) as the defender's. Proof-number search follows the forcing lines, where the
//! defender has one or two replies, first, so a long mate is often proved after far fewer
//! nodes than a full-width search of the same length needs. Asked for mates by checks only
//! (every attacking move a check, the classic problems' "continuous checks"), it searches a
//! far narrower tree: the engine asks that question before its own search.

use crate::board::piece::Color;
use crate::board::square::Move;
use crate::rules::movegen::{captures_first, in_check, legal_moves};
use crate::rules::position::Position;
use search_core::{Deadline, Game, ProofResult, ProofSearch, Score, WIN};

/// What a mate search ([`crate::search::engine::find_mate`], [`shortest_mate`]) established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MateSearch {
    /// The side to move mates in `moves` of its moves (`line.len()` plies) at best.
    Mate {
        /// The side to move's moves to the mate.
        moves: u32,
        /// The mating line, both sides' moves.
        line: Vec<Move>,
        /// Nodes searched.
        nodes: u64,
    },
    /// No forced mate of at most `plies` plies exists.
    NoMate {
        /// Plies proven free of a forced mate.
        plies: u32,
        /// Nodes searched.
        nodes: u64,
    },
    /// The time ran out first: no mate of at most `plies` plies (0 when not even that much).
    Unknown {
        /// Plies proven free of a forced mate before the time ran out.
        plies: u32,
        /// Nodes searched.
        nodes: u64,
    },
}

/// The mate question for one position and length.
///
/// ```
/// use search_core::{ProofResult, ProofSearch};
/// use xiangqi_endgame::{proof::MateQuestion, Position};
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// let mut pns = ProofSearch::new(1);
/// assert_eq!(pns.prove(&mut MateQuestion::new(p, 1)), ProofResult::Proven);
/// ```
#[derive(Debug, Clone)]
pub struct MateQuestion {
    pos: Position,
    plies_left: u32,
    attacker: Color,
    checks_only: bool,
}

impl MateQuestion {
    /// Whether the side to move in `pos` mates within `plies` plies.
    pub fn new(pos: Position, plies: u32) -> MateQuestion {
        MateQuestion {
            attacker: pos.side(),
            pos,
            plies_left: plies,
            checks_only: false,
        }
    }

    /// Whether the side to move in `pos` mates within `plies` plies giving check at every
    /// move: a narrower question (a "no" leaves quiet mates open) that is much quicker to
    /// answer.
    ///
    /// ```
    /// use search_core::{ProofResult, ProofSearch};
    /// use xiangqi_endgame::{proof::MateQuestion, Position};
    /// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
    /// let mut pns = ProofSearch::new(1);
    /// assert_eq!(pns.prove(&mut MateQuestion::by_checks(p, 1)), ProofResult::Proven);
    /// ```
    pub fn by_checks(pos: Position, plies: u32) -> MateQuestion {
        MateQuestion {
            checks_only: true,
            ..MateQuestion::new(pos, plies)
        }
    }
}

impl Game for MateQuestion {
    type Move = Move;

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        legal_moves(&self.pos, moves);
        if self.checks_only && self.pos.side() == self.attacker {
            let mut pos = self.pos.clone();
            moves.retain(|&mv| {
                pos.make(mv);
                let check = in_check(&pos);
                pos.unmake();
                check
            });
        }
    }

    fn play(&mut self, mv: Move) {
        self.pos.make(mv);
        self.plies_left -= 1;
    }

    fn undo(&mut self, _mv: Move) {
        self.pos.unmake();
        self.plies_left += 1;
    }

    fn outcome(&self) -> Option<Score> {
        if self.plies_left > 0 {
            return None;
        }
        // Out of plies: mated now, or the defence held.
        let mut moves = Vec::new();
        legal_moves(&self.pos, &mut moves);
        Some(if moves.is_empty() { -WIN } else { 0 })
    }

    fn evaluate(&self) -> Score {
        0
    }

    fn hash(&self) -> u64 {
        self.pos.hash() ^ (self.plies_left as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn order_moves(&self, moves: &mut [Move]) {
        // Captures first: they end defences soonest.
        captures_first(&self.pos, moves);
    }
}

/// Proof-number mate searches sharing one table and one budget (nodes and a deadline, over
/// all the questions asked).
///
/// ```
/// use search_core::{Deadline, ProofResult};
/// use xiangqi_endgame::{proof::MateProver, Position};
/// // The rook mates at once, on the king's file or its rank (the kings may not face).
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// let mut prover = MateProver::new(1, Deadline::none(), None);
/// assert_eq!(prover.mates_within(&p, 1), ProofResult::Proven);
/// assert_eq!(prover.distance(&p, 9), Ok(Some(1)));
/// assert!(prover.mating_move(&p, 1).is_some());
/// // A bare king cannot mate.
/// let bare: Position = "4k4/9/9/9/9/9/9/9/9/3K5 w".parse().unwrap();
/// assert_eq!(prover.distance(&bare, 5), Ok(None));
/// ```
pub struct MateProver {
    pns: ProofSearch<MateQuestion>,
    checks_only: bool,
}

impl MateProver {
    /// A prover with a table of `megabytes` MiB, stopping at `deadline` or after `nodes` nodes.
    pub fn new(megabytes: usize, deadline: Deadline, nodes: Option<u64>) -> MateProver {
        let mut pns = ProofSearch::new(megabytes);
        pns.budget_mut().deadline = deadline;
        pns.budget_mut().node_limit = nodes;
        MateProver {
            pns,
            checks_only: false,
        }
    }

    /// This prover stopping (its answers unknown) once another thread raises `signal`.
    pub fn with_stop_signal(
        mut self,
        signal: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
    ) -> MateProver {
        self.pns.budget_mut().stop_signal = signal;
        self
    }

    /// This prover asking for mates by checks only ([`MateQuestion::by_checks`]): every
    /// answer is about such mates ("no mate" means none by checks alone).
    pub fn by_checks(self) -> MateProver {
        MateProver {
            checks_only: true,
            ..self
        }
    }

    fn question(&self, pos: &Position, plies: u32) -> MateQuestion {
        if self.checks_only {
            MateQuestion::by_checks(pos.clone(), plies)
        } else {
            MateQuestion::new(pos.clone(), plies)
        }
    }

    /// Nodes searched so far.
    pub fn nodes(&self) -> u64 {
        self.pns.nodes()
    }

    /// Whether the side to move in `pos` mates within `plies` plies.
    pub fn mates_within(&mut self, pos: &Position, plies: u32) -> ProofResult {
        let mut q = self.question(pos, plies);
        self.pns.prove(&mut q)
    }

    /// The length in plies of the side to move's shortest mate, asking "a mate within 1, 3,
    /// 5... plies?" up to `max_plies`: `Ok(Some(p))` once one is proven (every shorter length
    /// was disproven), `Ok(None)` when every length was disproven, `Err(free)` when the budget
    /// ran out with no mate of `free` plies or fewer proven to exist.
    pub fn distance(&mut self, pos: &Position, max_plies: u32) -> Result<Option<u32>, u32> {
        let mut free = 0;
        // The mating side moves on odd plies: no mate within k plies is none within k + 1.
        for k in (1..=max_plies).step_by(2) {
            match self.mates_within(pos, k) {
                ProofResult::Proven => return Ok(Some(k)),
                ProofResult::Disproven => free = (k + 1).min(max_plies),
                ProofResult::Unknown => return Err(free),
            }
        }
        Ok(None)
    }

    /// A move of the side to move in `pos` that keeps a mate within `plies` plies (`pos` must
    /// have one): the table's winning move, else the first move proven to do it.
    pub fn mating_move(&mut self, pos: &Position, plies: u32) -> Option<Move> {
        let mut q = self.question(pos, plies);
        if self.pns.prove(&mut q) != ProofResult::Proven {
            return None;
        }
        if let Some(mv) = self.pns.winning_move(&mut q) {
            return Some(mv);
        }
        let mut moves = Vec::new();
        q.generate_moves(&mut moves);
        moves.into_iter().find(|&mv| {
            let mut after = self.question(pos, plies);
            after.play(mv);
            after.outcome() == Some(-WIN) || self.pns.prove_loss(&mut after) == ProofResult::Proven
        })
    }

    /// The whole line of a mate of exactly `plies` plies from `pos` (the shortest there is):
    /// the mating side keeps the mate within the plies left, the defender picks a reply after
    /// which no shorter mate exists (the longest resistance). Shorter than `plies` only if
    /// the budget runs out on the way.
    pub fn mating_line(&mut self, pos: &Position, plies: u32) -> Vec<Move> {
        let mut pos = pos.clone();
        let mut line = Vec::new();
        let mut left = plies;
        let mut replies = Vec::new();
        while left > 0 {
            let Some(mv) = self.mating_move(&pos, left) else {
                break;
            };
            pos.make(mv);
            line.push(mv);
            left -= 1;
            replies.clear();
            legal_moves(&pos, &mut replies);
            if left == 0 || replies.is_empty() {
                break;
            }
            // After a reply the mate needs `left - 1` plies, or fewer for a weak reply.
            let longest = replies.iter().copied().find(|&r| {
                if left < 3 {
                    return true;
                }
                pos.make(r);
                let shorter = self.mates_within(&pos, left - 3);
                pos.unmake();
                shorter == ProofResult::Disproven
            });
            let Some(r) = longest else {
                break;
            };
            pos.make(r);
            line.push(r);
            left -= 1;
        }
        line
    }

    /// The shortest mate of at most `max_plies` plies from `pos` with its line, as
    /// [`shortest_mate`] finds it, by this prover (with its budget and its question: by checks
    /// only if [`MateProver::by_checks`] made it).
    pub fn shortest_mate(&mut self, pos: &Position, max_plies: u32) -> MateSearch {
        match self.distance(pos, max_plies) {
            Ok(Some(plies)) => {
                let line = self.mating_line(pos, plies);
                MateSearch::Mate {
                    moves: plies.div_ceil(2),
                    line,
                    nodes: self.nodes(),
                }
            }
            Ok(None) => MateSearch::NoMate {
                plies: max_plies,
                nodes: self.nodes(),
            },
            Err(free) => MateSearch::Unknown {
                plies: free,
                nodes: self.nodes(),
            },
        }
    }
}

/// The shortest forced mate for the side to move of at most `max_plies` plies, by
/// proof-number search: each length is proven or disproven in turn, so "no mate" is a proof,
/// and the line is built move by move from further proofs. The same answers as the
/// full-width [`find_mate`](crate::search::engine::find_mate), usually after far fewer nodes.
///
/// ```
/// use xiangqi_endgame::{engine::MateSearch, proof::shortest_mate, Position};
/// let p: Position = "3k5/9/9/9/9/9/9/9/4R4/4K4 w".parse().unwrap();
/// match shortest_mate(&p, 5, None, None) {
///     MateSearch::Mate { moves, line, .. } => {
///         assert_eq!(moves, 1);
///         // On the king's file or its rank: either mates (the kings may not face).
///         assert!(["e1e8", "e1d1"].contains(&line[0].to_string().as_str()));
///     }
///     other => panic!("{other:?}"),
/// }
/// ```
pub fn shortest_mate(
    pos: &Position,
    max_plies: u32,
    time: Option<std::time::Duration>,
    nodes: Option<u64>,
) -> MateSearch {
    let deadline = time.map_or(Deadline::none(), Deadline::after);
    MateProver::new(16, deadline, nodes).shortest_mate(pos, max_plies)
}
