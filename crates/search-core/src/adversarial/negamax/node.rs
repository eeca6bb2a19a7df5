//! The node loop of the negamax search: table probe, pruning before the moves, the moves in
//! order with reductions and extensions, the bound stored; and the quiescence search at the
//! horizon.

use super::pruning::{late_move_reduction, Singularity};
use super::{note, Searcher, MAX_QUIESCENCE_PLY};
use crate::game::{mate_in, Game, Score, INF, WIN, WIN_BOUND};
use crate::tables::tt::{Bound, Transpositions};

impl<G: Game, T: Transpositions<G::Move>> Searcher<G, T> {
    pub(super) fn search(
        &mut self,
        game: &mut G,
        depth: i32,
        ply: usize,
        alpha0: Score,
        beta: Score,
        allow_null: bool,
    ) -> Score {
        self.stats.nodes += 1;
        self.stack.enter(ply);
        if self.should_stop() {
            return 0;
        }
        let ply32 = ply as u32;
        if let Some(v) = game.outcome() {
            self.stats.leaves += 1;
            return mate_in(v, ply32);
        }
        let (mut alpha0, mut beta) = (alpha0, beta);
        if ply > 0 && self.options.mate_distance_pruning {
            // Nothing here beats mating on the next ply or loses worse than being mated now.
            alpha0 = alpha0.max(-WIN + ply as Score);
            beta = beta.min(WIN - ply as Score - 1);
            if alpha0 >= beta {
                return alpha0;
            }
        }
        if ply > 0 {
            if let Some(v) = game.leaf_solve(alpha0, beta) {
                self.stats.leaves += 1;
                return v;
            }
        }
        let mut alpha = alpha0;
        // A singular-extension test of this node: its table entry is the node's, not the
        // test's, so the table is left alone here (the children use it).
        let excluded = self.excluded.get(ply).copied().flatten();
        let use_tt =
            self.options.use_tt && depth >= self.options.tt_min_depth && excluded.is_none();
        let key = if use_tt { game.hash() } else { 0 };
        let mut hash_move = None;
        let mut table_value = None;
        if use_tt {
            if let Some(e) = self.tt.probe(key, ply32) {
                hash_move = e.mv;
                table_value = Some((e.score, e.depth as i32, e.bound));
                if ply > 0 && e.depth as i32 >= depth {
                    let usable = match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => e.score >= beta,
                        Bound::Upper => e.score <= alpha,
                    };
                    if usable {
                        self.stats.tt_cutoffs += 1;
                        game.on_table_hit(e.score);
                        if let Some(m) = e.mv {
                            self.stack.pv[ply].push(m);
                        }
                        return e.score;
                    }
                }
            }
        }
        let extend_checks = ply < 2 * self.root_depth as usize + 8;
        // At the horizon the check is looked at only when a side in check is extended there.
        let in_check = ply > 0 && (depth > 0 || self.options.checks_at_horizon) && game.in_check();
        if depth <= 0 && !(in_check && extend_checks) {
            return self.quiesce(game, ply, alpha, beta);
        }
        // Check extension, bounded so that perpetual checks cannot run away.
        let depth = if in_check && extend_checks {
            depth + 1
        } else {
            depth
        };
        let pv_node = beta - alpha > 1;
        let depth = match self.options.internal_reduction_depth {
            Some(d) if use_tt && hash_move.is_none() && depth >= d && ply > 0 => depth - 1,
            _ => depth,
        };
        let selective = ply > 0 && !in_check && !pv_node && beta.abs() < WIN_BOUND;
        // The node-level prunings (reverse futility, null move, ProbCut) are not tried in a
        // singular-extension test: it asks about the other moves, not the node.
        let prunable_node = selective && excluded.is_none();
        // The static value, for the null move and futility, computed once and only if asked.
        let mut static_value = None;
        let mut evaluate = |game: &G| *static_value.get_or_insert_with(|| game.evaluate());
        // `None` with the option off.
        let improving = (self.options.improving && ply > 0).then(|| {
            let here = (!in_check).then(|| evaluate(game));
            note(&mut self.static_values, ply, here);
            // Unknown two plies up (in check, or the root's side): taken as improving.
            let before = ply.checked_sub(2).and_then(|p| self.static_values[p]);
            match (here, before) {
                (Some(now), Some(then)) => now > then,
                _ => true,
            }
        });
        if prunable_node
            && self
                .options
                .reverse_futility_depth
                .is_some_and(|d| depth <= d)
            && game.null_move_allowed()
        {
            if let Some(margin) = self.options.futility_margin {
                let v = evaluate(game);
                let plies = depth - i32::from(improving == Some(true));
                if v - margin * plies >= beta && v < WIN_BOUND {
                    self.stats.cutoffs += 1;
                    return v;
                }
            }
        }
        if let Some(v) = self.null_move(
            game,
            depth,
            ply,
            beta,
            allow_null && prunable_node,
            &mut evaluate,
        ) {
            return v;
        }
        if prunable_node {
            if let Some(v) = self.probcut(game, depth, ply, (alpha, beta), &mut evaluate) {
                return v;
            }
        }
        let singular = match (hash_move, table_value) {
            (Some(mv), Some(value)) if ply > 0 && extend_checks => {
                match self.singular(game, depth, ply, beta, mv, value) {
                    Some(Singularity::MultiCut(v)) => return v,
                    Some(Singularity::Singular) => Some(mv),
                    None => None,
                }
            }
            _ => None,
        };
        if self.aborted {
            return 0;
        }
        // What the searches before the moves (null move, ProbCut, singular) left at this ply.
        self.stack.pv[ply].clear();
        // Futility: this close to the horizon, quiet moves cannot lift a hopeless static value.
        let futile = selective
            && depth <= self.options.futility_depth
            && alpha.abs() < WIN_BOUND
            && self
                .options
                .futility_margin
                .is_some_and(|m| evaluate(game) + m * depth <= alpha);
        let mut moves = std::mem::take(&mut self.stack.moves[ply]);
        moves.clear();
        game.generate_moves(&mut moves);
        if moves.is_empty() {
            self.stats.leaves += 1;
            self.stack.moves[ply] = moves;
            return mate_in(game.no_moves_score(), ply32);
        }
        if let Some(left_out) = excluded {
            moves.retain(|&m| m != left_out);
            if moves.is_empty() {
                // The table move is the only move: singular by definition.
                self.stack.moves[ply] = moves;
                return alpha0;
            }
        }
        // Not at the root, like the table cut-off above: the root must name its best move.
        // Enhanced transposition cut-off here (it fetches the children's slots itself).
        let etc_here = ply > 0 && use_tt && self.options.etc_min_depth.is_some_and(|d| depth >= d);
        if etc_here {
            if let Some(v) = self.transposition_cutoff(game, &moves, depth, ply, beta) {
                self.stack.moves[ply] = moves;
                self.stats.tt_cutoffs += 1;
                self.tt
                    .store(key, depth as i16, ply32, v, Bound::Lower, None);
                return v;
            }
        }
        // The hash move, or else the game's likely cut-off, is searched before the others are
        // ordered: when it cuts off (the common case in re-searches), ordering them, often the
        // costliest part of a node, is skipped. The others end in the same order as if all
        // had been ordered at once.
        let first_alone = match hash_move {
            Some(h) => moves.iter().position(|&m| m == h),
            None => game.likely_cutoff(&moves, alpha, beta),
        };
        match first_alone {
            Some(i) => moves[..=i].rotate_right(1),
            None => self.order(game, &mut moves, (ply, depth), alpha, beta),
        }
        if self.options.prefetch_children
            && use_tt
            && depth > self.options.tt_min_depth
            && !etc_here
        {
            for &mv in &moves {
                game.play(mv);
                self.tt.prefetch(game.hash());
                game.undo(mv);
            }
        }
        let mut best = -INF;
        let mut best_mv = moves[0];
        let mut pruned = false;
        // Moves put off because another thread is searching the position they lead to, by
        // index (the first 128 moves); they are searched after the others.
        let defer = matches!(&self.defer_busy, Some((_, d)) if depth >= *d);
        let mut deferred = 0u128;
        let mut next = 0;
        loop {
            let first_pass = next < moves.len();
            let k = if first_pass {
                next += 1;
                next - 1
            } else if deferred != 0 {
                let k = deferred.trailing_zeros() as usize;
                deferred &= deferred - 1;
                k
            } else {
                break;
            };
            if k == 1 && first_alone.is_some() && first_pass {
                self.order(game, &mut moves[1..], (ply, depth), alpha, beta);
            }
            let mv = moves[k];
            let quiet = !game.is_tactical(mv);
            // Late quiet moves may be pruned (futility) or reduced (LMR) unless they give check.
            let reducible = quiet
                && k >= 3
                && depth >= 3
                && ply > 0
                && !in_check
                && self.options.late_move_reductions;
            if ply == 0 {
                if let Some(hook) = self.root_move_hook.as_mut() {
                    hook(mv, k + 1, self.root_depth);
                }
            }
            // A capture that loses material, near the horizon, off the principal variation.
            let losing = k > 0
                && !quiet
                && selective
                && self
                    .options
                    .losing_captures_depth
                    .is_some_and(|d| depth <= d)
                && game.losing_capture(mv);
            if losing {
                pruned = true;
                continue;
            }
            let played_index = if self.options.counter_moves {
                game.history_index(mv)
            } else {
                None
            };
            let played_piece = if self.options.continuation_history {
                game.continuation_index(mv)
            } else {
                None
            };
            game.play(mv);
            // Late-move pruning: near the horizon, off the principal variation, the tail of the
            // quiet moves is not searched at all.
            let prunable = k > 0
                && quiet
                && (futile
                    || selective
                        && self.options.late_move_pruning
                        && depth <= 3
                        && k >= 4 + (depth * depth) as usize);
            let gives_check = (reducible || prunable) && game.in_check();
            if prunable && !gives_check {
                game.undo(mv);
                pruned = true;
                continue;
            }
            if self.options.counter_moves {
                self.note_played(ply, played_index);
            }
            if self.options.continuation_history {
                note(&mut self.played_pieces, ply, played_piece);
            }
            let child = defer.then(|| game.hash());
            if let (Some(key), Some((busy, _))) = (child, &self.defer_busy) {
                if first_pass && k > 0 && k < 128 && busy.contains(key) {
                    game.undo(mv);
                    deferred |= 1 << k;
                    continue;
                }
                busy.enter(key);
            }
            // The singular table move is searched a ply deeper.
            let child_depth = depth - 1 + i32::from(singular == Some(mv));
            let v = if k == 0 || !self.options.pvs && !reducible {
                -self.search(game, child_depth, ply + 1, -beta, -alpha, true)
            } else {
                let reduction = if reducible && !gives_check {
                    let off_pv = self.options.deeper_reductions_off_pv && beta - alpha == 1;
                    let worsening = improving == Some(false);
                    (late_move_reduction(depth, k) + i32::from(off_pv) + i32::from(worsening))
                        .min(child_depth - 1)
                } else {
                    0
                };
                // Null window (and reduced depth) first; the full search only if it beats alpha.
                let mut v = -self.search(
                    game,
                    child_depth - reduction,
                    ply + 1,
                    -alpha - 1,
                    -alpha,
                    true,
                );
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.search(game, child_depth, ply + 1, -alpha - 1, -alpha, true);
                }
                if v > alpha && v < beta && beta - alpha > 1 && !self.aborted {
                    v = -self.search(game, child_depth, ply + 1, -beta, -alpha, true);
                }
                v
            };
            if let (Some(key), Some((busy, _))) = (child, &self.defer_busy) {
                busy.leave(key);
            }
            game.undo(mv);
            if self.aborted {
                self.stack.moves[ply] = moves;
                return 0;
            }
            if v > best {
                best = v;
                best_mv = mv;
                if ply == 0 {
                    self.root_best = Some(mv);
                }
                if v > alpha {
                    alpha = v;
                    self.stack.update_pv(ply, mv);
                    if v >= beta {
                        self.stats.cutoffs += 1;
                        if quiet {
                            self.reward_quiet(game, mv, ply, depth);
                            if self.options.history_malus {
                                for &earlier in &moves[..k] {
                                    if !game.is_tactical(earlier) {
                                        self.add_history(game, earlier, ply, -depth * depth);
                                    }
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        if pruned && best <= -WIN_BOUND && best < alpha0 {
            // Moves were skipped as unable to reach alpha: the side is not proven mated by the
            // moves that were searched, all that is known is "at most alpha".
            best = alpha0;
        }
        if self.stack.pv[ply].is_empty() {
            // Failed low: still remember the best move found for the table and the caller.
            self.stack.pv[ply].push(best_mv);
        }
        self.stack.moves[ply] = moves;
        if use_tt {
            let bound = Bound::of(best, alpha0, beta);
            self.tt
                .store(key, depth as i16, ply32, best, bound, Some(best_mv));
        }
        best
    }

    /// Quiescence search: stand pat on the static evaluation, then try the tactical moves.
    pub(super) fn quiesce(
        &mut self,
        game: &mut G,
        ply: usize,
        mut alpha: Score,
        beta: Score,
    ) -> Score {
        self.stats.leaves += 1;
        let stand_pat = game.evaluate();
        if stand_pat >= beta || ply >= MAX_QUIESCENCE_PLY {
            return stand_pat;
        }
        let mut moves = std::mem::take(&mut self.stack.moves[ply]);
        moves.clear();
        game.generate_tactical(&mut moves);
        if moves.is_empty() {
            self.stack.moves[ply] = moves;
            return stand_pat;
        }
        game.order_moves(&mut moves);
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        for &mv in &moves {
            if self.options.skip_losing_captures && game.losing_capture(mv) {
                continue;
            }
            game.play(mv);
            self.stats.nodes += 1;
            self.stack.enter(ply + 1);
            let v = if let Some(o) = game.outcome() {
                -mate_in(o, ply as u32 + 1)
            } else {
                -self.quiesce(game, ply + 1, -beta, -alpha)
            };
            game.undo(mv);
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
        self.stack.moves[ply] = moves;
        best
    }
}
