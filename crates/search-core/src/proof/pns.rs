//! Depth-first proof-number search (df-pn; Nagai, 2002) over the [`Game`] trait.

use crate::deadline::Budget;
use crate::game::Game;
use crate::tables::hash::mix64;

/// What a proof-number search established about the question asked (by
/// [`ProofSearch::prove`]: "does the side to move force a win?").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ProofResult {
    /// Yes: the attacker forces a win.
    Proven,
    /// No: the attacker cannot force a win (its opponent wins or draws with best play).
    Disproven,
    /// The budget ran out first.
    Unknown,
}

/// The saturating "infinite" proof or disproof number.
const INFINITE: u32 = u32::MAX;

/// A table entry: the numbers of one position for one question.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    key: u64,
    phi: u32,
    delta: u32,
    /// Nodes searched below the entry when it was stored: the replacement priority.
    work: u32,
}

/// The moves of one node being searched, with what is known about each child before it is
/// entered: its table key and its first numbers.
struct Frame<M> {
    moves: Vec<M>,
    keys: Vec<u64>,
    /// The numbers of a child before it is entered: exact (solved) for a finished game, which
    /// is never entered or stored, else from [`Game::reply_count_hint`].
    initial: Vec<(u32, u32)>,
}

impl<M> Default for Frame<M> {
    fn default() -> Self {
        Frame {
            moves: Vec::new(),
            keys: Vec::new(),
            initial: Vec::new(),
        }
    }
}

/// A reusable df-pn searcher: its table keeps what earlier questions settled.
///
/// ```
/// use search_core::{Game, ProofResult, ProofSearch, Score, WIN};
/// /// Take 1 or 2 from a pile; whoever takes the last stone wins.
/// struct Nim(u32);
/// impl Game for Nim {
///     type Move = u32;
///     fn generate_moves(&self, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|&k| k <= self.0)); }
///     fn play(&mut self, k: u32) { self.0 -= k; }
///     fn undo(&mut self, k: u32) { self.0 += k; }
///     // No stones left: the player to move has lost (the opponent took the last one).
///     fn outcome(&self) -> Option<Score> { (self.0 == 0).then_some(-WIN) }
///     fn evaluate(&self) -> Score { 0 }
///     fn hash(&self) -> u64 { self.0 as u64 }
/// }
/// let mut pns = ProofSearch::new(1);
/// // Multiples of three are lost for the side to move, the rest are won.
/// assert_eq!(pns.prove(&mut Nim(30)), ProofResult::Disproven);
/// assert_eq!(pns.prove(&mut Nim(31)), ProofResult::Proven);
/// ```
///
/// Proof-number search answers one yes/no question, here "does the side to move at the root
/// win?", and spends its effort where the answer is cheapest to settle: every node carries a
/// *proof number* (how many leaves still have to be won to prove it) and a *disproof number*
/// (how many to refute it), and the search always expands the most-proving leaf. Forcing lines,
/// where the defender has one or two replies, are therefore followed very deep, which is why
/// Allis invented the method for Connect Four: wins a fixed-depth alpha-beta needs seconds to
/// reach are proved after a few thousand nodes.
///
/// The depth-first form keeps the numbers in a transposition table instead of a tree in memory:
/// a node is re-entered with two thresholds and searched until one of its numbers reaches its
/// threshold (then a sibling is more proving), so memory stays bounded by the table. Numbers
/// are kept negamax-style: `phi` is the proof number of the side to move's goal, `delta` its
/// disproof number, and for a node `phi = min(delta of children)`, `delta = sum(phi of
/// children)`. The attacker's goal is a win; the defender's is anything else (a draw counts as
/// a successful defence). A value of 0 is always exact; "infinite" numbers saturate, so only
/// the zeros are read as results. Searches stop at a [`Deadline`](crate::Deadline), a node
/// budget or a stop signal raised by another thread ([`ProofSearch::budget_mut`]), and then
/// report [`ProofResult::Unknown`].
pub struct ProofSearch<G: Game> {
    table: Vec<[Entry; 2]>,
    mask: usize,
    frames: Vec<Frame<G::Move>>,
    budget: Budget,
    nodes: u64,
    aborted: bool,
}

