//! What a collection of games holds, as `othello games` prints it: how many games and files,
//! the results (played and, where WTHOR gives it, theoretical), the most played openings with
//! turned and reflected games merged, and the players and tournaments with the most games.

use crate::formats::archive::Archive;
use crate::formats::record::GameRecord;
use crate::rules::position::{Move, Position};
use std::collections::HashMap;
use std::fmt;

/// Wins, draws and losses from black's side, and the disc differences' sum.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize)]
pub struct Results {
    /// Games counted.
    pub games: usize,
    /// Black won.
    pub black_wins: usize,
    /// Drawn.
    pub draws: usize,
    /// White won.
    pub white_wins: usize,
    /// Black's mean final disc difference.
    pub mean_black_diff: f64,
}

impl Results {
    fn add(&mut self, black_diff: i32) {
        self.games += 1;
        match black_diff.signum() {
            1 => self.black_wins += 1,
            0 => self.draws += 1,
            _ => self.white_wins += 1,
        }
        // Kept as a sum until `finish`.
        self.mean_black_diff += f64::from(black_diff);
    }

    fn finish(mut self) -> Results {
        self.mean_black_diff /= self.games.max(1) as f64;
        self
    }

    /// Black's score: wins and half the draws, per game.
    pub fn black_score(&self) -> f64 {
        (self.black_wins as f64 + 0.5 * self.draws as f64) / self.games.max(1) as f64
    }
}

/// One opening of [`Summary::openings`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Opening {
    /// Its moves as most often played (one of its turned or reflected forms).
    pub line: String,
    /// The games through it, from black's side.
    pub results: Results,
}

/// A player or tournament of [`Summary::players`] or [`Summary::tournaments`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Named {
    /// The name.
    pub name: String,
    /// Games.
    pub games: usize,
    /// For a player, the score of its games (wins and half the draws, per game).
    pub score: Option<f64>,
}

/// The summary of a collection.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Records left out (named on stderr).
    pub rejected: usize,
    /// Games not played to the end.
    pub unfinished: usize,
    /// Results as played.
    pub played: Results,
    /// Results under perfect play from WTHOR's theoretical depth, for the games that have one.
    pub theoretical: Results,
    /// The empties of the theoretical scores (the deepest, where files differ).
    pub theoretical_empties: Option<u32>,
    /// The first and last year of the games that have one.
    pub years: Option<(u16, u16)>,
    /// Plies of the openings counted.
    pub opening_plies: usize,
    /// The most played openings.
    pub openings: Vec<Opening>,
    /// The players with the most games.
    pub players: Vec<Named>,
    /// The tournaments with the most games.
    pub tournaments: Vec<Named>,
}

/// The first `plies` moves of `record` (passes left out) and the position they reach, or
/// `None` for a shorter game.
pub fn opening(record: &GameRecord, plies: usize) -> Option<(String, Position)> {
    let squares = record.squares.get(..plies)?;
    let mut p = Position::default();
    let mut line = String::with_capacity(2 * plies);
    for &s in squares {
        if p.moves() == 0 {
            p = p.play(Move::Pass);
        }
        p = p.play(Move::Square(s));
        line.push_str(&Move::Square(s).to_string());
    }
    Some((line, p))
}

impl Summary {
    /// Summarises `archive`: openings of `plies` moves, the `top` most frequent of each list.
    pub fn of(archive: &Archive, plies: usize, top: usize) -> Summary {
        let mut played = Results::default();
        let mut theoretical = Results::default();
        let mut theoretical_empties: Option<u32> = None;
        let mut years: Option<(u16, u16)> = None;
        // Openings by their canonical position: results and each written form's count.
        let mut openings: HashMap<Position, (Results, HashMap<String, usize>)> = HashMap::new();
        let mut players: HashMap<&str, Results> = HashMap::new();
        let mut tournaments: HashMap<&str, usize> = HashMap::new();
        for g in &archive.games {
            let r = &g.record;
            played.add(r.black_diff);
            if let Some(t) = r.theoretical {
                theoretical.add(t.black_diff);
                theoretical_empties =
                    Some(theoretical_empties.map_or(t.empties, |e| e.max(t.empties)));
            }
            if let Some(y) = r.year {
                years = Some(years.map_or((y, y), |(a, b)| (a.min(y), b.max(y))));
            }
            if let Some((line, p)) = opening(r, plies) {
                let (results, forms) = openings.entry(p.canonical()).or_default();
                results.add(r.black_diff);
                *forms.entry(line).or_default() += 1;
            }
            for (name, diff) in [(&r.black, r.black_diff), (&r.white, -r.black_diff)] {
                if let Some(n) = name
                    .as_deref()
                    .filter(|n| !n.is_empty() && !n.starts_with('#'))
                {
                    players.entry(n).or_default().add(diff);
                }
            }
            if let Some(t) = r
                .tournament
                .as_deref()
                .filter(|t| !t.is_empty() && !t.starts_with('#'))
            {
                *tournaments.entry(t).or_default() += 1;
            }
        }
        let mut openings: Vec<Opening> = openings
            .into_values()
            .map(|(results, forms)| Opening {
                line: forms
                    .into_iter()
                    .max_by(|a, b| a.1.cmp(&b.1).then(b.0.cmp(&a.0)))
                    .map(|(l, _)| l)
                    .unwrap_or_default(),
                results: results.finish(),
            })
            .collect();
        openings.sort_by(|a, b| {
            b.results
                .games
                .cmp(&a.results.games)
                .then(a.line.cmp(&b.line))
        });
        openings.truncate(top);
        let mut players: Vec<Named> = players
            .into_iter()
            .map(|(name, r)| Named {
                name: name.to_string(),
                games: r.games,
                score: Some(r.black_score()),
            })
            .collect();
        players.sort_by(|a, b| b.games.cmp(&a.games).then(a.name.cmp(&b.name)));
        players.truncate(top);
        let mut tournaments: Vec<Named> = tournaments
            .into_iter()
            .map(|(name, games)| Named {
                name: name.to_string(),
                games,
                score: None,
            })
            .collect();
        tournaments.sort_by(|a, b| b.games.cmp(&a.games).then(a.name.cmp(&b.name)));
        tournaments.truncate(top);
        Summary {
            files: archive.files.len(),
            rejected: archive.rejected.len(),
            unfinished: archive.games.iter().filter(|g| !g.finished).count(),
            played: played.finish(),
            theoretical: theoretical.finish(),
            theoretical_empties,
            years,
            opening_plies: plies,
            openings,
            players,
            tournaments,
        }
    }
}

