//! An opening book built from expert games: every position up to a ply limit that at least
//! `min_games` games reach (turned and reflected positions merged: a node is a canonical
//! position), with its games' results, the engine's own search value at the book's leaves, and
//! those values backed up by negamax through the book's moves. The engine plays the book move
//! with the best backed-up value.
//!
//! The file is a text line naming how it was built, then one 40-byte node a position, sorted:
//! the side to move's and the other side's discs (8 bytes each, little-endian), the games, the
//! side to move's wins, draws and losses (4 bytes each), the sum of its final disc differences
//! (4), its value in hundredths of a disc (2), and whether it is a leaf searched by the engine
//! (1, then a zero byte).

use crate::formats::archive::ArchiveGame;
use crate::rules::position::{Move, Position};
use std::collections::HashMap;

/// The first line of a book file.
const MAGIC: &str = "othello-book 1";

/// What the book knows of a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BookNode {
    /// Games through it.
    pub games: u32,
    /// The side to move's wins, draws and losses in them.
    pub wins: u32,
    /// Draws.
    pub draws: u32,
    /// Losses.
    pub losses: u32,
    /// The sum of the side to move's final disc differences.
    pub sum_diff: i32,
    /// Its value for the side to move, in hundredths of a disc: the engine's search at a leaf,
    /// the best of its book moves' values (negamax) elsewhere.
    pub value: i16,
    /// Whether it is a leaf (no book move), valued by the engine's search.
    pub leaf: bool,
}

impl BookNode {
    /// The side to move's score in the games: wins and half the draws, per game.
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games.max(1))
    }

    /// The side to move's mean final disc difference.
    pub fn mean_diff(&self) -> f64 {
        f64::from(self.sum_diff) / f64::from(self.games.max(1))
    }
}

/// How a book is built.
#[derive(Debug, Clone, Copy)]
pub struct BookOptions {
    /// Positions up to this many plies from the start (moves played, passes not counted).
    pub plies: u32,
    /// Positions fewer games reach are left out.
    pub min_games: u32,
    /// The engine's search depth at the leaves.
    pub depth: u32,
    /// Threads searching the leaves (the book does not depend on it).
    pub threads: usize,
}

/// A move of a book position, as [`Book::moves`] gives it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BookMove {
    /// The move.
    pub mv: Move,
    /// The position after it, from the mover's opponent's side.
    pub node: BookNode,
    /// Its value for the mover, in discs.
    pub value: f64,
    /// The mover's score in the games through it (wins and half the draws, per game).
    pub score: f64,
    /// The mover's mean final disc difference in them.
    pub mean_diff: f64,
}

/// An opening book: canonical positions and what is known of them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Book {
    /// The nodes.
    pub nodes: HashMap<Position, BookNode>,
    /// How it was built, as its file's first line says.
    pub made_with: String,
}

/// The position as the book keys it: canonical, the side to move's colour set aside (the
/// key holds discs by mover), after any forced pass.
fn key(p: &Position) -> Position {
    let p = if p.moves() == 0 && !p.game_over() {
        p.play(Move::Pass)
    } else {
        *p
    };
    let c = p.canonical();
    Position {
        side: crate::rules::position::Color::Black,
        ..c
    }
}

impl Book {
    /// The book's node for `p`, if it has one.
    pub fn get(&self, p: &Position) -> Option<&BookNode> {
        self.nodes.get(&key(p))
    }

    /// The book moves of `p`, best first (by value, then by games).
    pub fn moves(&self, p: &Position) -> Vec<BookMove> {
        let mut out = Vec::new();
        if self.get(p).is_none() {
            return out;
        }
        let mut moves = Vec::new();
        p.push_moves(&mut moves);
        for mv in moves {
            if let Some(node) = self.get(&p.play(mv)) {
                // The child's value is its mover's; after a forced pass it is ours again.
                let child = p.play(mv);
                let same_mover = child.moves() == 0 && !child.game_over();
                let sign = if same_mover { 1.0 } else { -1.0 };
                out.push(BookMove {
                    mv,
                    node: *node,
                    value: sign * f64::from(node.value) / 100.0,
                    score: if same_mover {
                        node.score()
                    } else {
                        1.0 - node.score()
                    },
                    mean_diff: sign * node.mean_diff(),
                });
            }
        }
        out.sort_by(|a, b| {
            b.value
                .total_cmp(&a.value)
                .then(b.node.games.cmp(&a.node.games))
        });
        out
    }

    /// The move the engine plays from the book at `p`, if any.
    pub fn best(&self, p: &Position) -> Option<BookMove> {
        self.moves(p).into_iter().next()
    }

