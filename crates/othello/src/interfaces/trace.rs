//! Search trees made visible: a [`Traced`] wrapper records every node a `search-core` search
//! visits (through the game's play/undo/evaluate calls, so the searches themselves need no
//! change), and [`to_dot`] writes the tree as Graphviz DOT: nodes labelled with the move and
//! the value (for the side to move there) backed up from the children actually searched, edges
//! with the alpha-beta window each child was searched with, the chosen line in red, and moves
//! a pruning search never looked at counted as cut-offs.

use crate::eval::course::actions;
use crate::rules::position::{Move, Position};
use crate::search::deciders::{
    mtdf_search, Algorithm, CourseGame, Decider, HeuristicKind, MoveOrder,
};
use search_core::{Game, Score, INF};
use std::cell::RefCell;
use std::fmt::Write;
use std::path::Path;

/// One visited node.
#[derive(Debug, Clone)]
pub struct TraceNode {
    /// The move leading here (`None` at the root).
    pub mv: Option<Move>,
    /// Children, in visiting order.
    pub children: Vec<usize>,
    /// Static value for leaves (side-to-move view), if evaluated here.
    pub leaf: Option<Score>,
    /// Moves available here.
    pub moves_available: usize,
    /// For the root of one pass of a table-driven search: its depth and window.
    pub pass: Option<(u32, Score, Score)>,
    /// Whether the transposition table answered here (the value is the table's).
    pub table_hit: bool,
}

impl TraceNode {
    fn new(mv: Option<Move>) -> TraceNode {
        TraceNode {
            mv,
            children: Vec::new(),
            leaf: None,
            moves_available: 0,
            pass: None,
            table_hit: false,
        }
    }
}

/// A game wrapper that records the tree a search walks.
pub struct Traced {
    inner: CourseGame,
    pos: Vec<Position>,
    nodes: RefCell<Vec<TraceNode>>,
    path: Vec<usize>,
}

impl Traced {
    /// Wraps the course game at `p`.
    pub fn new(p: Position, inner: CourseGame) -> Traced {
        Traced {
            inner,
            pos: vec![p],
            nodes: RefCell::new(vec![TraceNode::new(None)]),
            path: vec![0],
        }
    }

    /// The recorded nodes (index 0 is the root).
    pub fn nodes(&self) -> Vec<TraceNode> {
        self.nodes.borrow().clone()
    }

    fn here(&self) -> usize {
        *self.path.last().expect("the root")
    }
}

impl Game for Traced {
    type Move = Move;
    fn generate_moves(&self, moves: &mut Vec<Move>) {
        let before = moves.len();
        self.inner.generate_moves(moves);
        self.nodes.borrow_mut()[self.here()].moves_available = moves.len() - before;
    }
    fn order_moves(&self, moves: &mut [Move]) {
        self.inner.order_moves(moves);
    }
    fn play(&mut self, mv: Move) {
        let p = *self.pos.last().expect("a position");
        self.pos.push(p.play(mv));
        self.inner.play(mv);
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len();
        nodes.push(TraceNode::new(Some(mv)));
        let parent = self.here();
        nodes[parent].children.push(id);
        drop(nodes);
        self.path.push(id);
    }
    fn undo(&mut self, mv: Move) {
        self.inner.undo(mv);
        self.pos.pop();
        self.path.pop();
    }
    fn outcome(&self) -> Option<Score> {
        let o = self.inner.outcome();
        if let Some(v) = o {
            self.nodes.borrow_mut()[self.here()].leaf = Some(v);
        }
        o
    }
    fn evaluate(&self) -> Score {
        let v = self.inner.evaluate();
        self.nodes.borrow_mut()[self.here()].leaf = Some(v);
        v
    }
    fn hash(&self) -> u64 {
        self.inner.hash()
    }
    fn on_search_start(&mut self, depth: u32, alpha: Score, beta: Score) {
        // Each pass of a table-driven search becomes its own subtree under the root.
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len();
        let mut pass = TraceNode::new(None);
        pass.pass = Some((depth, alpha, beta));
        nodes.push(pass);
        nodes[0].children.push(id);
        drop(nodes);
        self.path = vec![0, id];
    }
    fn on_table_hit(&mut self, score: Score) {
        let mut nodes = self.nodes.borrow_mut();
        let here = self.here();
        nodes[here].leaf = Some(score);
        nodes[here].table_hit = true;
    }
}

/// The last pass of a table-driven search, when the tree has passes.
fn last_pass(nodes: &[TraceNode]) -> Option<usize> {
    nodes[0]
        .children
        .last()
        .copied()
        .filter(|&c| nodes[c].pass.is_some())
}

