//! The engine's simulation policy: rollouts that win, block and keep their threats, and the
//! reuse of a search tree when the next position follows from its root.

use crate::rules::bitstate::{columns_in, BitState};
use rand::Rng;
use search_core::{LastGoodReply, Mcts, MctsConfig, Rollout, SmallRng};

/// Rollouts that win when they can, block when they must, play below their own stacked threats
/// (a win in three plies, [`BitState::stacked_threat_columns`]), else play at random among the
/// moves that neither hand the opponent a win straight above or a stacked threat to cash in,
/// nor spoil one of their own threats by filling the cell below it. The second player (the
/// side that moved second in the game, whatever its label: the course's interfaces call
/// their own side 2 when it moves first too) first answers in the column just played, when
/// that move is one of those, with probability [`follow_up`](Self::follow_up).
///
/// With [`last_good_reply`](Self::last_good_reply), a player first plays its *last good
/// reply* among those moves (`search-core`'s [`LastGoodReply`]): the cell it answered the
/// opponent's last stone with in the last simulation it won, unless it lost with it since. The
/// replies are learnt afresh for every move the engine makes, so they are answers that work in
/// the position at hand (following up where parity makes it pay, by either player; the block a
/// threat needs a move early). It is off in the engine by default: in self-play at 200 ms per
/// move the engine with it beat the engine without 172 to 128 (300 games, seeds 500 to 502,
/// each side first in half), but against alphabeta:4 it won 389 of 400 games at 300 ms per
/// move (388 without, seeds 300 and 301) and 470 of 480 at 1 s per move on seeds 126 to 133
/// (97.9%, against 98.6% for the engine without it on seeds 114 to 125): no gain where the
/// strength target is set, so `mcts-lgr:MS` offers it as a separate agent. Learning costs
/// time: 178 K rollouts/s against 219 K without (criterion `mcts_12x12`).
///
/// Stacked threats ([`stacked_threats`](Self::stacked_threats), on in the engine): without
/// them the rule against filling the cell below one's own threat kept the owner of a stacked
/// pair from ever cashing it in, and the opponent could hand it over, so rollouts left such
/// positions to chance. With them the engine beat the engine without 141 to 58 (one draw) in
/// self-play at 200 ms per move (200 games, the older one run as the course library; the
/// same set-up with the same engine on both sides: 54 to 46), won 395 of 400 games against
/// alphabeta:4 at 300 ms per move (390 without, seeds 300 and 301) and 709 of 720 at 1 s per
/// move (seeds 134 to 141 and 144 to 147), and simulates a little faster (simulations end
/// sooner).
///
/// Heavier rollouts were measured and dropped: playing the move that makes the most new threat
/// cells for the mover (always, or half the time) judged positions proven by proof-number
/// search a little better (the true winner's mean reward 0.826 or 0.815 against 0.807 over 224
/// positions from our games), but made a rollout 2 to 3 times slower and lost self-play at
/// 200 ms per move 9 to 30 and 10 to 26; rollouts that avoid making new threats judged worse
/// (0.755).
#[derive(Debug, Clone)]
pub struct TacticalRollout {
    /// Probability (from 0 to 1) that the second player follows up in the column just played.
    pub follow_up: f64,
    /// Whether a player first plays its last good reply (learnt from the simulations).
    pub last_good_reply: bool,
    /// Whether players cash in stacked threats and avoid handing them to the opponent
    /// ([`BitState::stacked_threat_columns`]).
    pub stacked_threats: bool,
    /// The replies that won simulations, by cell (bit index of [`BitState`]).
    pub(crate) replies: LastGoodReply,
}

/// How often the second player follows up in rollouts. Following up ("claimeven") is the
/// second player's parity strategy in Connect Four: answering on top of each stone takes the
/// second cell of every pair, and zugzwang endings are decided by who holds which cells.
/// Uniform rollouts never play it, so they misjudged such endings; at 1 s per move against
/// alphabeta:4 the engine lost 13 of 120 games as second player without it and 7 of 120 with
/// it on the same boards (and 1 of 120 either way as first player). Following up more often
/// changed nothing measurable: with 0.9, 383 of 400 games won at 300 ms per move against 384.
pub const SECOND_PLAYER_FOLLOW_UP: f64 = 0.7;

