//! Practice levels: random Bait levels of a chosen size and material, kept only when the
//! solver proves them winnable, with the length of their shortest win as the difficulty. They
//! give students levels beyond the homework's five and the agents' tests levels nobody tuned
//! them to.

use crate::rules::level::Level;
use crate::rules::state::MAX_CELLS;
use crate::rules::vgdl::Game;
use crate::solve::shortest;
use rand::{Rng, SeedableRng};
use search_core::{Limits, SmallRng};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LevelSpec {
    /// Rows, border walls included (4 or more).
    pub rows: usize,
    /// Columns, border walls included (4 or more).
    pub cols: usize,
    /// Boxes (`1`).
    pub boxes: usize,
    /// Holes (`0`).
    pub holes: usize,
    /// Mushrooms (`m`).
    pub mushrooms: usize,
    /// Inner walls, in percent of the inner cells.
    pub wall_percent: u32,
    /// Fewest actions of the shortest win (the difficulty), inclusive.
    pub min_actions: usize,
    /// Most actions of the shortest win, inclusive.
    pub max_actions: usize,
    /// States the solver may expand to prove a candidate winnable.
    pub max_states: u64,
}

impl Default for LevelSpec {
    fn default() -> Self {
        LevelSpec {
            rows: 7,
            cols: 8,
            boxes: 3,
            holes: 3,
            mushrooms: 1,
            wall_percent: 12,
            min_actions: 15,
            max_actions: 60,
            max_states: 200_000,
        }
    }
}

impl LevelSpec {
    /// Why these numbers cannot make a level, if they cannot.
    pub fn check(&self) -> Result<(), String> {
        if self.rows < 4 || self.cols < 4 {
            return Err("a level needs at least 4 rows and 4 columns (walls included)".into());
        }
        if self.rows * self.cols > MAX_CELLS {
            return Err(format!(
                "{}x{} is {} cells; the simulator holds {MAX_CELLS}",
                self.rows,
                self.cols,
                self.rows * self.cols
            ));
        }
        let inner = (self.rows - 2) * (self.cols - 2);
        let pieces = 3 + self.boxes + self.holes + self.mushrooms;
        if pieces > inner {
            return Err(format!(
                "{pieces} pieces (avatar, key, goal and the rest) do not fit in {inner} inner cells"
            ));
        }
        if self.min_actions > self.max_actions {
            return Err("--min-actions is above --max-actions".into());
        }
        Ok(())
    }
}

/// A generated level and its shortest win.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedLevel {
    /// The level file's text.
    pub text: String,
    /// Actions of its shortest win.
    pub shortest: usize,
    /// Candidates drawn before this one was kept.
    pub tries: usize,
}

/// One random candidate: border walls, inner walls, then the pieces on distinct free cells.
pub fn random_level(spec: &LevelSpec, rng: &mut SmallRng) -> String {
    let (rows, cols) = (spec.rows, spec.cols);
    let mut grid = vec![' '; rows * cols];
    let mut free = Vec::new();
    for r in 0..rows {
        for c in 0..cols {
            let border = r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
            if border {
                grid[r * cols + c] = 'w';
            } else {
                free.push(r * cols + c);
            }
        }
    }
    let mut pieces = vec!['A', 'k', 'g'];
    pieces.extend(std::iter::repeat_n('1', spec.boxes));
    pieces.extend(std::iter::repeat_n('0', spec.holes));
    pieces.extend(std::iter::repeat_n('m', spec.mushrooms));
    for piece in pieces {
        let i = rng.random_range(0..free.len());
        grid[free.swap_remove(i)] = piece;
    }
    for cell in free {
        if rng.random_range(0..100) < spec.wall_percent {
            grid[cell] = 'w';
        }
    }
    let mut text = String::with_capacity((cols + 1) * rows);
    for row in grid.chunks(cols) {
        text.extend(row.iter());
        text.push('\n');
    }
    text
}

/// Draws candidates from `rng` until one is proven winnable with a shortest win of
/// `spec.min_actions..=spec.max_actions` actions, or `max_tries` candidates were drawn.
pub fn generate_level(
    game: &Game,
    spec: &LevelSpec,
    rng: &mut SmallRng,
    max_tries: usize,
) -> Option<GeneratedLevel> {
    for tries in 1..=max_tries {
        let text = random_level(spec, rng);
        let Ok(level) = Level::parse(game.clone(), &text) else {
            continue;
        };
        let plan = shortest(&level, &Limits::nodes(spec.max_states));
        let n = plan.actions.len();
        if plan.stopped.is_none() && n > 0 && (spec.min_actions..=spec.max_actions).contains(&n) {
            return Some(GeneratedLevel {
                text,
                shortest: n,
                tries,
            });
        }
    }
    None
}

/// `count` levels from `seed` (level `i` from its own stream, so each is the same whatever the
/// count); `None` in place of a level no candidate of `max_tries` satisfied.
pub fn generate(
    game: &Game,
    spec: &LevelSpec,
    seed: u64,
    count: usize,
    max_tries: usize,
) -> Vec<Option<GeneratedLevel>> {
    (0..count)
        .map(|i| {
            let mut rng =
                SmallRng::seed_from_u64(seed ^ (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            generate_level(game, spec, &mut rng, max_tries)
        })
        .collect()
}
