//! A lower bound on the actions still needed to win, aware of holes and boxes.
//!
//! Walking distance alone ([`crate::solve::Guide`]) treats holes as floor, but the avatar can
//! only cross a hole one tick after a box has been pushed into it, and a box only moves when the
//! avatar pushes it from behind. For levels with Bait's rules ([`crate::fast::FastRules`]) this
//! bound follows that chain with earliest-arrival times:
//!
//! 1. boxes that can never move again (against walls, or against other such boxes, on both
//!    axes) are walls;
//! 2. the avatar's earliest arrival at every cell is a Dijkstra in which a hole may be entered
//!    only one tick after the earliest time any box could fill it;
//! 3. the earliest time any box could be in every cell is a multi-source Dijkstra over pushes: a
//!    push from `c` towards `d` needs the avatar at `c - d` (no earlier than its earliest arrival)
//!    and no wall at `c + d`;
//! 4. a box may stand on a filled hole (and be pushed across it) only if another box filled it:
//!    one that came from another side, or one that left the cell this box is pushed from before
//!    this box was pushed into that cell; so a chain of holes fed through one cell waits for a
//!    second box to arrive there instead of reusing the first (each box fills one hole);
//!
//! and 2, 3 and 4 feed each other. All are computed together in one sweep over time on cell
//! bitsets: at tick `t` the sets "the avatar could be here by `t`" (without and with the key),
//! "some box could be here by `t`", "some box could have been pushed into this cell by `t`",
//! "a hole some box could have filled moving in direction `d`" and "a filled hole a further box
//! could stand on" grow by one step each, each using the others' sets of tick `t`. Other boxes,
//! mushrooms and box identity beyond rule 4 are relaxed away, so every time is a lower
//! bound and the first tick at which the keyed avatar can step onto a goal never overestimates.
//! A state from which that never happens even in this relaxation cannot be won, which the
//! searches use to drop it. Finally the bound is rounded up to the parity every shortest win
//! must have (each useful action moves the avatar one cell; see `round_to_parity`).

use crate::level::Level;
use crate::state::{Bits, Outcome, State};

/// Ticks after which the sweep gives up and calls the state unwinnable (the engine's limit).
const HORIZON: u32 = crate::sim::MAX_TIMESTEPS;

/// The layout of one level, as bitsets.
#[derive(Debug, Clone)]
pub struct PushBound {
    cols: usize,
    /// Cells inside the grid that are not walls.
    open: Bits,
    /// Cells whose left (right) neighbour exists: not in the first (last) column.
    has_left: Bits,
    has_right: Bits,
    /// Walls and everything beyond the grid.
    closed: Bits,
    /// Cells of the first (last) column: their left (right) side is the grid's edge.
    left_edge: Bits,
    right_edge: Bits,
    holes: Vec<(usize, u8)>,
    keys: Vec<(usize, u8)>,
    goals: Vec<(usize, u8)>,
    mushrooms: Vec<(usize, u8)>,
    withkey: u8,
}

/// The cells `k` positions further on (towards higher cell numbers).
#[inline]
fn shl(b: Bits, k: usize) -> Bits {
    let [w0, w1, w2] = b.0;
    match k {
        0 => b,
        // The common case (k is 1 or a row length below 64): three shifted words.
        1..=63 => Bits([w0 << k, w1 << k | w0 >> (64 - k), w2 << k | w1 >> (64 - k)]),
        _ => shl_wide(b, k),
    }
}

/// The cells `k` positions back (towards lower cell numbers).
#[inline]
fn shr(b: Bits, k: usize) -> Bits {
    let [w0, w1, w2] = b.0;
    match k {
        0 => b,
        1..=63 => Bits([w0 >> k | w1 << (64 - k), w1 >> k | w2 << (64 - k), w2 >> k]),
        _ => shr_wide(b, k),
    }
}

/// [`shl`] for any `k` (rows of 64 cells or more).
fn shl_wide(b: Bits, k: usize) -> Bits {
    let mut out = Bits::default();
    for cell in b.iter().map(|c| c + k).take_while(|&c| c < 3 * 64) {
        out.set(cell);
    }
    out
}

/// [`shr`] for any `k`.
fn shr_wide(b: Bits, k: usize) -> Bits {
    let mut out = Bits::default();
    for cell in b.iter().filter_map(|c| c.checked_sub(k)) {
        out.set(cell);
    }
    out
}

const UP: usize = 0;
const DOWN: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;

/// Opposite direction index in `[up, down, left, right]`.
const OPPOSITE: [usize; 4] = [1, 0, 3, 2];

fn andnot(a: Bits, b: Bits) -> Bits {
    Bits([a.0[0] & !b.0[0], a.0[1] & !b.0[1], a.0[2] & !b.0[2]])
}

