//! Forced-mate problems made by the project itself: random endgame material (red's king with
//! one to three attackers and a few defenders, black's king with a few defenders) placed on the
//! squares each piece can reach, kept when [`crate::search::engine::find_mate`] proves a mate of the wanted length.
//! They test the engine's mate finding on positions nobody tuned it to, and give students
//! problems to practise on.

use crate::board::piece::{Color, Kind, Piece};
use crate::board::square::{Move, Square};
use crate::rules::movegen::{in_palace, own_side};
use crate::rules::position::Position;
use crate::search::engine::{find_mate_within, MateSearch};
use crate::search::proof::shortest_mate;
use rand::{Rng, SeedableRng};
use search_core::SmallRng;

/// A proven mate problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MateProblem {
    /// The position, red to move.
    pub position: Position,
    /// Red's moves to the mate.
    pub moves: u32,
    /// The mating line (the defence the longest).
    pub line: Vec<Move>,
}

/// Whether a `kind` of `color` may stand on `sq` at all (palace, elephant and pawn squares).
fn reachable(color: Color, kind: Kind, sq: Square) -> bool {
    let (r, c) = (sq.row(), sq.col());
    match kind {
        Kind::King => in_palace(color, sq),
        // The palace's corners and centre.
        Kind::Advisor => in_palace(color, sq) && ((c == 4) == (r == 1 || r == 8)),
        Kind::Elephant => {
            own_side(color, sq)
                && c % 2 == 0
                && matches!(r % 5, 0 | 2 | 4)
                && (r % 5 == 2) == (c % 4 == 0)
        }
        Kind::Pawn => {
            // On its own side only on the five files it starts on, at or past its start rank.
            let ahead = match color {
                Color::Red => r <= 6,
                Color::Black => r >= 3,
            };
            ahead && (!own_side(color, sq) || c % 2 == 0)
        }
        _ => true,
    }
}

/// Puts a `kind` of `color` on a random empty square it may stand on; `false` (and nothing
/// placed) when 200 draws find none.
pub(crate) fn place(pos: &mut Position, color: Color, kind: Kind, rng: &mut SmallRng) -> bool {
    for _ in 0..200 {
        let sq = Square(rng.random_range(0..90u8));
        if pos.at(sq).is_none() && reachable(color, kind, sq) {
            pos.set(sq, Some(Piece::new(color, kind)));
            return true;
        }
    }
    false
}

/// A random legal endgame with red to move (black not in check), or `None` when the draw
/// made an impossible board.
pub fn random_endgame(rng: &mut SmallRng) -> Option<Position> {
    let mut pos = Position::empty(Color::Red);
    place(&mut pos, Color::Red, Kind::King, rng);
    place(&mut pos, Color::Black, Kind::King, rng);
    let attackers = [Kind::Chariot, Kind::Horse, Kind::Cannon, Kind::Pawn];
    for _ in 0..rng.random_range(1..=3) {
        let kind = attackers[rng.random_range(0..attackers.len())];
        place(&mut pos, Color::Red, kind, rng);
    }
    let defenders = [
        Kind::Advisor,
        Kind::Elephant,
        Kind::Pawn,
        Kind::Horse,
        Kind::Chariot,
    ];
    for color in [Color::Red, Color::Black] {
        let most = if color == Color::Red { 2 } else { 4 };
        for _ in 0..rng.random_range(0..=most) {
            let kind = defenders[rng.random_range(0..defenders.len())];
            place(&mut pos, color, kind, rng);
        }
    }
    // The FEN reader's checks (one king each in its palace, black not in check).
    pos.to_string().parse::<Position>().ok()
}