/// Backed-up negamax values of every node from the children searched (children are recorded
/// after their parents, so one backward pass suffices).
fn values(nodes: &[TraceNode]) -> Vec<Option<Score>> {
    let mut v = vec![None; nodes.len()];
    for i in (0..nodes.len()).rev() {
        let n = &nodes[i];
        v[i] = if n.children.is_empty() {
            n.leaf
        } else if i == 0 && last_pass(nodes).is_some() {
            None // filled below: the root of several passes shows the last one's value
        } else {
            n.children.iter().filter_map(|&c| v[c]).map(|x| -x).max()
        };
    }
    if let Some(last) = last_pass(nodes) {
        v[0] = v[last];
    }
    v
}

/// The alpha-beta window each node was searched with (side-to-move view, as the values),
/// replayed from the recorded tree: the root gets (-inf, inf), each child (-beta, -alpha) of its
/// parent's current window, and alpha rises with each child's value (fail-soft negamax, as
/// `search-core`'s alpha-beta).
fn windows(nodes: &[TraceNode], vals: &[Option<Score>]) -> Vec<(Score, Score)> {
    let mut w = vec![(-INF, INF); nodes.len()];
    for i in 0..nodes.len() {
        if let Some((_, a, b)) = nodes[i].pass {
            w[i] = (a, b);
        }
        let (mut alpha, beta) = w[i];
        for &c in &nodes[i].children {
            if nodes[c].pass.is_some() {
                continue; // a pass has its own window
            }
            w[c] = (-beta, -alpha);
            if let Some(v) = vals[c] {
                alpha = alpha.max(-v);
            }
        }
    }
    w
}

fn bound_text(x: Score) -> String {
    match x {
        x if x >= INF => "+inf".into(),
        x if x <= -INF => "-inf".into(),
        x => x.to_string(),
    }
}

/// Marks the chosen line: from the root the move played, then at each node a child whose value
/// gives the node's value.
fn principal_line(nodes: &[TraceNode], vals: &[Option<Score>], chosen: Option<Move>) -> Vec<bool> {
    let mut on_line = vec![false; nodes.len()];
    let mut cur = 0;
    on_line[0] = true;
    if let Some(last) = last_pass(nodes) {
        on_line[last] = true;
        cur = last;
    }
    loop {
        let n = &nodes[cur];
        let best = if cur == 0 || n.pass.is_some() {
            n.children.iter().copied().find(|&c| nodes[c].mv == chosen)
        } else {
            n.children
                .iter()
                .copied()
                .find(|&c| vals[c].map(|v| -v) == vals[cur])
        };
        match best {
            Some(b) => {
                on_line[b] = true;
                cur = b;
            }
            None => return on_line,
        }
    }
}

/// The text lines of a node's box: move, value (`>=` when moves were cut off), cut-offs.
fn node_lines(nodes: &[TraceNode], vals: &[Option<Score>], i: usize) -> Vec<String> {
    let n = &nodes[i];
    let cut = n.moves_available.saturating_sub(n.children.len());
    let pruned = cut > 0 && !n.children.is_empty();
    let mut lines = vec![match (n.mv, n.pass) {
        (Some(m), _) => m.to_string(),
        (None, Some((depth, a, b))) => {
            format!("depth {depth} [{}, {}]", bound_text(a), bound_text(b))
        }
        (None, None) => "root".to_string(),
    }];
    lines.push(match vals[i] {
        Some(v) if pruned => format!("value >= {v}"),
        Some(v) => format!("value {v}"),
        None => "value ?".into(),
    });
    if pruned {
        lines.push(format!("{cut} cut off"));
    }
    if n.table_hit {
        lines.push("table hit".into());
    }
    lines
}

/// Largest tree [`to_svg`] draws: beyond it a picture is no longer readable.
pub const SVG_MAX_NODES: usize = 400;