impl<G: Game> ProofSearch<G> {
    /// A searcher with a table of about `megabytes` MiB (at least one bucket). The table must
    /// hold the lines being searched: one far too small for the question forgets numbers as
    /// fast as it learns them, and only the deadline or node budget then ends the search.
    pub fn new(megabytes: usize) -> Self {
        let buckets = ((megabytes << 20) / std::mem::size_of::<[Entry; 2]>()).max(1);
        let size = 1 << (usize::BITS - 1 - buckets.leading_zeros());
        let mut table = Vec::with_capacity(size);
        crate::tables::tt::advise_huge_pages(&mut table);
        table.resize(size, [Entry::default(); 2]);
        ProofSearch {
            table,
            mask: size - 1,
            frames: Vec::new(),
            budget: Budget::default(),
            nodes: 0,
            aborted: false,
        }
    }

    /// What stops later searches: a deadline, a node budget (on the counter of
    /// [`nodes`](Self::nodes)) and a flag another thread may raise, as a UCI engine's `stop`
    /// does. A search stopped by any of them answers [`ProofResult::Unknown`].
    ///
    /// ```
    /// use search_core::{Game, ProofResult, ProofSearch, Score, WIN};
    /// use std::sync::{atomic::AtomicBool, Arc};
    /// // A race down a line of cells, one step a move; who cannot step has lost.
    /// # struct Race { left: u32 }
    /// # impl Game for Race {
    /// #     type Move = ();
    /// #     fn generate_moves(&self, steps: &mut Vec<()>) { if self.left > 0 { steps.push(()) } }
    /// #     fn play(&mut self, _: ()) { self.left -= 1 }
    /// #     fn undo(&mut self, _: ()) { self.left += 1 }
    /// #     fn outcome(&self) -> Option<Score> { if self.left == 0 { Some(-WIN) } else { None } }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { u64::from(self.left) }
    /// # }
    /// let mut pns = ProofSearch::new(1);
    /// pns.budget_mut().stop_signal = Some(Arc::new(AtomicBool::new(true))); // raised already
    /// assert_eq!(pns.prove(&mut Race { left: 31 }), ProofResult::Unknown);
    /// ```
    pub fn budget_mut(&mut self) -> &mut Budget {
        &mut self.budget
    }

    /// Nodes entered since the searcher was created.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets every stored number.
    pub fn clear(&mut self) {
        self.table.fill([Entry::default(); 2]);
    }

    /// Whether the side to move in `game` forces a win, within the deadline and node budget.
    /// The game is left as it was given.
    pub fn prove(&mut self, game: &mut G) -> ProofResult {
        self.answer(game, true)
    }

    /// Whether the opponent of the side to move forces a win (the side to move is lost),
    /// within the deadline and node budget. The game is left as it was given.
    ///
    /// ```
    /// # use search_core::{Game, ProofResult, ProofSearch, Score, WIN};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u32;
    /// #     fn generate_moves(&self, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|&k| k <= self.0)); }
    /// #     fn play(&mut self, k: u32) { self.0 -= k; }
    /// #     fn undo(&mut self, k: u32) { self.0 += k; }
    /// #     fn outcome(&self) -> Option<Score> { (self.0 == 0).then_some(-WIN) }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// // The take-1-or-2 game of `ProofSearch`: a multiple of three is lost for the side to move.
    /// let mut pns = ProofSearch::new(1);
    /// assert_eq!(pns.prove_loss(&mut Nim(30)), ProofResult::Proven);
    /// assert_eq!(pns.prove_loss(&mut Nim(31)), ProofResult::Disproven);
    /// ```
    pub fn prove_loss(&mut self, game: &mut G) -> ProofResult {
        self.answer(game, false)
    }

