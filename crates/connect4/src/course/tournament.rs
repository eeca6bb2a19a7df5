//! Tournaments at class scale: every player (students' libraries, or built-ins) against every
//! opponent, each round on one random board played twice with colours swapped, as the course
//! grades. The schedule (pairings, boards, first movers, game seeds) depends only on the seed,
//! so `--shard I/N` plays a deterministic slice of it on one machine and `merge` puts the slices
//! together into exactly what one unsharded run writes. Every finished game is appended to a
//! journal at once, so a killed run resumes without replaying what was played.

use crate::course::compete::{play_game, random_board, Contestant};
use crate::rules::board::Board;
use anyhow::{anyhow, bail, Context, Result};
use rand::SeedableRng;
use search_core::SmallRng;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

/// The header of `games.csv` (and of the journal).
pub const GAMES_HEADER: &str =
    "player,opponent,round,player_first,rows,cols,obstacle_row,obstacle_col,result,reason,plies";

/// The header of `standings.csv`.
pub const STANDINGS_HEADER: &str = "player,games,wins,draws,losses,crashes,timeouts,score";

/// One scheduled game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fixture {
    /// The player's name (as given, or `folder/file` for a folder's libraries).
    pub player: String,
    /// The opponent's name.
    pub opponent: String,
    /// Round, from 0.
    pub round: usize,
    /// Whether the player moves first.
    pub player_first: bool,
    /// The round's board (the same for every pairing in a round).
    pub board: Board,
    /// The seed of the game's random choices.
    pub seed: u64,
}

impl Fixture {
    /// What identifies the game in the journal and the CSV files.
    pub fn key(&self) -> String {
        format!(
            "{},{},{},{}",
            self.player,
            self.opponent,
            self.round,
            u8::from(self.player_first)
        )
    }
}

/// The whole schedule: for each player, each opponent and each round, the game with the player
/// first, then with the opponent first. Boards come from the seed and the round alone.
pub fn schedule(
    players: &[String],
    opponents: &[String],
    rounds: usize,
    seed: u64,
) -> Vec<Fixture> {
    let mut rng = SmallRng::seed_from_u64(seed);
    let boards: Vec<Board> = (0..rounds).map(|_| random_board(&mut rng, None)).collect();
    let mut out = Vec::new();
    for (pi, p) in players.iter().enumerate() {
        for (oi, o) in opponents.iter().enumerate() {
            for (round, board) in boards.iter().enumerate() {
                for player_first in [true, false] {
                    let game = ((pi * opponents.len() + oi) * rounds + round) * 2
                        + usize::from(!player_first);
                    out.push(Fixture {
                        player: p.clone(),
                        opponent: o.clone(),
                        round,
                        player_first,
                        board: board.clone(),
                        seed: seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
                    });
                }
            }
        }
    }
    out
}

/// What a run folder holds (its `tournament.txt`): the arguments the schedule comes from, the
/// shard, and how many games the shard has, so that a resumed run is the same schedule and
/// `merge` can tell that its shards are every slice of one schedule, each finished.
///
/// ```
/// let text = connect4::tournament::describe(&["greedy".into()], &["random".into()], 2, 7,
///     "2/3".parse().unwrap(), 2);
/// assert_eq!(text, "players [\"greedy\"]\nopponents [\"random\"]\nrounds 2\nseed 7\nshard 2/3\ngames 2\n");
/// ```
pub fn describe(
    players: &[String],
    opponents: &[String],
    rounds: u64,
    seed: u64,
    shard: batch::Shard,
    games: usize,
) -> String {
    format!(
        "players {players:?}\nopponents {opponents:?}\nrounds {rounds}\nseed {seed}\nshard {shard}\ngames {games}\n"
    )
}

