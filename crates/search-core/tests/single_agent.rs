//! Property tests: the single-agent searches agree with slow, obvious shortest-path oracles on
//! random graphs.

use proptest::prelude::*;
use search_core::*;

/// A random directed graph: adjacency lists of (node, cost).
fn graph(n: usize, edges: &[(usize, usize, u32)], unit: bool) -> Vec<Vec<(usize, u32)>> {
    let mut adj = vec![Vec::new(); n];
    for &(a, b, c) in edges {
        adj[a % n].push((b % n, if unit { 1 } else { c }));
    }
    adj
}

/// Bellman-Ford style relaxation to a fixed point: the slow, obvious shortest distances.
fn oracle(adj: &[Vec<(usize, u32)>], from: usize) -> Vec<Option<u32>> {
    let mut d = vec![None; adj.len()];
    d[from] = Some(0);
    loop {
        let mut changed = false;
        for a in 0..adj.len() {
            if let Some(da) = d[a] {
                for &(b, c) in &adj[a] {
                    if d[b].is_none_or(|db| da + c < db) {
                        d[b] = Some(da + c);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            return d;
        }
    }
}

fn valid_path(adj: &[Vec<(usize, u32)>], path: &[usize], cost: u32) -> bool {
    let mut total = 0;
    for w in path.windows(2) {
        match adj[w[0]].iter().filter(|e| e.0 == w[1]).map(|e| e.1).min() {
            Some(c) => total += c,
            None => return false,
        }
    }
    total == cost
}

fn edges() -> impl Strategy<Value = (usize, Vec<(usize, usize, u32)>)> {
    (2usize..25).prop_flat_map(|n| {
        (
            Just(n),
            prop::collection::vec((0..n, 0..n, 1u32..10), 0..n * 3),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn astar_ucs_idastar_equal_the_oracle((n, es) in edges(), goal_pick in any::<usize>()) {
        let adj = graph(n, &es, false);
        let goal = goal_pick % n;
        let truth = oracle(&adj, 0);
        // An admissible (even consistent) heuristic: half the true remaining distance.
        let rev: Vec<Option<u32>> = (0..n).map(|v| oracle(&adj, v)[goal]).collect();
        let h = |&v: &usize| rev[v].map_or(0, |d| d / 2);
        let succ = |&v: &usize| adj[v].clone();
        for out in [
            astar(&0, succ, h, |&v| v == goal),
            ucs(&0, succ, |&v| v == goal),
            idastar(&0, succ, h, |&v| v == goal, &Limits::none()),
        ] {
            prop_assert_eq!(out.cost(), truth[goal]);
            if let Some((path, cost)) = &out.solution {
                prop_assert!(valid_path(&adj, path, *cost));
                prop_assert_eq!(path[0], 0);
                prop_assert_eq!(*path.last().unwrap(), goal);
            } else {
                prop_assert!(out.stopped.is_none());
            }
        }
        for tie_break in [TieBreak::LargerG, TieBreak::SmallerG, TieBreak::Fifo, TieBreak::Lifo] {
            let opts = AstarOptions { tie_break, ..Default::default() };
            let out = astar_with(&0, succ, h, |&v| v == goal, |_, _| false, &opts);
            prop_assert_eq!(out.cost(), truth[goal]);
        }
    }

    #[test]
    fn bfs_iddfs_dls_dfs_on_unit_costs((n, es) in edges(), goal_pick in any::<usize>()) {
        let adj = graph(n, &es, true);
        let goal = goal_pick % n;
        let truth = oracle(&adj, 0)[goal].map(|d| d as usize);
        let succ = |&v: &usize| adj[v].iter().map(|e| e.0).collect::<Vec<_>>();
        let b = bfs(&0, succ, |&v| v == goal, &Limits::none());
        let i = iddfs(&0, succ, |&v| v == goal, &Limits::none());
        prop_assert_eq!(b.cost(), truth);
        prop_assert_eq!(i.cost(), truth);
        let d = dfs(&0, succ, |&v| v == goal, &Limits::none());
        prop_assert_eq!(d.solution.is_some(), truth.is_some());
        for out in [&b, &i, &d] {
            if let Some((path, len)) = &out.solution {
                prop_assert!(valid_path(&adj, path, *len as u32));
            }
        }
        if let Some(t) = truth {
            let l = depth_limited(&0, succ, |&v| v == goal, |_| 0, t, &Limits::none());
            prop_assert!(l.goal);
            prop_assert_eq!(l.path.len() - 1, t);
            if t > 0 {
                let short = depth_limited(&0, succ, |&v| v == goal, |_| 0, t - 1, &Limits::none());
                prop_assert!(!short.goal);
            }
        }
    }

    /// The distance fields equal the oracle from several sources at once (each source starting
    /// at its own cost: the oracle runs from a fresh node joined to each source by an edge of
    /// that cost), and breadth-first fields equal Dijkstra's on unit costs.
    #[test]
    fn distance_fields_equal_the_oracle(
        (n, es) in edges(),
        picks in prop::collection::vec((any::<usize>(), 0u32..20), 1..4),
    ) {
        let sources: Vec<(usize, u32)> = picks.iter().map(|&(s, c)| (s % n, c)).collect();
        for unit in [false, true] {
            let adj = graph(n, &es, unit);
            let mut joined = adj.clone();
            joined.push(sources.clone());
            let truth: Vec<u32> =
                oracle(&joined, n)[..n].iter().map(|d| d.unwrap_or(u32::MAX)).collect();
            let field = ucs_distances(n, sources.iter().copied(), |v, out| out.extend(&adj[v]));
            prop_assert_eq!(&field, &truth);
            if unit {
                let starts = sources.iter().map(|&(s, _)| s);
                let succ = |v: usize, out: &mut Vec<usize>| out.extend(adj[v].iter().map(|e| e.0));
                let by_bfs: Vec<u32> = bfs_distances(n, starts.clone(), succ);
                let by_ucs = ucs_distances(n, starts.map(|s| (s, 0u32)), |v, out| out.extend(&adj[v]));
                prop_assert_eq!(by_bfs, by_ucs);
            }
        }
    }
}

#[test]
fn larger_g_tie_breaking_walks_straight_across_an_open_grid() {
    // 100x100 open grid, corner to corner, Manhattan: with larger-g ties only the path's
    // 199 states are expanded; FIFO widens a whole band.
    let succ = |&(r, c): &(i32, i32)| {
        [(r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)]
            .into_iter()
            .filter(|&(r, c)| (0..100).contains(&r) && (0..100).contains(&c))
            .map(|p| (p, 1u32))
    };
    let h = |&(r, c): &(i32, i32)| (99 - r).unsigned_abs() + (99 - c).unsigned_abs();
    let deep = astar(&(0, 0), succ, h, |&p| p == (99, 99));
    assert_eq!(deep.cost(), Some(198));
    assert_eq!(deep.stats.expanded, 199);
    let fifo = AstarOptions {
        tie_break: TieBreak::Fifo,
        ..Default::default()
    };
    let wide = astar_with(&(0, 0), succ, h, |&p| p == (99, 99), |_, _| false, &fifo);
    assert_eq!(wide.cost(), Some(198));
    assert!(wide.stats.expanded > 1000);
}