    /// Builds the book of `games` (see the module header); `progress` is called after each
    /// leaf searched.
    pub fn build(games: &[ArchiveGame], opts: &BookOptions, progress: &(dyn Fn() + Sync)) -> Book {
        // Count the games through every position up to the ply limit.
        let mut nodes: HashMap<Position, BookNode> = HashMap::new();
        for g in games {
            let Ok(replay) = g.record.replay() else {
                continue;
            };
            let mut seen = std::collections::HashSet::new();
            let mut positions: Vec<Position> = replay.choices().map(|(p, _)| *p).collect();
            positions.push(replay.end);
            for p in positions.into_iter().take(opts.plies as usize + 1) {
                let k = key(&p);
                // A game reaches a position once (a symmetric game could meet it twice).
                if !seen.insert(k) {
                    continue;
                }
                let diff = replay.black_diff
                    * if p.side == crate::rules::position::Color::Black {
                        1
                    } else {
                        -1
                    };
                let n = nodes.entry(k).or_default();
                n.games += 1;
                match diff.signum() {
                    1 => n.wins += 1,
                    0 => n.draws += 1,
                    _ => n.losses += 1,
                }
                n.sum_diff += diff;
            }
        }
        nodes.retain(|_, n| n.games >= opts.min_games);
        let mut book = Book {
            nodes,
            made_with: format!(
                "plies {} min-games {} depth {} games {}",
                opts.plies,
                opts.min_games,
                opts.depth,
                games.len()
            ),
        };
        // The leaves: nodes with no book move (or at the end of the game).
        let mut leaves: Vec<Position> = book
            .nodes
            .keys()
            .filter(|p| book.children(p).is_empty())
            .copied()
            .collect();
        leaves.sort_by_key(|p| (p.me, p.opp));
        let values = batch::parallel_map(
            leaves.len(),
            opts.threads,
            || {
                crate::search::engine::Thinker::new(std::sync::Arc::new(
                    std::sync::atomic::AtomicBool::new(false),
                ))
            },
            |thinker, i| {
                let p = &leaves[i];
                let v = if p.game_over() {
                    f64::from(p.final_score())
                } else {
                    let budget = crate::search::engine::MoveBudget::unlimited();
                    thinker.best(p, opts.depth, &budget).map_or(0.0, |a| a.eval)
                };
                progress();
                (v * 100.0).round().clamp(-6400.0, 6400.0) as i16
            },
        );
        for (p, v) in leaves.iter().zip(values) {
            let n = book.nodes.get_mut(p).expect("a leaf is a node");
            n.value = v;
            n.leaf = true;
        }
        book.back_up();
        book
    }

    /// The book children of a node: the positions after its moves that the book holds, each
    /// with the sign its value takes from the parent's side (-1, or +1 after a forced pass).
    fn children(&self, p: &Position) -> Vec<(Position, i16)> {
        let mut moves = Vec::new();
        p.push_moves(&mut moves);
        moves
            .into_iter()
            .filter(|&m| m != Move::Pass)
            .filter_map(|m| {
                let c = p.play(m);
                let sign = if c.moves() == 0 && !c.game_over() {
                    1
                } else {
                    -1
                };
                let k = key(&c);
                self.nodes.contains_key(&k).then_some((k, sign))
            })
            .collect()
    }

    /// Every interior node's value from its book moves' values, deepest first (negamax).
    fn back_up(&mut self) {
        let mut order: Vec<Position> = self.nodes.keys().copied().collect();
        // Fewer empties first: children before their parents.
        order.sort_by_key(|p| (p.empties(), p.me, p.opp));
        for p in order {
            let children = self.children(&p);
            if children.is_empty() {
                continue;
            }
            let best = children
                .iter()
                .map(|(c, sign)| i32::from(self.nodes[c].value) * i32::from(*sign))
                .max()
                .expect("not empty");
            let n = self.nodes.get_mut(&p).expect("a node");
            n.value = best.clamp(-6400, 6400) as i16;
            n.leaf = false;
        }
    }

