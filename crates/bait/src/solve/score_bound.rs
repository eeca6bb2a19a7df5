//! An upper bound on the final score of any win from a state, aware of where boxes can go.

use crate::rules::level::Level;
use crate::rules::sim::MAX_TIMESTEPS;
use crate::rules::state::{Bits, Outcome, State};
use crate::solve::bound::PushBound;
use search_core::hash::FastMap;
use std::cell::RefCell;

/// The board-aware score bound of one level.
///
/// Counting sprites ("every box may still fill a hole") never falls: on the homework's level 3
/// it stays at 42 however badly the boxes stand. For levels with Bait's rules
/// ([`crate::rules::fast::FastRules`]) this bound looks at the board:
///
/// 1. **Boxes that can never move.** The largest set of boxes such that each, in every
///    direction, has the cell it would be pushed from blocked (a wall, the last goal: the avatar
///    never stands on it, since taking it ends the game, or a box of the set) or the cell it would be pushed into blocked (a wall or
///    a box of the set). No box of such a set can be the first of it to move, so none ever
///    moves. This finds pairs against a wall and corners alike (a greatest fixed point, where
///    the push bound's freeze test is a least one).
/// 2. **Where each other box can go**: the holes it reaches by pushes on a board holding only
///    the walls, the last goal and those frozen boxes (other boxes, holes, mushrooms relaxed away),
///    pushed from cells the avatar can reach. A box on a top-row cell beside the goal, say,
///    reaches no hole.
/// 3. **Each box fills one hole, each hole takes one box**: the largest matching between boxes
///    and the holes they reach bounds the holes still filled (three boxes that can only move
///    along a wall with two holes on it fill at most two).
///
/// To that it adds the mushrooms the avatar can still reach and the goal's score, and it
/// answers `None` when the push-aware bound ([`PushBound`]) proves the state cannot be won, or
/// not within the engine's time limit.
#[derive(Debug, Clone)]
pub struct ScoreBound {
    rows: usize,
    cols: usize,
    walls: Bits,
    /// Alive bit of the hole, goal and mushroom on each cell.
    hole_at: Vec<Option<u8>>,
    goal_at: Vec<Option<u8>>,
    mushroom_at: Vec<Option<u8>>,
    hole_score: i32,
    goal_score: i32,
    mushroom_score: i32,
    /// Alive bits of the goals.
    goal_bits: u64,
    wins: PushBound,
    /// [`Self::holes_reachable`] by frozen boxes, goals alive and the avatar's region (its
    /// first cell): these change rarely along a search.
    reach_cache: RefCell<FastMap<(Bits, u64, usize), Vec<u64>>>,
}

/// Entries the reach cache holds before it starts afresh.
const REACH_CACHE_LIMIT: usize = 1 << 14;

impl ScoreBound {
    /// Prepares the bound for `level`, or `None` when its game does not have Bait's rules.
    ///
    /// ```
    /// use bait::{score_bound::ScoreBound, Level, DEFAULT_GAME};
    /// // The box beside the goal on the top row can only be pushed onto the goal: of the two
    /// // boxes, one can fill a hole.
    /// let text = "wwwwwww\nw  1gww\nw 1  ww\nwA  0kw\nwwwwwww";
    /// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), text).unwrap();
    /// let bound = ScoreBound::new(&level).unwrap();
    /// assert_eq!(bound.bound(&level.initial), Some(1 + 5));
    /// ```
    pub fn new(level: &Level) -> Option<ScoreBound> {
        let fast = level.fast.as_ref()?;
        Some(ScoreBound {
            rows: level.rows,
            cols: level.cols,
            walls: fast.walls,
            hole_at: fast.hole_at.clone(),
            goal_at: fast.goal_at.clone(),
            mushroom_at: fast.mushroom_at.clone(),
            hole_score: fast.hole_score,
            goal_score: fast.goal_score,
            mushroom_score: fast.mushroom_score,
            goal_bits: fast
                .goal_at
                .iter()
                .flatten()
                .fold(0, |acc, &k| acc | 1 << k),
            wins: PushBound::new(level)?,
            reach_cache: RefCell::default(),
        })
    }