    /// Settles whether the attacker wins: the side to move when `attacker` is true, else its
    /// opponent.
    fn answer(&mut self, game: &mut G, attacker: bool) -> ProofResult {
        self.aborted = self.budget.stop_requested();
        let key = question_key(game.hash(), attacker);
        self.search(game, 0, key, attacker, INFINITE, INFINITE);
        // The numbers are the side to move's: its goal met is the attacker's win only when it
        // attacks.
        let goal_met = match self.lookup(key) {
            Some((0, _)) => Some(true),
            Some((_, 0)) => Some(false),
            _ => None,
        };
        match goal_met.map(|met| met == attacker) {
            Some(true) => ProofResult::Proven,
            Some(false) => ProofResult::Disproven,
            None => ProofResult::Unknown,
        }
    }

    /// After [`prove`](Self::prove) answered [`ProofResult::Proven`] for `game`: a move that
    /// keeps the win (one whose position the table holds as lost for the opponent, or that
    /// ends the game in a win). `None` when the table no longer holds one (it was overwritten).
    ///
    /// ```
    /// # use search_core::{Game, ProofResult, ProofSearch, Score, WIN};
    /// # struct Nim(u32);
    /// # impl Game for Nim {
    /// #     type Move = u32;
    /// #     fn generate_moves(&self, moves: &mut Vec<u32>) { moves.extend((1..=2).filter(|&k| k <= self.0)); }
    /// #     fn play(&mut self, k: u32) { self.0 -= k; }
    /// #     fn undo(&mut self, k: u32) { self.0 += k; }
    /// #     fn outcome(&self) -> Option<Score> { (self.0 == 0).then_some(-WIN) }
    /// #     fn evaluate(&self) -> Score { 0 }
    /// #     fn hash(&self) -> u64 { self.0 as u64 }
    /// # }
    /// // The take-1-or-2 game of `ProofSearch`: from 31, taking 1 leaves a multiple of three.
    /// let mut pns = ProofSearch::new(1);
    /// assert_eq!(pns.prove(&mut Nim(31)), ProofResult::Proven);
    /// assert_eq!(pns.winning_move(&mut Nim(31)), Some(1));
    /// ```
    pub fn winning_move(&mut self, game: &mut G) -> Option<G::Move> {
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        moves.into_iter().find(|&mv| {
            game.play(mv);
            let numbers = match game.outcome() {
                Some(v) => Some(finished(false, v)),
                None => self.lookup(question_key(game.hash(), false)),
            };
            game.undo(mv);
            numbers.is_some_and(|(_, delta)| delta == 0)
        })
    }

