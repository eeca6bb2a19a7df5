//! Game archives read as one collection: any mix of WTHOR `.wtb` files (with the players' and
//! tournaments' names of a `.jou` and a `.trn` beside them), Logistello's `.gam` lines (plain or
//! gzip-compressed) and GGF files, named one by one or as folders (searched recursively, in
//! natural order). Every game is replayed; a record that is not a legal game is named (file,
//! game, ply, reason) and left out, and the rest of its file is still read.

use crate::formats::ggf::GgfGame;
use crate::formats::record::{GameRecord, RecordError};
use crate::formats::{logistello, wthor};
use crate::rules::position::{Move, Position};
use anyhow::{anyhow, Context, Result};
use std::path::{Path, PathBuf};

/// The kinds of file read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// WTHOR `.wtb`.
    Wthor,
    /// Logistello's `.gam` or `.gam.gz`.
    Logistello,
    /// GGF games, one or more a file.
    Ggf,
}

/// The kind of a game file, by its name (`None` for any other file).
pub fn kind(path: &Path) -> Option<Kind> {
    let name = path.file_name()?.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".wtb") {
        Some(Kind::Wthor)
    } else if name.ends_with(".gam") || name.ends_with(".gam.gz") {
        Some(Kind::Logistello)
    } else if name.ends_with(".ggf") {
        Some(Kind::Ggf)
    } else {
        None
    }
}

/// The game files named by `paths`: each file as it is (an error when its kind is unknown),
/// each folder's game files, recursively, in natural order.
pub fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let what = "game files (.wtb, .gam, .gam.gz, .ggf)";
    batch::named_files(paths, &|p| kind(p).is_some(), what, true)
}

/// A game read and replayed.
#[derive(Debug, Clone)]
pub struct ArchiveGame {
    /// Index of its file in [`Archive::files`].
    pub file: usize,
    /// Its number in the file, from 1.
    pub index: usize,
    /// The record, its result as replayed (empties to the winner when finished).
    pub record: GameRecord,
    /// Whether it was played to the end.
    pub finished: bool,
}

/// Every game of a set of files.
#[derive(Debug, Default)]
pub struct Archive {
    /// The files read.
    pub files: Vec<PathBuf>,
    /// The legal games, in file order.
    pub games: Vec<ArchiveGame>,
    /// The records left out, with the reason.
    pub rejected: Vec<RecordError>,
}

impl Archive {
    /// The file a game comes from.
    pub fn file_of(&self, game: &ArchiveGame) -> &Path {
        &self.files[game.file]
    }
}

/// Reads every game of `files` (see [`game_files`]); `progress` is told the bytes of each file
/// as it is done. An unreadable file is an error; a bad record is kept in
/// [`Archive::rejected`].
pub fn read(files: &[PathBuf], progress: &dyn Fn(u64)) -> Result<Archive> {
    let mut archive = Archive {
        files: files.to_vec(),
        ..Archive::default()
    };
    for (f, path) in files.iter().enumerate() {
        let name = path.display().to_string();
        let bytes = read_capped(path)?;
        let size = bytes.len() as u64;
        // Each record with its number in the file (a line number in text files).
        let records: Vec<(usize, Result<GameRecord, Fault>)> =
            match kind(path).ok_or_else(|| anyhow!("{name}: not a game file"))? {
                Kind::Wthor => match wthor::read_games(&bytes) {
                    Ok((_, games)) => {
                        let (players, tournaments) = names_beside(path);
                        games
                            .into_iter()
                            .enumerate()
                            .map(|(i, g)| match g {
                                Ok(mut g) => {
                                    wthor::name_games(&mut g, &players, &tournaments);
                                    (i + 1, Ok(g))
                                }
                                Err((index, ply, why)) => (index, Err((ply, why))),
                            })
                            .collect()
                    }
                    Err(why) => vec![(0, Err((None, why)))],
                },
                Kind::Logistello => text_of(path, bytes)?
                    .lines()
                    .enumerate()
                    .filter(|(_, l)| !l.trim().is_empty())
                    .map(|(i, l)| (i + 1, logistello::read_line(l)))
                    .collect(),
                Kind::Ggf => ggf_games(&text_of(path, bytes)?),
            };
        for (index, r) in records {
            let checked = r.and_then(|mut record| {
                let replay = record.replay()?;
                record.black_diff = replay.black_diff;
                Ok((record, replay.finished))
            });
            match checked {
                Ok((record, finished)) => archive.games.push(ArchiveGame {
                    file: f,
                    index,
                    record,
                    finished,
                }),
                Err((ply, reason)) => archive.rejected.push(RecordError {
                    file: name.clone(),
                    index,
                    ply,
                    reason,
                }),
            }
        }
        progress(size);
    }
    Ok(archive)
}

