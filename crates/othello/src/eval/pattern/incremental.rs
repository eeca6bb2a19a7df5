//! The evaluation's 46 pattern readings kept up to date along a search's line of play: a
//! move changes the index of each reading through the squares it fills and flips, a few
//! vector additions, instead of every reading being taken off the whole board again at every
//! position. The indices are kept for both colours (black's discs as digit 1 and white's as 2,
//! and the other way), so that whichever side is to move reads its own; a ply's indices are
//! worked out only when a position on the line is evaluated, from the last ply that has them,
//! so the plays a search makes without evaluating (ordering, table prefetches) cost nothing.

use super::{layout, mobility_and_bias, stage_weights, Evaluator, FOLDED_READS};
use crate::rules::bitboard::legal_moves;
use crate::rules::position::{Color, Position};
use std::sync::OnceLock;

/// The readings, padded to a whole number of vector registers.
pub(crate) const LANES: usize = 48;

/// Readings actually in use (the rest of the lanes stay 0 and are never looked up).
const READINGS: usize = 46;

/// One position's readings from both colours' views: `[black as 1, white as 1]`.
pub(crate) type Indices = [[u16; LANES]; 2];

/// What a disc on each square adds to each reading's index as digit 1 (twice that as digit
/// 2), and where each reading's table starts within a stage's weights.
pub(crate) struct Readings {
    digit: [[u16; LANES]; 64],
    offset: [u32; LANES],
}

/// The readings of the folded evaluation ([`Evaluator`]), in its order, built on first use.
pub(crate) fn readings() -> &'static Readings {
    static READINGS_TABLE: OnceLock<Readings> = OnceLock::new();
    READINGS_TABLE.get_or_init(|| {
        let l = layout();
        let mut r = Readings {
            digit: [[0; LANES]; 64],
            offset: [0; LANES],
        };
        let mut lane = 0;
        for (family, reads) in FOLDED_READS.iter().enumerate() {
            for &k in reads.iter() {
                let instance = l
                    .instances
                    .iter()
                    .find(|i| i.offset == l.family_offsets[family] && i.symmetry == k)
                    .expect("every folded reading is an instance of the layout");
                for (place, &sq) in instance.squares.iter().enumerate() {
                    r.digit[sq as usize][lane] = 3u16.pow(place as u32);
                }
                r.offset[lane] = instance.offset;
                lane += 1;
            }
        }
        assert_eq!(lane, READINGS);
        r
    })
}

impl Readings {
    /// The indices of `p` worked out from its discs.
    pub(crate) fn of(&self, p: &Position) -> Indices {
        let (black, white) = match p.side {
            Color::Black => (p.me, p.opp),
            Color::White => (p.opp, p.me),
        };
        let mut ix = [[0u16; LANES]; 2];
        for (colour, (ones, twos)) in [(black, white), (white, black)].into_iter().enumerate() {
            for (discs, weight) in [(ones, 1u16), (twos, 2)] {
                let mut bits = discs;
                while bits != 0 {
                    add(
                        &mut ix[colour],
                        &self.digit[bits.trailing_zeros() as usize],
                        weight,
                    );
                    bits &= bits - 1;
                }
            }
        }
        ix
    }

    /// `ix`, the indices of `before`, made those of `after`, the position one move (or a pass)
    /// later.
    #[inline]
    pub(crate) fn advance(&self, ix: &mut Indices, before: &Position, after: &Position) {
        let placed = (after.me | after.opp) ^ (before.me | before.opp);
        if placed == 0 {
            return;
        }
        // The mover's view (its discs as 1) gains a 1 on the placed square and turns each
        // flipped 2 into a 1; the other view gains a 2 and turns each 1 into a 2.
        let (mover, other) = match before.side {
            Color::Black => (0, 1),
            Color::White => (1, 0),
        };
        let d = &self.digit[placed.trailing_zeros() as usize];
        add(&mut ix[mover], d, 1);
        add(&mut ix[other], d, 2);
        let mut flipped = after.opp & before.opp;
        while flipped != 0 {
            let d = &self.digit[flipped.trailing_zeros() as usize];
            sub(&mut ix[mover], d);
            add(&mut ix[other], d, 1);
            flipped &= flipped - 1;
        }
    }
}

#[inline(always)]
fn add(ix: &mut [u16; LANES], d: &[u16; LANES], times: u16) {
    for (x, &y) in ix.iter_mut().zip(d) {
        *x = x.wrapping_add(times.wrapping_mul(y));
    }
}

#[inline(always)]
fn sub(ix: &mut [u16; LANES], d: &[u16; LANES]) {
    for (x, &y) in ix.iter_mut().zip(d) {
        *x = x.wrapping_sub(y);
    }
}

impl Evaluator {
    /// The value of `p` in hundredths of a disc for the side to move, as
    /// [`Evaluator::evaluate_discs`] gives it, from its readings' indices `ix` (kept by the
    /// search along its line) and the side to move's legal squares `my_moves`.
    #[inline]
    pub(crate) fn evaluate_indexed(
        &self,
        r: &Readings,
        ix: &Indices,
        p: &Position,
        my_moves: u64,
    ) -> i32 {
        let w = stage_weights(&self.values, p.empties());
        let own = match p.side {
            Color::Black => &ix[0],
            Color::White => &ix[1],
        };
        let mut sum = 0i32;
        for (&index, &offset) in own[..READINGS].iter().zip(&r.offset[..READINGS]) {
            sum += i32::from(w[(offset + u32::from(index)) as usize]);
        }
        sum + mobility_and_bias(w, my_moves, legal_moves(p.opp, p.me))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Along pseudo-random games, indices advanced move by move equal those worked out from
    /// the board, and the value read through them is the folded evaluation's.
    #[test]
    fn advanced_indices_equal_those_of_the_board_and_give_the_same_value() {
        let r = readings();
        let e = super::super::evaluator();
        for seed in 1..40u64 {
            let game: Vec<Position> = Position::random_game(seed * 0x9E37 + 1).collect();
            let mut ix = r.of(&game[0]);
            for pair in game.windows(2) {
                r.advance(&mut ix, &pair[0], &pair[1]);
                let p = &pair[1];
                assert_eq!(ix, r.of(p), "seed {seed} at {p}");
                assert_eq!(
                    e.evaluate_indexed(r, &ix, p, p.moves()),
                    e.evaluate_discs(p.me, p.opp),
                    "seed {seed} at {p}"
                );
            }
        }
    }

    /// A search's walk (moves played and taken back in any order, positions evaluated or not)
    /// evaluates each position as the board does.
    #[test]
    fn a_searchs_walk_evaluates_each_position_as_the_board_does() {
        use search_core::Game;
        let e = super::super::evaluator();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let start = Position::default().play_sequence("f5d6c3d3c4").unwrap();
        let mut g = crate::eval::pattern::game::PatternGame::new(start, e);
        let mut line = vec![start];
        let mut moves = Vec::new();
        for _ in 0..20_000 {
            let here = *line.last().unwrap();
            moves.clear();
            g.generate_moves(&mut moves);
            if moves.is_empty() || (line.len() > 1 && next(3) == 0) {
                if line.len() > 1 {
                    line.pop();
                    g.undo(crate::rules::position::Move::Pass);
                }
                continue;
            }
            let mv = moves[next(moves.len() as u64) as usize];
            g.play(mv);
            line.push(here.play(mv));
            let p = *line.last().unwrap();
            if next(2) == 0 && !p.game_over() {
                assert_eq!(g.evaluate(), e.evaluate_discs(p.me, p.opp), "at {p}");
            }
        }
    }
}