/// A run folder's schedule (its description without the shard and game-count lines), shard
/// and game count, from its `tournament.txt`.
fn read_description(dir: &Path) -> Result<(String, batch::Shard, usize)> {
    let path = dir.join("tournament.txt");
    let text = batch::read_text(&path)
        .with_context(|| format!("{}: not a tournament run folder", dir.display()))?;
    let (mut schedule, mut shard, mut games) = (String::new(), None, None);
    for line in text.lines() {
        if let Some(s) = line.strip_prefix("shard ") {
            shard = s.parse::<batch::Shard>().ok();
        } else if let Some(g) = line.strip_prefix("games ") {
            games = g.parse::<usize>().ok();
        } else {
            schedule.push_str(line);
            schedule.push('\n');
        }
    }
    match (shard, games) {
        (Some(shard), Some(games)) => Ok((schedule, shard, games)),
        _ => bail!(
            "{}: no `shard I/N` and `games N` lines: written by another version; run the shard again",
            path.display()
        ),
    }
}

/// The game's result for the player (A in the match tool's result codes) and why it ended.
fn outcome(code: i32) -> (&'static str, &'static str) {
    match code {
        0 => ("draw", "normal"),
        1 => ("win", "normal"),
        2 => ("loss", "normal"),
        3 | -1 | -3 => ("loss", "crash"),
        4 => ("loss", "illegal"),
        5 | -2 | -4 => ("win", "crash"),
        6 => ("win", "illegal"),
        7 => ("loss", "timeout"),
        8 => ("win", "timeout"),
        _ => ("draw", "normal"),
    }
}

/// Plays one fixture (`contestants` maps names to players) and returns its CSV row.
pub fn play(fixture: &Fixture, contestants: &BTreeMap<String, Contestant>) -> String {
    let record = play_game(
        &contestants[&fixture.player],
        &contestants[&fixture.opponent],
        fixture.board.clone(),
        fixture.player_first,
        fixture.seed,
    );
    let (result, reason) = outcome(record.code);
    let b = &fixture.board;
    format!(
        "{},{},{},{},{},{result},{reason},{}",
        fixture.key(),
        b.m,
        b.n,
        b.no_x,
        b.no_y,
        record.moves.len()
    )
}

/// The games already in a run folder's journal, by key, each with its line number.
pub fn read_journal(dir: &Path) -> Result<BTreeMap<String, (usize, String)>> {
    let path = dir.join("journal.csv");
    let mut done = BTreeMap::new();
    if !path.exists() {
        return Ok(done);
    }
    let text = batch::read_text(&path)?;
    for (n, line) in text.lines().enumerate().skip(1) {
        // A line cut short by a kill has fewer fields: it is played again.
        if line.split(',').count() == GAMES_HEADER.split(',').count() {
            let key = line.splitn(5, ',').take(4).collect::<Vec<_>>().join(",");
            done.insert(key, (n + 1, line.to_string()));
        }
    }
    Ok(done)
}

/// Whether a journalled row can be the result of `fixture`: the fixture's board, a result and
/// a reason that games end with, and no more plies than the board has cells.
fn check_row(fixture: &Fixture, row: &str) -> Result<(), String> {
    let f: Vec<&str> = row.split(',').collect();
    let b = &fixture.board;
    let board = format!("{},{},{},{}", b.m, b.n, b.no_x, b.no_y);
    if f[4..8].join(",") != board {
        return Err(format!(
            "board {} where the schedule has {board} (a journal of another seed?)",
            f[4..8].join(",")
        ));
    }
    if !matches!(f[8], "win" | "draw" | "loss") {
        return Err(format!("`{}` is not a result", f[8]));
    }
    if !matches!(f[9], "normal" | "crash" | "timeout" | "illegal") {
        return Err(format!("`{}` is not a reason", f[9]));
    }
    match f[10].parse::<usize>() {
        Ok(plies) if plies < b.m * b.n => Ok(()),
        _ => Err(format!("`{}` plies on a {}x{} board", f[10], b.m, b.n)),
    }
}