    /// The highest final score a win from `s` can have, or `None` when `s` cannot be won.
    pub fn bound(&self, s: &State) -> Option<i32> {
        match s.outcome {
            Outcome::Won => return Some(s.score),
            Outcome::Lost => return None,
            Outcome::Playing => {}
        }
        // A win needs at least the push bound's actions, within the engine's time limit.
        let actions = self.wins.estimate(s)?;
        if s.tick + actions > MAX_TIMESTEPS {
            return None;
        }
        let alive = |slot: &[Option<u8>], c: usize| slot[c].is_some_and(|k| s.alive >> k & 1 == 1);
        let cells = self.rows * self.cols;
        let goals: Vec<bool> = (0..cells).map(|c| alive(&self.goal_at, c)).collect();
        let goals_left = goals.iter().filter(|&&g| g).count() as i32;
        // The avatar stands on a goal only by taking it; taking the last one ends the game, but
        // while several are left it may take one and stand (and push) there.
        let last_goal: Vec<bool> = if goals_left == 1 {
            goals.clone()
        } else {
            vec![false; cells]
        };
        let boxes = s.movers[0];
        let frozen = self.frozen_boxes(boxes, &last_goal);
        let solid = |c: usize| self.walls.has(c) || frozen.has(c);
        // Where the avatar could stand: walls, frozen boxes and goals excepted, holes and loose
        // boxes relaxed away.
        let region = self.flood(s.avatar_cell as usize, |c| !solid(c) && !last_goal[c]);
        let key = (
            frozen,
            s.alive & self.goal_bits,
            region.iter().next().unwrap_or(0),
        );
        let mut cache = self.reach_cache.borrow_mut();
        if cache.len() > REACH_CACHE_LIMIT {
            cache.clear();
        }
        let holes_from = cache
            .entry(key)
            .or_insert_with(|| self.holes_reachable(&region, &solid));
        let reach: Vec<u64> = boxes
            .iter()
            .filter(|&b| !frozen.has(b))
            .map(|b| holes_from[b] & s.alive)
            .filter(|&h| h != 0)
            .collect();
        let filled = max_matching(&reach) as i32;
        let mushrooms = (0..cells)
            .filter(|&c| alive(&self.mushroom_at, c) && region.has(c))
            .count() as i32;
        Some(
            s.score
                + self.hole_score.max(0) * filled
                + self.mushroom_score.max(0) * mushrooms
                // A win takes every goal left (the game is won when none is).
                + self.goal_score.max(0) * goals_left,
        )
    }

    /// For every cell, the holes (as alive bits, filled or not) a box there could reach by
    /// pushes from cells of `region` into cells that are not `solid`: the least fixed point of
    /// "a cell reaches its own hole and whatever the cells it can be pushed into reach".
    fn holes_reachable(&self, region: &Bits, solid: &impl Fn(usize) -> bool) -> Vec<u64> {
        let cells = self.rows * self.cols;
        let mut reach: Vec<u64> = (0..cells)
            .map(|c| self.hole_at[c].map_or(0, |k| 1 << k))
            .collect();
        // The cells each cell can be pushed into.
        let moves: Vec<Vec<usize>> = (0..cells)
            .map(|c| {
                (0..4)
                    .filter_map(|d| {
                        let from = self.next(c, OPPOSITE[d])?;
                        let to = self.next(c, d)?;
                        (region.has(from) && !solid(to)).then_some(to)
                    })
                    .collect()
            })
            .collect();
        loop {
            let mut changed = false;
            for c in 0..cells {
                let r = moves[c].iter().fold(reach[c], |acc, &n| acc | reach[n]);
                if r != reach[c] {
                    reach[c] = r;
                    changed = true;
                }
            }
            if !changed {
                return reach;
            }
        }
    }