impl PushBound {
    /// Prepares the bound for `level`, or `None` when the level's game does not have Bait's
    /// rule structure (then only the walking distance applies).
    pub fn new(level: &Level) -> Option<PushBound> {
        let fast = level.fast.as_ref()?;
        let (rows, cols) = (level.rows, level.cols);
        let cells = rows * cols;
        let mut open = Bits::default();
        let (mut has_left, mut has_right) = (Bits::default(), Bits::default());
        for c in 0..cells {
            if !fast.walls.has(c) {
                open.set(c);
            }
            if c % cols > 0 {
                has_left.set(c);
            }
            if c % cols + 1 < cols {
                has_right.set(c);
            }
        }
        let list = |at: &[Option<u8>]| -> Vec<(usize, u8)> {
            at.iter()
                .enumerate()
                .filter_map(|(c, k)| k.map(|k| (c, k)))
                .collect()
        };
        let all = Bits([!0; 3]);
        Some(PushBound {
            cols,
            open,
            has_left,
            has_right,
            closed: andnot(all, open),
            left_edge: andnot(all, has_left),
            right_edge: andnot(all, has_right),
            holes: list(&fast.hole_at),
            keys: list(&fast.key_at),
            goals: list(&fast.goal_at),
            mushrooms: list(&fast.mushroom_at),
            withkey: fast.withkey,
        })
    }

    /// The cells one step from `b` in direction `d` (0 up, 1 down, 2 left, 3 right), inside
    /// the grid (walls not removed).
    #[inline]
    fn step(&self, b: Bits, d: usize) -> Bits {
        match d {
            0 => shr(b, self.cols),
            1 => shl(b, self.cols),
            2 => shr(b.and(self.has_left), 1),
            _ => shl(b.and(self.has_right), 1),
        }
    }

    /// [`Self::step`] with the direction known at compile time, for the sweep's inner loop.
    #[inline(always)]
    fn go<const D: usize>(&self, b: Bits) -> Bits {
        match D {
            UP => shr(b, self.cols),
            DOWN => shl(b, self.cols),
            LEFT => shr(b.and(self.has_left), 1),
            _ => shl(b.and(self.has_right), 1),
        }
    }

    /// One tick of pushes in direction `D`: the cells boxes in `movable` reach when the avatar
    /// (anywhere in `avatar`) pushes them into `room`, and the cells beyond those pushed boxes
    /// that stood on an arrival cell (see the crossing rule in [`Self::estimate`]).
    #[inline(always)]
    fn push<const D: usize>(
        &self,
        movable: Bits,
        avatar: Bits,
        room: Bits,
        arrived: Bits,
    ) -> (Bits, Bits) {
        let pushed = movable.and(self.go::<D>(avatar));
        (
            self.go::<D>(pushed).and(room),
            self.go::<D>(pushed.and(arrived)),
        )
    }

    #[inline]
    fn dilate(&self, b: Bits) -> Bits {
        (0..4).fold(b, |acc, d| acc.or(self.step(b, d)))
    }

    fn alive_set(s: &State, list: &[(usize, u8)]) -> Bits {
        let mut out = Bits::default();
        for &(c, k) in list {
            if s.alive >> k & 1 == 1 {
                out.set(c);
            }
        }
        out
    }

    /// Boxes that can move on neither axis (neighbours walls or such boxes), to a fixed point.
    fn frozen_boxes(&self, boxes: Bits) -> Bits {
        let mut frozen = Bits::default();
        loop {
            let solid = self.closed.or(frozen);
            let blocked = |d: usize| {
                // Boxes whose neighbour in direction d is solid (or beyond the grid).
                let edge = match d {
                    2 => self.left_edge,
                    3 => self.right_edge,
                    _ => Bits::default(),
                };
                self.step(solid, OPPOSITE[d]).or(edge).and(boxes)
            };
            let vertical = blocked(0).or(blocked(1));
            let horizontal = blocked(2).or(blocked(3));
            let next = frozen.or(vertical.and(horizontal));
            if next == frozen {
                return frozen;
            }
            frozen = next;
        }
    }

    /// `bound` raised by one when no plan of that length can end on a goal. Under Bait's rules
    /// an action either changes nothing (a blocked step, an undone push, a wait), and then a
    /// shortest plan never contains it, or moves the avatar by exactly one cell, flipping the
    /// parity of its row + column; a win ends with the avatar on a goal. So every shortest win
    /// from the avatar's cell has the parity of its distance to the goal it ends on; when all
    /// goals left share one parity, so does every shortest win.
    fn round_to_parity(&self, bound: u32, avatar: usize, goals: Bits) -> u32 {
        let parity = |c: usize| ((c / self.cols + c % self.cols) & 1) as u32;
        let mut cells = goals.iter();
        let Some(first) = cells.next() else {
            return bound;
        };
        let goal_parity = parity(first);
        if cells.any(|c| parity(c) != goal_parity) {
            return bound;
        }
        let needed = goal_parity ^ parity(avatar);
        bound + ((bound & 1) ^ needed)
    }

