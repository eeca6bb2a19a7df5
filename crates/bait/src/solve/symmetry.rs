//! Symmetries of a level: mirror images and rotations of the grid that map its walls to walls
//! and each hole, key, goal and mushroom to one of the same kind. Bait's rules treat the four
//! directions alike, so a state and its image under such a symmetry have the same best score
//! and the same shortest win; a search may keep one of them. [`Symmetries::canonical`] picks
//! that one (the least image), which the maximum-score search uses as its table key.

use crate::rules::level::Level;
use crate::rules::state::{Bits, State};

/// One symmetry: where it sends each cell, and each mortal sprite's alive bit.
#[derive(Debug, Clone)]
struct Map {
    cell: Vec<u8>,
    bit: [u8; 64],
}

/// The non-trivial symmetries of one level's layout.
#[derive(Debug, Clone, Default)]
pub struct Symmetries {
    maps: Vec<Map>,
}

impl Symmetries {
    /// The symmetries of `level` (none for games without Bait's rules, whose rules need not
    /// treat the directions alike).
    ///
    /// ```
    /// use bait::{symmetry::Symmetries, Level, DEFAULT_GAME};
    /// // Mirror-symmetric about the middle column, but for the avatar.
    /// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nw0g0w\nw1k1w\nw A w\nwwwww").unwrap();
    /// let sym = Symmetries::of(&level);
    /// assert_eq!(sym.len(), 1);
    /// ```
    pub fn of(level: &Level) -> Symmetries {
        let Some(fast) = &level.fast else {
            return Symmetries::default();
        };
        let (rows, cols) = (level.rows, level.cols);
        // Each symmetry of the rectangle: transpose (square grids only), then flip the rows
        // and/or the columns.
        let candidates = (1..8u8).filter(|&m| m & 4 == 0 || rows == cols);
        let apply = move |m: u8, r: usize, c: usize| {
            let (r, c) = if m & 4 != 0 { (c, r) } else { (r, c) };
            let r = if m & 1 != 0 { rows - 1 - r } else { r };
            let c = if m & 2 != 0 { cols - 1 - c } else { c };
            (r, c)
        };
        let maps = candidates
            .filter_map(|m| {
                let cell: Vec<u8> = (0..rows * cols)
                    .map(|x| {
                        let (r, c) = apply(m, x / cols, x % cols);
                        (r * cols + c) as u8
                    })
                    .collect();
                if (0..rows * cols).any(|x| fast.walls.has(x) != fast.walls.has(cell[x] as usize)) {
                    return None;
                }
                let mut bit = [0u8; 64];
                for (k, &(t, at)) in level.mortals.iter().enumerate() {
                    let to = cell[at] as usize;
                    let image = level
                        .mortals
                        .iter()
                        .position(|&(t2, c2)| t2 == t && c2 == to)?;
                    bit[k] = image as u8;
                }
                Some(Map { cell, bit })
            })
            .collect();
        Symmetries { maps }
    }

    /// Number of non-trivial symmetries.
    pub fn len(&self) -> usize {
        self.maps.len()
    }

    /// Whether the layout has no symmetry.
    pub fn is_empty(&self) -> bool {
        self.maps.is_empty()
    }

    /// The image of `s` under symmetry `i`.
    fn image(&self, i: usize, s: &State) -> State {
        let m = &self.maps[i];
        let mut boxes = Bits::default();
        for c in s.movers[0].iter() {
            boxes.set(m.cell[c] as usize);
        }
        let mut alive = 0u64;
        let mut rest = s.alive;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            alive |= 1 << m.bit[k];
        }
        let mut n = *s;
        n.movers[0] = boxes;
        n.alive = alive;
        n.avatar_cell = m.cell[s.avatar_cell as usize];
        n
    }

    /// The least of `s` and its images (by boxes, then alive sprites, then the avatar's cell):
    /// the same state for every member of a class of symmetric states.
    pub fn canonical(&self, s: &State) -> State {
        let order = |x: &State| (x.movers[0].0, x.alive, x.avatar_cell);
        (0..self.maps.len())
            .map(|i| self.image(i, s))
            .fold(
                *s,
                |best, n| if order(&n) < order(&best) { n } else { best },
            )
    }

    /// Every image of `s`, `s` itself first (for tests and tools).
    pub fn images(&self, s: &State) -> Vec<State> {
        std::iter::once(*s)
            .chain((0..self.maps.len()).map(|i| self.image(i, s)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::level::test_level as level;
    use crate::rules::sim::{step, Action};

    #[test]
    fn a_square_level_symmetric_every_way_has_seven() {
        let l = level("wwwww\nw   w\nw A w\nw   w\nwwwww");
        assert_eq!(Symmetries::of(&l).len(), 7);
        let l = level("wwwww\nw0  w\nw A w\nw   w\nwwwww");
        // The hole in a corner stays put under the diagonal mirror only.
        assert_eq!(Symmetries::of(&l).len(), 1);
    }

    #[test]
    fn mirrored_play_reaches_mirrored_states() {
        let l = level("wwwwwww\nwk 0 kw\nw1 g 1w\nw  A  w\nwm   mw\nwwwwwww");
        let sym = Symmetries::of(&l);
        assert_eq!(sym.len(), 1);
        let mirror = |a: Action| match a {
            Action::Left => Action::Right,
            Action::Right => Action::Left,
            a => a,
        };
        let (mut s, mut t) = (l.initial, l.initial);
        // Eats a mushroom, pushes a box onto a key, walks round.
        for a in [
            Action::Left,
            Action::Left,
            Action::Down,
            Action::Up,
            Action::Up,
            Action::Right,
            Action::Up,
            Action::Left,
            Action::Right,
        ] {
            s = step(&l, &s, a);
            t = step(&l, &t, mirror(a));
            assert_eq!(sym.images(&s)[1], t);
            assert_eq!(sym.canonical(&s), sym.canonical(&t));
        }
    }
}
