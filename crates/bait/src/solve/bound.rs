//! A lower bound on the actions still needed to win, aware of holes and boxes.

use crate::rules::level::Level;
use crate::rules::state::{Bits, Outcome, State};

/// Ticks after which the sweep gives up and calls the state unwinnable (the engine's limit).
const HORIZON: u32 = crate::rules::sim::MAX_TIMESTEPS;

/// The push-aware bound of one level.
///
/// Walking distance alone ([`crate::solve::Guide`]) treats holes as floor, but the avatar can
/// only cross a hole one tick after a box has been pushed into it, and a box only moves when the
/// avatar pushes it from behind. For levels with Bait's rules ([`crate::rules::fast::FastRules`]) this
/// bound follows that chain with earliest-arrival times:
///
/// 1. boxes that can never move again (against walls, or against other such boxes, on both
///    axes) are walls;
/// 2. the avatar's earliest arrival at every cell is a Dijkstra in which a hole may be entered
///    only one tick after the earliest time any box could fill it;
/// 3. the earliest time any box could be in every cell is a multi-source Dijkstra over pushes: a
///    push from `c` towards `d` needs the avatar at `c - d` (no earlier than its earliest arrival)
///    and no wall at `c + d`;
/// 4. a box may stand on a filled hole (and be pushed across it) only if another box filled it:
///    one that came from another side, or one that left the cell this box is pushed from before
///    this box was pushed into that cell; so a chain of holes fed through one cell waits for a
///    second box to arrive there instead of reusing the first (each box fills one hole);
/// 5. a box just pushed in direction `d` has the avatar right behind it: it can be pushed on at
///    once, but sideways only two ticks later and back only four ticks later (the avatar must
///    walk round it to the other side);
///
/// and 2 to 5 feed each other. All are computed together in one sweep over time on cell
/// bitsets: at tick `t` the sets "the avatar could be here by `t`" (without and with the key),
/// "some box could be here by `t`", "some box could have been pushed into this cell moving in
/// direction `d` by `t`" (kept for the last few ticks) and "a filled hole a further box could
/// stand on" grow by one step each, each using the others' sets of tick `t`. Other boxes,
/// mushrooms and box identity beyond rule 4 are relaxed away, so every time is a lower
/// bound and the first tick at which the keyed avatar can step onto a goal never overestimates.
/// A state from which that never happens even in this relaxation cannot be won, which the
/// searches use to drop it. Finally the bound is rounded up to the parity every shortest win
/// must have (each useful action moves the avatar one cell; see `round_to_parity`).
///
/// The sweep is generic over the cell-set type: one `u128` when the rows between the outer
/// wall rows fit in 128 cells (every homework level does), three 64-bit words otherwise.
#[derive(Debug, Clone)]
pub struct PushBound {
    /// The layout as bitsets: one 128-bit word when the rows between the outer wall rows fit
    /// in it (every homework level does; shifts are then two machine words), three words else.
    grid: Layout,
    withkey: u8,
}

#[derive(Debug, Clone)]
enum Layout {
    Narrow(Grid<u128>),
    Wide(Grid<Bits>),
}

/// What the sweep needs of a set of cells.
trait CellSet: Copy + Eq + Default + std::fmt::Debug {
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    fn andnot(self, o: Self) -> Self;
    fn is_empty(self) -> bool;
    /// The cells `k` positions further on (towards higher cell numbers).
    fn shl(self, k: usize) -> Self;
    /// The cells `k` positions back.
    fn shr(self, k: usize) -> Self;
    /// Every representable cell.
    fn full() -> Self;
    /// The cells of `b` from `offset` on, renumbered from 0 (cells that do not fit dropped).
    fn from_cells(b: Bits, offset: usize) -> Self;
}

