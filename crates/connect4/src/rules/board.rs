//! The course's board and judge (spec §2–§3): M rows x N columns (row 0 at the top), one
//! forbidden cell, gravity, `top[]` exactly as the judge keeps it, four or more in a row through
//! the last stone wins, a full board without a line is a draw.
//!
//! Stones are stored by player number, 1 for the first mover and 2 for the second; the course
//! interfaces (where every AI sees itself as 2) are translated at the edges.

use std::fmt;

/// The most rows a board may have: the engine's bitboards hold `(rows + 1) x columns` bits in
/// 256 (the course's boards have 9 to 12 rows and columns).
pub const MAX_ROWS: usize = 20;

/// The most columns a board may have (see [`MAX_ROWS`]).
pub const MAX_COLUMNS: usize = 12;

/// An M x N board with an obstacle.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Rows.
    pub m: usize,
    /// Columns.
    pub n: usize,
    /// Obstacle row.
    pub no_x: usize,
    /// Obstacle column.
    pub no_y: usize,
    cells: Vec<u8>,
    top: Vec<usize>,
}

impl Board {
    /// An empty board; `top` as the judge sets it up.
    ///
    /// ```
    /// use connect4::Board;
    /// let b = Board::new(9, 10, 8, 3); // obstacle in the bottom row
    /// assert_eq!(b.top()[3], 8);
    /// assert_eq!(b.top()[0], 9);
    /// ```
    pub fn new(m: usize, n: usize, no_x: usize, no_y: usize) -> Board {
        let mut top = vec![m; n];
        if no_x == m - 1 {
            top[no_y] = m - 1;
        }
        Board {
            m,
            n,
            no_x,
            no_y,
            cells: vec![0; m * n],
            top,
        }
    }

    /// Builds a board from the course's arrays (`board` with 1 = opponent, 2 = self, as the AI
    /// sees it), checking them against the judge's own invariants, so that a request the judge
    /// could never send is refused instead of being played blindly: every value 0, 1 or 2; the
    /// obstacle cell empty; in every column the stones stacked from the bottom without gaps
    /// (skipping the obstacle) and `top` where the judge would have it; the opponent with as
    /// many stones as the AI or one more; no four in a row already. `me` is the player number
    /// to give the AI's stones.
    ///
    /// ```
    /// use connect4::Board;
    /// let (m, n) = (9, 9);
    /// let mut top = vec![9; 9];
    /// let mut cells = vec![0; 81];
    /// cells[8 * 9 + 4] = 1; // the opponent's stone at the bottom of column 4
    /// top[4] = 8;
    /// assert!(Board::from_course(m, n, &top, &cells, 0, 0, 2).is_ok());
    /// top[4] = 9; // `top` that disagrees with the board
    /// let err = Board::from_course(m, n, &top, &cells, 0, 0, 2).unwrap_err();
    /// assert_eq!(err, "top[4] = 9 disagrees with the board (the judge's would be 8)");
    /// ```
    pub fn from_course(
        m: usize,
        n: usize,
        top: &[i32],
        board: &[i32],
        no_x: usize,
        no_y: usize,
        me: u8,
    ) -> Result<Board, String> {
        let b = Board::from_course_unchecked(m, n, top, board, no_x, no_y, me)?;
        if b.at(no_x, no_y) != 0 {
            return Err(format!("the obstacle cell ({no_x}, {no_y}) holds a stone"));
        }
        for y in 0..n {
            // Stack the column's stones from the bottom as the judge would have played them.
            let mut judge_top = if no_x == m - 1 && no_y == y { m - 1 } else { m };
            for x in (0..m).rev() {
                if (x, y) == (no_x, no_y) || b.at(x, y) == 0 {
                    continue;
                }
                if judge_top != x + 1 {
                    return Err(format!(
                        "the stone at ({x}, {y}) floats: the cell below it is empty"
                    ));
                }
                judge_top -= 1;
                if x == no_x + 1 && y == no_y {
                    judge_top -= 1;
                }
            }
            if b.top[y] != judge_top {
                return Err(format!(
                    "top[{y}] = {} disagrees with the board (the judge's would be {judge_top})",
                    b.top[y]
                ));
            }
        }
        let count = |v: i32| board.iter().filter(|&&c| c == v).count();
        let (theirs, mine) = (count(1), count(2));
        if theirs != mine && theirs != mine + 1 {
            return Err(format!(
                "{theirs} stones of the opponent (1) and {mine} of this side (2): it cannot be \
                 this side's turn"
            ));
        }
        for x in 0..m {
            for y in 0..n {
                if b.wins_at(x, y) {
                    return Err(format!(
                        "the game is already over: four in a row through ({x}, {y})"
                    ));
                }
            }
        }
        Ok(b)
    }

