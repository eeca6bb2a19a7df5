//! The evaluation over a game as an SVG graph: red's value after every move (clamped to ±10
//! pawns, mates at the edge), a point a move, mistakes marked orange and blunders red, the
//! zero line across the middle.

use crate::search::analysis::{MoveAnalysis, Verdict};
use std::fmt::Write;

/// The clamp of the graph's vertical axis, in centipawns.
pub const CLAMP: i32 = 1000;

/// The graph of `analysis` with `title` above it.
///
/// ```
/// use xiangqi_endgame::interfaces::eval_graph::render;
/// let svg = render(&[], "no moves");
/// assert!(svg.starts_with("<svg") && svg.contains("no moves"));
/// ```
pub fn render(analysis: &[MoveAnalysis], title: &str) -> String {
    let (w, h, m) = (720.0, 260.0, 40.0);
    let n = analysis.len().max(1) as f64;
    let x = |i: usize| m + (w - 2.0 * m) * i as f64 / n;
    let y = |v: i32| {
        let v = v.clamp(-CLAMP, CLAMP) as f64 / CLAMP as f64;
        h / 2.0 - v * (h / 2.0 - m)
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif" font-size="12">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#fafafa"/>"##);
    let _ = writeln!(s, r#"<text x="{m}" y="20">{}</text>"#, escape(title));
    let _ = writeln!(
        s,
        r##"<line x1="{m}" y1="{}" x2="{}" y2="{}" stroke="#999" class="zero"/>"##,
        h / 2.0,
        w - m,
        h / 2.0
    );
    for (v, label) in [(CLAMP, "+10"), (-CLAMP, "-10")] {
        let _ = writeln!(
            s,
            r##"<text x="4" y="{}" fill="#666">{label}</text>"##,
            y(v) + 4.0
        );
    }
    let mut points = format!("{},{}", x(0), y(analysis.first().map_or(0, |a| a.before)));
    for (i, a) in analysis.iter().enumerate() {
        let _ = write!(points, " {},{}", x(i + 1), y(a.after));
    }
    let _ = writeln!(
        s,
        r##"<polyline points="{points}" fill="none" stroke="#c00" stroke-width="2" class="eval"/>"##
    );
    for (i, a) in analysis.iter().enumerate() {
        let Some(v) = a.verdict else { continue };
        let (color, class) = match v {
            Verdict::Mistake => ("#e80", "mistake"),
            Verdict::Blunder => ("#d00", "blunder"),
        };
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="{}" r="5" fill="{color}" class="{class}"><title>move {}: {} costs {} cp</title></circle>"#,
            x(i + 1),
            y(a.after),
            i + 1,
            a.played,
            a.cost
        );
    }
    s.push_str("</svg>\n");
    s
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}
