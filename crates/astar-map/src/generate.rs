//! Map generators: random course-format maps, and maps built on Moving AI benchmark grids.
//!
//! Random maps draw every cell independently (wall with probability `walls`, supply with
//! probability `supplies`, ground otherwise) and place start and station on two distinct
//! random non-wall cells (or any cells if the grid is all walls), all from one seeded RNG.
//! Moving AI `.map` files (`type octile / height H / width W / map` then H rows) give the
//! passable cells (`.` and `G`; everything else is blocked); start, station and supplies are
//! given or drawn at random, and moves stay 4-connected with unit cost.

use crate::map::{Cell, Map, MAX_FOOD};
use batch::InputError;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

/// Parameters of a random map.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RandomMap {
    /// Rows M.
    pub rows: usize,
    /// Columns N.
    pub cols: usize,
    /// Food capacity T.
    pub food: u32,
    /// Probability that a cell is a wall.
    pub walls: f64,
    /// Probability that a non-wall cell is a supply point.
    pub supplies: f64,
    /// Seed.
    pub seed: u64,
}

/// Generates a random map.
///
/// ```
/// use astar_map::generate::{random_map, RandomMap};
/// let p = RandomMap { rows: 20, cols: 30, food: 6, walls: 0.2, supplies: 0.1, seed: 7 };
/// let a = random_map(&p);
/// assert_eq!((a.rows, a.cols, a.food), (20, 30, 6));
/// assert_eq!(a, random_map(&p)); // same seed, same map
/// ```
pub fn random_map(p: &RandomMap) -> Map {
    let mut rng = SmallRng::seed_from_u64(p.seed);
    let n = p.rows * p.cols;
    let mut cells: Vec<Cell> = (0..n)
        .map(|_| {
            if rng.random_bool(p.walls.clamp(0.0, 1.0)) {
                Cell::Wall
            } else if rng.random_bool(p.supplies.clamp(0.0, 1.0)) {
                Cell::Supply
            } else {
                Cell::Ground
            }
        })
        .collect();
    let passable: Vec<bool> = cells.iter().map(|c| c.passable()).collect();
    let (start, station) = pick_two(&passable, &mut rng);
    cells[start] = Cell::Start;
    cells[station] = Cell::Station;
    Map::new(p.rows, p.cols, p.food.min(MAX_FOOD), cells)
        .expect("generator places one start and one station")
}

/// Two distinct cells, preferring passable ones.
fn pick_two(passable: &[bool], rng: &mut SmallRng) -> (usize, usize) {
    assert!(passable.len() >= 2, "a map needs at least two cells");
    let open: Vec<usize> = (0..passable.len()).filter(|&i| passable[i]).collect();
    let pool: Vec<usize> = if open.len() >= 2 {
        open
    } else {
        (0..passable.len()).collect()
    };
    let a = pool[rng.random_range(0..pool.len())];
    loop {
        let b = pool[rng.random_range(0..pool.len())];
        if b != a {
            return (a, b);
        }
    }
}

/// A Moving AI grid: dimensions and which cells are passable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    /// Rows (height).
    pub rows: usize,
    /// Columns (width).
    pub cols: usize,
    /// Passable cells, row-major.
    pub passable: Vec<bool>,
}

/// Parses a Moving AI `.map` file.
///
/// ```
/// use astar_map::generate::parse_movingai;
/// let g = parse_movingai("type octile\nheight 2\nwidth 3\nmap\n..@\nG.T\n").unwrap();
/// assert_eq!(g.passable, vec![true, true, false, true, true, false]);
/// ```
pub fn parse_movingai(text: &str) -> Result<Grid, InputError> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim_end_matches('\r')));
    let (mut rows, mut cols) = (None, None);
    loop {
        let (n, line) = lines
            .next()
            .ok_or_else(|| InputError::at(0, "missing `map` line"))?;
        let mut words = line.split_ascii_whitespace();
        match words.next() {
            Some("type") => {}
            Some("height") => rows = words.next().and_then(|w| w.parse::<usize>().ok()),
            Some("width") => cols = words.next().and_then(|w| w.parse::<usize>().ok()),
            Some("map") => break,
            None => {}
            Some(other) => return Err(InputError::at(n, format!("unexpected header `{other}`"))),
        }
    }
    let rows = rows
        .filter(|&r| r > 0)
        .ok_or_else(|| InputError::at(0, "missing or bad `height`"))?;
    let cols = cols
        .filter(|&c| c > 0)
        .ok_or_else(|| InputError::at(0, "missing or bad `width`"))?;
    let mut passable = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        let (n, line) = lines
            .next()
            .ok_or_else(|| InputError::at(0, format!("expected {rows} map rows, found {r}")))?;
        if line.chars().count() != cols {
            return Err(InputError::at(
                n,
                format!("expected {cols} characters, found {}", line.chars().count()),
            ));
        }
        passable.extend(line.chars().map(|c| c == '.' || c == 'G'));
    }
    Ok(Grid {
        rows,
        cols,
        passable,
    })
}

/// Where the start, station and supplies of a Moving AI map come from.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// Start `(row, col)`, or random.
    pub start: Option<(usize, usize)>,
    /// Station `(row, col)`, or random.
    pub station: Option<(usize, usize)>,
    /// Supply cells; when empty, each passable cell is a supply with probability `density`.
    pub supplies: Vec<(usize, usize)>,
    /// Supply probability when no list is given.
    pub density: f64,
    /// Food capacity T.
    pub food: u32,
    /// Seed of the random choices.
    pub seed: u64,
}

/// Builds a course map on a Moving AI grid.
pub fn map_from_grid(grid: &Grid, place: &Placement) -> Result<Map, InputError> {
    let mut rng = SmallRng::seed_from_u64(place.seed);
    let mut cells: Vec<Cell> = grid
        .passable
        .iter()
        .map(|&p| if p { Cell::Ground } else { Cell::Wall })
        .collect();
    let index = |(r, c): (usize, usize), what: &str| -> Result<usize, InputError> {
        if r >= grid.rows || c >= grid.cols {
            return Err(InputError::at(
                0,
                format!(
                    "{what} ({r},{c}) is outside the {}x{} grid",
                    grid.rows, grid.cols
                ),
            ));
        }
        if !grid.passable[r * grid.cols + c] {
            return Err(InputError::at(
                0,
                format!("{what} ({r},{c}) is on a blocked cell"),
            ));
        }
        Ok(r * grid.cols + c)
    };
    if place.supplies.is_empty() {
        for (cell, &p) in cells.iter_mut().zip(&grid.passable) {
            if p && rng.random_bool(place.density.clamp(0.0, 1.0)) {
                *cell = Cell::Supply;
            }
        }
    } else {
        for &s in &place.supplies {
            cells[index(s, "supply")?] = Cell::Supply;
        }
    }
    let (rs, rt) = pick_two(&grid.passable, &mut rng);
    let start = match place.start {
        Some(p) => index(p, "start")?,
        None => rs,
    };
    let station = match place.station {
        Some(p) => index(p, "station")?,
        None if rt != start => rt,
        None => rs,
    };
    if start == station {
        return Err(InputError::at(0, "start and station are the same cell"));
    }
    cells[start] = Cell::Start;
    cells[station] = Cell::Station;
    Map::new(grid.rows, grid.cols, place.food, cells)
}