    /// A lower bound on the actions needed to win from `s`, or `None` when `s` cannot be won.
    pub fn estimate(&self, s: &State) -> Option<u32> {
        match s.outcome {
            Outcome::Won => return Some(0),
            Outcome::Lost => return None,
            Outcome::Playing if !s.avatar_alive => return None,
            Outcome::Playing => {}
        }
        let boxes = s.movers[0];
        let frozen = self.frozen_boxes(boxes);
        let holes = Self::alive_set(s, &self.holes);
        let keys = Self::alive_set(s, &self.keys);
        let goals = Self::alive_set(s, &self.goals);
        let mushrooms = Self::alive_set(s, &self.mushrooms);
        let floor = andnot(andnot(andnot(self.open, frozen), goals), holes);
        let box_room = andnot(self.open, frozen);
        let mut start = Bits::default();
        start.set(s.avatar_cell as usize);
        // Avatar without / with the key, boxes; `filled_before` are holes a box reached a tick
        // earlier (another box may pass over them now).
        let (mut plain, mut keyed) = if s.avatar_type == self.withkey {
            (Bits::default(), start)
        } else {
            (start, Bits::default())
        };
        let loose = andnot(boxes, frozen);
        let mut boxes_by = loose;
        // Cells a box could have been pushed into (arrivals, not origins), holes a box could
        // have filled moving in each direction, and filled holes a further live box could stand
        // on (and so be pushed across).
        let mut arrived = Bits::default();
        let mut filled_from = [Bits::default(); 4];
        let mut crossing = Bits::default();
        // The keyed avatar wins one tick after reaching a cell next to a goal.
        let near_goal = self.dilate(goals);
        for t in 0..HORIZON {
            if !keyed.and(near_goal).is_empty() {
                return Some(self.round_to_parity(t + 1, s.avatar_cell as usize, goals));
            }
            let avatar = plain.or(keyed);
            // A box leaves its cell only when the avatar steps in, and a mushroom stays until
            // the avatar eats it; until then a pushed box cannot enter either cell.
            let occupied = andnot(loose, avatar);
            let walkable = andnot(floor.or(holes.and(boxes_by)), occupied);
            let room = andnot(andnot(box_room, occupied), andnot(mushrooms, avatar));
            // Cells the avatar may enter moving in each direction: walkable ones, and boxes
            // with room beyond them (stepping onto a box pushes it on).
            let enter_up = walkable.or(occupied.and(self.go::<DOWN>(room)));
            let enter_down = walkable.or(occupied.and(self.go::<UP>(room)));
            let enter_left = walkable.or(occupied.and(self.go::<RIGHT>(room)));
            let enter_right = walkable.or(occupied.and(self.go::<LEFT>(room)));
            let grow = |set: Bits| {
                set.or(self.go::<UP>(set).and(enter_up))
                    .or(self.go::<DOWN>(set).and(enter_down))
                    .or(self.go::<LEFT>(set).and(enter_left))
                    .or(self.go::<RIGHT>(set).and(enter_right))
            };
            let next_plain = grow(plain);
            let next_keyed = if keyed.is_empty() {
                next_plain.and(keys)
            } else {
                grow(keyed).or(next_plain.and(keys))
            };
            let movable = andnot(boxes_by, holes).or(crossing);
            let filled = boxes_by.and(holes);
            let pushes = [
                self.push::<UP>(movable, avatar, room, arrived),
                self.push::<DOWN>(movable, avatar, room, arrived),
                self.push::<LEFT>(movable, avatar, room, arrived),
                self.push::<RIGHT>(movable, avatar, room, arrived),
            ];
            // A box pushed onto a filled hole stays alive (and may be pushed across) only if
            // another box filled it: one that came from another side, or, when all fillers came
            // from the cell it is pushed from, one that left that cell before this box was
            // pushed in there (so the cell must have received a box).
            let [f0, f1, f2, f3] = filled_from;
            let (vertical, horizontal) = (f0.or(f1), f2.or(f3));
            let other_side = [
                f1.or(horizontal),
                f0.or(horizontal),
                f3.or(vertical),
                f2.or(vertical),
            ];
            let mut targets = Bits::default();
            let mut next_crossing = crossing;
            for (d, &(target, beyond_arrival)) in pushes.iter().enumerate() {
                targets = targets.or(target);
                let into_holes = target.and(holes);
                filled_from[d] = filled_from[d].or(into_holes);
                let refilled = other_side[d].or(beyond_arrival);
                next_crossing = next_crossing.or(into_holes.and(filled).and(refilled));
            }
            let next_boxes = boxes_by.or(targets);
            let next_arrived = arrived.or(targets);
            if next_plain == plain
                && next_keyed == keyed
                && next_boxes == boxes_by
                && next_arrived == arrived
                && filled_from == [f0, f1, f2, f3]
                && next_crossing == crossing
            {
                return None;
            }
            (plain, keyed, boxes_by) = (next_plain, next_keyed, next_boxes);
            (arrived, crossing) = (next_arrived, next_crossing);
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The three-word shifts agree with shifting cell by cell, for every distance.
    #[test]
    fn word_shifts_match_cellwise_shifts() {
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut b = Bits::default();
            for w in 0..3 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b.0[w] = x;
            }
            for k in 0..3 * 64 {
                assert_eq!(shl(b, k), shl_wide(b, k), "shl {k}");
                assert_eq!(shr(b, k), shr_wide(b, k), "shr {k}");
            }
        }
    }
}
