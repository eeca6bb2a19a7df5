//! Repetitions and the natural move limit, ruled as computer-xiangqi events rule them: a side
//! that gives check with every move of a repeated cycle while the other does not loses
//! (perpetual check); any other repetition is a draw, and so are 60 moves by each side
//! without a capture.
//!
//! A [`GameLine`] keeps, for every position of the game and of the search line below it, its
//! hash, whether the side to move is in check there and whether the move into it could be
//! repeated (not a capture, not a null move). The course's `run` does not use it: its answers
//! keep the assignment's rules.

use crate::rules::movegen::in_check;
use crate::rules::position::Position;
use search_core::{Score, WIN};
use std::cell::Cell;

/// Plies without a capture after which the game is drawn (60 moves by each side).
pub const NATURAL_LIMIT_PLIES: usize = 120;

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    hash: u64,
    /// The side to move here is in check; `None` until someone asks (most positions of a
    /// search are leaves, where nobody does).
    checked: Cell<Option<bool>>,
    /// The move into this position could be undone by later moves (no capture, no pass).
    reversible: bool,
}

/// The positions of a game and of the search line below it.
///
/// ```
/// use xiangqi_endgame::{repetition::GameLine, Move, Position};
/// // Both kings step aside and back: the start position comes round again, a draw.
/// let mut p: Position = "4k4/9/9/9/9/9/9/9/9/3K5 w".parse().unwrap();
/// let mut line = GameLine::new(&p);
/// for m in ["d0d1", "e9f9", "d1d0", "f9e9"] {
///     p.make(m.parse::<Move>().unwrap());
///     line.record(&p, false);
/// }
/// assert_eq!(line.ruling(0, || false), Some(0));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameLine {
    entries: Vec<Entry>,
}

impl GameLine {
    /// A line that starts at `pos`.
    pub fn new(pos: &Position) -> GameLine {
        let mut entries = Vec::with_capacity(256);
        entries.push(Entry {
            hash: pos.hash(),
            checked: Cell::new(Some(in_check(pos))),
            reversible: true,
        });
        GameLine { entries }
    }

    /// Plays `moves` (UCI form, each checked legal) from `start`: the position reached and the
    /// line leading to it. Fails with the first move that is not legal where it is played.
    ///
    /// ```
    /// use xiangqi_endgame::{repetition::GameLine, Position, START_FEN};
    /// let start: Position = START_FEN.parse().unwrap();
    /// let (p, line) = GameLine::replay(start.clone(), &["h2e2", "h9g7"]).unwrap();
    /// assert_eq!((p.ply(), line.len()), (2, 3));
    /// assert_eq!(GameLine::replay(start, &["h2e2", "h2e2"]).unwrap_err(), "illegal move h2e2");
    /// ```
    pub fn replay(start: Position, moves: &[&str]) -> Result<(Position, GameLine), String> {
        let mut pos = start;
        let mut line = GameLine::new(&pos);
        let mut legal = Vec::new();
        for m in moves {
            let mv: crate::board::square::Move = m.parse()?;
            legal.clear();
            crate::rules::movegen::legal_moves(&pos, &mut legal);
            if !legal.contains(&mv) {
                return Err(format!("illegal move {m}"));
            }
            let captured = pos.at(mv.to).is_some();
            pos.make(mv);
            line.record(&pos, captured);
        }
        Ok((pos, line))
    }

    /// Records the position reached by a move of the game just made on `pos` (`captured`: it
    /// took a piece, so nothing before it can come back), with its check status.
    pub fn record(&mut self, pos: &Position, captured: bool) {
        self.push(pos.hash(), captured);
        self.entries[self.entries.len() - 1]
            .checked
            .set(Some(in_check(pos)));
    }

    /// Records the position of hash `hash` reached by a search move (its check status is
    /// computed if asked for).
    #[inline]
    pub fn push(&mut self, hash: u64, captured: bool) {
        self.entries.push(Entry {
            hash,
            checked: Cell::new(None),
            reversible: !captured,
        });
    }

    /// Records a pass (a null move of the search): no repetition reaches across it.
    #[inline]
    pub fn push_null(&mut self, pos: &Position) {
        self.entries.push(Entry {
            hash: pos.hash(),
            checked: Cell::new(Some(false)),
            reversible: false,
        });
    }

    /// Forgets the last position recorded.
    #[inline]
    pub fn pop(&mut self) {
        self.entries.pop();
    }

