//! The small solved games the tests and benches search: tic-tac-toe's rules (two-player
//! searches and MCTS; many transpositions) and Nim for MCTS.
#![allow(dead_code)] // each test binary uses its own share of these

/// The eight lines of three cells.
pub const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The owner (1 or 2) of a completed line among `cells` (0 empty), if any.
pub fn line_owner(cells: &[u8; 9]) -> Option<u8> {
    LINES.iter().find_map(|l| {
        let c = cells[l[0]];
        (c != 0 && c == cells[l[1]] && c == cells[l[2]]).then_some(c)
    })
}

/// Nim for MCTS: take 1 to `max_take` from a pile of `left`; who takes the last wins.
#[derive(Clone)]
pub struct Nim {
    pub left: u32,
    pub max_take: u32,
    pub to_move: usize,
    /// Whether positions reached by different move orders share one node (the key is the pile
    /// and the player to move).
    pub pooled: bool,
}

impl Nim {
    /// A pile of `left`, the first player to move, positions pooled.
    pub fn new(left: u32, max_take: u32) -> Nim {
        Nim {
            left,
            max_take,
            to_move: 0,
            pooled: true,
        }
    }
}

impl search_core::MctsState for Nim {
    type Move = u32;
    fn legal_moves(&self, out: &mut Vec<u32>) {
        out.extend((1..=self.max_take).filter(|&k| k <= self.left));
    }
    fn apply(&mut self, k: u32) {
        self.left -= k;
        self.to_move ^= 1;
    }
    fn player(&self) -> usize {
        self.to_move
    }
    fn terminal_reward(&self) -> Option<f64> {
        (self.left == 0).then_some(if self.to_move == 1 { 1.0 } else { 0.0 })
    }
    fn key(&self) -> Option<u64> {
        self.pooled
            .then_some(u64::from(self.left) << 1 | self.to_move as u64)
    }
}