/// A file's bytes, gunzipped when its name ends in `.gz`, capped like every input.
fn read_capped(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let cap = batch::MAX_FILE_BYTES;
    let mut bytes = Vec::new();
    let gz = path.to_string_lossy().to_ascii_lowercase().ends_with(".gz");
    let read = if gz {
        flate2::read::MultiGzDecoder::new(file)
            .take(cap + 1)
            .read_to_end(&mut bytes)
    } else {
        file.take(cap + 1).read_to_end(&mut bytes)
    };
    read.with_context(|| format!("{}: cannot read", path.display()))?;
    if bytes.len() as u64 > cap {
        return Err(anyhow!("{}: larger than {} MiB", path.display(), cap >> 20));
    }
    Ok(bytes)
}

fn text_of(path: &Path, bytes: Vec<u8>) -> Result<String> {
    String::from_utf8(bytes)
        .map(batch::normalize_text)
        .map_err(|_| anyhow!("{}: not UTF-8 text", path.display()))
}

/// The players' and tournaments' names of the `.jou` and `.trn` files in `wtb`'s folder
/// (`WTH.JOU` and `WTH.TRN` before any other), empty where there is none.
fn names_beside(wtb: &Path) -> (Vec<String>, Vec<String>) {
    let dir = wtb.parent().unwrap_or(Path::new("."));
    let find = |ext: &str, width: usize| -> Vec<String> {
        let mut candidates: Vec<PathBuf> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.extension()
                    .is_some_and(|e| e.to_string_lossy().eq_ignore_ascii_case(ext))
            })
            .collect();
        candidates.sort_by_key(|p| {
            let stem = p
                .file_stem()
                .map(|s| s.to_string_lossy().to_ascii_uppercase());
            (stem.as_deref() != Some("WTH"), p.clone())
        });
        candidates
            .iter()
            .find_map(|p| {
                std::fs::read(p)
                    .ok()
                    .and_then(|b| wthor::read_names(&b, width).ok())
            })
            .unwrap_or_default()
    };
    (
        find("jou", wthor::PLAYER_BYTES),
        find("trn", wthor::TOURNAMENT_BYTES),
    )
}

/// What is wrong with a record: the ply at fault, if a move is, and why.
type Fault = (Option<usize>, String);

/// The games of a GGF file (one or more `(;…;)`), as records from the standard start, each
/// with its number in the file.
fn ggf_games(text: &str) -> Vec<(usize, Result<GameRecord, Fault>)> {
    let starts: Vec<usize> = text.match_indices("(;").map(|(i, _)| i).collect();
    starts
        .iter()
        .enumerate()
        .map(|(n, &at)| {
            (
                n + 1,
                ggf_game(&text[at..starts.get(n + 1).copied().unwrap_or(text.len())]),
            )
        })
        .collect()
}

fn ggf_game(text: &str) -> Result<GameRecord, Fault> {
    let game: GgfGame = text
        .trim()
        .parse()
        .map_err(|e: crate::formats::ggf::GgfError| (None, e.to_string()))?;
    if game.start != Position::default() {
        return Err((
            None,
            "starts from another position than the standard one".into(),
        ));
    }
    let tag = |k: &str| {
        game.tags
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    };
    let end = game.position();
    let black_diff = tag("RE")
        .and_then(|r| r.trim().parse::<f64>().ok())
        .map(|r| r.round() as i32)
        .unwrap_or_else(|| crate::formats::record::black_final_diff(&end));
    Ok(GameRecord {
        squares: game
            .moves
            .iter()
            .filter_map(|m| match m.mv {
                Move::Square(s) => Some(s),
                Move::Pass => None,
            })
            .collect(),
        movers: Some(
            game.moves
                .iter()
                .filter(|m| m.mv != Move::Pass)
                .map(|m| m.color)
                .collect(),
        ),
        black_diff,
        black: tag("PB"),
        white: tag("PW"),
        tournament: tag("PC"),
        year: tag("DT").and_then(|d| d.get(..4).and_then(|y| y.parse().ok())),
        ..GameRecord::default()
    })
}