impl TacticalRollout {
    /// The engine's policy with the given follow-up probability (no last good replies).
    pub fn with_follow_up(follow_up: f64) -> Self {
        TacticalRollout {
            follow_up,
            last_good_reply: false,
            stacked_threats: true,
            replies: LastGoodReply::new(2, 256),
        }
    }

    /// The move, before it is recorded for learning; `replied` is the opponent's last stone
    /// (its cell) and the mover's index when last good replies are on.
    fn pick(
        &mut self,
        state: &BitState,
        moves: &[usize],
        replied: Option<(u8, usize)>,
        rng: &mut SmallRng,
    ) -> usize {
        if let Some(y) = state.forced_column() {
            return y;
        }
        let moves = moves_mask(moves);
        let (winning, losing) = if self.stacked_threats {
            state.stacked_threat_columns()
        } else {
            (0, 0)
        };
        let cash_in = winning & moves;
        if cash_in != 0 {
            return cash_in.trailing_zeros() as usize;
        }
        // Columns that hand the opponent a stacked threat only when nothing else is left.
        let shun_losing = |mask: u32| {
            if mask & !losing != 0 {
                mask & !losing
            } else {
                mask
            }
        };
        // Never fill the cell right below one of our own threats while another safe
        // move exists: the opponent would kill the threat by playing on top of it.
        let mut keep = shun_losing(moves & !state.wasteful_columns());
        if let Some((prev, player)) = replied {
            let reply = self.replies.reply(player, prev as usize);
            if let Some(y) = reply.and_then(|cell| state.column_landing_on(cell)) {
                if keep & (1 << y) != 0 {
                    return y;
                }
            }
        }
        if let Some(last) = state.last_column().filter(|_| state.second_mover_to_move()) {
            if keep & (1 << last) != 0 && rng.random_bool(self.follow_up) {
                return last;
            }
        }
        if keep == 0 {
            keep = shun_losing(moves);
        }
        let k = rng.random_range(0..keep.count_ones()) as usize;
        columns_in(keep).nth(k).expect("k below the mask's size")
    }
}

impl Default for TacticalRollout {
    fn default() -> Self {
        TacticalRollout::with_follow_up(SECOND_PLAYER_FOLLOW_UP)
    }
}

impl Rollout<BitState> for TacticalRollout {
    #[inline]
    fn choose(&mut self, state: &BitState, moves: &[usize], rng: &mut SmallRng) -> usize {
        let replied = match state.last_cell() {
            Some(prev) if self.last_good_reply => Some((prev, state.to_move() as usize - 1)),
            _ => None,
        };
        let y = self.pick(state, moves, replied, rng);
        if let Some((prev, player)) = replied {
            self.replies
                .record(player, prev as usize, state.landing_cell(y) as usize);
        }
        y
    }

    fn simulation_done(&mut self, reward: f64) {
        if self.last_good_reply {
            let winner = if reward == 1.0 {
                Some(0)
            } else if reward == 0.0 {
                Some(1)
            } else {
                None
            };
            self.replies.learn(winner);
        }
    }
}

/// The columns of `moves` as a bit mask.
#[inline]
fn moves_mask(moves: &[usize]) -> u32 {
    moves.iter().fold(0, |m, &y| m | 1 << y)
}

/// `tree` moved on to `root` and set to `config` when `root` follows from its root by at most
/// one ply (subtree reuse), a new tree of `root` otherwise.
pub(crate) fn reused_tree(
    tree: Option<Mcts<BitState>>,
    root: BitState,
    config: MctsConfig,
) -> Mcts<BitState> {
    let Some(mut tree) = tree else {
        return Mcts::new(root, config);
    };
    match moves_between(tree.state(), &root) {
        Some(path) => {
            for y in path {
                tree.advance(y);
            }
            tree.set_config(config);
            tree
        }
        None => Mcts::new(root, config),
    }
}

/// The columns played to go from `a` to `b` (at most one ply), if `b` follows from `a` on the
/// same board.
fn moves_between(a: &BitState, b: &BitState) -> Option<Vec<usize>> {
    if a == b {
        return Some(Vec::new());
    }
    a.playable_columns().into_iter().find_map(|y| {
        let mut s = *a;
        s.play(y);
        (s == *b).then(|| vec![y])
    })
}