impl CellSet for u128 {
    #[inline(always)]
    fn and(self, o: u128) -> u128 {
        self & o
    }
    #[inline(always)]
    fn or(self, o: u128) -> u128 {
        self | o
    }
    #[inline(always)]
    fn andnot(self, o: u128) -> u128 {
        self & !o
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self == 0
    }
    #[inline(always)]
    fn shl(self, k: usize) -> u128 {
        self.checked_shl(k as u32).unwrap_or(0)
    }
    #[inline(always)]
    fn shr(self, k: usize) -> u128 {
        self.checked_shr(k as u32).unwrap_or(0)
    }
    fn full() -> u128 {
        !0
    }
    #[inline]
    fn from_cells(b: Bits, offset: usize) -> u128 {
        let [w0, w1, _] = shr(b, offset).0;
        u128::from(w0) | u128::from(w1) << 64
    }
}

impl CellSet for Bits {
    #[inline(always)]
    fn and(self, o: Bits) -> Bits {
        Bits::and(self, o)
    }
    #[inline(always)]
    fn or(self, o: Bits) -> Bits {
        Bits::or(self, o)
    }
    #[inline(always)]
    fn andnot(self, o: Bits) -> Bits {
        Bits([
            self.0[0] & !o.0[0],
            self.0[1] & !o.0[1],
            self.0[2] & !o.0[2],
        ])
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        Bits::is_empty(&self)
    }
    #[inline(always)]
    fn shl(self, k: usize) -> Bits {
        shl(self, k)
    }
    #[inline(always)]
    fn shr(self, k: usize) -> Bits {
        shr(self, k)
    }
    fn full() -> Bits {
        Bits([!0; 3])
    }
    #[inline]
    fn from_cells(b: Bits, offset: usize) -> Bits {
        shr(b, offset)
    }
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

/// Ticks of push history the sweep keeps (turning a box round costs up to four).
const TURN_RING: usize = 5;

const UP: usize = 0;
const DOWN: usize = 1;
const LEFT: usize = 2;
const RIGHT: usize = 3;

/// Opposite direction index in `[up, down, left, right]`.
const OPPOSITE: [usize; 4] = [1, 0, 3, 2];

/// A level's layout in one cell-set representation; cell `c` of the level is bit `c - offset`.
#[derive(Debug, Clone)]
struct Grid<S> {
    cols: usize,
    offset: usize,
    /// Cells inside the grid that are not walls.
    open: S,
    /// Cells whose left (right) neighbour exists: not in the first (last) column.
    has_left: S,
    has_right: S,
    /// Walls and everything beyond the grid.
    closed: S,
    /// For each direction, the represented cells whose neighbour that way is not represented
    /// (the grid's edge, or an outer wall row left out): such a neighbour is solid.
    edge: [S; 4],
    /// The cells of the sprites that can die, by byte of a state's alive bits: entry `[b][v]`
    /// holds the cells of the sprites whose bits in byte `b` are set in `v`, so a state's live
    /// sprites are a few table lookups instead of a walk over every hole.
    alive_cells: Vec<[S; 256]>,
    /// Cells whose row + column is even (in the level's numbering shifted by whole rows, so
    /// two cells' parities differ exactly when they do in the level).
    even: S,
    /// The cells of every hole, key, goal and mushroom (alive or not).
    hole_cells: S,
    key_cells: S,
    goal_cells: S,
    mushroom_cells: S,
}

/// The per-state inputs of one sweep, in the grid's numbering.
struct Sprites<S> {
    boxes: S,
    holes: S,
    keys: S,
    goals: S,
    mushrooms: S,
    avatar: usize,
    has_key: bool,
}

impl<S: CellSet> Grid<S> {
    /// The layout of `level` for cells `offset .. offset + span` (walls given by `walls`).
    fn new(level: &Level, offset: usize, span: usize) -> Grid<S> {
        let cols = level.cols;
        let fast = level
            .fast
            .as_ref()
            .expect("the push bound needs Bait's rules");
        let walls = fast.walls;
        let mut even = Bits::default();
        let mut open = Bits::default();
        let (mut has_left, mut has_right) = (Bits::default(), Bits::default());
        let mut edge = [Bits::default(); 4];
        for c in offset..offset + span {
            if !walls.has(c) {
                open.set(c);
            }
            if (c / cols + c % cols).is_multiple_of(2) {
                even.set(c);
            }
            if c % cols > 0 {
                has_left.set(c);
            } else {
                edge[LEFT].set(c);
            }
            if c % cols + 1 < cols {
                has_right.set(c);
            } else {
                edge[RIGHT].set(c);
            }
            if c < offset + cols {
                edge[UP].set(c);
            }
            if c + cols >= offset + span {
                edge[DOWN].set(c);
            }
        }
        let open = S::from_cells(open, offset);
        // Each sprite that can die sits on one cell; `cell_of[k]` is that of alive bit `k`.
        let mut cell_of = [None; 64];
        let mut cells_of = |at: &[Option<u8>]| {
            let mut all = Bits::default();
            for (c, k) in at.iter().enumerate() {
                if let Some(k) = *k {
                    cell_of[k as usize] = Some(c);
                    all.set(c);
                }
            }
            S::from_cells(all, offset)
        };
        let hole_cells = cells_of(&fast.hole_at);
        let key_cells = cells_of(&fast.key_at);
        let goal_cells = cells_of(&fast.goal_at);
        let mushroom_cells = cells_of(&fast.mushroom_at);
        // Only the bytes that hold some sprite's bit; each entry adds one sprite to an
        // earlier entry.
        let bytes = cell_of
            .iter()
            .rposition(Option::is_some)
            .map_or(0, |k| k / 8 + 1);
        let alive_cells = (0..bytes)
            .map(|byte| {
                let mut table = [S::default(); 256];
                for v in 1..256usize {
                    let bit = v.trailing_zeros() as usize;
                    let one = cell_of[byte * 8 + bit].map_or(S::default(), |c| {
                        let mut cell = Bits::default();
                        cell.set(c);
                        S::from_cells(cell, offset)
                    });
                    table[v] = table[v & (v - 1)].or(one);
                }
                table
            })
            .collect();
        Grid {
            cols,
            offset,
            open,
            has_left: S::from_cells(has_left, offset),
            has_right: S::from_cells(has_right, offset),
            closed: S::full().andnot(open),
            edge: edge.map(|e| S::from_cells(e, offset)),
            even: S::from_cells(even, offset),
            alive_cells,
            hole_cells,
            key_cells,
            goal_cells,
            mushroom_cells,
        }
    }

