//! A game as an archive keeps it: the squares played from the standard start (passes left
//! implicit, as WTHOR and Logistello's book leave them), the recorded result, and what else the
//! archive says (players, tournament, year, the theoretical score). Replaying a record checks
//! every move against the rules and the recorded result against the final position, so a game
//! that comes out of [`GameRecord::replay`] is legal.

use crate::formats::ggf::GgfGame;
use crate::rules::position::{Color, Move, Position};
use std::fmt;

/// Black's disc difference under perfect play from the position with `empties` empty squares
/// of the game (WTHOR's theoretical score).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Theoretical {
    /// Empty squares of the position it is exact for.
    pub empties: u32,
    /// Black's final disc difference with perfect play from there (empties to the winner).
    pub black_diff: i32,
}

/// One game of an archive.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// The squares played from the standard start, in order, passes left out.
    pub squares: Vec<u8>,
    /// Who played each square, where the archive says (Logistello's `+`/`-`), to be checked.
    pub movers: Option<Vec<Color>>,
    /// Black's recorded final disc difference (empty squares to the winner once replayed).
    pub black_diff: i32,
    /// The theoretical score, where the archive gives it.
    pub theoretical: Option<Theoretical>,
    /// Black's name.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// The tournament.
    pub tournament: Option<String>,
    /// The year it was played.
    pub year: Option<u16>,
}

/// Where a record stands in its archive: the file and the game's number in it (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// The file.
    pub file: String,
    /// The game's number in the file, from 1 (0 for the file as a whole).
    pub index: usize,
    /// The ply of the offending move, from 1, when a move is at fault.
    pub ply: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.index, self.ply) {
            (0, _) => write!(f, "{}: {}", self.file, self.reason),
            (i, Some(p)) => write!(f, "{}: game {i}, ply {p}: {}", self.file, self.reason),
            (i, None) => write!(f, "{}: game {i}: {}", self.file, self.reason),
        }
    }
}

impl std::error::Error for RecordError {}

/// A record replayed: every position and move, passes included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Replay {
    /// The position before each move (`positions[i]` is the one `moves[i]` is played in).
    pub positions: Vec<Position>,
    /// The moves, passes included.
    pub moves: Vec<Move>,
    /// The position after the last move.
    pub end: Position,
    /// Whether the game was played to its end (neither side can move).
    pub finished: bool,
    /// Black's final disc difference: the final position's (empties to the winner) when
    /// finished, the recorded one otherwise.
    pub black_diff: i32,
}

impl Replay {
    /// The positions the side to move had a choice in (a square to play).
    pub fn choices(&self) -> impl Iterator<Item = (&Position, Move)> {
        self.positions
            .iter()
            .zip(&self.moves)
            .filter(|(_, m)| **m != Move::Pass)
            .map(|(p, m)| (p, *m))
    }
}

/// Black's disc difference in `p`, seen from black, with the empties to the winner.
pub fn black_final_diff(p: &Position) -> i32 {
    match p.side {
        Color::Black => p.final_score(),
        Color::White => -p.final_score(),
    }
}

/// The squares of a transcript like `f5d6c3` (passes, if written `pass` or `PS`, dropped).
pub fn transcript_squares(text: &str) -> Result<Vec<u8>, String> {
    let clean: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let lower = clean.to_ascii_lowercase();
    let lower = lower.replace("pass", "").replace("ps", "");
    if !lower.is_ascii() || !lower.len().is_multiple_of(2) {
        return Err(format!(
            "`{}` is not a transcript like f5d6c3",
            batch::shown(&clean)
        ));
    }
    lower
        .as_bytes()
        .chunks(2)
        .map(
            |c| match std::str::from_utf8(c).map_err(|e| e.to_string())?.parse()? {
                Move::Square(s) => Ok(s),
                Move::Pass => Err("a pass".to_string()),
            },
        )
        .collect()
}

