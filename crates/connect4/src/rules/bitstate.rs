//! The position as bitboards, for fast MCTS simulations.
//!
//! [`GameState`] keeps the course's board (cells and `top[]`), which the interfaces need; a
//! simulation only needs "where can each side move, where would a stone win", thousands of times
//! per second. Here each column is `m + 1` bits (bottom row first, one empty sentinel bit on top,
//! as in Pascal Pons' solver), up to 12 columns x 21 bits in 256 bits (the course's boards need
//! 12 x 13). The obstacle counts as occupied but belongs to nobody, so the next landing cell of
//! every column is one addition (`(occupied + bottom) & board & !occupied`) that skips the
//! obstacle exactly as the judge's `top[]` does, and the cells where a side would complete four
//! are a few shifts for all columns at once. Positions carry a Zobrist key updated move by move.

use crate::rules::board::{MAX_COLUMNS, MAX_ROWS};
use crate::rules::game_state::GameState;
use search_core::hash::mix64;
use search_core::MctsState;

// Every column with its sentinel bit fits in the 256 bits.
const _: () = assert!((MAX_ROWS + 1) * MAX_COLUMNS <= 256);

/// `COLUMN_OF[h][i]`: the column of bit `i` when columns are `h` bits tall (a table instead of a
/// division in the loops that turn cells into columns).
static COLUMN_OF: [[u8; 256]; MAX_ROWS + 2] = {
    let mut table = [[0u8; 256]; MAX_ROWS + 2];
    let mut h = 1;
    while h < MAX_ROWS + 2 {
        let mut i = 0;
        while i < 256 {
            table[h][i] = (i / h) as u8;
            i += 1;
        }
        h += 1;
    }
    table
};

/// 256 bits as two `u128` halves.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Bits256 {
    lo: u128,
    hi: u128,
}

impl Bits256 {
    const ZERO: Bits256 = Bits256 { lo: 0, hi: 0 };

    #[inline(always)]
    fn bit(i: usize) -> Bits256 {
        if i < 128 {
            Bits256 { lo: 1 << i, hi: 0 }
        } else {
            Bits256 {
                lo: 0,
                hi: 1 << (i - 128),
            }
        }
    }
    #[inline(always)]
    fn and(self, o: Bits256) -> Bits256 {
        Bits256 {
            lo: self.lo & o.lo,
            hi: self.hi & o.hi,
        }
    }
    #[inline(always)]
    fn or(self, o: Bits256) -> Bits256 {
        Bits256 {
            lo: self.lo | o.lo,
            hi: self.hi | o.hi,
        }
    }
    #[inline(always)]
    fn andnot(self, o: Bits256) -> Bits256 {
        Bits256 {
            lo: self.lo & !o.lo,
            hi: self.hi & !o.hi,
        }
    }
    /// Towards higher bits by `k` (1..128).
    #[inline(always)]
    fn shl(self, k: u32) -> Bits256 {
        Bits256 {
            lo: self.lo << k,
            hi: self.hi << k | self.lo >> (128 - k),
        }
    }
    /// Towards lower bits by `k` (1..128).
    #[inline(always)]
    fn shr(self, k: u32) -> Bits256 {
        Bits256 {
            lo: self.lo >> k | self.hi << (128 - k),
            hi: self.hi >> k,
        }
    }
    #[inline(always)]
    fn add(self, o: Bits256) -> Bits256 {
        let (lo, carry) = self.lo.overflowing_add(o.lo);
        Bits256 {
            lo,
            hi: self.hi.wrapping_add(o.hi).wrapping_add(carry as u128),
        }
    }
    #[inline(always)]
    fn is_empty(self) -> bool {
        self.lo | self.hi == 0
    }
    /// Number of set bits.
    #[inline(always)]
    fn count(self) -> u32 {
        self.lo.count_ones() + self.hi.count_ones()
    }
    /// Bits `at..at + 128` as a `u128` (`at` below 256; bits past the end are zeros).
    #[inline(always)]
    fn window(self, at: u32) -> u128 {
        match at {
            0 => self.lo,
            1..=127 => self.lo >> at | self.hi << (128 - at),
            _ => self.hi >> (at - 128),
        }
    }
    /// The inverse of [`window`](Self::window): `w` as bits `at..at + 128` (bits past 256
    /// dropped).
    #[inline(always)]
    fn from_window(w: u128, at: u32) -> Bits256 {
        match at {
            0 => Bits256 { lo: w, hi: 0 },
            1..=127 => Bits256 {
                lo: w << at,
                hi: w >> (128 - at),
            },
            _ => Bits256 {
                lo: 0,
                hi: w << (at - 128),
            },
        }
    }
    /// Index of the lowest set bit (the set must not be empty).
    #[inline(always)]
    fn lowest(self) -> usize {
        if self.lo != 0 {
            self.lo.trailing_zeros() as usize
        } else {
            128 + self.hi.trailing_zeros() as usize
        }
    }
}