/// Draws random endgames from `seed` until `count` problems with a forced mate of
/// `min_plies..=max_plies` plies are proven (each search capped at `nodes_each` nodes, so the
/// problems are the same on every machine); `on_found` sees each problem as it is found.
/// Returns the problems in the order found. The mates are proven by the full-width search,
/// or with `proof_numbers` by the proof-number search: slower to reject a candidate without
/// a mate at the same budget, but it reaches mates of 17 plies and more that the full-width
/// search cannot within one.
pub fn generate(
    seed: u64,
    count: usize,
    min_plies: u32,
    max_plies: u32,
    nodes_each: u64,
    proof_numbers: bool,
    mut on_found: impl FnMut(&MateProblem),
) -> Vec<MateProblem> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut found = Vec::new();
    while found.len() < count {
        let Some(position) = random_endgame(&mut rng) else {
            continue;
        };
        let found_mate = if proof_numbers {
            shortest_mate(&position, max_plies, None, Some(nodes_each))
        } else {
            find_mate_within(&position, max_plies, None, Some(nodes_each))
        };
        if let MateSearch::Mate { moves, line, .. } = found_mate {
            if line.len() as u32 >= min_plies {
                let problem = MateProblem {
                    position,
                    moves,
                    line,
                };
                on_found(&problem);
                found.push(problem);
            }
        }
    }
    found
}

/// One problem as a line of a problem file: `FEN ; mate in K ; line`.
pub fn problem_line(p: &MateProblem) -> String {
    let line: Vec<String> = p.line.iter().map(|m| m.to_string()).collect();
    format!("{} ; mate in {} ; {}", p.position, p.moves, line.join(" "))
}

/// The problem lines of a text (blank lines and `#` comments skipped): each one's line number,
/// its FEN (the first `;`-separated field) and the `mate in K` field when there is one.
pub(crate) fn problem_fields(
    text: &str,
) -> impl Iterator<Item = (usize, &str, Result<Option<u32>, String>)> {
    text.lines().enumerate().filter_map(|(i, raw)| {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            return None;
        }
        let mut fields = line.split(';').map(str::trim);
        let fen = fields.next().unwrap_or_default();
        // After the FEN: `mate in K`, then the mate's line of moves; anything else is a
        // mistyped annotation, named rather than ignored.
        let annotation = fields.next().filter(|f| !f.is_empty());
        let line_field = fields.next();
        let mate_in = match annotation {
            None => Ok(None),
            Some(f) => match f.strip_prefix("mate in ") {
                Some(k) => k
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .map(Some)
                    .ok_or_else(|| {
                        format!("`mate in {k}`: the moves must be a whole number from 1")
                    }),
                None => Err(format!(
                    "unknown annotation `{}`: expected `mate in K`",
                    batch::shown(f)
                )),
            },
        }
        .and_then(|m| match line_field {
            Some(l)
                if l.split_whitespace()
                    .any(|w| w.parse::<crate::board::square::Move>().is_err()) =>
            {
                Err(format!(
                    "`{}` is not a line of moves like h2e2 h9g7",
                    batch::shown(l)
                ))
            }
            _ => Ok(m),
        });
        Some((i + 1, fen, mate_in))
    })
}

/// Reads a problem file written by [`problem_line`] (blank lines and `#` comments skipped):
/// each position with the number of moves of its mate.
pub fn parse_problems(text: &str) -> Result<Vec<(Position, u32)>, batch::InputError> {
    let mut out = Vec::new();
    for (line, fen, mate_in) in problem_fields(text) {
        let position: Position = fen
            .parse()
            .map_err(|e: batch::InputError| batch::InputError::at(line, e.message))?;
        let moves = mate_in
            .map_err(|e| batch::InputError::at(line, e))?
            .ok_or_else(|| batch::InputError::at(line, "expected `FEN ; mate in K`"))?;
        out.push((position, moves));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_problem_line_is_reported_at_its_own_line_once() {
        let text = "# problems\n3k5/9/9/9/9/9/9/9/4R4/4K4 w ; mate in 1\nnot a fen ; mate in 2\n";
        let e = parse_problems(text).unwrap_err();
        assert_eq!(e.line, 3);
        assert!(!e.to_string().starts_with("3: 1:"), "{e}");
        let e = parse_problems("3k5/9/9/9/9/9/9/9/4R4/4K4 w ; mate soon\n").unwrap_err();
        assert_eq!(
            e.to_string(),
            "1: unknown annotation `mate soon`: expected `mate in K`"
        );
        assert_eq!(
            parse_problems(text.lines().take(2).collect::<Vec<_>>().join("\n").as_str())
                .unwrap()
                .len(),
            1
        );
    }
}
