//! WTHOR, the Fédération Française d'Othello's archive of tournament games, the database every
//! Othello program reads. A `.wtb` file is a 16-byte header (creation date, the number of games,
//! the year of the games, the board size and the depth of the theoretical score) and then 68
//! bytes a game: tournament, black and white player numbers (2 bytes each, little-endian),
//! black's disc count and black's theoretical disc count (perfect play from the header's depth
//! in empties), and 60 move bytes (`10 × row + column`, rows and columns 1..8, 0 after the last
//! move). `WTH.JOU` and `WTH.TRN` hold the players' and the tournaments' names (20 and 26 bytes
//! each, Windows-1252, NUL-padded) after the same kind of header.

use crate::formats::record::{GameRecord, Theoretical};

/// Bytes of a header.
pub const HEADER_BYTES: usize = 16;
/// Bytes of a game.
pub const GAME_BYTES: usize = 68;
/// Bytes of a player's name in `.jou`.
pub const PLAYER_BYTES: usize = 20;
/// Bytes of a tournament's name in `.trn`.
pub const TOURNAMENT_BYTES: usize = 26;

/// The header of a WTHOR file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// When the file was made: year, month, day.
    pub created: (u16, u8, u8),
    /// Games in a `.wtb` file.
    pub games: u32,
    /// Names in a `.jou` or `.trn` file.
    pub names: u16,
    /// The year of the games.
    pub year: u16,
    /// Board size: 0 or 8 for 8x8 (10 marks a 10x10 file, which this reader refuses).
    pub board_size: u8,
    /// Empties from which the theoretical score is perfect play.
    pub depth: u8,
}

/// Reads the header.
pub fn header(bytes: &[u8]) -> Result<Header, String> {
    let h = bytes.get(..HEADER_BYTES).ok_or_else(|| {
        format!(
            "{} bytes is shorter than WTHOR's 16-byte header",
            bytes.len()
        )
    })?;
    Ok(Header {
        created: (u16::from(h[0]) * 100 + u16::from(h[1]), h[2], h[3]),
        games: u32::from_le_bytes([h[4], h[5], h[6], h[7]]),
        names: u16::from_le_bytes([h[8], h[9]]),
        year: u16::from_le_bytes([h[10], h[11]]),
        board_size: h[12],
        depth: h[14],
    })
}

/// A game's problem: its number in the file (from 1), the ply at fault if a move is, and why.
pub type GameError = (usize, Option<usize>, String);

/// The games of a `.wtb` file, each a record or the reason it cannot be one; players and
/// tournaments are left as their numbers (`#12`) for [`name_games`] to resolve. An error for
/// the whole file when its header is not WTHOR's 8x8 form; a file cut short gives its whole
/// games and one error for the rest.
pub fn read_games(bytes: &[u8]) -> Result<(Header, Vec<Result<GameRecord, GameError>>), String> {
    let h = header(bytes)?;
    if h.board_size != 0 && h.board_size != 8 {
        return Err(format!(
            "board size {} in the header: only 8x8 games are read",
            h.board_size
        ));
    }
    if h.depth > 60 {
        return Err(format!(
            "theoretical depth {} is more than 60 empties",
            h.depth
        ));
    }
    let body = &bytes[HEADER_BYTES..];
    let whole = body.len() / GAME_BYTES;
    let mut out: Vec<Result<GameRecord, GameError>> = body
        .chunks_exact(GAME_BYTES)
        .enumerate()
        .map(|(i, g)| read_game(g, h).map_err(|(ply, why)| (i + 1, ply, why)))
        .collect();
    if whole != h.games as usize || !body.len().is_multiple_of(GAME_BYTES) {
        out.push(Err((
            whole + 1,
            None,
            format!(
                "the header announces {} games, the file holds {} bytes of games ({} whole)",
                h.games,
                body.len(),
                whole
            ),
        )));
    }
    Ok((h, out))
}

fn read_game(g: &[u8], h: Header) -> Result<GameRecord, (Option<usize>, String)> {
    let word = |i: usize| u16::from_le_bytes([g[i], g[i + 1]]);
    let (actual, theoretical) = (g[6], g[7]);
    for (what, v) in [
        ("disc count", actual),
        ("theoretical disc count", theoretical),
    ] {
        if v > 64 {
            return Err((None, format!("black's {what} {v} is more than 64")));
        }
    }
    let mut squares = Vec::with_capacity(60);
    let mut ended = false;
    for (i, &b) in g[8..].iter().enumerate() {
        if b == 0 {
            ended = true;
            continue;
        }
        let ply = Some(i + 1);
        if ended {
            return Err((ply, format!("move byte {b} after the end of the moves")));
        }
        let (row, col) = (b / 10, b % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return Err((ply, format!("move byte {b} is not a square (11..88)")));
        }
        squares.push((row - 1) * 8 + (col - 1));
    }
    Ok(GameRecord {
        squares,
        movers: None,
        black_diff: 2 * i32::from(actual) - 64,
        theoretical: Some(Theoretical {
            empties: u32::from(h.depth),
            black_diff: 2 * i32::from(theoretical) - 64,
        }),
        black: Some(format!("#{}", word(2))),
        white: Some(format!("#{}", word(4))),
        tournament: Some(format!("#{}", word(0))),
        year: Some(h.year),
    })
}

/// The names of a `.jou` (`width` 20) or `.trn` (`width` 26) file, by number.
pub fn read_names(bytes: &[u8], width: usize) -> Result<Vec<String>, String> {
    let h = header(bytes)?;
    let body = &bytes[HEADER_BYTES..];
    if body.len() != usize::from(h.names) * width {
        return Err(format!(
            "the header announces {} names of {width} bytes, the file holds {} bytes of names",
            h.names,
            body.len()
        ));
    }
    Ok(body
        .chunks_exact(width)
        .map(|n| {
            let text = &n[..n.iter().position(|&b| b == 0).unwrap_or(n.len())];
            encoding_rs::WINDOWS_1252
                .decode_without_bom_handling(text)
                .0
                .trim()
                .to_string()
        })
        .collect())
}

