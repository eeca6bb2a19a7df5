//! The position as `search-core`'s searches see it: a [`Game`] over the
//! rules chosen (standard or the course framework's), with the evaluation chosen, the moves in
//! the engine's order (exchanges by static exchange evaluation), and the caches that make it
//! fast (exchange values, the network's accumulators, evaluations).

use crate::board::piece::{Color, Kind};
use crate::board::square::{Move, Square};
use crate::eval::nnue::{Accumulator, Network};
use crate::eval::{evaluate, net_eval, piece_value, EvalKind};
use crate::rules::framework;
use crate::rules::movegen::{
    captures_first, in_check, lands_attacked, legal_captures, legal_moves,
};
use crate::rules::position::Position;
use crate::rules::repetition::GameLine;
use search_core::{Game, Score, WIN};

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
    /// Captures ordered and judged by their static exchange ([`crate::eval::see`]) instead of by
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

    /// How much material `mv` loses in `pos` ([`crate::eval::see::material_lost`]).
    #[inline]
    fn material_lost(&self, pos: &Position, mv: Move) -> i32 {
        let code = u64::from(mv.from.0) << 8 | u64::from(mv.to.0);
        let key = pos.hash() ^ code.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0
            .get_or(key, || crate::eval::see::material_lost(pos, mv) as u32) as i32
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

/// The accumulators of [`crate::eval::nnue`] from the root to the current position: a move pushes
/// the updated one, its undo pops it.
#[derive(Debug, Clone)]
struct NetStack {
    net: &'static Network,
    stack: Vec<Accumulator>,
}

impl NetStack {
    fn new(pos: &Position) -> NetStack {
        let net = crate::eval::nnue::built_in();
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

    /// Orders and judges captures by their static exchange ([`crate::eval::see`]) or, with `on`
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
    let value = |sq: Square| {
        pos.at(sq)
            .map_or(0, |p| crate::eval::see::exchange_value(p.kind))
    };
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn the_cached_and_updated_evaluations_return_what_the_evaluation_does() {
        for kind in [EvalKind::Activity, EvalKind::Net] {
            let mut rng = search_core::SmallRng::seed_from_u64(9);
            let mut moves = Vec::new();
            let start: Position = crate::rules::fen::START_FEN.parse().unwrap();
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
        // The chariot on d0 can take the pawn on d4, which the chariot on d9 defends, and the
        // chariot on a0 the pawn on a3, which nothing defends.
        let p: Position = "3r1k3/9/9/9/9/3p5/p8/9/9/R2RK4 w".parse().unwrap();
        let mut game = SearchPosition::new(p, Rules::Legal, EvalKind::Course);
        game.use_static_exchange(true);
        let mut moves = Vec::new();
        game.generate_moves(&mut moves);
        game.order_moves(&mut moves);
        let (good, losing): (Move, Move) = ("a0a3".parse().unwrap(), "d0d4".parse().unwrap());
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
