//! The course's answer format (spec §5): `K (4,0) (5,0)` — the moving piece's letter, then origin
//! and destination as `(x,y)` with x the column from the left and y counted from the bottom
//! (red's back rank is y = 0), or from the top with `--y-origin top`.

use crate::board::square::{Move, Square};
use crate::rules::position::Position;

/// Where y = 0 is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum YOrigin {
    /// y = 0 is red's back rank (the announced rule; the handout's `K (4,0) (5,0)`).
    #[default]
    Bottom,
    /// y = row from the top, as some students wrote it.
    Top,
}

/// `(x,y)` of a square.
pub fn coords(sq: Square, origin: YOrigin) -> (usize, usize) {
    let y = match origin {
        YOrigin::Bottom => 9 - sq.row(),
        YOrigin::Top => sq.row(),
    };
    (sq.col(), y)
}

/// The answer line (with its trailing newline).
///
/// ```
/// use xiangqi_endgame::{course_io::{answer_line, YOrigin}, Move, Position};
/// let p: Position = "3ck4/1R3R3/4b4/8p/2r1r4/P7P/9/4B4/4A4/2BAK4 w".parse().unwrap();
/// let m: Move = "b8e8".parse().unwrap();
/// assert_eq!(answer_line(&p, m, YOrigin::Bottom), "R (1,8) (4,8)\n");
/// assert_eq!(answer_line(&p, m, YOrigin::Top), "R (1,1) (4,1)\n");
/// ```
pub fn answer_line(pos: &Position, mv: Move, origin: YOrigin) -> String {
    let letter = pos.at(mv.from).map_or('?', |p| p.letter());
    let (x1, y1) = coords(mv.from, origin);
    let (x2, y2) = coords(mv.to, origin);
    format!("{letter} ({x1},{y1}) ({x2},{y2})\n")
}