/// The tree as a self-drawn SVG picture (no Graphviz needed): leaves side by side in search
/// order, each parent centred over its children, the chosen line red, windows on the edges when
/// `show_windows`. `None` when the tree has more than [`SVG_MAX_NODES`] nodes.
///
/// ```
/// use othello::{deciders::CourseGame, trace::{to_svg, Traced}, Position};
/// let p = Position::default();
/// let mut t = Traced::new(p, CourseGame::new(p));
/// let r = search_core::alphabeta(&mut t, 2);
/// let svg = to_svg(&t.nodes(), r.best, "start", true).unwrap();
/// assert!(svg.starts_with("<svg") && svg.contains("value"));
/// ```
pub fn to_svg(
    nodes: &[TraceNode],
    chosen: Option<Move>,
    title: &str,
    show_windows: bool,
) -> Option<String> {
    if nodes.len() > SVG_MAX_NODES {
        return None;
    }
    let vals = values(nodes);
    let wins = windows(nodes, &vals);
    let on_line = principal_line(nodes, &vals, chosen);
    // x in leaf slots (children after parents, so a backward pass centres parents), y in levels.
    let mut depth = vec![0usize; nodes.len()];
    for i in 0..nodes.len() {
        for &c in &nodes[i].children {
            depth[c] = depth[i] + 1;
        }
    }
    let mut x = vec![0f64; nodes.len()];
    let mut next_slot = 0f64;
    // Leaves get slots in depth-first order: walk the tree explicitly.
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if nodes[i].children.is_empty() {
            x[i] = next_slot;
            next_slot += 1.0;
        }
        stack.extend(nodes[i].children.iter().rev());
    }
    for i in (0..nodes.len()).rev() {
        let ch = &nodes[i].children;
        if !ch.is_empty() {
            x[i] = (x[ch[0]] + x[ch[ch.len() - 1]]) / 2.0;
        }
    }
    let (slot_w, level_h, box_w, box_h) = (110.0, 110.0, 96.0, 50.0);
    let levels = depth.iter().max().copied().unwrap_or(0) + 1;
    let width = next_slot.max(1.0) * slot_w + 20.0;
    let height = levels as f64 * level_h + 40.0;
    let cx = |i: usize| 10.0 + x[i] * slot_w + slot_w / 2.0;
    let cy = |i: usize| 40.0 + depth[i] as f64 * level_h;
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width:.0}\" height=\"{height:.0}\" font-family=\"monospace\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n<text x=\"10\" y=\"18\" font-size=\"13\">{}</text>\n",
        xml_escape(title)
    );
    for (i, n) in nodes.iter().enumerate() {
        for &c in &n.children {
            let red = on_line[i] && on_line[c];
            let _ = writeln!(
                s,
                "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\" stroke=\"{}\" stroke-width=\"{}\"/>",
                cx(i),
                cy(i) + box_h,
                cx(c),
                cy(c),
                if red { "red" } else { "#888" },
                if red { 2 } else { 1 }
            );
            if show_windows && nodes[c].pass.is_none() {
                let (a, b) = wins[c];
                let _ = writeln!(
                    s,
                    "<text x=\"{:.1}\" y=\"{:.1}\" fill=\"#36c\" font-size=\"9\" text-anchor=\"middle\">[{}, {}]</text>",
                    (cx(i) + cx(c)) / 2.0,
                    (cy(i) + box_h + cy(c)) / 2.0,
                    bound_text(a),
                    bound_text(b)
                );
            }
        }
    }
    for (i, &red) in on_line.iter().enumerate() {
        let (left, top) = (cx(i) - box_w / 2.0, cy(i));
        let stroke = if red { "red" } else { "black" };
        let _ = writeln!(
            s,
            "<rect x=\"{left:.1}\" y=\"{top:.1}\" width=\"{box_w}\" height=\"{box_h}\" rx=\"4\" fill=\"#fffdf0\" stroke=\"{stroke}\" stroke-width=\"{}\"/>",
            if red { 2 } else { 1 }
        );
        for (k, line) in node_lines(nodes, &vals, i).iter().enumerate() {
            let _ = writeln!(
                s,
                "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                cx(i),
                top + 14.0 + 13.0 * k as f64,
                xml_escape(line)
            );
        }
    }
    s.push_str("</svg>\n");
    Some(s)
}

