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
    /// What identifies the game in the journal and the CSV files: its first four fields.
    pub fn key(&self) -> String {
        row_key(&[
            self.player.clone(),
            self.opponent.clone(),
            self.round.to_string(),
            u8::from(self.player_first).to_string(),
        ])
    }
}

/// A game's row of `games.csv`: its fields in the order of [`GAMES_HEADER`].
pub type Row = Vec<String>;

/// Fields of [`GAMES_HEADER`].
const FIELDS: usize = 11;

/// The key of a row (its player, opponent, round and first mover), as [`Fixture::key`].
fn row_key(fields: &[String]) -> String {
    let line = batch::csv_line(&fields[..4.min(fields.len())]);
    line.trim_end_matches('\n').to_string()
}

/// The rows of a `games.csv` or journal body (the header left out), each with its line; a line
/// left without its line break by a kill is dropped when `cut_ok`.
fn read_rows(text: &str, path: &Path, cut_ok: bool) -> Result<Vec<(usize, Row)>> {
    let body = match text.rfind('\n') {
        Some(end) if cut_ok => &text[..=end],
        _ => text,
    };
    let records = batch::csv_records(body).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    Ok(records.into_iter().skip(1).collect())
}

/// Whether `row` can be a finished game: a board the course plays (9 to 12 rows and columns,
/// the obstacle on it), a result and a reason games end with, and a number of plies those
/// allow (a win by four in a row needs seven, a draw fills the board, no game has more plies
/// than free cells). The same check for a journal resumed and for shards merged.
pub fn check_row(row: &[String]) -> Result<(), String> {
    if row.len() != FIELDS {
        return Err(format!(
            "{} fields, not the {FIELDS} of `{GAMES_HEADER}`",
            row.len()
        ));
    }
    let number = |i: usize| row[i].parse::<usize>().ok();
    let (Some(m), Some(n), Some(x), Some(y)) = (number(4), number(5), number(6), number(7)) else {
        return Err(format!(
            "board `{}` is not four numbers",
            row[4..8].join(",")
        ));
    };
    if !(9..=12).contains(&m) || !(9..=12).contains(&n) || x >= m || y >= n {
        return Err(format!(
            "board {m}x{n} with the obstacle at ({x},{y}) is not the course's"
        ));
    }
    let (result, reason) = (row[8].as_str(), row[9].as_str());
    if !matches!(result, "win" | "draw" | "loss") {
        return Err(format!("`{result}` is not a result"));
    }
    if !matches!(reason, "normal" | "crash" | "timeout" | "illegal") {
        return Err(format!("`{reason}` is not a reason"));
    }
    let cells = m * n - 1;
    let plies = number(10).filter(|&p| p <= cells).ok_or_else(|| {
        format!(
            "`{}` plies on a {m}x{n} board of {cells} free cells",
            row[10]
        )
    })?;
    match (result, reason) {
        ("draw", "normal") if plies != cells => Err(format!(
            "a draw after {plies} plies: a game is drawn when all {cells} cells are filled"
        )),
        ("win" | "loss", "normal") if plies < 7 => Err(format!(
            "a {result} after {plies} plies: four in a row needs seven"
        )),
        ("draw", _) => Err(format!("a draw by {reason}")),
        _ => Ok(()),
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
    if !path.exists() {
        bail!(
            "{}: no tournament.txt: not the folder of a `connect4 tournament` run",
            dir.display()
        );
    }
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

/// Plays one fixture (`contestants` maps names to players) and returns its row.
pub fn play(fixture: &Fixture, contestants: &BTreeMap<String, Contestant>) -> Row {
    let record = play_game(
        &contestants[&fixture.player],
        &contestants[&fixture.opponent],
        fixture.board.clone(),
        fixture.player_first,
        fixture.seed,
    );
    let (result, reason) = outcome(record.code);
    let b = &fixture.board;
    vec![
        fixture.player.clone(),
        fixture.opponent.clone(),
        fixture.round.to_string(),
        u8::from(fixture.player_first).to_string(),
        b.m.to_string(),
        b.n.to_string(),
        b.no_x.to_string(),
        b.no_y.to_string(),
        result.to_string(),
        reason.to_string(),
        record.moves.len().to_string(),
    ]
}

/// The games already in a run folder's journal, by key, each with its line number.
pub fn read_journal(dir: &Path) -> Result<BTreeMap<String, (usize, Row)>> {
    let path = dir.join("journal.csv");
    let mut done = BTreeMap::new();
    match std::fs::symlink_metadata(&path) {
        Err(_) => return Ok(done),
        Ok(meta) if !meta.is_file() => bail!(
            "{}: the journal is not a regular file (a FIFO, a device or a folder): refusing \
             to read or replace it",
            path.display()
        ),
        Ok(_) => {}
    }
    let text = batch::read_text(&path)?;
    // A line cut short by a kill has no line break: it is played again.
    for (line, row) in read_rows(&text, &path, true)? {
        done.insert(row_key(&row), (line, row));
    }
    Ok(done)
}

/// Whether a journalled row can be the result of `fixture`: [`check_row`], on the fixture's
/// board.
fn check_fixture_row(fixture: &Fixture, row: &[String]) -> Result<(), String> {
    check_row(row)?;
    let b = &fixture.board;
    let board = [b.m, b.n, b.no_x, b.no_y].map(|v| v.to_string());
    if row[4..8] != board {
        return Err(format!(
            "board {} where the schedule has {} (a journal of another seed?)",
            row[4..8].join(","),
            board.join(",")
        ));
    }
    Ok(())
}

/// Sorts rows as every run and merge writes them: by player, opponent, round, first mover.
pub fn sort_rows(rows: &mut [Row]) {
    rows.sort_by(|fa, fb| {
        batch::natural_cmp(&fa[0], &fb[0])
            .then_with(|| batch::natural_cmp(&fa[1], &fb[1]))
            .then_with(|| batch::natural_cmp(&fa[2], &fb[2]))
            .then_with(|| fb[3].cmp(&fa[3]))
    });
}

/// The standings from game rows: per player games, wins, draws, losses, its own crashes
/// (crashes and illegal moves) and timeouts, and the course's points (2 a win, 1 a draw).
pub fn standings(rows: &[Row]) -> String {
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
    for f in rows {
        let player = f[0].clone();
        if table.last().is_none_or(|t| t.0 != player) {
            table.push((player, Line::default()));
        }
        let line = &mut table.last_mut().expect("just pushed").1;
        line.games += 1;
        match f[8].as_str() {
            "win" => line.wins += 1,
            "draw" => line.draws += 1,
            _ => line.losses += 1,
        }
        if f[8] == "loss" {
            match f[9].as_str() {
                "crash" | "illegal" => line.crashes += 1,
                "timeout" => line.timeouts += 1,
                _ => {}
            }
        }
    }
    let mut out = format!("{STANDINGS_HEADER}\n");
    for (player, l) in &table {
        let numbers = [
            l.games,
            l.wins,
            l.draws,
            l.losses,
            l.crashes,
            l.timeouts,
            2 * l.wins + l.draws,
        ];
        let mut fields = vec![player.clone()];
        fields.extend(numbers.iter().map(u64::to_string));
        out.push_str(&batch::csv_line(&fields));
    }
    out
}

/// Writes `games.csv` (sorted) and `standings.csv` into `dir`.
pub fn write_results(dir: &Path, mut rows: Vec<Row>) -> Result<()> {
    sort_rows(&mut rows);
    let mut games = format!("{GAMES_HEADER}\n");
    for r in &rows {
        games.push_str(&batch::csv_line(r));
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
) -> Result<Vec<Row>> {
    std::fs::create_dir_all(dir).with_context(|| format!("{}: cannot create", dir.display()))?;
    let done = read_journal(dir)?;
    let journal_path = dir.join("journal.csv");
    for f in fixtures {
        if let Some((line, row)) = done.get(&f.key()) {
            check_fixture_row(f, row)
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
                if let Err(e) = j
                    .write_all(batch::csv_line(&row).as_bytes())
                    .and_then(|_| j.flush())
                {
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
    let mut rows: Vec<Row> = done
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
    check_merge_folder(out)?;
    let mut first: Option<(&PathBuf, String, batch::Shard)> = None;
    let mut cover = batch::ShardCover::default();
    let mut rows: BTreeMap<String, Row> = BTreeMap::new();
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
        if text.lines().next() != Some(GAMES_HEADER) {
            bail!("{}:1: expected the header `{GAMES_HEADER}`", path.display());
        }
        let mut count = 0;
        for (line, row) in read_rows(&text, &path, false)? {
            check_row(&row).map_err(|e| anyhow!("{}:{line}: {e}", path.display()))?;
            let key = row_key(&row);
            if rows.insert(key.clone(), row).is_some() {
                bail!("{}:{line}: game {key} is in two shards", path.display());
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
    std::fs::create_dir_all(out).with_context(|| format!("{}: cannot create", out.display()))?;
    write_results(out, rows.into_values().collect())?;
    batch::write_atomic(
        &out.join(MERGED),
        format!("merged from {} folders\n", dirs.len()).as_bytes(),
    )?;
    Ok(n)
}

/// The file that marks a folder as a merge's output (a later merge may write over it).
const MERGED: &str = "merged.txt";

/// Refuses a merge's `--out` that is a run folder (its `tournament.txt` or journal: the merge
/// would replace its results and leave them at odds with its schedule), or that holds results
/// an earlier merge did not write. Other entries (the shards' own folders, say) may stay.
fn check_merge_folder(out: &Path) -> Result<()> {
    let Ok(entries) = std::fs::read_dir(out) else {
        if out.exists() {
            bail!("--out {}: not a folder", out.display());
        }
        return Ok(());
    };
    let names: Vec<String> = entries
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let merged_before = names.iter().any(|n| n == MERGED);
    if names
        .iter()
        .any(|n| n == "tournament.txt" || n == "journal.csv")
    {
        bail!(
            "--out {}: a tournament run is there; merge into another folder",
            out.display()
        );
    }
    if !merged_before
        && names
            .iter()
            .any(|n| n == "games.csv" || n == "standings.csv")
    {
        bail!(
            "--out {}: results that no merge wrote are there; merge into another folder",
            out.display()
        );
    }
    Ok(())
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