/// A game in progress on bitboards; the same game as a [`GameState`].
#[derive(Debug, Clone, Copy)]
pub struct BitState {
    /// Stones of player 1 and player 2.
    stones: [Bits256; 2],
    /// Stones and the obstacle.
    occupied: Bits256,
    /// Empty cells where a stone of player 1 (2) would make four: kept up to date by
    /// [`BitState::play`], which recomputes the mover's and clears the filled cell.
    threats: [Bits256; 2],
    /// Every cell of the board (no sentinels).
    board: Bits256,
    /// The bottom cell of every column.
    bottom: Bits256,
    /// Bits per column (rows + 1).
    height: u8,
    /// Columns.
    columns: u8,
    /// Player to move, 1 or 2.
    to_move: u8,
    /// Winner (1 or 2), 0 for a draw, `None` while playing.
    result: Option<u8>,
    /// The cell (bit index) of the last move played on this state (`u8::MAX` for none), its
    /// column derived from it: not part of the position, so equality ignores it.
    last_cell: u8,
    /// The Zobrist key of the stones ([`BitState::key`]), kept up to date by
    /// [`BitState::play`]: a function of the position, so equality need not compare it.
    key: u64,
}

/// Zobrist keys: one random-looking 64-bit word per player and bit index, XORed together for
/// the stones on the board; a move changes the key by one XOR.
static ZOBRIST: [[u64; 256]; 2] = {
    let mut keys = [[0u64; 256]; 2];
    let mut i = 0;
    while i < 512 {
        keys[i / 256][i % 256] = mix64((i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        i += 1;
    }
    keys
};

/// Two states are equal when they hold the same position, however it was reached.
impl PartialEq for BitState {
    fn eq(&self, other: &BitState) -> bool {
        self.stones == other.stones
            && self.occupied == other.occupied
            && self.board == other.board
            && self.to_move == other.to_move
            && self.result == other.result
    }
}

impl Eq for BitState {}

impl BitState {
    /// The same position as `g`.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let mut g = GameState::new(Board::new(9, 9, 8, 4), 1); // obstacle at the bottom of column 4
    /// g.play(4);
    /// let b = BitState::from_game(&g);
    /// assert_eq!(b.to_move(), 2);
    /// assert_eq!(b.playable_columns(), vec![0, 1, 2, 3, 4, 5, 6, 7, 8]);
    /// ```
    pub fn from_game(g: &GameState) -> BitState {
        let b = &g.board;
        let height = b.m + 1;
        let cell = |x: usize, y: usize| Bits256::bit(y * height + (b.m - 1 - x));
        let mut s = BitState {
            stones: [Bits256::ZERO; 2],
            occupied: Bits256::ZERO,
            threats: [Bits256::ZERO; 2],
            board: Bits256::ZERO,
            bottom: Bits256::ZERO,
            height: height as u8,
            columns: b.n as u8,
            to_move: g.to_move,
            result: g.result,
            last_cell: u8::MAX,
            key: 0,
        };
        for y in 0..b.n {
            s.bottom = s.bottom.or(cell(b.m - 1, y));
            for x in 0..b.m {
                s.board = s.board.or(cell(x, y));
                match b.at(x, y) {
                    0 if (x, y) == (b.no_x, b.no_y) => s.occupied = s.occupied.or(cell(x, y)),
                    0 => {}
                    p => {
                        let stone = cell(x, y);
                        s.stones[p as usize - 1] = s.stones[p as usize - 1].or(stone);
                        s.occupied = s.occupied.or(stone);
                        s.key ^= ZOBRIST[p as usize - 1][stone.lowest()];
                    }
                }
            }
        }
        s.threats = [s.winning_cells(s.stones[0]), s.winning_cells(s.stones[1])];
        s
    }

    /// Player to move, 1 or 2.
    pub fn to_move(&self) -> u8 {
        self.to_move
    }

    /// Whether the side to move is the one that moved second in this game: an odd number of
    /// stones is on the board. Labels do not say it: the course's interfaces call their own
    /// side 2 whether it moved first or not.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// // The course's view: the engine is player 2 and moves first on an empty board.
    /// let mut g = GameState::new(Board::new(9, 9, 0, 0), 2);
    /// assert!(!BitState::from_game(&g).second_mover_to_move());
    /// g.play(4); // now player 1, the second mover, is to move
    /// assert!(BitState::from_game(&g).second_mover_to_move());
    /// ```
    #[inline]
    pub fn second_mover_to_move(&self) -> bool {
        (self.stones[0].count() + self.stones[1].count()) % 2 == 1
    }

    /// Winner (1 or 2), 0 for a draw, `None` while playing.
    pub fn result(&self) -> Option<u8> {
        self.result
    }

    /// The column of the last move played on this state; `None` for a state made from a
    /// [`GameState`] and not played on since.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let mut s = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 0), 1));
    /// assert_eq!(s.last_column(), None);
    /// s.play(4);
    /// assert_eq!(s.last_column(), Some(4));
    /// ```
    pub fn last_column(&self) -> Option<usize> {
        self.last_cell().map(|cell| self.column_of(cell as usize))
    }

    /// The cell (bit index) of the last stone played on this state; `None` as for
    /// [`last_column`](Self::last_column). Cells are what last-good-reply rollouts learn
    /// replies by: a column alone does not say which stone is answered.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let mut s = BitState::from_game(&GameState::new(Board::new(9, 9, 0, 0), 1));
    /// assert_eq!(s.last_cell(), None);
    /// let landing = s.landing_cell(4);
    /// assert_eq!(s.column_landing_on(landing as usize), Some(4));
    /// s.play(4);
    /// assert_eq!(s.last_cell(), Some(landing));
    /// // The cell is filled: no column lands there any more; the next one up is column 4's.
    /// assert_eq!(s.column_landing_on(landing as usize), None);
    /// assert_eq!(s.column_landing_on(landing as usize + 1), Some(4));
    /// ```
    #[inline]
    pub fn last_cell(&self) -> Option<u8> {
        (self.last_cell != u8::MAX).then_some(self.last_cell)
    }

    /// The column whose landing cell is `cell` (a bit index), if it is one (see
    /// [`last_cell`](Self::last_cell)).
    #[inline]
    pub fn column_landing_on(&self, cell: usize) -> Option<usize> {
        (!self.landing().and(Bits256::bit(cell)).is_empty()).then(|| self.column_of(cell))
    }

    /// The cell (bit index) where a stone dropped in open column `y` lands (see
    /// [`last_cell`](Self::last_cell)).
    #[inline]
    pub fn landing_cell(&self, y: usize) -> u8 {
        self.landing().and(self.column(y)).lowest() as u8
    }

    /// The cell where a stone dropped in each column lands (none for full columns).
    #[inline(always)]
    fn landing(&self) -> Bits256 {
        // The addition sets each column's lowest empty bit; an obstacle higher up keeps its bit.
        self.occupied
            .add(self.bottom)
            .and(self.board)
            .andnot(self.occupied)
    }

    /// Each column's landing cell after its current one is filled (the obstacle skipped).
    #[inline(always)]
    fn second_landing(&self) -> Bits256 {
        self.landing_after(self.landing())
    }

    /// The cells of column `y`.
    #[inline(always)]
    fn column(&self, y: usize) -> Bits256 {
        let h = self.height as usize;
        let cells = (1u128 << (h - 1)) - 1;
        Bits256::from_window(cells, (y * h) as u32)
    }

    /// Empty cells where a stone of `stones` would make four or more in a row.
    #[inline(always)]
    fn winning_cells(&self, stones: Bits256) -> Bits256 {
        four_completions(stones, self.height as u32)
            .and(self.board)
            .andnot(self.occupied)
    }

    #[inline(always)]
    fn column_of(&self, cell: usize) -> usize {
        COLUMN_OF[self.height as usize][cell] as usize
    }

    /// The columns of `cells` as a bit mask (bit `y` for column `y`).
    #[inline(always)]
    fn column_mask(&self, cells: Bits256) -> u32 {
        let of = &COLUMN_OF[self.height as usize];
        let mut mask = 0u32;
        let (mut lo, mut hi) = (cells.lo, cells.hi);
        while lo != 0 {
            mask |= 1 << of[lo.trailing_zeros() as usize];
            lo &= lo - 1;
        }
        while hi != 0 {
            mask |= 1 << of[128 + hi.trailing_zeros() as usize];
            hi &= hi - 1;
        }
        mask
    }

    /// Columns with room, in order.
    pub fn playable_columns(&self) -> Vec<usize> {
        columns_in(self.column_mask(self.landing())).collect()
    }

    /// A column where the side to move wins at once, else the column of an opponent's
    /// immediate win (to block), else `None`.
    #[inline]
    pub fn forced_column(&self) -> Option<usize> {
        let me = self.to_move as usize - 1;
        let landing = self.landing();
        let win = self.threats[me].and(landing);
        if !win.is_empty() {
            return Some(self.column_of(win.lowest()));
        }
        let block = self.threats[1 - me].and(landing);
        (!block.is_empty()).then(|| self.column_of(block.lowest()))
    }

    /// For each column, its empty cells from the landing cell up (the obstacle skipped), each
    /// as a label: bit 0 set when a stone of player 1 there would make four, bit 1 for player 2.
    /// Cells are appended to `out` column after column; `lengths[y]` tells how many are column
    /// `y`'s.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, board::MAX_COLUMNS, engine::GameState};
    /// let mut g = GameState::new(Board::new(9, 9, 8, 4), 1); // obstacle at the bottom of column 4
    /// for y in [0, 0, 1, 1, 2, 2] { g.play(y); }
    /// let (mut labels, mut lengths) = (Vec::new(), [0u8; MAX_COLUMNS]);
    /// BitState::from_game(&g).column_threat_labels(&mut labels, &mut lengths);
    /// assert_eq!(&lengths[..9], &[7, 7, 7, 9, 8, 9, 9, 9, 9]);
    /// // Column 3: player 1 makes four on its bottom cell, player 2 on the cell above.
    /// assert_eq!(&labels[21..24], &[1, 2, 0]);
    /// ```
    pub fn column_threat_labels(&self, out: &mut Vec<u8>, lengths: &mut [u8; MAX_COLUMNS]) {
        let h = self.height as u32;
        let cells = (1u128 << (h - 1)) - 1;
        for (y, len) in lengths.iter_mut().enumerate().take(self.columns as usize) {
            let at = y as u32 * h;
            let mut empty = !self.occupied.window(at) & cells;
            let first = self.threats[0].window(at);
            let second = self.threats[1].window(at);
            *len = empty.count_ones() as u8;
            while empty != 0 {
                let r = empty.trailing_zeros();
                out.push((first >> r & 1 | (second >> r & 1) << 1) as u8);
                empty &= empty - 1;
            }
        }
    }

    /// Number of columns.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let s = BitState::from_game(&GameState::new(Board::new(9, 11, 0, 0), 1));
    /// assert_eq!(s.columns(), 11);
    /// ```
    pub fn columns(&self) -> usize {
        self.columns as usize
    }

    /// Empty cells left on the board (the obstacle is not one).
    pub fn empty_cells(&self) -> u32 {
        self.board.andnot(self.occupied).count()
    }

    /// A 64-bit key of the position (the stones of each side; the obstacle and the side to
    /// move follow from them), for transposition tables: the XOR of one Zobrist key per stone,
    /// kept up to date move by move, so asking for it costs nothing.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let empty = GameState::new(Board::new(9, 9, 8, 4), 1);
    /// let (mut a, mut b) = (BitState::from_game(&empty), BitState::from_game(&empty));
    /// for y in [2, 3, 4, 5] { a.play(y); }
    /// for y in [4, 5, 2, 3] { b.play(y); } // the same stones in another order
    /// assert_eq!(a.key(), b.key());
    /// let mut g = empty.clone();
    /// for y in [2, 3, 4, 5] { g.play(y); }
    /// assert_eq!(BitState::from_game(&g).key(), a.key());
    /// ```
    #[inline(always)]
    pub fn key(&self) -> u64 {
        self.key
    }

    /// The open columns as two bit masks (bit `y` for column `y`): those where a stone does not
    /// let the opponent win straight above it, and those where it does.
    #[inline(always)]
    fn safe_columns(&self) -> (u32, u32) {
        let opp = 2 - self.to_move as usize;
        let landing = self.landing();
        // At most one cell of a column is a landing cell, and one the cell above it.
        let open = self.column_mask(landing);
        let danger = self.column_mask(self.threats[opp].and(self.landing_after(landing)));
        (open & !danger, open & danger)
    }

    /// The open columns (as a mask) where a stone would fill the cell right below one of the
    /// mover's own threats: the opponent could then kill the threat by playing on top.
    #[inline(always)]
    pub fn wasteful_columns(&self) -> u32 {
        let me = self.to_move as usize - 1;
        self.column_mask(self.threats[me].and(self.second_landing()))
    }

    /// Stacked threats, the classic way a Connect Four game is won: two threats of one side on
    /// consecutive cells of a column. Returns two column masks for the side to move:
    ///
    /// - *winning*: columns where the mover owns the second and third cells from the landing
    ///   cell up (the obstacle skipped) and the opponent does not own the second. Playing there
    ///   wins in three plies: the opponent must block the second cell (it has no immediate win:
    ///   the caller has checked [`forced_column`](Self::forced_column) first) and the third
    ///   wins.
    /// - *losing*: columns where the opponent owns the third and fourth cells and the mover
    ///   not the third. Playing there hands the opponent that same win in three, unless the
    ///   move makes a threat of its own that the opponent must answer first.
    ///
    /// A move in a column changes no threat two or more cells above it in that column (only a
    /// vertical line could join them, and the cell between is empty), so the masks are read
    /// off the position before the move.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let mut g = GameState::new(Board::new(9, 9, 0, 0), 1);
    /// // Player 1 owns the third and fourth cells of the empty column 4 (two diagonals).
    /// for y in [2, 3, 3, 5, 6, 5, 5, 0, 5, 0, 6, 8, 7] {
    ///     g.play(y);
    /// }
    /// let s = BitState::from_game(&g);
    /// assert_eq!(s.forced_column(), None);
    /// // Player 2 to move: a stone in column 4 hands player 1 the win in three.
    /// assert_eq!(s.stacked_threat_columns(), (0, 1 << 4));
    /// g.play(4);
    /// // Player 1 to move: column 4 now wins (player 2 must block the cell above, then
    /// // player 1 plays the one above that).
    /// assert_eq!(BitState::from_game(&g).stacked_threat_columns(), (1 << 4, 0));
    /// ```
    #[inline]
    pub fn stacked_threat_columns(&self) -> (u32, u32) {
        let me = self.to_move as usize - 1;
        let (mine, theirs) = (self.threats[me], self.threats[1 - me]);
        if mine.or(theirs).is_empty() {
            return (0, 0);
        }
        let first = self.landing();
        let second = self.landing_after(first);
        let below_third = first.or(second);
        let third = self.landing_after(below_third);
        let fourth = self.landing_after(below_third.or(third));
        let winning =
            self.column_mask(mine.and(second).andnot(theirs)) & self.column_mask(mine.and(third));
        let losing =
            self.column_mask(theirs.and(third).andnot(mine)) & self.column_mask(theirs.and(fourth));
        (winning, losing)
    }

    /// Each column's lowest empty cell above the cells `filled` (stones, the obstacle and
    /// `filled` taken as occupied).
    #[inline(always)]
    fn landing_after(&self, filled: Bits256) -> Bits256 {
        let filled = self.occupied.or(filled);
        filled.add(self.bottom).and(self.board).andnot(filled)
    }

    /// The columns worth searching, best first: the winning column alone when the side to move
    /// can win, else the column it must block alone, else the columns that do not hand the
    /// opponent a win straight above (all columns when every one does), ordered by how many
    /// cells the move makes winning for the mover, then centre first.
    ///
    /// ```
    /// use connect4::{Board, bitstate::BitState, engine::GameState};
    /// let mut g = GameState::new(Board::new(9, 9, 0, 0), 1);
    /// for y in [4, 0, 5, 0] { g.play(y); } // player 1 has two in a row on the bottom
    /// let mut columns = Vec::new();
    /// BitState::from_game(&g).search_columns(&mut columns);
    /// assert_eq!(&columns[..2], &[3, 6]); // both make an open three
    /// ```
    pub fn search_columns(&self, out: &mut Vec<usize>) {
        let mut children = [*self; MAX_COLUMNS];
        self.search_children(out, &mut children);
    }

    /// [`search_columns`](Self::search_columns), also leaving the position after each listed
    /// column `y` in `children[y]`: ordering the moves plays them anyway (to count the threats
    /// each makes), so a search that keeps the children need not play them again.
    pub fn search_children(&self, out: &mut Vec<usize>, children: &mut [BitState; MAX_COLUMNS]) {
        if self.result.is_some() {
            return;
        }
        let mut child = |y: usize| {
            children[y] = *self;
            children[y].play(y);
            children[y]
        };
        if let Some(y) = self.forced_column() {
            child(y);
            out.push(y);
            return;
        }
        let (safe, unsafe_columns) = self.safe_columns();
        if safe == 0 {
            for y in columns_in(unsafe_columns) {
                child(y);
                out.push(y);
            }
            return;
        }
        let me = self.to_move as usize - 1;
        let mut candidates = [(0u32, 0usize); MAX_COLUMNS];
        let mut len = 0;
        for y in columns_in(safe) {
            // The cells where the mover would win after the move (the filled cell is not one).
            let threats = child(y).threats[me].count();
            let centre = (2 * y as i32 - self.columns as i32 + 1).unsigned_abs();
            candidates[len] = (threats * 32 + 31 - centre, y);
            len += 1;
        }
        candidates[..len].sort_unstable_by_key(|c| std::cmp::Reverse(c.0));
        out.extend(candidates[..len].iter().map(|c| c.1));
    }

    /// How many columns [`search_columns`](Self::search_columns) gives, without listing them:
    /// every column has at most one landing cell and one cell above it, so counting cells
    /// counts columns (the proof-number search asks this of every node it creates).
    #[inline]
    pub fn search_column_count(&self) -> u32 {
        if self.result.is_some() {
            return 0;
        }
        let landing = self.landing();
        if !self.threats[0].or(self.threats[1]).and(landing).is_empty() {
            return 1; // a win, or the block of the opponent's
        }
        let opp = 2 - self.to_move as usize;
        let open = landing.count();
        let unsafe_columns = self.threats[opp].and(self.landing_after(landing)).count();
        if open > unsafe_columns {
            open - unsafe_columns
        } else {
            open
        }
    }

    /// Drops a stone of the side to move into column `y` (which must have room).
    #[inline]
    pub fn play(&mut self, y: usize) {
        let p = self.to_move as usize - 1;
        let cell = self.landing().and(self.column(y));
        // The stone makes four exactly when its cell was one of the mover's threats.
        let wins = !self.threats[p].and(cell).is_empty();
        let index = cell.lowest();
        self.key ^= ZOBRIST[p][index];
        self.stones[p] = self.stones[p].or(cell);
        self.occupied = self.occupied.or(cell);
        // The new stone only adds threats on lines through its cell, which lie within three
        // columns of it: seven columns of at most 13 bits fit in one `u128`, where the shifts
        // cost half as much as on the whole board. The cell itself is no threat any more.
        let at = (y.saturating_sub(3) * self.height as usize) as u32;
        let free = self.board.andnot(self.occupied).window(at);
        let new = four_completions(self.stones[p].window(at), self.height as u32) & free;
        self.threats[p] = self.threats[p]
            .andnot(cell)
            .or(Bits256::from_window(new, at));
        debug_assert_eq!(self.threats[p], self.winning_cells(self.stones[p]));
        self.threats[1 - p] = self.threats[1 - p].andnot(cell);
        self.last_cell = index as u8;
        if wins {
            self.result = Some(self.to_move);
        } else if self.landing().is_empty() {
            self.result = Some(0);
        }
        self.to_move = 3 - self.to_move;
    }
}

/// The bit operations of cell sets: the whole board's [`Bits256`] and the `u128` windows
/// [`BitState::play`] updates threats in, so that the four-in-a-row formula is written once.
trait CellSet: Copy {
    fn and(self, o: Self) -> Self;
    fn or(self, o: Self) -> Self;
    /// Towards higher bits by `k` (1..128).
    fn shl(self, k: u32) -> Self;
    /// Towards lower bits by `k` (1..128).
    fn shr(self, k: u32) -> Self;
}

impl CellSet for Bits256 {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        Bits256::and(self, o)
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        Bits256::or(self, o)
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        Bits256::shl(self, k)
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        Bits256::shr(self, k)
    }
}

impl CellSet for u128 {
    #[inline(always)]
    fn and(self, o: Self) -> Self {
        self & o
    }
    #[inline(always)]
    fn or(self, o: Self) -> Self {
        self | o
    }
    #[inline(always)]
    fn shl(self, k: u32) -> Self {
        self << k
    }
    #[inline(always)]
    fn shr(self, k: u32) -> Self {
        self >> k
    }
}

/// The cells where stones `p` would make four or more in a row, empty or not, on columns of
/// `h` bits each (the sentinel bit on top of every column, never a stone, keeps lines from
/// running from one column into the next).
#[inline(always)]
fn four_completions<B: CellSet>(p: B, h: u32) -> B {
    // Vertical: three stones right below.
    let mut w = p.shl(1).and(p.shl(2)).and(p.shl(3));
    for s in [h, h - 1, h + 1] {
        // Two in a row on one side, then one or two further on either side.
        let up = p.shl(s).and(p.shl(2 * s));
        w = w.or(up.and(p.shl(3 * s))).or(up.and(p.shr(s)));
        let down = p.shr(s).and(p.shr(2 * s));
        w = w.or(down.and(p.shr(3 * s))).or(down.and(p.shl(s)));
    }
    w
}

/// The columns of a column mask, in increasing order.
#[inline(always)]
pub(crate) fn columns_in(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let y = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            y
        })
    })
}

