//! Seeing a game: a state as text (the level's own characters), a step-by-step terminal replay,
//! and a self-contained HTML page that animates a replay in a browser.

use crate::rules::level::{Level, Role};
use crate::rules::sim::{Action, ResultLine};
use crate::rules::state::State;
use std::fmt::Write;

/// The character drawn for type `t`: its level-mapping character, `A` for avatars.
fn glyph(level: &Level, t: usize) -> char {
    if level.roles[t] == Role::Avatar {
        return 'A';
    }
    let mut best = None;
    for (&c, &ty) in &level.game.mapping {
        if ty == t && best.is_none_or(|b: char| c < b) {
            best = Some(c);
        }
    }
    best.unwrap_or('?')
}

/// The grid as text, one line per row (avatar over boxes over everything else).
///
/// ```
/// use bait::{render::grid_text, Level, DEFAULT_GAME};
/// let level = Level::parse(DEFAULT_GAME.parse().unwrap(), "wwwww\nwgAww\nww  w\nw 11w\nwwk w\nwwwww").unwrap();
/// assert_eq!(grid_text(&level, &level.initial).lines().nth(1), Some("wgAww"));
/// ```
pub fn grid_text(level: &Level, s: &State) -> String {
    let mut cells = vec![' '; level.rows * level.cols];
    for (t, bits) in level.frozen.iter().enumerate() {
        bits.iter().for_each(|c| cells[c] = glyph(level, t));
    }
    for (k, &(t, c)) in level.mortals.iter().enumerate() {
        if s.alive >> k & 1 == 1 {
            cells[c] = glyph(level, t);
        }
    }
    for t in 0..level.game.types.len() {
        if let Role::Mover(slot) = level.roles[t] {
            s.movers[slot]
                .iter()
                .for_each(|c| cells[c] = glyph(level, t));
        }
    }
    if s.avatar_alive {
        cells[s.avatar_cell as usize] = 'A';
    }
    let mut out = String::new();
    for row in cells.chunks(level.cols) {
        out.extend(row.iter());
        out.push('\n');
    }
    out
}

fn has_key(level: &Level, s: &State) -> bool {
    level.game.types[s.avatar_type as usize].name == "withkey"
}

/// The terminal replay: every state with the action that led to it.
pub fn show(level: &Level, states: &[State], actions: &[Action]) -> String {
    let mut out = String::new();
    for (i, s) in states.iter().enumerate() {
        let head = if i == 0 {
            "start".to_string()
        } else {
            format!("{} {}", i, actions[i - 1].letter())
        };
        let _ = writeln!(
            out,
            "{head}  score {}{}",
            s.score,
            if has_key(level, s) { "  (key)" } else { "" }
        );
        out.push_str(&grid_text(level, s));
        out.push('\n');
    }
    out
}

/// A self-contained HTML page animating the replay (play/pause, step, speed), no network needed.
pub fn html(level: &Level, states: &[State], actions: &[Action], title: &str) -> String {
    let frames: Vec<String> = states
        .iter()
        .map(|s| serde_json::to_string(&grid_text(level, s)).expect("strings serialise"))
        .collect();
    let labels: Vec<String> = states
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let a = if i == 0 {
                "start".to_string()
            } else {
                format!("step {i}: {}", actions[i - 1].letter())
            };
            serde_json::to_string(&format!(
                "{a} — score {}{}",
                s.score,
                if has_key(level, s) {
                    " — key taken"
                } else {
                    ""
                }
            ))
            .expect("strings serialise")
        })
        .collect();
    let result = ResultLine {
        state: states.last().expect("at least the start"),
        java_double: false,
    }
    .to_string();
    format!(
        r#"<!doctype html><html><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;background:#f4f1ea;margin:2em}} canvas{{background:#ddd;border:1px solid #999}}
button{{font-size:1em;margin-right:.4em}} #label{{margin:.6em 0;font-size:1.1em}}</style></head><body>
<h2>{title}</h2><canvas id="c"></canvas><div id="label"></div>
<button id="play">play</button><button id="prev">&larr;</button><button id="next">&rarr;</button>
speed <input id="speed" type="range" min="1" max="20" value="5">
<p><code>{result}</code></p>
<p>A avatar, w wall, 1 box, 0 hole, k key, g door, m mushroom.</p>
<script>
const frames=[{frames}];const labels=[{labels}];
const colors={{'w':'#3c3c46','1':'#b07b3c','0':'#1d2a6b','k':'#f2c200','g':'#7a4b2a','m':'#c2453d','A':'#2f9e44',' ':'#e9e4d8'}};
const c=document.getElementById('c'),x=c.getContext('2d');const S=40;
const rows=frames[0].trimEnd().split('\n');c.width=rows[0].length*S;c.height=rows.length*S;
let i=0,timer=null;
function draw(){{const g=frames[i].trimEnd().split('\n');g.forEach((r,y)=>[...r].forEach((ch,X)=>{{
x.fillStyle=colors[ch]||'#999';x.fillRect(X*S,y*S,S,S);x.strokeStyle='#0002';x.strokeRect(X*S,y*S,S,S);
if(ch!==' '&&ch!=='w'){{x.fillStyle='#fff';x.font='bold 20px sans-serif';x.textAlign='center';x.fillText(ch,X*S+S/2,y*S+S/2+7);}}}}));
document.getElementById('label').textContent=labels[i]+'  ('+(i+1)+'/'+frames.length+')';}}
function stop(){{clearInterval(timer);timer=null;document.getElementById('play').textContent='play';}}
document.getElementById('play').onclick=()=>{{if(timer){{stop();return;}}document.getElementById('play').textContent='pause';
timer=setInterval(()=>{{if(i<frames.length-1){{i++;draw();}}else stop();}},1000/document.getElementById('speed').value);}};
document.getElementById('next').onclick=()=>{{stop();if(i<frames.length-1)i++;draw();}};
document.getElementById('prev').onclick=()=>{{stop();if(i>0)i--;draw();}};
draw();
</script></body></html>
"#,
        frames = frames.join(","),
        labels = labels.join(",")
    )
}
