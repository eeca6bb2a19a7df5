//! An SVG picture of a map and a route: walls, supplies, start, station, and the route drawn
//! as a line with the food left after each move, because a route is easier to look at than
//! to read as `RRDDLU...`.

use crate::map::{Cell, Map};
use crate::solve::Solution;
use std::fmt::Write;

/// Renders `map` with the route of `solution` (if any).
///
/// ```
/// use astar_map::{solve, svg::render, Map, SolveOptions};
/// let map: Map = "1 3 2\n3 0 4".parse().unwrap();
/// let svg = render(&map, Some(&solve(&map, &SolveOptions::default())));
/// assert!(svg.starts_with("<svg") && svg.contains("polyline"));
/// ```
pub fn render(map: &Map, solution: Option<&Solution>) -> String {
    let cell = (900 / map.rows.max(map.cols)).clamp(2, 36);
    // Wide enough for the caption even on tiny maps.
    let (w, h) = ((map.cols * cell).max(560), map.rows * cell + 24);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="sans-serif">"#
    );
    let _ = writeln!(s, r##"<rect width="{w}" height="{h}" fill="#f7f5ef"/>"##);
    for (i, &c) in map.cells.iter().enumerate() {
        let (r, col) = map.pos(i);
        let fill = match c {
            Cell::Ground => continue,
            Cell::Wall => "#3c3c46",
            Cell::Supply => "#7cc47f",
            Cell::Start => "#4a7fd6",
            Cell::Station => "#d64a4a",
        };
        let _ = writeln!(
            s,
            r#"<rect x="{}" y="{}" width="{cell}" height="{cell}" fill="{fill}"/>"#,
            col * cell,
            r * cell
        );
    }
    if cell >= 8 {
        for r in 0..=map.rows {
            let _ = writeln!(
                s,
                r##"<line x1="0" y1="{y}" x2="{w}" y2="{y}" stroke="#ddd" stroke-width="0.5"/>"##,
                y = r * cell
            );
        }
        for c in 0..=map.cols {
            let _ = writeln!(
                s,
                r##"<line x1="{x}" y1="0" x2="{x}" y2="{}" stroke="#ddd" stroke-width="0.5"/>"##,
                map.rows * cell,
                x = c * cell
            );
        }
    }
    let center = |i: usize| {
        let (r, c) = map.pos(i);
        (c * cell + cell / 2, r * cell + cell / 2)
    };
    let caption = match solution {
        Some(sol) if sol.steps.is_some() => {
            let mut at = map.start;
            let mut points = vec![center(at)];
            let mut labels = String::new();
            for (k, &d) in sol.moves.iter().enumerate() {
                at = map.step(at, d).expect("solution moves are legal");
                points.push(center(at));
                if cell >= 14 {
                    let (x, y) = center(at);
                    let _ = writeln!(
                        labels,
                        r##"<text x="{x}" y="{}" font-size="{}" text-anchor="middle" fill="#222">{}</text>"##,
                        y + cell / 2 - 2,
                        cell / 3,
                        sol.food_after[k]
                    );
                }
            }
            let pts: Vec<String> = points.iter().map(|(x, y)| format!("{x},{y}")).collect();
            let _ = writeln!(
                s,
                r##"<polyline points="{}" fill="none" stroke="#f08c00" stroke-width="{}" stroke-linejoin="round" stroke-linecap="round" opacity="0.85"/>"##,
                pts.join(" "),
                (cell / 5).max(1)
            );
            s.push_str(&labels);
            format!(
                "{} days (T = {}); numbers: food left after each move",
                sol.steps.unwrap(),
                map.food
            )
        }
        Some(_) => format!("unreachable (T = {})", map.food),
        None => format!("T = {}", map.food),
    };
    let _ = writeln!(
        s,
        r##"<text x="4" y="{}" font-size="14" fill="#222">{caption} — blue start, red station, green supply</text>"##,
        map.rows * cell + 17
    );
    s.push_str("</svg>\n");
    s
}
