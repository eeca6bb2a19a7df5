//! Search trees made visible: a [`Traced`] wrapper records every node a `search-core` search
//! visits (through the game's play/undo/evaluate calls, so the searches themselves need no
//! change), and [`to_dot`] writes the tree as Graphviz DOT: nodes labelled with the move and
//! the value (for the side to move there) backed up from the children actually searched, the
//! chosen line in red, and moves a pruning search never looked at counted as cut-offs.

use crate::course::actions;
use crate::deciders::{CourseGame, MoveOrder};
use crate::position::{Move, Position};
use search_core::{Game, Score};
use std::cell::RefCell;
use std::fmt::Write;

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
            nodes: RefCell::new(vec![TraceNode {
                mv: None,
                children: Vec::new(),
                leaf: None,
                moves_available: 0,
            }]),
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
    fn play(&mut self, mv: Move) {
        let p = *self.pos.last().expect("a position");
        self.pos.push(p.play(mv));
        self.inner.play(mv);
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len();
        nodes.push(TraceNode {
            mv: Some(mv),
            children: Vec::new(),
            leaf: None,
            moves_available: 0,
        });
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
}

/// Backed-up negamax value of node `i` from the children searched.
fn value(nodes: &[TraceNode], i: usize) -> Option<Score> {
    let n = &nodes[i];
    if n.children.is_empty() {
        return n.leaf;
    }
    n.children
        .iter()
        .filter_map(|&c| value(nodes, c))
        .map(|v| -v)
        .max()
}

/// Graphviz DOT of a recorded tree; `chosen` is the root move played.
///
/// ```
/// use othello::{deciders::CourseGame, trace::{to_dot, Traced}, Position};
/// let p = Position::default();
/// let mut t = Traced::new(p, CourseGame::new(p));
/// let r = search_core::alphabeta(&mut t, 2);
/// let dot = to_dot(&t.nodes(), r.best, "start, alpha-beta depth 2");
/// assert!(dot.starts_with("digraph") && dot.contains("color=red"));
/// ```
pub fn to_dot(nodes: &[TraceNode], chosen: Option<Move>, title: &str) -> String {
    let mut s =
        format!("digraph G {{\n  label=\"{title}\";\n  node [shape=box, fontname=Courier];\n");
    // The principal line: from the root, follow the best child.
    let mut on_line = vec![false; nodes.len()];
    let mut cur = 0;
    on_line[0] = true;
    loop {
        let n = &nodes[cur];
        let best = if cur == 0 {
            n.children.iter().copied().find(|&c| nodes[c].mv == chosen)
        } else {
            let target = value(nodes, cur);
            n.children
                .iter()
                .copied()
                .find(|&c| value(nodes, c).map(|v| -v) == target)
        };
        match best {
            Some(b) => {
                on_line[b] = true;
                cur = b;
            }
            None => break,
        }
    }
    for (i, n) in nodes.iter().enumerate() {
        let mv = n.mv.map_or("root".to_string(), |m| m.to_string());
        let v = value(nodes, i).map_or("?".to_string(), |v| v.to_string());
        let cut = n.moves_available.saturating_sub(n.children.len());
        let cut_note = if cut > 0 && !n.children.is_empty() {
            format!("\\n{cut} cut off")
        } else {
            String::new()
        };
        let style = if on_line[i] {
            ", color=red, penwidth=2"
        } else {
            ""
        };
        let _ = writeln!(s, "  n{i} [label=\"{mv}\\nvalue {v}{cut_note}\"{style}];");
        for &c in &n.children {
            let red = if on_line[c] && on_line[i] {
                " [color=red, penwidth=2]"
            } else {
                ""
            };
            let _ = writeln!(s, "  n{i} -> n{c}{red};");
        }
    }
    s.push_str("}\n");
    s
}

/// Traces one fixed-depth search from `p` and returns the DOT text and the chosen move.
pub fn trace_search(
    p: &Position,
    depth: u32,
    prune: bool,
    order: MoveOrder,
) -> (String, Option<Move>) {
    let mut t = Traced::new(*p, CourseGame::new(*p).with_order(order));
    let r = if prune {
        search_core::alphabeta(&mut t, depth)
    } else {
        search_core::minimax(&mut t, depth)
    };
    let title = format!(
        "{} depth {depth}, {} leaves, moves {}",
        if prune { "alpha-beta" } else { "minimax" },
        r.stats.leaves,
        actions(p).len()
    );
    (to_dot(&t.nodes(), r.best, &title), r.best)
}