    /// Number of positions recorded.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether nothing is recorded (never, after [`GameLine::new`]).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether the side to move in the last position, `pos`, is in check (computed once).
    #[inline]
    pub fn in_check(&self, pos: &Position) -> bool {
        let Some(last) = self.entries.last() else {
            return in_check(pos);
        };
        match last.checked.get() {
            Some(c) => c,
            None => {
                let c = in_check(pos);
                last.checked.set(Some(c));
                c
            }
        }
    }

    /// The ruling on the last position for its side to move, considering only repetitions of
    /// a position after index `from` (the search's root, so that the root itself is never
    /// ruled over): `Some(WIN)` when the opponent has checked perpetually, `Some(-WIN)` when
    /// the side to move has, `Some(0)` for any other repetition or the natural limit, `None`
    /// when play goes on. `now_checked` says whether the side to move is in check now, if
    /// that is not known yet.
    pub fn ruling(&self, from: usize, now_checked: impl FnOnce() -> bool) -> Option<Score> {
        let n = self.entries.len();
        if n <= from + 1 {
            return None;
        }
        let now = &self.entries[n - 1];
        let mut quiet_run = 0;
        for j in (0..n).rev() {
            if j + 1 < n && !self.entries[j + 1].reversible {
                break;
            }
            // Position j has the same side to move as now, and is an earlier one.
            if j < n - 1 && (n - 1 - j).is_multiple_of(2) && self.entries[j].hash == now.hash {
                if now.checked.get().is_none() {
                    now.checked.set(Some(now_checked()));
                }
                return Some(self.cycle_ruling(j));
            }
            quiet_run += 1;
        }
        (quiet_run > NATURAL_LIMIT_PLIES).then_some(0)
    }

    /// The ruling on the cycle from position `start` to the last one.
    fn cycle_ruling(&self, start: usize) -> Score {
        let n = self.entries.len();
        let cycle = &self.entries[start + 1..n];
        // Positions at an even distance from the end have the side to move now to move: each
        // of them in check means the opponent checked with every move of the cycle.
        let checked = |e: &Entry| e.checked.get() == Some(true);
        let opponent_checks = cycle.iter().rev().step_by(2).all(checked);
        let mover_checks = cycle.iter().rev().skip(1).step_by(2).all(checked);
        match (opponent_checks, mover_checks) {
            (true, false) => WIN,
            (false, true) => -WIN,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(fen: &str, moves: &[&str]) -> GameLine {
        GameLine::replay(fen.parse().unwrap(), moves).unwrap().1
    }

    #[test]
    fn perpetual_check_loses_for_the_checking_side() {
        // The chariot checks on the d and e files in turn as the king steps between them.
        let line = play(
            "3k5/9/9/9/4R4/9/9/9/9/5K3 w",
            &["e5d5", "d9e9", "d5e5", "e9d9", "e5d5"],
        );
        // Black is to move in the repeated position and was checked by every red move.
        assert_eq!(line.ruling(0, || false), Some(WIN));
        // One ply earlier the start position had come back with red, the checker, to move.
        let mut shorter = line.clone();
        shorter.pop();
        assert_eq!(shorter.ruling(0, || false), Some(-WIN));
        shorter.pop();
        assert_eq!(shorter.ruling(0, || false), None);
    }

    #[test]
    fn a_capture_ends_what_can_repeat_and_the_root_is_never_ruled() {
        let line = play(
            "4k4/9/9/9/9/9/9/9/9/3K5 w",
            &["d0d1", "e9f9", "d1d0", "f9e9"],
        );
        assert_eq!(line.ruling(0, || false), Some(0));
        assert_eq!(line.ruling(line.len() - 1, || false), None);
        let mut cut = line.clone();
        cut.entries[2].reversible = false;
        assert_eq!(cut.ruling(0, || false), None);
    }

    #[test]
    fn sixty_moves_each_without_a_capture_draw() {
        let p: Position = "4k4/9/9/9/9/9/9/9/9/3K5 w".parse().unwrap();
        let mut line = GameLine::new(&p);
        for i in 0..NATURAL_LIMIT_PLIES as u64 {
            // Distinct hashes: no repetition, only the count.
            line.push(i + 1, false);
            let expected = (i + 1 == NATURAL_LIMIT_PLIES as u64).then_some(0);
            assert_eq!(line.ruling(0, || false), expected, "after {} plies", i + 1);
        }
    }
}