    /// Builds a board from the course's arrays like [`Board::from_course`], checking only the
    /// sizes, the values and the range of `top`: for tests and tools that set up arbitrary
    /// positions (stones anywhere).
    pub fn from_course_unchecked(
        m: usize,
        n: usize,
        top: &[i32],
        board: &[i32],
        no_x: usize,
        no_y: usize,
        me: u8,
    ) -> Result<Board, String> {
        check_size(m, n)?;
        if top.len() != n || board.len() != m * n {
            return Err(format!(
                "expected {n} top values and {} board values",
                m * n
            ));
        }
        if no_x >= m || no_y >= n {
            return Err(format!(
                "obstacle ({no_x}, {no_y}) is off the {m}x{n} board"
            ));
        }
        let them = 3 - me;
        let mut b = Board::new(m, n, no_x, no_y);
        for (i, &v) in board.iter().enumerate() {
            b.cells[i] = match v {
                0 => 0,
                1 => them,
                2 => me,
                other => {
                    return Err(format!(
                        "board value {other} at ({}, {}) is not 0, 1 or 2",
                        i / n,
                        i % n
                    ))
                }
            };
        }
        for (y, &t) in top.iter().enumerate() {
            if t < 0 || t as usize > m {
                return Err(format!("top[{y}] = {t} is outside 0..={m}"));
            }
            b.top[y] = t as usize;
        }
        Ok(b)
    }

    /// The judge's `top[]`.
    pub fn top(&self) -> &[usize] {
        &self.top
    }

    /// The stone at (x, y): 0 empty, 1 or 2.
    #[inline]
    pub fn at(&self, x: usize, y: usize) -> u8 {
        self.cells[x * self.n + y]
    }

    /// Whether column `y` has room.
    #[inline]
    pub fn can_play(&self, y: usize) -> bool {
        self.top[y] > 0
    }

    /// The row a stone in column `y` would land on.
    #[inline]
    pub fn landing_row(&self, y: usize) -> Option<usize> {
        self.can_play(y).then(|| self.top[y] - 1)
    }

    /// Whether (x, y) is a legal move now (the judge's test).
    pub fn is_legal(&self, x: usize, y: usize) -> bool {
        x < self.m && y < self.n && self.top[y] == x + 1 && (x, y) != (self.no_x, self.no_y)
    }

    /// Drops a stone of `player` into column `y` and returns its row; `top` is updated as the
    /// judge does (skipping the obstacle).
    ///
    /// ```
    /// use connect4::Board;
    /// let mut b = Board::new(9, 9, 7, 2); // obstacle just above the bottom cell of column 2
    /// assert_eq!(b.play(2, 1), 8);
    /// assert_eq!(b.top()[2], 7); // skipped the obstacle: the next stone lands on row 6
    /// assert_eq!(b.play(2, 2), 6);
    /// ```
    pub fn play(&mut self, y: usize, player: u8) -> usize {
        let x = self.top[y] - 1;
        self.cells[x * self.n + y] = player;
        self.top[y] -= 1;
        if x == self.no_x + 1 && y == self.no_y {
            self.top[y] -= 1;
        }
        x
    }

    /// Removes the stone at (x, y) (the top of its column), restoring `top`.
    pub fn unplay(&mut self, x: usize, y: usize) {
        self.cells[x * self.n + y] = 0;
        self.top[y] = x + 1;
    }

