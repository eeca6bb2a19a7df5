//! The course's map file: `M N T` then M rows of N cell codes (0 ground, 1 wall, 2 supply,
//! 3 start, 4 station).
//!
//! Parsing is tolerant of what the real files contain (trailing spaces, CRLF, no final newline,
//! blank lines) and strict about what would make the problem meaningless (wrong row lengths,
//! codes outside 0..4, a missing or repeated start or station), with errors that name the line.
//! `Display` writes the canonical course form, and parsing it gives the same map back.

use batch::InputError;
use std::fmt;
use std::str::FromStr;

/// What a cell is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Cell {
    /// `0`: passable ground.
    Ground = 0,
    /// `1`: mountain or ravine, impassable.
    Wall = 1,
    /// `2`: supply point, refills the food to T on entry.
    Supply = 2,
    /// `3`: the start (passable, not a supply).
    Start = 3,
    /// `4`: the station, the goal.
    Station = 4,
}

impl Cell {
    /// Whether one may stand on the cell.
    #[inline]
    pub fn passable(self) -> bool {
        self != Cell::Wall
    }

    fn from_code(code: u8) -> Option<Cell> {
        Some(match code {
            0 => Cell::Ground,
            1 => Cell::Wall,
            2 => Cell::Supply,
            3 => Cell::Start,
            4 => Cell::Station,
            _ => return None,
        })
    }
}

/// Largest food capacity supported (food is stored in 16 bits).
pub const MAX_FOOD: u32 = u16::MAX as u32;

/// A parsed map: cells in row-major order, food capacity T, start and station positions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Map {
    /// Number of rows (M).
    pub rows: usize,
    /// Number of columns (N).
    pub cols: usize,
    /// Food capacity and initial food (T).
    pub food: u32,
    /// Cells, row-major: index = row * cols + col.
    pub cells: Vec<Cell>,
    /// Index of the start cell.
    pub start: usize,
    /// Index of the station cell.
    pub station: usize,
}

impl Map {
    /// Builds a map from cells, checking there is exactly one start and one station.
    pub fn new(rows: usize, cols: usize, food: u32, cells: Vec<Cell>) -> Result<Map, InputError> {
        if cells.len() != rows * cols {
            return Err(InputError::at(
                0,
                format!("expected {} cells, found {}", rows * cols, cells.len()),
            ));
        }
        let find = |kind: Cell, name: &str| -> Result<usize, InputError> {
            let mut found = cells
                .iter()
                .enumerate()
                .filter(|c| *c.1 == kind)
                .map(|c| c.0);
            let first = found.next().ok_or_else(|| {
                InputError::at(0, format!("no {name} (code {}) on the map", kind as u8))
            })?;
            if let Some(second) = found.next() {
                return Err(InputError::at(
                    second / cols + 2,
                    format!(
                        "second {name} at row {}, column {} (the first is at row {}, column {})",
                        second / cols,
                        second % cols,
                        first / cols,
                        first % cols
                    ),
                ));
            }
            Ok(first)
        };
        let start = find(Cell::Start, "start")?;
        let station = find(Cell::Station, "station")?;
        if food > MAX_FOOD {
            return Err(InputError::at(
                1,
                format!("food capacity {food} is larger than {MAX_FOOD}"),
            ));
        }
        Ok(Map {
            rows,
            cols,
            food,
            cells,
            start,
            station,
        })
    }

    /// `(row, col)` of a cell index.
    #[inline]
    pub fn pos(&self, index: usize) -> (usize, usize) {
        (index / self.cols, index % self.cols)
    }

    /// Number of supply points.
    pub fn supplies(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Supply).count()
    }

    /// Number of walls.
    pub fn walls(&self) -> usize {
        self.cells.iter().filter(|&&c| c == Cell::Wall).count()
    }

    /// The passable neighbour of `index` in direction `dir`, if any.
    #[inline]
    pub fn step(&self, index: usize, dir: Dir) -> Option<usize> {
        let (r, c) = self.pos(index);
        let target = match dir {
            Dir::Up if r > 0 => index - self.cols,
            Dir::Down if r + 1 < self.rows => index + self.cols,
            Dir::Left if c > 0 => index - 1,
            Dir::Right if c + 1 < self.cols => index + 1,
            _ => return None,
        };
        self.cells[target].passable().then_some(target)
    }
}

