//! The search problem: states, moves and the food rule (spec §5).
//!
//! A state is (row, column, food left), packed into one `u64` so that hashing and comparing it
//! is a single word operation and no division is needed to find a cell's row and column. A move needs food >= 1 and a passable target, costs one day and one
//! unit of food; entering a supply point refills the food to T. Reaching the station or a
//! supply with 0 food is fine; anywhere else 0 food is a dead end (no successors). Cells may be
//! revisited: the state includes the food, so a detour to a supply and back is a new state.

use crate::map::{Cell, Dir, Map};

/// A search state packed as `row << 32 | col << 16 | food`.
pub type State = u64;

/// Packs a state from a cell index.
#[inline]
pub fn pack(map: &Map, cell: usize, food: u32) -> State {
    let (r, c) = map.pos(cell);
    pack_rc(r, c, food)
}

/// Packs a state from row and column.
#[inline]
pub fn pack_rc(row: usize, col: usize, food: u32) -> State {
    ((row as u64) << 32) | ((col as u64) << 16) | food as u64
}

/// The row of a state.
#[inline]
pub fn row_of(s: State) -> usize {
    (s >> 32) as usize
}

/// The column of a state.
#[inline]
pub fn col_of(s: State) -> usize {
    ((s >> 16) & 0xffff) as usize
}

/// The cell index of a state.
#[inline]
pub fn cell_of(map: &Map, s: State) -> usize {
    row_of(s) * map.cols + col_of(s)
}

/// The food left in a state.
#[inline]
pub fn food_of(s: State) -> u32 {
    (s & 0xffff) as u32
}

/// The initial state: on the start cell with T food.
pub fn initial(map: &Map) -> State {
    pack(map, map.start, map.food)
}

/// Whether a state is on the station.
#[inline]
pub fn is_goal(map: &Map, s: State) -> bool {
    cell_of(map, s) == map.station
}

/// Up to four successor states, without allocation.
pub struct Successors {
    states: [State; 4],
    len: u8,
    next: u8,
}

impl Iterator for Successors {
    type Item = (State, u32);
    #[inline]
    fn next(&mut self) -> Option<(State, u32)> {
        (self.next < self.len).then(|| {
            self.next += 1;
            (self.states[self.next as usize - 1], 1)
        })
    }
}

/// The states reachable in one move from `s` (in U, D, L, R order), each at cost 1.
///
/// ```
/// use astar_map::{model, Map};
/// let map: Map = "1 4 1\n3 0 2 4\n".parse().unwrap();
/// let s = model::initial(&map);
/// let next: Vec<_> = model::successors(&map, s).map(|(t, _)| (model::cell_of(&map, t), model::food_of(t))).collect();
/// assert_eq!(next, vec![(1, 0)]); // one step right, food 1 -> 0
/// // With 0 food on plain ground there is no move at all.
/// assert_eq!(model::successors(&map, model::pack(&map, 1, 0)).count(), 0);
/// ```
#[inline]
pub fn successors(map: &Map, s: State) -> Successors {
    let mut out = Successors {
        states: [0; 4],
        len: 0,
        next: 0,
    };
    let food = food_of(s);
    if food == 0 {
        return out;
    }
    let (r, c) = (row_of(s), col_of(s));
    let cell = r * map.cols + c;
    let mut push = |ok: bool, t: usize, tr: usize, tc: usize| {
        if ok {
            let kind = map.cells[t];
            if kind != Cell::Wall {
                let f = if kind == Cell::Supply {
                    map.food
                } else {
                    food - 1
                };
                out.states[out.len as usize] = pack_rc(tr, tc, f);
                out.len += 1;
            }
        }
    };
    push(r > 0, cell.wrapping_sub(map.cols), r.wrapping_sub(1), c);
    push(r + 1 < map.rows, cell + map.cols, r + 1, c);
    push(c > 0, cell.wrapping_sub(1), r, c.wrapping_sub(1));
    push(c + 1 < map.cols, cell + 1, r, c + 1);
    out
}

/// The direction from one cell to an adjacent one.
pub fn direction(map: &Map, from: usize, to: usize) -> Dir {
    if to + map.cols == from {
        Dir::Up
    } else if from + map.cols == to {
        Dir::Down
    } else if to + 1 == from {
        Dir::Left
    } else {
        Dir::Right
    }
}