    /// The cells of the sprites alive in `s` (by the alive bits).
    #[inline]
    fn alive(&self, s: &State) -> S {
        self.alive_cells
            .iter()
            .enumerate()
            .fold(S::default(), |acc, (byte, table)| {
                acc.or(table[(s.alive >> (8 * byte)) as usize & 0xff])
            })
    }

    /// The cells one step from `b` in direction `d` (0 up, 1 down, 2 left, 3 right), inside
    /// the represented cells (walls not removed).
    #[inline]
    fn step(&self, b: S, d: usize) -> S {
        match d {
            UP => self.go::<UP>(b),
            DOWN => self.go::<DOWN>(b),
            LEFT => self.go::<LEFT>(b),
            _ => self.go::<RIGHT>(b),
        }
    }

    /// [`Self::step`] with the direction known at compile time, for the sweep's inner loop.
    #[inline(always)]
    fn go<const D: usize>(&self, b: S) -> S {
        match D {
            UP => b.shr(self.cols),
            DOWN => b.shl(self.cols),
            LEFT => b.and(self.has_left).shr(1),
            _ => b.and(self.has_right).shl(1),
        }
    }

    /// One tick of pushes in direction `D`: the cells boxes in `movable` reach when the avatar
    /// (anywhere in `avatar`) pushes them into `room`, and the cells beyond those pushed boxes
    /// that stood on an arrival cell (see the crossing rule in [`Self::sweep`]).
    #[inline(always)]
    fn push<const D: usize>(&self, movable: S, avatar: S, room: S, arrived: S) -> (S, S) {
        let pushed = movable.and(self.go::<D>(avatar));
        (
            self.go::<D>(pushed).and(room),
            self.go::<D>(pushed.and(arrived)),
        )
    }