fn percent(part: usize, whole: usize) -> f64 {
    100.0 * part as f64 / whole.max(1) as f64
}

fn results_line(r: &Results) -> String {
    format!(
        "black wins {:.1}%, draws {:.1}%, white wins {:.1}%; black's mean disc difference {:+.2}",
        percent(r.black_wins, r.games),
        percent(r.draws, r.games),
        percent(r.white_wins, r.games),
        r.mean_black_diff
    )
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{} in {} ({} rejected, {} unfinished)",
            batch::plural(self.played.games, "game", "games"),
            batch::plural(self.files, "file", "files"),
            self.rejected,
            self.unfinished
        )?;
        if let Some((a, b)) = self.years {
            writeln!(f, "years {a}-{b}")?;
        }
        if self.played.games > 0 {
            writeln!(f, "results: {}", results_line(&self.played))?;
        }
        if let Some(e) = self.theoretical_empties {
            writeln!(
                f,
                "theoretical results (perfect play from {e} empties, {} games): {}",
                self.theoretical.games,
                results_line(&self.theoretical)
            )?;
        }
        if !self.openings.is_empty() {
            writeln!(
                f,
                "\nmost played openings ({} plies; turned and reflected games together):",
                self.opening_plies
            )?;
            writeln!(f, "{:>8}  {:>6}  {:>6}  line", "games", "black", "discs")?;
            for o in &self.openings {
                writeln!(
                    f,
                    "{:>8}  {:>5.1}%  {:>+6.2}  {}",
                    o.results.games,
                    100.0 * o.results.black_score(),
                    o.results.mean_black_diff,
                    o.line
                )?;
            }
        }
        for (title, list) in [
            ("players", &self.players),
            ("tournaments", &self.tournaments),
        ] {
            if list.is_empty() {
                continue;
            }
            writeln!(f, "\n{title} with the most games:")?;
            for n in list {
                match n.score {
                    Some(s) => writeln!(f, "{:>8}  {:>5.1}%  {}", n.games, 100.0 * s, n.name)?,
                    None => writeln!(f, "{:>8}  {}", n.games, n.name)?,
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::archive::ArchiveGame;
    use crate::formats::record::transcript_squares;

    fn game(line: &str, black_diff: i32, black: &str) -> ArchiveGame {
        ArchiveGame {
            file: 0,
            index: 1,
            record: GameRecord {
                squares: transcript_squares(line).unwrap(),
                black_diff,
                black: Some(black.into()),
                white: Some("Bob".into()),
                ..GameRecord::default()
            },
            finished: false,
        }
    }

    #[test]
    fn openings_merge_turned_games_and_count_results() {
        let archive = Archive {
            files: vec!["a.gam".into()],
            games: vec![
                game("f5d6c3", 10, "Ann"),
                game("d3c5f6", -4, "Ann"), // f5d6c3 reflected
                game("f5f6e6", 0, "Cid"),
            ],
            rejected: vec![],
        };
        let s = Summary::of(&archive, 3, 10);
        assert_eq!(s.played.games, 3);
        assert_eq!(
            (s.played.black_wins, s.played.draws, s.played.white_wins),
            (1, 1, 1)
        );
        assert_eq!(s.openings.len(), 2);
        assert_eq!(s.openings[0].results.games, 2);
        assert_eq!(s.openings[0].results.mean_black_diff, 3.0);
        assert_eq!(s.players[0].name, "Bob");
        assert_eq!(s.players[0].games, 3);
        // Ann won one and lost one as black.
        let ann = s.players.iter().find(|p| p.name == "Ann").unwrap();
        assert_eq!(ann.score, Some(0.5));
        let text = s.to_string();
        assert!(
            text.starts_with("3 games in 1 file (0 rejected, 3 unfinished)"),
            "{text}"
        );
    }
}