/// A move: one day, one unit of food.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    /// `U`: row - 1.
    Up,
    /// `D`: row + 1.
    Down,
    /// `L`: column - 1.
    Left,
    /// `R`: column + 1.
    Right,
}

impl Dir {
    /// All four, in the order successors are generated.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The course letter.
    pub fn letter(self) -> char {
        match self {
            Dir::Up => 'U',
            Dir::Down => 'D',
            Dir::Left => 'L',
            Dir::Right => 'R',
        }
    }

    /// Parses a course letter.
    pub fn from_letter(c: char) -> Option<Dir> {
        Some(match c {
            'U' => Dir::Up,
            'D' => Dir::Down,
            'L' => Dir::Left,
            'R' => Dir::Right,
            _ => return None,
        })
    }
}

impl FromStr for Map {
    type Err = InputError;

    /// Parses the course format. Lines are numbered from 1 in errors.
    ///
    /// ```
    /// use astar_map::Map;
    /// let map: Map = "1 3 2\r\n3 0 4 \n".parse().unwrap();
    /// assert_eq!((map.rows, map.cols, map.food, map.start, map.station), (1, 3, 2, 0, 2));
    /// assert_eq!(map.to_string(), "1 3 2\n3 0 4\n");
    /// let err = "2 2 1\n3 4\n0\n".parse::<Map>().unwrap_err();
    /// assert_eq!(err.to_string(), "3: expected 2 cells in row 1, found 1");
    /// ```
    fn from_str(text: &str) -> Result<Map, InputError> {
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.trim().is_empty());
        let (n1, header) = lines
            .next()
            .ok_or_else(|| InputError::at(1, "empty file: expected `M N T`"))?;
        let nums: Vec<&str> = header.split_ascii_whitespace().collect();
        if nums.len() != 3 {
            return Err(InputError::at(
                n1,
                format!("expected 3 numbers `M N T`, found {}", nums.len()),
            ));
        }
        let parse = |s: &str, what: &str| -> Result<usize, InputError> {
            batch::parse_count::<u32>(s)
                .map(|v| v as usize)
                .map_err(|e| InputError::at(n1, format!("{what} {e}")))
        };
        let rows = parse(nums[0], "row count M")?;
        let cols = parse(nums[1], "column count N")?;
        let food = parse(nums[2], "food capacity T")?;
        if rows == 0 || cols == 0 {
            return Err(InputError::at(
                n1,
                format!("map size {rows}x{cols} is empty"),
            ));
        }
        if rows > 65_535 || cols > 65_535 || rows.saturating_mul(cols) > 100_000_000 {
            return Err(InputError::at(
                n1,
                format!("map size {rows}x{cols} is too large"),
            ));
        }
        if food > MAX_FOOD as usize {
            return Err(InputError::at(
                n1,
                format!("food capacity {food} is larger than {MAX_FOOD}"),
            ));
        }
        let mut cells = Vec::with_capacity(rows * cols);
        let mut line_of_row = Vec::with_capacity(rows);
        for r in 0..rows {
            let (n, line) = lines.next().ok_or_else(|| {
                InputError::at(0, format!("expected {rows} rows of cells, found {r}"))
            })?;
            line_of_row.push(n);
            let before = cells.len();
            for tok in line.split_ascii_whitespace() {
                let cell = tok
                    .parse::<u8>()
                    .ok()
                    .and_then(Cell::from_code)
                    .ok_or_else(|| {
                        InputError::at(n, format!("bad cell code `{tok}` (expected 0..4)"))
                    })?;
                cells.push(cell);
            }
            let found = cells.len() - before;
            if found != cols {
                return Err(InputError::at(
                    n,
                    format!("expected {cols} cells in row {r}, found {found}"),
                ));
            }
        }
        if let Some((n, _)) = lines.next() {
            return Err(InputError::at(
                n,
                format!("unexpected text after the {rows} rows of the map"),
            ));
        }
        Map::new(rows, cols, food as u32, cells).map_err(|mut e| {
            // Map::new numbers rows from line 2; translate to the real line.
            if e.line >= 2 {
                e.line = line_of_row.get(e.line - 2).copied().unwrap_or(e.line);
            }
            e
        })
    }
}

impl fmt::Display for Map {
    /// The course format with LF line ends and single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} {} {}", self.rows, self.cols, self.food)?;
        for row in self.cells.chunks(self.cols) {
            for (i, c) in row.iter().enumerate() {
                if i > 0 {
                    f.write_str(" ")?;
                }
                write!(f, "{}", *c as u8)?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