/// Sorts rows as every run and merge writes them: by player, opponent, round, first mover.
pub fn sort_rows(rows: &mut [String]) {
    rows.sort_by(|a, b| {
        let fields = |r: &str| {
            r.splitn(5, ',')
                .take(4)
                .map(str::to_string)
                .collect::<Vec<_>>()
        };
        let (fa, fb) = (fields(a), fields(b));
        batch::natural_cmp(&fa[0], &fb[0])
            .then_with(|| batch::natural_cmp(&fa[1], &fb[1]))
            .then_with(|| batch::natural_cmp(&fa[2], &fb[2]))
            .then_with(|| fb[3].cmp(&fa[3]))
    });
}

/// The standings from game rows: per player games, wins, draws, losses, its own crashes
/// (crashes and illegal moves) and timeouts, and the course's points (2 a win, 1 a draw).
pub fn standings(rows: &[String]) -> String {
    #[derive(Default)]
    struct Line {
        games: u64,
        wins: u64,
        draws: u64,
        losses: u64,
        crashes: u64,
        timeouts: u64,
    }
    let mut table: Vec<(String, Line)> = Vec::new();
    for row in rows {
        let f: Vec<&str> = row.split(',').collect();
        let player = f[0].to_string();
        if table.last().is_none_or(|t| t.0 != player) {
            table.push((player, Line::default()));
        }
        let line = &mut table.last_mut().expect("just pushed").1;
        line.games += 1;
        match f[8] {
            "win" => line.wins += 1,
            "draw" => line.draws += 1,
            _ => line.losses += 1,
        }
        if f[8] == "loss" {
            match f[9] {
                "crash" | "illegal" => line.crashes += 1,
                "timeout" => line.timeouts += 1,
                _ => {}
            }
        }
    }
    let mut out = format!("{STANDINGS_HEADER}\n");
    for (player, l) in &table {
        let _ = writeln!(
            out,
            "{player},{},{},{},{},{},{},{}",
            l.games,
            l.wins,
            l.draws,
            l.losses,
            l.crashes,
            l.timeouts,
            2 * l.wins + l.draws
        );
    }
    out
}

/// Writes `games.csv` (sorted) and `standings.csv` into `dir`.
pub fn write_results(dir: &Path, mut rows: Vec<String>) -> Result<()> {
    sort_rows(&mut rows);
    let mut games = format!("{GAMES_HEADER}\n");
    for r in &rows {
        games.push_str(r);
        games.push('\n');
    }
    batch::write_atomic(&dir.join("games.csv"), games.as_bytes())?;
    batch::write_atomic(&dir.join("standings.csv"), standings(&rows).as_bytes())?;
    Ok(())
}

/// Plays `fixtures` with `jobs` games at once, skipping those already in the journal, appending
/// each finished game to it; `on_game` is called after each game. Returns every row of the
/// fixtures (journalled and new).
pub fn run(
    dir: &Path,
    fixtures: &[Fixture],
    contestants: &BTreeMap<String, Contestant>,
    jobs: usize,
    on_game: impl Fn() + Sync,
) -> Result<Vec<String>> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let done = read_journal(dir)?;
    let journal_path = dir.join("journal.csv");
    for f in fixtures {
        if let Some((line, row)) = done.get(&f.key()) {
            check_row(f, row)
                .map_err(|e| anyhow!("{}:{line}: game {}: {e}", journal_path.display(), f.key()))?;
        }
    }
    let mut journal = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&journal_path)
        .with_context(|| format!("{}: cannot write", journal_path.display()))?;
    if done.is_empty() {
        writeln!(journal, "{GAMES_HEADER}")?;
    }
    let journal = std::sync::Mutex::new(journal);
    let todo: Vec<&Fixture> = fixtures
        .iter()
        .filter(|f| !done.contains_key(&f.key()))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let new_rows = std::sync::Mutex::new(Vec::new());
    let failed = std::sync::Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                let Some(fixture) = todo.get(i) else { break };
                let row = play(fixture, contestants);
                let mut j = journal.lock().unwrap_or_else(|e| e.into_inner());
                if let Err(e) = writeln!(j, "{row}").and_then(|_| j.flush()) {
                    *failed.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    break;
                }
                drop(j);
                new_rows.lock().unwrap_or_else(|e| e.into_inner()).push(row);
                on_game();
            });
        }
    });
    if let Some(e) = failed.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e).with_context(|| format!("{}: cannot write", journal_path.display()));
    }
    let keys: std::collections::BTreeSet<String> = fixtures.iter().map(Fixture::key).collect();
    let mut rows: Vec<String> = done
        .into_iter()
        .filter(|(k, _)| keys.contains(k))
        .map(|(_, (_, r))| r)
        .collect();
    rows.extend(new_rows.into_inner().unwrap_or_else(|e| e.into_inner()));
    Ok(rows)
}