    /// Whether the stone at (x, y) is part of four or more in a row.
    pub fn wins_at(&self, x: usize, y: usize) -> bool {
        let p = self.at(x, y);
        p != 0 && self.wins_with(x, y, p)
    }

    /// Whether a stone of `player` on (x, y) makes four or more with the stones around it
    /// (the cell itself is not read, so it may be empty: nothing is changed).
    pub fn wins_with(&self, x: usize, y: usize, player: u8) -> bool {
        let count = |dx: i32, dy: i32| {
            let (mut cx, mut cy, mut k) = (x as i32 + dx, y as i32 + dy, 0);
            while cx >= 0
                && cy >= 0
                && (cx as usize) < self.m
                && (cy as usize) < self.n
                && self.at(cx as usize, cy as usize) == player
            {
                k += 1;
                cx += dx;
                cy += dy;
            }
            k
        };
        [(0, 1), (1, 0), (1, 1), (1, -1)]
            .iter()
            .any(|&(dx, dy)| 1 + count(dx, dy) + count(-dx, -dy) >= 4)
    }

    /// The cell a second stone in column `y` would take after one lands there (skipping the
    /// obstacle), if any.
    pub fn cell_above_landing(&self, y: usize) -> Option<usize> {
        let x = self.landing_row(y)?;
        let mut above = x.checked_sub(1)?;
        if (above, y) == (self.no_x, self.no_y) {
            above = above.checked_sub(1)?;
        }
        Some(above)
    }

    /// Whether playing column `y` would win for `player`.
    pub fn would_win(&self, y: usize, player: u8) -> bool {
        self.landing_row(y)
            .is_some_and(|x| self.wins_with(x, y, player))
    }

    /// Whether every column is full (the judge's tie test).
    pub fn is_full(&self) -> bool {
        self.top.iter().all(|&t| t == 0)
    }

    /// The course arrays as player `me` sees them (2 = own stones, 1 = opponent's).
    pub fn course_view(&self, me: u8) -> (Vec<i32>, Vec<i32>) {
        let top = self.top.iter().map(|&t| t as i32).collect();
        let board = self
            .cells
            .iter()
            .map(|&c| {
                if c == 0 {
                    0
                } else if c == me {
                    2
                } else {
                    1
                }
            })
            .collect();
        (top, board)
    }
}

impl fmt::Display for Board {
    /// The match tool's drawing: `A` first player, `B` second, `.` empty, `X` obstacle.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text(['A', 'B']))
    }
}

impl Board {
    /// The board as text, one row per line from the top: the first mover's stones as
    /// `letters[0]`, the second's as `letters[1]`, the obstacle `X`, empty cells `.`.
    ///
    /// ```
    /// use connect4::Board;
    /// let mut b = Board::new(9, 9, 0, 0);
    /// b.play(4, 1);
    /// assert!(b.to_text(['B', 'A']).ends_with(". . . . B . . . . \n"));
    /// ```
    pub fn to_text(&self, letters: [char; 2]) -> String {
        let mut out = String::new();
        for x in 0..self.m {
            for y in 0..self.n {
                let c = if (x, y) == (self.no_x, self.no_y) {
                    'X'
                } else {
                    match self.at(x, y) {
                        1 => letters[0],
                        2 => letters[1],
                        _ => '.',
                    }
                };
                out.push(c);
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }
}

/// Whether the engine can play on an `m` x `n` board: 1 to [`MAX_ROWS`] rows and 1 to
/// [`MAX_COLUMNS`] columns; else the message to report.
///
/// ```
/// use connect4::board::check_size;
/// assert!(check_size(12, 12).is_ok());
/// assert!(check_size(20, 20).unwrap_err().contains("at most 12 columns"));
/// ```
pub fn check_size(m: usize, n: usize) -> Result<(), String> {
    if (1..=MAX_ROWS).contains(&m) && (1..=MAX_COLUMNS).contains(&n) {
        Ok(())
    } else {
        Err(format!(
            "board size {m}x{n} is not supported: 1 to {MAX_ROWS} rows and at most {MAX_COLUMNS} columns"
        ))
    }
}
