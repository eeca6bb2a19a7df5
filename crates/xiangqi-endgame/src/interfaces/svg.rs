//! An SVG picture of the board (river, palaces, pieces with their Chinese names) with the chosen
//! move drawn as an arrow.

use crate::board::piece::{Color, Kind};
use crate::board::square::{Move, Square};
use crate::rules::position::Position;
use std::fmt::Write;

fn name(color: Color, kind: Kind) -> &'static str {
    match (color, kind) {
        (Color::Red, Kind::King) => "帅",
        (Color::Black, Kind::King) => "将",
        (Color::Red, Kind::Advisor) => "仕",
        (Color::Black, Kind::Advisor) => "士",
        (Color::Red, Kind::Elephant) => "相",
        (Color::Black, Kind::Elephant) => "象",
        (_, Kind::Horse) => "马",
        (_, Kind::Chariot) => "车",
        (Color::Red, Kind::Cannon) => "炮",
        (Color::Black, Kind::Cannon) => "砲",
        (Color::Red, Kind::Pawn) => "兵",
        (Color::Black, Kind::Pawn) => "卒",
    }
}

/// Renders `pos`, with `mv` as an arrow when given.
///
/// ```
/// use xiangqi_endgame::{svg::render, Position, START_FEN};
/// let p: Position = START_FEN.parse().unwrap();
/// let s = render(&p, Some("h2e2".parse().unwrap()), "start");
/// assert!(s.starts_with("<svg") && s.contains("marker-end"));
/// ```
pub fn render(pos: &Position, mv: Option<Move>, caption: &str) -> String {
    const S: i32 = 50;
    const M: i32 = 40;
    let (w, h) = (2 * M + 8 * S, 2 * M + 9 * S + 30);
    let xy = |sq: Square| (M + sq.col() as i32 * S, M + sq.row() as i32 * S);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="serif">"#
    );
    let _ = writeln!(
        s,
        r##"<defs><marker id="arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="#2a7"/></marker></defs>"##
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#eed9a4"/>"##);
    for r in 0..10 {
        let y = M + r * S;
        let _ = writeln!(
            s,
            r##"<line x1="{M}" y1="{y}" x2="{}" y2="{y}" stroke="#533" stroke-width="1.5"/>"##,
            M + 8 * S
        );
    }
    for c in 0..9 {
        let x = M + c * S;
        if c == 0 || c == 8 {
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{M}" x2="{x}" y2="{}" stroke="#533" stroke-width="1.5"/>"##,
                M + 9 * S
            );
        } else {
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{M}" x2="{x}" y2="{}" stroke="#533" stroke-width="1.5"/>"##,
                M + 4 * S
            );
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="#533" stroke-width="1.5"/>"##,
                M + 5 * S,
                M + 9 * S
            );
        }
    }
    for (r0, r1) in [(0, 2), (7, 9)] {
        let (x0, x1, y0, y1) = (M + 3 * S, M + 5 * S, M + r0 * S, M + r1 * S);
        let _ = writeln!(
            s,
            r##"<path d="M{x0},{y0} L{x1},{y1} M{x1},{y0} L{x0},{y1}" stroke="#533" stroke-width="1.2"/>"##
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{}" y="{}" font-size="24" fill="#533" text-anchor="middle">river  楚 河          汉 界</text>"##,
        M + 4 * S,
        M + 4 * S + S / 2 + 8
    );
    for i in 0..90u8 {
        let sq = Square(i);
        if let Some(p) = pos.at(sq) {
            let (x, y) = xy(sq);
            let color = if p.color == Color::Red {
                "#c22"
            } else {
                "#222"
            };
            let _ = writeln!(
                s,
                r##"<circle cx="{x}" cy="{y}" r="21" fill="#f8ecd0" stroke="{color}" stroke-width="2.5"/>"##
            );
            // The FEN letter large (readable without CJK fonts), the Chinese name small.
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{}" font-size="22" font-family="sans-serif" font-weight="bold" fill="{color}" text-anchor="middle">{}</text>"##,
                y + 4,
                p.letter()
            );
            let _ = writeln!(
                s,
                r##"<text x="{x}" y="{}" font-size="11" fill="{color}" text-anchor="middle">{}</text>"##,
                y + 17,
                name(p.color, p.kind)
            );
        }
    }
    if let Some(m) = mv {
        let ((x1, y1), (x2, y2)) = (xy(m.from), xy(m.to));
        let _ = writeln!(
            s,
            r##"<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#2a7" stroke-width="7" opacity="0.75" marker-end="url(#arrow)"/>"##
        );
    }
    let _ = writeln!(
        s,
        r##"<text x="{M}" y="{}" font-size="16" font-family="sans-serif" fill="#222">{caption}</text>"##,
        h - 12
    );
    s.push_str("</svg>\n");
    s
}
