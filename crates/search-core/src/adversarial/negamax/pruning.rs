//! The decisions that cut a node short or search it shallower, each a test of its own: null
//! move, Multi-ProbCut, singular extensions with multi-cut, enhanced transposition cut-offs, and
//! the late-move reduction table.

use super::{note, ProbCut, Searcher};
use crate::game::{Game, Score, WIN_BOUND};
use crate::tables::tt::{Bound, Transpositions};

impl<G: Game, T: Transpositions<G::Move>> Searcher<G, T> {
    /// Null-move pruning at a node where it is allowed: `Some(score)` when letting the opponent
    /// move twice still fails high (and, deep enough, the node's own reduced search agrees).
    pub(super) fn null_move(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        beta: Score,
        allowed: bool,
        evaluate: &mut impl FnMut(&G) -> Score,
    ) -> Option<Score> {
        let mut r = self.options.null_move? + depth / 4;
        if self.options.checks_at_horizon {
            r = r.min(depth - 2);
        }
        if !allowed || depth < 2 || !game.null_move_allowed() || evaluate(game) < beta {
            return None;
        }
        if self.options.counter_moves {
            self.note_played(ply, None);
        }
        if self.options.continuation_history {
            note(&mut self.played_pieces, ply, None);
        }
        game.play_null();
        let v = -self.search(game, depth - 1 - r, ply + 1, -beta, -beta + 1, false);
        game.undo_null();
        if self.aborted || v < beta {
            return None;
        }
        if self.options.null_verify_depth.is_some_and(|d| depth >= d) {
            let verified = self.search(game, depth - r, ply, beta - 1, beta, false);
            if self.aborted || verified < beta {
                return None;
            }
        }
        self.stats.cutoffs += 1;
        // A mate found behind a pass proves nothing about the position itself.
        Some(if v >= WIN_BOUND { beta } else { v })
    }

    /// ProbCut at a node off the principal variation: `Some(bound)` when a shallow search puts
    /// the node's value beyond the window by the margin.
    pub(super) fn probcut(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        (alpha, beta): (Score, Score),
        evaluate: &mut impl FnMut(&G) -> Score,
    ) -> Option<Score> {
        let pc = self.options.probcut?;
        if depth < pc.min_depth {
            return None;
        }
        let shallow = ProbCut::shallow_depth(depth);
        // The bounds the shallow value must clear: beta and alpha moved by the expected
        // difference and by the margin.
        let (offset, margin) = match pc.confidence.and_then(|t| {
            let e = game.probcut_error(depth, shallow)?;
            Some((e.mean, (e.sigma.max(0) as i64 * t as i64 / 100) as Score))
        }) {
            Some(fitted) => fitted,
            None => (0, pc.margin),
        };
        let high = beta.saturating_sub(offset).saturating_add(margin);
        let low = alpha.saturating_sub(offset).saturating_sub(margin);
        // One test where the static value points: the node is more likely to fail on its side.
        let (try_high, try_low) = if pc.one_side_by_evaluation {
            let e = evaluate(game);
            (e >= beta, e < beta)
        } else {
            (true, true)
        };
        if try_high && high < WIN_BOUND {
            let v = self.search(game, shallow, ply, high - 1, high, false);
            if self.aborted {
                return None;
            }
            if v >= high {
                self.stats.cutoffs += 1;
                return Some(beta);
            }
        }
        if try_low && low > -WIN_BOUND {
            let v = self.search(game, shallow, ply, low, low + 1, false);
            if self.aborted {
                return None;
            }
            if v <= low {
                self.stats.cutoffs += 1;
                return Some(alpha);
            }
        }
        None
    }

    /// The singular-extension test ([`Singular`]) of the table move `mv` at a node whose table
    /// entry holds `(value, depth, bound)`: `None` when the test does not apply or the move is
    /// not singular.
    pub(super) fn singular(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        beta: Score,
        mv: G::Move,
        (value, searched, bound): (Score, i32, Bound),
    ) -> Option<Singularity> {
        let sg = self.options.singular?;
        if depth < sg.min_depth
            || searched < depth - 3
            || bound == Bound::Upper
            || value.abs() >= WIN_BOUND
        {
            return None;
        }
        let bar = value - sg.margin_per_ply * depth;
        if bar <= -WIN_BOUND {
            return None;
        }
        note(&mut self.excluded, ply, Some(mv));
        let v = self.search(game, (depth - 1) / 2, ply, bar - 1, bar, false);
        note(&mut self.excluded, ply, None);
        if self.aborted {
            None
        } else if v < bar {
            Some(Singularity::Singular)
        } else if bar >= beta {
            self.stats.cutoffs += 1;
            Some(Singularity::MultiCut(bar))
        } else {
            None
        }
    }

    /// Enhanced transposition cut-off: a move whose resulting position the table already
    /// bounds at or above `beta` (from this side) for at least `depth - 1` plies.
    pub(super) fn transposition_cutoff(
        &mut self,
        game: &mut G,
        moves: &[G::Move],
        depth: i32,
        ply: usize,
        beta: Score,
    ) -> Option<Score> {
        // The children's slots are fetched a chunk at a time before any is read, so that their
        // cache misses overlap instead of following one another.
        const CHUNK: usize = 16;
        let mut keys = [0u64; CHUNK];
        for chunk in moves.chunks(CHUNK) {
            for (key, &mv) in keys.iter_mut().zip(chunk) {
                game.play(mv);
                *key = game.hash();
                game.undo(mv);
                self.tt.prefetch(*key);
            }
            for (&key, &mv) in keys.iter().zip(chunk) {
                if let Some(e) = self.tt.probe(key, ply as u32 + 1) {
                    if e.depth as i32 >= depth - 1
                        && matches!(e.bound, Bound::Upper | Bound::Exact)
                        && -e.score >= beta
                    {
                        self.stack.pv[ply].push(mv);
                        return Some(-e.score);
                    }
                }
            }
        }
        None
    }
}

/// What a singular-extension test found.
pub(super) enum Singularity {
    /// No other move comes near the table move: search it a ply deeper.
    Singular,
    /// Another move, too, reaches a bound at or above beta: the node fails high with it.
    MultiCut(Score),
}

/// How many plies a late quiet move (the `index`-th of its node, from 0) is reduced by at
/// `depth`: growing with the logarithms of both, as in tournament engines (one ply for the
/// first late moves at depth 3, three or more for the tail of a deep node).
///
/// Never inlined: inlined, the compiler computed the logarithms of the fallback ahead of the
/// test for a reducible move, in every node of searches that never reduce (0.7% of an Othello
/// endgame solve).
#[inline(never)]
pub(super) fn late_move_reduction(depth: i32, index: usize) -> i32 {
    // Looked up for the usual depths and move counts: computing the logarithms at every node
    // cost 1% of an Othello endgame solve, which never reduces (the compiler hoisted them).
    const DEPTHS: usize = 64;
    const INDICES: usize = 64;
    static TABLE: std::sync::OnceLock<[[u8; INDICES]; DEPTHS]> = std::sync::OnceLock::new();
    let formula = |depth: i32, index: usize| {
        let r = 0.75 + (depth.max(1) as f64).ln() * (index.max(1) as f64).ln() / 2.25;
        (r as i32).max(1)
    };
    match (usize::try_from(depth), index) {
        (Ok(d), i) if d < DEPTHS && i < INDICES => {
            let table = TABLE.get_or_init(|| {
                std::array::from_fn(|d| std::array::from_fn(|i| formula(d as i32, i) as u8))
            });
            i32::from(table[d][i])
        }
        _ => formula(depth, index),
    }
}