/// Replaces the player and tournament numbers of `game` (`#12`) by their names where the
/// tables have them (a number beyond a table stays as it is).
pub fn name_games(game: &mut GameRecord, players: &[String], tournaments: &[String]) {
    let look = |field: &mut Option<String>, table: &[String]| {
        let name = field
            .as_deref()
            .and_then(|f| f.strip_prefix('#'))
            .and_then(|n| n.parse::<usize>().ok())
            .and_then(|n| table.get(n));
        if let Some(name) = name {
            *field = Some(name.clone());
        }
    };
    look(&mut game.black, players);
    look(&mut game.white, players);
    look(&mut game.tournament, tournaments);
}

/// Writes games as a `.wtb` file (the inverse of [`read_games`] for the fields WTHOR keeps;
/// names are written as the numbers they were read from, `#12`, or 0): for tests and tools.
pub fn write_games(games: &[GameRecord], year: u16, depth: u8) -> Vec<u8> {
    let mut out = vec![20, (year % 100) as u8, 1, 1];
    out.extend_from_slice(&(games.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out.extend_from_slice(&year.to_le_bytes());
    out.extend_from_slice(&[8, 0, depth, 0]);
    let number = |f: &Option<String>| {
        f.as_deref()
            .and_then(|f| f.strip_prefix('#'))
            .and_then(|n| n.parse::<u16>().ok())
            .unwrap_or(0)
    };
    for g in games {
        for n in [number(&g.tournament), number(&g.black), number(&g.white)] {
            out.extend_from_slice(&n.to_le_bytes());
        }
        let discs = |d: i32| ((d + 64) / 2).clamp(0, 64) as u8;
        out.push(discs(g.black_diff));
        out.push(discs(g.theoretical.map_or(g.black_diff, |t| t.black_diff)));
        let mut moves = [0u8; 60];
        for (m, &s) in moves.iter_mut().zip(&g.squares) {
            *m = (s / 8 + 1) * 10 + s % 8 + 1;
        }
        out.extend_from_slice(&moves);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(transcript: &str, black_diff: i32) -> GameRecord {
        let squares = crate::formats::record::transcript_squares(transcript).unwrap();
        GameRecord {
            squares,
            black_diff,
            theoretical: Some(Theoretical {
                empties: 24,
                black_diff,
            }),
            black: Some("#3".into()),
            white: Some("#1".into()),
            tournament: Some("#0".into()),
            year: Some(2001),
            movers: None,
        }
    }

    #[test]
    fn games_round_trip_through_the_binary_form() {
        let games = vec![game("e6f4e3f6g5d6e7f5c5", 64), game("f5d6c3d3c4", -10)];
        let bytes = write_games(&games, 2001, 24);
        assert_eq!(bytes.len(), HEADER_BYTES + 2 * GAME_BYTES);
        let (h, read) = read_games(&bytes).unwrap();
        assert_eq!((h.games, h.year, h.depth), (2, 2001, 24));
        let read: Vec<GameRecord> = read.into_iter().map(Result::unwrap).collect();
        assert_eq!(read, games);
    }

    #[test]
    fn bad_bytes_are_named_and_the_other_games_still_read() {
        let games = vec![game("f5d6", 0), game("f5f6", 2), game("e6f4", -4)];
        let mut bytes = write_games(&games, 1990, 22);
        // Game 2's third move byte is no square; game 3's disc count is 65.
        bytes[HEADER_BYTES + GAME_BYTES + 8 + 2] = 0;
        bytes[HEADER_BYTES + GAME_BYTES + 8 + 3] = 19;
        bytes[HEADER_BYTES + 2 * GAME_BYTES + 6] = 65;
        let (_, read) = read_games(&bytes).unwrap();
        assert!(read[0].is_ok());
        assert_eq!(read[1].clone().unwrap_err().0, 2);
        assert_eq!(read[1].clone().unwrap_err().1, Some(4));
        assert!(read[2].clone().unwrap_err().2.contains("65"));
        // Cut short: the whole games, then one error for the rest.
        let (_, read) = read_games(&bytes[..bytes.len() - 10]).unwrap();
        assert_eq!(read.len(), 3);
        assert!(read[2].clone().unwrap_err().2.contains("announces 3 games"));
        // Not WTHOR at all.
        assert!(read_games(b"short").is_err());
        let mut ten = bytes.clone();
        ten[12] = 10;
        assert!(read_games(&ten).unwrap_err().contains("board size 10"));
    }

    #[test]
    fn names_are_decoded_and_resolved() {
        let mut bytes = vec![20, 1, 1, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0];
        let mut name = |s: &[u8]| {
            let mut n = s.to_vec();
            n.resize(PLAYER_BYTES, 0);
            bytes.extend_from_slice(&n);
        };
        name(b"Tastet Marc");
        name(b"Andr\xe9 Chloe");
        let names = read_names(&bytes, PLAYER_BYTES).unwrap();
        assert_eq!(names, ["Tastet Marc", "André Chloe"]);
        assert!(read_names(&bytes[..30], PLAYER_BYTES).is_err());
        let mut g = game("f5", 0);
        g.black = Some("#1".into());
        g.white = Some("#7".into());
        name_games(&mut g, &names, &[]);
        assert_eq!(g.black.as_deref(), Some("André Chloe"));
        assert_eq!(g.white.as_deref(), Some("#7"));
    }
}
