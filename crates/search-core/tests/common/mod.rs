//! Tic-tac-toe's rules, shared by the test files that search it (two-player searches and MCTS):
//! a small solved game with many transpositions.

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