    /// The neighbour of `c` in direction `d` (up, down, left, right), `None` off the grid.
    #[inline]
    fn next(&self, c: usize, d: usize) -> Option<usize> {
        let (r, col) = (c / self.cols, c % self.cols);
        match d {
            0 if r > 0 => Some(c - self.cols),
            1 if r + 1 < self.rows => Some(c + self.cols),
            2 if col > 0 => Some(c - 1),
            3 if col + 1 < self.cols => Some(c + 1),
            _ => None,
        }
    }

    /// The cells connected to `start` through cells where `open` holds (`start` included).
    fn flood(&self, start: usize, open: impl Fn(usize) -> bool) -> Bits {
        let mut seen = Bits::default();
        seen.set(start);
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            for d in 0..4 {
                if let Some(n) = self.next(c, d).filter(|&n| !seen.has(n) && open(n)) {
                    seen.set(n);
                    stack.push(n);
                }
            }
        }
        seen
    }

    /// The largest set of boxes none of which can ever move (step 1 of the module header):
    /// start from every box and drop, until none is left to drop, each box that some push
    /// could move given the others still in the set.
    fn frozen_boxes(&self, boxes: Bits, goals: &[bool]) -> Bits {
        let mut set = boxes;
        loop {
            let mut changed = false;
            for b in set.iter() {
                let blocked = |c: Option<usize>, stand: bool| {
                    c.is_none_or(|c| self.walls.has(c) || set.has(c) || (stand && goals[c]))
                };
                let movable = (0..4).any(|d| {
                    !blocked(self.next(b, OPPOSITE[d]), true) && !blocked(self.next(b, d), false)
                });
                if movable {
                    set.clear(b);
                    changed = true;
                }
            }
            if !changed {
                return set;
            }
        }
    }
}

/// Opposite direction of each of up, down, left, right.
const OPPOSITE: [usize; 4] = [1, 0, 3, 2];

/// The size of a largest matching between boxes and holes, box `i` able to take the holes in
/// `reach[i]` (augmenting paths, Kuhn's algorithm; a few dozen boxes and at most 64 holes).
fn max_matching(reach: &[u64]) -> usize {
    fn augment(i: usize, reach: &[u64], owner: &mut [Option<usize>; 64], seen: &mut u64) -> bool {
        let mut free = reach[i] & !*seen;
        while free != 0 {
            let h = free.trailing_zeros() as usize;
            free &= free - 1;
            *seen |= 1 << h;
            if owner[h].is_none_or(|j| augment(j, reach, owner, seen)) {
                owner[h] = Some(i);
                return true;
            }
        }
        false
    }
    let mut owner = [None; 64];
    (0..reach.len())
        .filter(|&i| augment(i, reach, &mut owner, &mut 0))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::level::test_level as level;

    #[test]
    fn matching_counts_shared_holes_once() {
        assert_eq!(max_matching(&[0b1, 0b1, 0b1]), 1);
        assert_eq!(max_matching(&[0b11, 0b1, 0b100]), 3);
        assert_eq!(max_matching(&[0b11, 0b11, 0b11]), 2);
        assert_eq!(max_matching(&[]), 0);
    }

    #[test]
    fn two_boxes_against_a_wall_hold_each_other() {
        // The boxes on the right-hand column block each other's pushes: neither scores.
        let l = level("wwwwww\nwA  gw\nw   1w\nw   1w\nwk  0w\nwwwwww");
        let b = ScoreBound::new(&l).unwrap();
        assert_eq!(b.bound(&l.initial), Some(5));
    }

    #[test]
    fn three_boxes_on_a_wall_line_with_two_holes_fill_two() {
        let l = level("wwwwwwwwww\nwA      gw\nwk       w\nw 1010 1 w\nwwwwwwwwww");
        let b = ScoreBound::new(&l).unwrap();
        assert_eq!(b.bound(&l.initial), Some(2 + 5));
    }

    #[test]
    fn an_unwinnable_state_has_no_bound() {
        // The key is walled off.
        let l = level("wwwwww\nwA gww\nwwwwkw\nwwwwww");
        assert_eq!(ScoreBound::new(&l).unwrap().bound(&l.initial), None);
    }
}