impl MctsState for BitState {
    type Move = usize;

    /// Open columns that do not let the opponent win at once on the cell above; all open
    /// columns when every one does (the rule of [`GameState::safe_columns`]).
    fn legal_moves(&self, out: &mut Vec<usize>) {
        if self.result.is_some() {
            return;
        }
        let (safe, unsafe_columns) = self.safe_columns();
        out.extend(columns_in(if safe != 0 { safe } else { unsafe_columns }));
    }

    fn apply(&mut self, y: usize) {
        self.play(y);
    }

    fn player(&self) -> usize {
        (self.to_move - 1) as usize
    }

    fn terminal_reward(&self) -> Option<f64> {
        self.result.map(|w| match w {
            1 => 1.0,
            2 => 0.0,
            _ => 0.5,
        })
    }
    fn key(&self) -> Option<u64> {
        Some(self.key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::board::Board;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        /// The threats [`BitState::play`] updates in a window around the new stone equal the
        /// whole-board computation, on every board size with the obstacle anywhere (the
        /// widest windows, the last columns and the top rows included).
        #[test]
        fn incremental_threats_equal_the_whole_board_computation(
            (m, n, no_x, no_y) in (9usize..=12, 9usize..=12)
                .prop_flat_map(|(m, n)| (Just(m), Just(n), 0..m, 0..n)),
            picks in prop::collection::vec(any::<usize>(), 0..150),
        ) {
            let mut s = BitState::from_game(&GameState::new(Board::new(m, n, no_x, no_y), 1));
            for p in picks {
                let open = s.playable_columns();
                if open.is_empty() || s.result().is_some() {
                    break;
                }
                s.play(open[p % open.len()]);
                for player in 0..2 {
                    prop_assert_eq!(s.threats[player], s.winning_cells(s.stones[player]));
                }
            }
        }
    }
}