    #[inline]
    fn dilate(&self, b: S) -> S {
        (0..4).fold(b, |acc, d| acc.or(self.step(b, d)))
    }

    /// Boxes that can move on neither axis (neighbours walls or such boxes), to a fixed point.
    fn frozen_boxes(&self, boxes: S) -> S {
        let mut frozen = S::default();
        loop {
            let solid = self.closed.or(frozen);
            // Boxes whose neighbour in direction d is solid (or beyond the represented cells).
            let blocked = |d: usize| self.step(solid, OPPOSITE[d]).or(self.edge[d]).and(boxes);
            let vertical = blocked(UP).or(blocked(DOWN));
            let horizontal = blocked(LEFT).or(blocked(RIGHT));
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
    fn round_to_parity(&self, bound: u32, sp: &Sprites<S>) -> u32 {
        let (even_goals, odd_goals) = (sp.goals.and(self.even), sp.goals.andnot(self.even));
        if even_goals.is_empty() == odd_goals.is_empty() {
            return bound; // no goal left, or goals of both parities
        }
        let avatar_even = !unit::<S>().shl(sp.avatar).and(self.even).is_empty();
        let needed = u32::from(avatar_even == even_goals.is_empty());
        bound + ((bound & 1) ^ needed)
    }

    /// The bound for the state described by `sp`: one tick after the sweep's first tick next to
    /// a goal, rounded to the parity of every shortest win.
    fn bound(&self, sp: &Sprites<S>) -> Option<u32> {
        Some(self.round_to_parity(self.sweep(sp)? + 1, sp))
    }

    /// The first tick at which the keyed avatar could step onto a goal, or `None` when it never
    /// can even in the relaxation (see the module header).
    fn sweep(&self, sp: &Sprites<S>) -> Option<u32> {
        let Sprites {
            boxes,
            holes,
            keys,
            goals,
            mushrooms,
            ..
        } = *sp;
        let frozen = self.frozen_boxes(boxes);
        // A goal under a box that can never move can never be entered (a box pushed into a
        // corner goal, say); with no goal left the sweep finds no win.
        let goals = goals.andnot(frozen);
        if goals.is_empty() {
            return None;
        }
        let floor = self.open.andnot(frozen).andnot(goals).andnot(holes);
        let box_room = self.open.andnot(frozen);
        let start = unit::<S>().shl(sp.avatar);
        // Avatar without / with the key, boxes.
        let (mut plain, mut keyed) = if sp.has_key {
            (S::default(), start)
        } else {
            (start, S::default())
        };
        let loose = boxes.andnot(frozen);
        let mut boxes_by = loose;
        // Cells a box could have been pushed into moving in each direction by each of the
        // last few ticks (a ring indexed by tick), and filled holes a further live box could
        // stand on (and so be pushed across).
        let mut arrived_by: [[S; 4]; TURN_RING] = [[S::default(); 4]; TURN_RING];
        let mut crossing = S::default();
        let mut quiet = 0;
        // The keyed avatar wins one tick after reaching a cell next to a goal.
        let near_goal = self.dilate(goals);
        for t in 0..HORIZON {
            if !keyed.and(near_goal).is_empty() {
                return Some(t);
            }
            let now = t as usize % TURN_RING;
            let ago = |k: usize| arrived_by[(now + TURN_RING - k) % TURN_RING];
            let arrived = arrived_by[now];
            let [up, down, left, right] = arrived;
            let avatar = plain.or(keyed);
            // A box leaves its cell only when the avatar steps in, and a mushroom stays until
            // the avatar eats it; until then a pushed box cannot enter either cell.
            let occupied = loose.andnot(avatar);
            let walkable = floor.or(holes.and(boxes_by)).andnot(occupied);
            let room = box_room.andnot(occupied).andnot(mushrooms.andnot(avatar));
            // Cells the avatar may enter moving in each direction: walkable ones, and boxes
            // with room beyond them (stepping onto a box pushes it on).
            let enter_up = walkable.or(occupied.and(self.go::<DOWN>(room)));
            let enter_down = walkable.or(occupied.and(self.go::<UP>(room)));
            let enter_left = walkable.or(occupied.and(self.go::<RIGHT>(room)));
            let enter_right = walkable.or(occupied.and(self.go::<LEFT>(room)));
            let grow = |set: S| {
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
            // A box that was pushed in direction d has the avatar right behind it; pushing it
            // on costs nothing more, but pushing it sideways needs the avatar to walk round to
            // another side first: two steps to a neighbouring side, four to the opposite one.
            // Boxes never pushed yet can be pushed as soon as the avatar reaches their side.
            let (two, four) = (ago(2), ago(4));
            let ready = [
                up.or(two[LEFT]).or(two[RIGHT]).or(four[DOWN]),
                down.or(two[LEFT]).or(two[RIGHT]).or(four[UP]),
                left.or(two[UP]).or(two[DOWN]).or(four[RIGHT]),
                right.or(two[UP]).or(two[DOWN]).or(four[LEFT]),
            ];
            // On a hole only a box standing on it after another filled it can be pushed.
            let live = holes.andnot(crossing);
            let movable = ready.map(|r| loose.or(r).andnot(live));
            let all_arrived = up.or(down).or(left).or(right);
            let pushes = [
                self.push::<UP>(movable[UP], avatar, room, all_arrived),
                self.push::<DOWN>(movable[DOWN], avatar, room, all_arrived),
                self.push::<LEFT>(movable[LEFT], avatar, room, all_arrived),
                self.push::<RIGHT>(movable[RIGHT], avatar, room, all_arrived),
            ];
            // A box pushed onto a filled hole stays alive (and may be pushed across) only if
            // another box filled it: one that came from another side, or, when all fillers came
            // from the cell it is pushed from, one that left that cell before this box was
            // pushed in there (so the cell must have received a box).
            let filled = boxes_by.and(holes);
            let (vertical, horizontal) = (up.or(down), left.or(right));
            let other_side = [
                down.or(horizontal),
                up.or(horizontal),
                right.or(vertical),
                left.or(vertical),
            ];
            let mut next_arrived = arrived;
            let mut next_crossing = crossing;
            for (d, &(target, beyond_arrival)) in pushes.iter().enumerate() {
                next_arrived[d] = next_arrived[d].or(target);
                let refilled = other_side[d].and(holes).or(beyond_arrival);
                next_crossing = next_crossing.or(target.and(holes).and(filled).and(refilled));
            }
            let next_boxes = boxes_by.or(pushes.iter().fold(S::default(), |acc, p| acc.or(p.0)));
            let unchanged = next_plain == plain
                && next_keyed == keyed
                && next_boxes == boxes_by
                && next_arrived == arrived
                && next_crossing == crossing;
            // The ring looks four ticks back, so nothing changes any more after five quiet ticks.
            quiet = if unchanged { quiet + 1 } else { 0 };
            if quiet > TURN_RING {
                return None;
            }
            (plain, keyed, boxes_by) = (next_plain, next_keyed, next_boxes);
            crossing = next_crossing;
            arrived_by[(now + 1) % TURN_RING] = next_arrived;
        }
        None
    }
}

/// The set holding only cell 0.
#[inline(always)]
fn unit<S: CellSet>() -> S {
    let mut b = Bits::default();
    b.set(0);
    S::from_cells(b, 0)
}

impl PushBound {
    /// Prepares the bound for `level`, or `None` when the level's game does not have Bait's
    /// rule structure (then only the walking distance applies).
    pub fn new(level: &Level) -> Option<PushBound> {
        Self::with_layout(level, false)
    }

    /// [`Self::new`], with the three-word layout forced when `wide` (for tests).
    fn with_layout(level: &Level, wide: bool) -> Option<PushBound> {
        let fast = level.fast.as_ref()?;
        let (rows, cols) = (level.rows, level.cols);
        let cells = rows * cols;
        let wall_row = |r: usize| (r * cols..(r + 1) * cols).all(|c| fast.walls.has(c));
        // Outer rows of walls carry nothing; leave them out when that makes the rest fit.
        let top = usize::from(rows > 2 && wall_row(0));
        let bottom = usize::from(rows > 2 && wall_row(rows - 1));
        let span = cells - (top + bottom) * cols;
        let grid = if span <= 128 && !wide {
            Layout::Narrow(Grid::new(level, top * cols, span))
        } else {
            Layout::Wide(Grid::new(level, 0, cells))
        };
        Some(PushBound {
            grid,
            withkey: fast.withkey,
        })
    }

    /// A lower bound on the actions needed to win from `s`, or `None` when `s` cannot be won.
    pub fn estimate(&self, s: &State) -> Option<u32> {
        match s.outcome {
            Outcome::Won => return Some(0),
            Outcome::Lost => return None,
            Outcome::Playing if !s.avatar_alive => return None,
            Outcome::Playing => {}
        }
        match &self.grid {
            Layout::Narrow(g) => g.bound(&self.sprites(g, s)),
            Layout::Wide(g) => g.bound(&self.sprites(g, s)),
        }
    }

    /// The sweep's inputs for state `s` in `grid`'s numbering.
    #[inline]
    fn sprites<S: CellSet>(&self, grid: &Grid<S>, s: &State) -> Sprites<S> {
        let alive = grid.alive(s);
        Sprites {
            boxes: S::from_cells(s.movers[0], grid.offset),
            holes: alive.and(grid.hole_cells),
            keys: alive.and(grid.key_cells),
            goals: alive.and(grid.goal_cells),
            mushrooms: alive.and(grid.mushroom_cells),
            avatar: s.avatar_cell as usize - grid.offset,
            has_key: s.avatar_type == self.withkey,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::successors;

    /// The one-word and three-word layouts give the same bound on every state reachable in the
    /// project's own levels (the homework-sized ones use the one-word layout, so the other
    /// would otherwise go untested).
    #[test]
    fn both_layouts_agree() {
        for text in [
            include_str!("../../../../inputs/bait/level_1.txt"),
            include_str!("../../../../inputs/bait/level_2.txt"),
            include_str!("../../../../inputs/bait/level_3.txt"),
            include_str!("../../../../inputs/bait/level_4.txt"),
        ] {
            let level =
                Level::parse(crate::rules::vgdl::DEFAULT_GAME.parse().unwrap(), text).unwrap();
            let narrow = PushBound::new(&level).unwrap();
            let wide = PushBound::with_layout(&level, true).unwrap();
            assert!(matches!(narrow.grid, Layout::Narrow(_)));
            assert!(matches!(wide.grid, Layout::Wide(_)));
            let mut seen = std::collections::HashSet::from([level.initial]);
            let mut queue = vec![level.initial];
            while let Some(s) = queue.pop() {
                assert_eq!(narrow.estimate(&s), wide.estimate(&s), "{text}\n{s:?}");
                for (n, _) in successors(&level, &s) {
                    if seen.len() < 20_000 && seen.insert(n) {
                        queue.push(n);
                    }
                }
            }
        }
    }

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

    /// A box pushed into a corner goal can never leave it, so the goal can never be entered:
    /// the bound proves the state lost (it had a bound before the push).
    #[test]
    fn a_box_frozen_on_the_goal_loses() {
        let text = "wwwwwww\nwg1A kw\nwwwwwww\n";
        let level = Level::parse(crate::rules::vgdl::DEFAULT_GAME.parse().unwrap(), text).unwrap();
        let bound = PushBound::new(&level).unwrap();
        assert!(bound.estimate(&level.initial).is_some());
        let pushed =
            crate::rules::sim::step(&level, &level.initial, crate::rules::sim::Action::Left);
        assert_eq!(pushed.movers[0].count(), 1, "the box is still on the board");
        assert_ne!(
            pushed.avatar_cell, level.initial.avatar_cell,
            "the push happened"
        );
        assert_eq!(bound.estimate(&pushed), None);
    }
}