    /// Searches the node until its `phi` reaches `max_phi` or its `delta` reaches `max_delta`
    /// (or the budget runs out), and stores its numbers. `attacker` says whether the side to
    /// move is the side trying to win.
    fn search(
        &mut self,
        game: &mut G,
        ply: usize,
        key: u64,
        attacker: bool,
        max_phi: u32,
        max_delta: u32,
    ) {
        let start = self.nodes;
        self.nodes += 1;
        if self.budget.exhausted(self.nodes) {
            self.aborted = true;
        }
        if self.aborted {
            return;
        }
        if let Some(v) = game.outcome() {
            self.store(key, finished(attacker, v), INFINITE);
            return;
        }
        while self.frames.len() <= ply {
            self.frames.push(Frame::default());
        }
        let mut frame = std::mem::take(&mut self.frames[ply]);
        frame.moves.clear();
        game.generate_moves(&mut frame.moves);
        if frame.moves.is_empty() {
            self.frames[ply] = frame;
            self.store(key, finished(attacker, game.no_moves_score()), INFINITE);
            return;
        }
        game.order_moves(&mut frame.moves);
        frame.keys.clear();
        frame.initial.clear();
        for &mv in &frame.moves {
            game.play(mv);
            let child = question_key(game.hash(), !attacker);
            // The child's entry is read below: start loading it now (a probe is nearly always
            // a cache miss, and the remaining children's set-up can run meanwhile).
            crate::tables::tt::prefetch(&self.table[self.bucket(child)]);
            frame.keys.push(child);
            // A new node: one move may settle it (phi 1); each of its moves must be answered
            // to settle it against its mover (delta, the number of moves).
            frame.initial.push(match game.outcome() {
                Some(v) => finished(!attacker, v),
                None => (1, game.reply_count_hint().max(1)),
            });
            game.undo(mv);
        }
        loop {
            // The node's numbers from its children's, and the most proving child: the one
            // whose delta (our phi) is smallest, with the second smallest for its threshold.
            let mut delta = 0u32;
            let (mut best, mut best_phi, mut delta1, mut delta2) = (0, 0, INFINITE, INFINITE);
            for i in 0..frame.moves.len() {
                let initial = frame.initial[i];
                let (c_phi, c_delta) = if solved(initial) {
                    initial
                } else {
                    self.lookup(frame.keys[i]).unwrap_or(initial)
                };
                delta = delta.saturating_add(c_phi);
                if c_delta < delta1 {
                    delta2 = delta1;
                    (best, best_phi, delta1) = (i, c_phi, c_delta);
                } else if c_delta < delta2 {
                    delta2 = c_delta;
                }
            }
            let phi = delta1;
            if phi >= max_phi || delta >= max_delta || self.aborted {
                let work = u32::try_from(self.nodes - start).unwrap_or(u32::MAX);
                self.store(key, (phi, delta), work);
                self.frames[ply] = frame;
                return;
            }
            // The child's phi may grow until our delta reaches its threshold; its delta (our
            // phi) until it passes the second-best sibling's, by a quarter more to avoid
            // switching back and forth between two close siblings (the "1 + epsilon" trick).
            let child_max_phi = max_delta - delta + best_phi;
            let child_max_delta = max_phi.min(delta2.saturating_add(delta2 / 4 + 1));
            let mv = frame.moves[best];
            game.play(mv);
            self.search(
                game,
                ply + 1,
                frame.keys[best],
                !attacker,
                child_max_phi,
                child_max_delta,
            );
            game.undo(mv);
        }
    }

    /// The index of the bucket that holds `key`'s entry.
    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        key as usize & self.mask
    }

    fn lookup(&self, key: u64) -> Option<(u32, u32)> {
        self.table[self.bucket(key)]
            .iter()
            .find(|e| e.key == key && (e.phi, e.delta) != (0, 0))
            .map(|e| (e.phi, e.delta))
    }

    /// Stores into the entry of the same key, else over the one with less work behind it.
    fn store(&mut self, key: u64, (phi, delta): (u32, u32), work: u32) {
        let index = self.bucket(key);
        let bucket = &mut self.table[index];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(i) => i,
            None => (bucket[1].work < bucket[0].work) as usize,
        };
        let work = if solved((phi, delta)) { INFINITE } else { work };
        bucket[slot] = Entry {
            key,
            phi,
            delta,
            work,
        };
    }
}

/// The numbers of a finished game worth `value` to the side to move: its goal is met (a win
/// for the attacker; a draw or a win for the defender) or missed.
fn finished(attacker: bool, value: crate::game::Score) -> (u32, u32) {
    let met = if attacker { value > 0 } else { value >= 0 };
    if met {
        (0, INFINITE)
    } else {
        (INFINITE, 0)
    }
}

/// Whether numbers settle their question: a zero proof or disproof number (the only exact
/// numbers; see the module notes).
fn solved((phi, delta): (u32, u32)) -> bool {
    phi == 0 || delta == 0
}

/// The table key of a position for the question asked there: the same position is a different
/// question when its side to move attacks than when it defends.
fn question_key(hash: u64, attacker: bool) -> u64 {
    if attacker {
        hash
    } else {
        hash ^ mix64(0xD15C_0000_0000_0001)
    }
}
