//! Last-good-reply with forgetting (LGRF-1; Baier and Drake, 2010): a rollout policy that
//! learns, while MCTS runs, which answer to each move won its simulations.

/// The replies learnt, and the current simulation's moves to learn from.
///
/// For each player and each move of its opponent, the table keeps one reply: the answer that
/// player gave to that move in the last simulation it won. A later simulation plays the stored
/// reply when the same move comes up and the reply is legal (the game decides the rest of its
/// policy around it). After every simulation the winner's replies are stored and the loser's
/// are forgotten (cleared if they are still the stored ones); a draw changes nothing. The table
/// thus holds replies that are good *in the current position*, which a fixed policy cannot
/// know: in Connect Four, answering on top of the opponent's stone in the columns where parity
/// makes that pay, or the block that a particular threat needs.
///
/// Moves are identified by small integer keys chosen by the game (a cell index, say), so the
/// table is two flat arrays and learning costs a few stores per simulated move.
#[derive(Debug, Clone)]
pub struct LastGoodReply {
    /// `replies[player * keys + previous]`: the stored reply key, or [`Self::NONE`].
    replies: Vec<u16>,
    /// Number of move keys.
    keys: usize,
    /// The current simulation's (player, previous move, reply) triples.
    played: Vec<(u8, u16, u16)>,
}

impl LastGoodReply {
    /// The marker of "no reply stored".
    const NONE: u16 = u16::MAX;

    /// An empty table for `players` players and move keys `0..keys` (below 65,535).
    pub fn new(players: usize, keys: usize) -> LastGoodReply {
        assert!(
            keys < usize::from(Self::NONE),
            "move keys must fit in 16 bits"
        );
        LastGoodReply {
            replies: vec![Self::NONE; players * keys],
            keys,
            played: Vec::new(),
        }
    }

    /// The reply `player` last won with after the opponent's move `previous`, if any.
    ///
    /// ```
    /// use search_core::LastGoodReply;
    /// let mut lgr = LastGoodReply::new(2, 10);
    /// // A simulation: player 1 answered move 3 with move 4, player 0 answered 4 with 7.
    /// lgr.record(1, 3, 4);
    /// lgr.record(0, 4, 7);
    /// lgr.learn(Some(1)); // player 1 won it
    /// assert_eq!(lgr.reply(1, 3), Some(4));
    /// assert_eq!(lgr.reply(0, 4), None); // losers store nothing
    /// // Player 1 loses with the same answer: it is forgotten.
    /// lgr.record(1, 3, 4);
    /// lgr.learn(Some(0));
    /// assert_eq!(lgr.reply(1, 3), None);
    /// ```
    #[inline]
    pub fn reply(&self, player: usize, previous: usize) -> Option<usize> {
        let r = self.replies[player * self.keys + previous];
        (r != Self::NONE).then_some(usize::from(r))
    }

    /// Notes that `player` answered the opponent's move `previous` with `reply` in the current
    /// simulation.
    #[inline]
    pub fn record(&mut self, player: usize, previous: usize, reply: usize) {
        debug_assert!(previous < self.keys && reply < self.keys);
        self.played
            .push((player as u8, previous as u16, reply as u16));
    }

    /// Ends the current simulation: the `winner`'s replies are stored, the loser's forgotten;
    /// `None` (a draw) leaves the table as it was.
    pub fn learn(&mut self, winner: Option<usize>) {
        if let Some(winner) = winner {
            for &(player, previous, reply) in &self.played {
                let slot =
                    &mut self.replies[usize::from(player) * self.keys + usize::from(previous)];
                if usize::from(player) == winner {
                    *slot = reply;
                } else if *slot == reply {
                    *slot = Self::NONE;
                }
            }
        }
        self.played.clear();
    }
}
