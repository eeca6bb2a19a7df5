//! ICCS coordinates, as UCI engines and most databases write moves: the file letter a..i and the
//! rank 0..9 counted from red's side, of the origin then the destination (`h2e2`); the original
//! ICCS form with capitals and a dash (`H2-E2`) reads too.

use crate::board::square::Move;
use crate::rules::movegen::legal_moves;
use crate::rules::position::Position;

/// Reads `h2e2` or `H2-E2` into a move (checked against no position).
pub fn parse(text: &str) -> Result<Move, String> {
    let t: String = text
        .trim()
        .chars()
        .filter(|&c| c != '-')
        .collect::<String>()
        .to_ascii_lowercase();
    t.parse().map_err(|_| {
        format!(
            "`{}` is not a move in ICCS (like h2e2)",
            batch::shown(text.trim())
        )
    })
}

/// The legal move `text` names in `pos`.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let m = parse(text)?;
    let mut moves = Vec::new();
    legal_moves(pos, &mut moves);
    if moves.contains(&m) {
        Ok(m)
    } else {
        Err(format!("{}: not a legal move here", text.trim()))
    }
}

/// `mv` in ICCS (`h2e2`, the form UCI engines speak).
pub fn write(mv: Move) -> String {
    mv.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_forms_read_and_illegal_moves_are_refused() {
        let p: Position = crate::rules::fen::START_FEN.parse().unwrap();
        assert_eq!(parse_move(&p, "h2e2").unwrap().to_string(), "h2e2");
        assert_eq!(parse_move(&p, "H2-E2").unwrap().to_string(), "h2e2");
        assert!(parse_move(&p, "a0a5").unwrap_err().contains("not a legal"));
        assert!(parse("j2e2").is_err());
    }
}
