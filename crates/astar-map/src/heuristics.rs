//! Lower bounds on the days still needed from a state (all admissible and consistent).

use crate::map::{Cell, Dir, Map};
use crate::model::{col_of, food_of, row_of, State};
use search_core::{bfs_distances, ucs_distances};

/// Returned for states from which the station cannot be reached.
pub const UNREACHABLE: u32 = u32::MAX;
const _: () = assert!(UNREACHABLE == <u32 as search_core::Cost>::MAX);

/// Which lower bound to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, clap::ValueEnum, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum HeuristicKind {
    /// h = 0: uniform-cost search.
    Zero,
    /// Manhattan distance to the station.
    Manhattan,
    /// Walking distance to the station ignoring food (one BFS).
    Grid,
    /// Walking distance plus the detour through a supply that the food limit forces.
    Supply,
}

impl HeuristicKind {
    /// All of them, weakest first (for comparison tables).
    pub const ALL: [HeuristicKind; 4] = [
        HeuristicKind::Zero,
        HeuristicKind::Manhattan,
        HeuristicKind::Grid,
        HeuristicKind::Supply,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Zero => "zero",
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::Grid => "grid",
            HeuristicKind::Supply => "supply",
        }
    }
}

/// A heuristic prepared for one map (distance tables computed once).
///
/// * `zero`: h = 0, which turns A* into uniform-cost search (the course's comparison).
/// * `manhattan` (default): |dr| + |dc| to the station; each move changes it by exactly one.
/// * `grid`: the exact walking distance to the station ignoring food, from one breadth-first
///   search out of the station. It dominates Manhattan (walls count) and proves unreachability
///   for free: a start not connected to the station is answered -1 without searching.
/// * `supply`: `grid`, plus what the food limit forces. With f food left and a station farther
///   than f, the route must pass a supply point s first, so it is at least
///   min_s dist(c, s) + dist(s, station) (one multi-source Dijkstra); and a state that can reach
///   neither the station nor any supply within f steps is dead (its successors are never
///   generated). Consistent: moving one cell changes every term by at most one, and entering a
///   supply makes the bound exactly the grid distance.
pub struct Heuristic {
    kind: HeuristicKind,
    cols: usize,
    station: (usize, usize),
    to_station: Vec<u32>,
    to_supply: Vec<u32>,
    via_supply: Vec<u32>,
}

impl Heuristic {
    /// Prepares `kind` for `map`.
    pub fn new(map: &Map, kind: HeuristicKind) -> Heuristic {
        let needs_grid = matches!(kind, HeuristicKind::Grid | HeuristicKind::Supply);
        let to_station = if needs_grid {
            bfs_from(map, &[map.station])
        } else {
            Vec::new()
        };
        let (to_supply, via_supply) = if kind == HeuristicKind::Supply {
            let supplies: Vec<usize> = (0..map.cells.len())
                .filter(|&i| map.cells[i] == Cell::Supply)
                .collect();
            (
                bfs_from(map, &supplies),
                via_supplies(map, &supplies, &to_station),
            )
        } else {
            (Vec::new(), Vec::new())
        };
        Heuristic {
            kind,
            cols: map.cols,
            station: map.pos(map.station),
            to_station,
            to_supply,
            via_supply,
        }
    }

    /// Which heuristic this is.
    pub fn kind(&self) -> HeuristicKind {
        self.kind
    }

    /// Whether the heuristic can say [`UNREACHABLE`] (so successors are worth filtering).
    pub fn detects_dead_ends(&self) -> bool {
        matches!(self.kind, HeuristicKind::Grid | HeuristicKind::Supply)
    }

    /// The lower bound for a state, or [`UNREACHABLE`].
    #[inline]
    pub fn estimate(&self, s: State) -> u32 {
        let (r, c, food) = (row_of(s), col_of(s), food_of(s));
        let cell = r * self.cols + c;
        match self.kind {
            HeuristicKind::Zero => 0,
            HeuristicKind::Manhattan => {
                (r.abs_diff(self.station.0) + c.abs_diff(self.station.1)) as u32
            }
            HeuristicKind::Grid => self.to_station[cell],
            HeuristicKind::Supply => {
                let d = self.to_station[cell];
                if d <= food || d == UNREACHABLE {
                    d
                } else if self.to_supply[cell] > food {
                    UNREACHABLE
                } else {
                    d.max(self.via_supply[cell])
                }
            }
        }
    }
}

/// Walking distances (ignoring food) from the nearest of `sources` to every cell: one
/// breadth-first search (`search-core`'s distance field).
fn bfs_from(map: &Map, sources: &[usize]) -> Vec<u32> {
    // Unreached cells are left at u32::MAX, which is UNREACHABLE.
    bfs_distances(map.cells.len(), sources.iter().copied(), |c, out| {
        for dir in Dir::ALL {
            out.extend(map.step(c, dir));
        }
    })
}

/// min over supplies s of dist(c, s) + dist(s, station), for every cell c: a Dijkstra whose
/// sources are the supplies, each starting at its own distance to the station.
fn via_supplies(map: &Map, supplies: &[usize], to_station: &[u32]) -> Vec<u32> {
    let sources = supplies
        .iter()
        .filter(|&&s| to_station[s] != UNREACHABLE)
        .map(|&s| (s, to_station[s]));
    ucs_distances(map.cells.len(), sources, |c, out| {
        for dir in Dir::ALL {
            out.extend(map.step(c, dir).map(|t| (t, 1)));
        }
    })
}