fn xml_escape(t: &str) -> String {
    t.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Graphviz DOT of a recorded tree; `chosen` is the root move played. Each node shows its move
/// and value for the side to move there (a lower bound, marked `>=`, when some of its moves
/// were cut off); with `show_windows`, each edge carries the alpha-beta window the child was
/// searched with. The chosen line is red.
///
/// ```
/// use othello::{deciders::CourseGame, trace::{to_dot, Traced}, Position};
/// let p = Position::default();
/// let mut t = Traced::new(p, CourseGame::new(p));
/// let r = search_core::alphabeta(&mut t, 2);
/// let dot = to_dot(&t.nodes(), r.best, "start, alpha-beta depth 2", true);
/// assert!(dot.starts_with("digraph") && dot.contains("color=red"));
/// assert!(dot.contains("[-inf, +inf]"));
/// ```
pub fn to_dot(
    nodes: &[TraceNode],
    chosen: Option<Move>,
    title: &str,
    show_windows: bool,
) -> String {
    let mut s =
        format!("digraph G {{\n  label=\"{title}\";\n  node [shape=box, fontname=Courier];\n");
    let vals = values(nodes);
    let wins = windows(nodes, &vals);
    let on_line = principal_line(nodes, &vals, chosen);
    for (i, n) in nodes.iter().enumerate() {
        let text = node_lines(nodes, &vals, i).join("\\n");
        let window = if show_windows && i == 0 && last_pass(nodes).is_none() {
            format!("\\n[{}, {}]", bound_text(wins[0].0), bound_text(wins[0].1))
        } else {
            String::new()
        };
        let style = match (on_line[i], n.table_hit) {
            (true, _) => ", color=red, penwidth=2",
            (false, true) => ", style=filled, fillcolor=lightblue",
            (false, false) => "",
        };
        let _ = writeln!(s, "  n{i} [label=\"{text}{window}\"{style}];");
        for &c in &n.children {
            let mut attrs = Vec::new();
            if show_windows && nodes[c].pass.is_none() {
                let (a, b) = wins[c];
                attrs.push(format!("label=\"[{}, {}]\"", bound_text(a), bound_text(b)));
            }
            if on_line[c] && on_line[i] {
                attrs.push("color=red, penwidth=2".into());
            }
            if attrs.is_empty() {
                let _ = writeln!(s, "  n{i} -> n{c};");
            } else {
                let _ = writeln!(s, "  n{i} -> n{c} [{}];", attrs.join(", "));
            }
        }
    }
    s.push_str("}\n");
    s
}

/// A traced search: the tree as DOT, as a self-drawn SVG when small enough, and the move chosen.
#[derive(Debug, Clone)]
pub struct Trace {
    /// Graphviz DOT text.
    pub dot: String,
    /// SVG picture (`None` above [`SVG_MAX_NODES`] nodes).
    pub svg: Option<String>,
    /// The root move chosen.
    pub best: Option<Move>,
}

/// Traces one fixed-depth search from `p` with `algo` (for MTD(f), every pass of the iterative
/// deepening is a subtree of its own, and nodes the transposition table answered are marked).
pub fn trace_search(
    p: &Position,
    depth: u32,
    algo: Algorithm,
    order: MoveOrder,
    heuristic: HeuristicKind,
) -> Trace {
    let mut t = Traced::new(
        *p,
        CourseGame::with_heuristic(*p, heuristic).with_order(order),
    );
    let (r, name) = match algo {
        Algorithm::Minimax => (search_core::minimax(&mut t, depth), "minimax"),
        Algorithm::Alphabeta => (search_core::alphabeta(&mut t, depth), "alpha-beta"),
        Algorithm::Mtdf => (mtdf_search(&mut t, depth), "MTD(f)"),
    };
    let title = format!(
        "{name} depth {depth}, {} leaves, {} nodes, moves {}",
        r.stats.leaves,
        r.stats.nodes,
        actions(p).len()
    );
    let nodes = t.nodes();
    let windows = algo != Algorithm::Minimax;
    Trace {
        dot: to_dot(&nodes, r.best, &title, windows),
        svg: to_svg(&nodes, r.best, &title, windows),
        best: r.best,
    }
}

/// Writes `traced` into `dir` as `turnN.dot` (N = the turn number of `p`, 1 at the start) and
/// `turnN.svg` (drawn here when small enough, else by Graphviz's `dot` when installed); returns
/// a line saying what was written.
pub fn write_trace(dir: &Path, p: &Position, traced: &Trace) -> anyhow::Result<String> {
    let file = dir.join(format!("turn{}.dot", 60 - p.empties() + 1));
    batch::write_atomic(&file, traced.dot.as_bytes())?;
    let svg = file.with_extension("svg");
    let rendered = match &traced.svg {
        Some(picture) => {
            batch::write_atomic(&svg, picture.as_bytes())?;
            true
        }
        None => std::process::Command::new("dot")
            .arg("-Tsvg")
            .arg(&file)
            .arg("-o")
            .arg(&svg)
            .status()
            .is_ok_and(|s| s.success()),
    };
    Ok(format!(
        "trace: {}{}",
        file.display(),
        if rendered {
            format!(" and {}", svg.display())
        } else {
            format!(" (more than {SVG_MAX_NODES} nodes: install graphviz for SVG)")
        }
    ))
}

/// Traces the turn a fixed-depth decider (`minimax:D`, `alphabeta:D`, `mtdf:D`) plays from
/// `p` into `dir` (see [`write_trace`]); `None` for the deciders without a fixed-depth tree
/// (`id:MS`, `mcts:MS`, `random`). `play --trace` and `match --trace` both call it.
pub fn trace_turn(
    dir: &Path,
    p: &Position,
    decider: Decider,
    heuristic: HeuristicKind,
    order: MoveOrder,
) -> Option<anyhow::Result<String>> {
    let (algo, depth) = match decider {
        Decider::Minimax(d) => (Algorithm::Minimax, d),
        Decider::AlphaBeta(d) => (Algorithm::Alphabeta, d),
        Decider::Mtdf(d) => (Algorithm::Mtdf, d),
        Decider::Id(_) | Decider::Mcts(_) | Decider::Random => return None,
    };
    let traced = trace_search(p, depth, algo, order, heuristic);
    Some(write_trace(dir, p, &traced))
}
