//! Move ordering: the table move, tactical moves, killers, the counter-move, then quiet moves
//! by history and continuation history, and how those tables learn from cut-offs.

use super::{note, Searcher};
use crate::game::{Game, Score, CONTINUATION_SIZE, HISTORY_SIZE};
use crate::tables::tt::Transpositions;

impl<G: Game, T: Transpositions<G::Move>> Searcher<G, T> {
    pub(super) fn reward_quiet(&mut self, game: &G, mv: G::Move, ply: usize, depth: i32) {
        if let Some(slot) = self.counter_slot(ply) {
            if self.counters.is_empty() {
                self.counters.resize(HISTORY_SIZE, None);
            }
            self.counters[slot] = Some(mv);
        }
        if self.options.killers {
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None, None]);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(mv) {
                k[1] = k[0];
                k[0] = Some(mv);
            }
        }
        if self.options.history {
            self.add_history(game, mv, ply, depth * depth);
        }
    }

    /// Records the history index of the move played at `ply` (for the counter move of the
    /// node below).
    pub(super) fn note_played(&mut self, ply: usize, index: Option<usize>) {
        note(&mut self.played, ply, index);
    }

    /// The rows of the continuation history that score the moves of the node at `ply`: after
    /// the opponent's last move and after the side's own move before it.
    pub(super) fn continuation_rows(&self, ply: usize) -> [Option<usize>; 2] {
        if !self.options.continuation_history || self.continuation.is_empty() {
            return [None, None];
        }
        let before = |back: usize| {
            let i = ply.checked_sub(back)?;
            Some(self.played_pieces.get(i).copied()?? * CONTINUATION_SIZE)
        };
        [before(1), before(2)]
    }

    /// The counter-move slot of the node at `ply`: that of the move that led to it.
    pub(super) fn counter_slot(&self, ply: usize) -> Option<usize> {
        if !self.options.counter_moves || ply == 0 {
            return None;
        }
        let index = (*self.played.get(ply - 1)?)?;
        Some(index % HISTORY_SIZE)
    }

    /// Adds `amount` to the history score of `mv`, halving every score when one grows too large.
    /// With the continuation history on, the scores of `mv` after the moves that led to the
    /// node at `ply` move the same way.
    pub(super) fn add_history(&mut self, game: &G, mv: G::Move, ply: usize, amount: i32) {
        if let Some(h) = game.history_index(mv) {
            let slot = &mut self.history[h % HISTORY_SIZE];
            *slot = slot.saturating_add(amount);
            if slot.abs() > 1 << 30 {
                self.history.iter_mut().for_each(|x| *x /= 2);
            }
        }
        if self.options.continuation_history {
            if self.continuation.is_empty() {
                self.continuation = vec![0; CONTINUATION_SIZE * CONTINUATION_SIZE];
            }
            let Some(piece) = game.continuation_index(mv) else {
                return;
            };
            for row in self.continuation_rows(ply).into_iter().flatten() {
                let slot = &mut self.continuation[row + piece % CONTINUATION_SIZE];
                *slot = slot.saturating_add(amount);
                if slot.abs() > 1 << 30 {
                    self.continuation.iter_mut().for_each(|x| *x /= 2);
                }
            }
        }
    }

    /// The game's order, then its tactical prefix kept in front, killers, the counter move,
    /// and quiet moves by history (the hash move, if any, is already out of `moves`: see
    /// `search`).
    pub(super) fn order(
        &self,
        game: &G,
        moves: &mut [G::Move],
        (ply, depth): (usize, i32),
        alpha: Score,
        beta: Score,
    ) {
        game.order_moves_at_depth(moves, alpha, beta, depth);
        let mut front = 0;
        while front < moves.len() && game.is_tactical(moves[front]) {
            front += 1;
        }
        let to_front = |moves: &mut [G::Move], front: &mut usize, m: &G::Move| {
            if let Some(i) = moves[*front..].iter().position(|x| x == m) {
                moves[*front..=*front + i].rotate_right(1);
                *front += 1;
            }
        };
        if self.options.killers {
            if let Some(ks) = self.killers.get(ply) {
                for k in ks.iter().flatten() {
                    to_front(moves, &mut front, k);
                }
            }
        }
        let counter = self
            .counter_slot(ply)
            .and_then(|slot| *self.counters.get(slot)?);
        if let Some(c) = counter {
            to_front(moves, &mut front, &c);
        }
        if self.options.history {
            // A stable sort of the quiet tail by descending history score.
            let rows = self.continuation_rows(ply);
            let score = |m: &G::Move| {
                let history = game
                    .history_index(*m)
                    .map_or(0, |h| self.history[h % HISTORY_SIZE]);
                if rows == [None, None] {
                    return history;
                }
                let Some(piece) = game.continuation_index(*m) else {
                    return history;
                };
                rows.iter().flatten().fold(history, |s, row| {
                    s.saturating_add(self.continuation[row + piece % CONTINUATION_SIZE])
                })
            };
            let tail = &mut moves[front..];
            let mut keys = [0i32; 128];
            if tail.len() <= keys.len() {
                // Each score computed once, into a buffer on the stack.
                let keys = &mut keys[..tail.len()];
                for (k, m) in keys.iter_mut().zip(tail.iter()) {
                    *k = score(m);
                }
                crate::ordering::sort_descending_by_keys(tail, keys);
            } else {
                // More moves than any game here has: the same stable order, allocating.
                tail.sort_by_key(|m| std::cmp::Reverse(score(m)));
            }
        }
    }
}