impl GameRecord {
    /// Replays the game from the standard start. Errors name the ply (counted over squares,
    /// from 1) and say why: a square out of the board, an illegal square, a move after the
    /// end, the wrong mover, or a recorded result the final position contradicts.
    pub fn replay(&self) -> Result<Replay, (Option<usize>, String)> {
        let mut p = Position::default();
        let mut positions = Vec::with_capacity(self.squares.len() + 4);
        let mut moves = Vec::with_capacity(self.squares.len() + 4);
        for (i, &sq) in self.squares.iter().enumerate() {
            let ply = Some(i + 1);
            if sq >= 64 {
                return Err((ply, format!("square number {sq} is off the board")));
            }
            if p.game_over() {
                return Err((
                    ply,
                    format!("{} is played after the game ended", Move::Square(sq)),
                ));
            }
            if p.moves() == 0 {
                positions.push(p);
                moves.push(Move::Pass);
                p = p.play(Move::Pass);
            }
            if let Some(movers) = &self.movers {
                if movers.get(i) != Some(&p.side) {
                    let who = |c: Color| if c == Color::Black { "black" } else { "white" };
                    return Err((
                        ply,
                        format!(
                            "{} is marked as {}'s move, but {} is to move",
                            Move::Square(sq),
                            movers.get(i).map_or("nobody", |&c| who(c)),
                            who(p.side)
                        ),
                    ));
                }
            }
            let mv = Move::Square(sq);
            if !p.is_legal(mv) {
                return Err((ply, format!("{mv} is not a legal move")));
            }
            positions.push(p);
            moves.push(mv);
            p = p.play(mv);
        }
        let finished = p.game_over();
        let black_diff = if finished {
            let board = black_final_diff(&p);
            // Archives give the difference with the empties to the winner (WTHOR, the OBF
            // convention) or without them (some of Logistello's lines): either is this game.
            let (b, w) = match p.side {
                Color::Black => (p.me.count_ones() as i32, p.opp.count_ones() as i32),
                Color::White => (p.opp.count_ones() as i32, p.me.count_ones() as i32),
            };
            if self.black_diff != board && self.black_diff != b - w {
                return Err((
                    None,
                    format!(
                        "the recorded result {:+} is not the final position's {:+}",
                        self.black_diff, board
                    ),
                ));
            }
            board
        } else {
            self.black_diff
        };
        Ok(Replay {
            positions,
            moves,
            end: p,
            finished,
            black_diff,
        })
    }

    /// The squares as a transcript, like `f5d6c3`.
    pub fn transcript(&self) -> String {
        self.squares
            .iter()
            .map(|&s| Move::Square(s).to_string())
            .collect()
    }

    /// The game in GGF, with its players, tournament, year and result as tags (`RE` is
    /// black's disc difference).
    pub fn to_ggf(&self, replay: &Replay) -> GgfGame {
        let mut game = GgfGame::new(Position::default());
        let mut tag = |k: &str, v: &Option<String>| {
            if let Some(v) = v {
                game.tags.push((k.into(), v.clone()));
            }
        };
        tag("PC", &self.tournament);
        tag("PB", &self.black);
        tag("PW", &self.white);
        tag("DT", &self.year.map(|y| y.to_string()));
        tag("RE", &Some(format!("{:+}", replay.black_diff)));
        for &mv in &replay.moves {
            game.push(mv, None, None)
                .expect("a replayed game's moves are legal");
        }
        game
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(transcript: &str, black_diff: i32) -> GameRecord {
        GameRecord {
            squares: transcript_squares(transcript).unwrap(),
            black_diff,
            ..GameRecord::default()
        }
    }

    #[test]
    fn a_short_game_to_its_end_replays_with_its_result() {
        // The shortest game: black wipes white out in nine moves.
        let r = record("e6f4e3f6g5d6e7f5c5", 64);
        let replay = r.replay().unwrap();
        assert!(replay.finished);
        assert_eq!(replay.black_diff, 64);
        assert_eq!(replay.moves.len(), 9);
        assert_eq!(r.transcript(), "e6f4e3f6g5d6e7f5c5");
        // A wrong result is refused, as is an illegal move.
        assert!(record("e6f4e3f6g5d6e7f5c5", 10).replay().is_err());
        let (ply, why) = record("e6e6", 0).replay().unwrap_err();
        assert_eq!(ply, Some(2));
        assert!(why.contains("not a legal move"), "{why}");
    }

    #[test]
    fn an_unfinished_game_keeps_its_recorded_result() {
        let replay = record("f5d6c3", -12).replay().unwrap();
        assert!(!replay.finished);
        assert_eq!(replay.black_diff, -12);
        assert_eq!(replay.choices().count(), 3);
    }

    #[test]
    fn the_marked_mover_is_checked() {
        let mut r = record("f5d6", 0);
        r.movers = Some(vec![Color::Black, Color::Black]);
        let (ply, why) = r.replay().unwrap_err();
        assert_eq!(ply, Some(2));
        assert!(why.contains("white is to move"), "{why}");
    }

    #[test]
    fn a_record_converts_to_a_ggf_game_that_reads_back() {
        let r = GameRecord {
            black: Some("Ann".into()),
            year: Some(1999),
            ..record("e6f4e3f6g5d6e7f5c5", 64)
        };
        let game = r.to_ggf(&r.replay().unwrap());
        let back: GgfGame = game.to_string().parse().unwrap();
        assert_eq!(back, game);
        assert_eq!(back.position().final_score().abs(), 64);
        assert!(game.to_string().contains("PB[Ann]"));
    }
}