    /// The book as its file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = format!("{MAGIC} {}\n", self.made_with).into_bytes();
        let mut keys: Vec<&Position> = self.nodes.keys().collect();
        keys.sort_by_key(|p| (p.me, p.opp));
        for p in keys {
            let n = &self.nodes[p];
            out.extend_from_slice(&p.me.to_le_bytes());
            out.extend_from_slice(&p.opp.to_le_bytes());
            for v in [n.games, n.wins, n.draws, n.losses] {
                out.extend_from_slice(&v.to_le_bytes());
            }
            out.extend_from_slice(&n.sum_diff.to_le_bytes());
            out.extend_from_slice(&n.value.to_le_bytes());
            out.push(u8::from(n.leaf));
            out.push(0);
        }
        out
    }

    /// Reads a book file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, String> {
        let end = bytes
            .iter()
            .position(|&b| b == b'\n')
            .ok_or("not an othello book: no first line")?;
        let head = std::str::from_utf8(&bytes[..end]).map_err(|_| "not an othello book")?;
        let made_with = head
            .strip_prefix(MAGIC)
            .ok_or_else(|| format!("not an othello book (its first line is not `{MAGIC} …`)"))?
            .trim()
            .to_string();
        let body = &bytes[end + 1..];
        if !body.len().is_multiple_of(40) {
            return Err(format!(
                "{} bytes of nodes is not a whole number of 40-byte nodes",
                body.len()
            ));
        }
        let mut nodes = HashMap::with_capacity(body.len() / 40);
        for (i, c) in body.chunks_exact(40).enumerate() {
            let u64_at = |k: usize| u64::from_le_bytes(c[k..k + 8].try_into().expect("8 bytes"));
            let u32_at = |k: usize| u32::from_le_bytes(c[k..k + 4].try_into().expect("4 bytes"));
            let (me, opp) = (u64_at(0), u64_at(8));
            let n = BookNode {
                games: u32_at(16),
                wins: u32_at(20),
                draws: u32_at(24),
                losses: u32_at(28),
                sum_diff: u32_at(32) as i32,
                value: i16::from_le_bytes([c[36], c[37]]),
                leaf: c[38] == 1,
            };
            let total = u64::from(n.wins) + u64::from(n.draws) + u64::from(n.losses);
            if me & opp != 0 || c[38] > 1 || total != u64::from(n.games) || n.value.abs() > 6400 {
                return Err(format!("node {} is not a position with its games", i + 1));
            }
            let p = Position {
                me,
                opp,
                side: crate::rules::position::Color::Black,
            };
            if nodes.insert(p, n).is_some() {
                return Err(format!("node {} repeats a position", i + 1));
            }
        }
        Ok(Book { nodes, made_with })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::record::{transcript_squares, GameRecord};

    fn games(lines: &[(&str, i32)]) -> Vec<ArchiveGame> {
        lines
            .iter()
            .map(|(l, d)| ArchiveGame {
                file: 0,
                index: 1,
                record: GameRecord {
                    squares: transcript_squares(l).unwrap(),
                    black_diff: *d,
                    ..GameRecord::default()
                },
                finished: false,
            })
            .collect()
    }

    fn small() -> Vec<ArchiveGame> {
        games(&[
            ("f5d6c3d3c4", 10),
            ("f5d6c3d3c4", 6),
            ("d3c5f6f5e6", -2), // the first game reflected
            ("f5f6e6f4e3", -20),
            ("f5f6e6f4e3", -30),
            ("f5d6c5f4e3", 4),
        ])
    }

    fn options() -> BookOptions {
        BookOptions {
            plies: 3,
            min_games: 2,
            depth: 2,
            threads: 1,
        }
    }

    #[test]
    fn positions_merge_their_symmetries_and_count_results() {
        let book = Book::build(&small(), &options(), &|| {});
        let start = Position::default();
        assert_eq!(book.get(&start).unwrap().games, 6);
        // f5 and d3 are one opening move turned.
        let f5 = book.get(&start.play_sequence("f5").unwrap()).unwrap();
        assert_eq!(f5.games, 6);
        let f5d6c3 = book.get(&start.play_sequence("f5d6c3").unwrap()).unwrap();
        assert_eq!((f5d6c3.games, f5d6c3.sum_diff), (3, -14)); // white to move: -(10+6-2)
        assert!(book.get(&start.play_sequence("f5d6c5").unwrap()).is_none()); // one game
    }

    #[test]
    fn values_back_up_by_negamax_and_the_best_move_is_played() {
        let book = Book::build(&small(), &options(), &|| {});
        let start = Position::default();
        // Every interior node's value is the best of its book moves' values.
        for (p, n) in &book.nodes {
            let children = book.children(p);
            if n.leaf {
                assert!(children.is_empty());
                continue;
            }
            let best = children
                .iter()
                .map(|(c, s)| i32::from(book.nodes[c].value) * i32::from(*s))
                .max()
                .unwrap();
            assert_eq!(i32::from(n.value), best);
        }
        let after_f5 = start.play_sequence("f5").unwrap();
        let moves = book.moves(&after_f5);
        assert_eq!(moves.len(), 2); // d6 (3 games) and f6 (2 games)
        assert!(moves[0].value >= moves[1].value);
        assert_eq!(book.best(&after_f5).unwrap().mv, moves[0].mv);
        assert!(book
            .best(&start.play_sequence("f5d6c5f4").unwrap())
            .is_none());
    }

    #[test]
    fn the_book_round_trips_through_its_file() {
        let book = Book::build(&small(), &options(), &|| {});
        let bytes = book.to_bytes();
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        assert!(Book::from_bytes(b"othello-book 1 x\n123").is_err());
        assert!(Book::from_bytes(b"something else\n").is_err());
        let mut bad = bytes.clone();
        let n = bad.len() - 40 + 16;
        bad[n] ^= 1; // games no longer the sum of results
        assert!(Book::from_bytes(&bad).is_err());
    }
}