/// Merges the `games.csv` of several run folders (shards) into `out`: the rows sorted as one
/// unsharded run writes them, and the standings. The folders must be every shard of one
/// schedule, each finished: a missing, repeated or unfinished shard, a shard of another
/// schedule, or a game found twice is an error that names it, and nothing is written.
pub fn merge(dirs: &[PathBuf], out: &Path) -> Result<usize> {
    if let Some(d) = dirs.iter().find(|d| batch::same_file(d, out)) {
        bail!("--out {}: that is one of the shards", d.display());
    }
    let mut first: Option<(&PathBuf, String, batch::Shard)> = None;
    let mut cover = batch::ShardCover::default();
    let mut rows: BTreeMap<String, String> = BTreeMap::new();
    for dir in dirs {
        let (schedule, shard, games) = read_description(dir)?;
        if let Some((first_dir, first_schedule, first_shard)) = &first {
            if schedule != *first_schedule || shard.count() != first_shard.count() {
                bail!(
                    "{}: shard {shard} of another schedule than {} (shard {first_shard}): \
                     compare their tournament.txt",
                    dir.display(),
                    first_dir.display()
                );
            }
        }
        cover.add(shard, dir).map_err(anyhow::Error::msg)?;
        let path = dir.join("games.csv");
        if !path.exists() {
            bail!(
                "{}: shard {shard} is unfinished (no games.csv): run it again with --resume",
                dir.display()
            );
        }
        let text = batch::read_text(&path)?;
        let mut lines = text.lines();
        if lines.next() != Some(GAMES_HEADER) {
            bail!("{}:1: expected the header `{GAMES_HEADER}`", path.display());
        }
        let mut count = 0;
        for (n, line) in lines.enumerate() {
            if line.split(',').count() != GAMES_HEADER.split(',').count() {
                bail!("{}:{}: not a game row", path.display(), n + 2);
            }
            let key = line.splitn(5, ',').take(4).collect::<Vec<_>>().join(",");
            if rows.insert(key.clone(), line.to_string()).is_some() {
                bail!("{}:{}: game {key} is in two shards", path.display(), n + 2);
            }
            count += 1;
        }
        if count != games {
            bail!(
                "{}: shard {shard} is unfinished: {count} of its {games} games",
                path.display()
            );
        }
        first.get_or_insert((dir, schedule, shard));
    }
    cover
        .check_complete("folders", "schedule")
        .map_err(anyhow::Error::msg)?;
    let n = rows.len();
    write_results(out, rows.into_values().collect())?;
    Ok(n)
}

/// Player names and contestants from arguments: a folder stands for its `.so`/`.dylib`/`.dll`
/// files (natural order), anything else for itself (a library file or a built-in).
pub fn expand(args: &[String]) -> Result<Vec<(String, Contestant)>> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if p.is_dir() {
            let libs = batch::collect_inputs(p, |f| {
                f.extension()
                    .is_some_and(|e| e == "so" || e == "dylib" || e == "dll")
            })?;
            for lib in libs {
                out.push((lib.display().to_string(), Contestant::Library(lib)));
            }
        } else {
            out.push((a.clone(), Contestant::parse(a).map_err(|e| anyhow!(e))?));
        }
    }
    Ok(out)
}
