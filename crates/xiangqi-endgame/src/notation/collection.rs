//! Game collections: every `.pgn` file named, or found in folders (recursively, in natural
//! order), decoded and read, each game kept with the file it comes from and each bad game named
//! with its file, number, line, move and reason.

use crate::notation::pgn::{decode, read_games, Encoding, Game, GameError};
use anyhow::{anyhow, Context, Result};
use std::path::{Path, PathBuf};

/// The PGN files of `paths`: each file as it is, each folder's `.pgn` files recursively, in
/// natural order.
pub fn pgn_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>> {
    let pgn = |e: &Path| {
        e.extension()
            .is_some_and(|x| x.to_string_lossy().eq_ignore_ascii_case("pgn"))
    };
    batch::named_files(paths, &pgn, ".pgn files", false)
}

/// The games of a set of files.
#[derive(Debug, Default)]
pub struct Collection {
    /// The files read, with the encoding each was read in.
    pub files: Vec<(PathBuf, Encoding)>,
    /// The games, each with the index of its file in `files`.
    pub games: Vec<(usize, Game)>,
    /// The games that could not be read, with their file's index.
    pub rejected: Vec<(usize, GameError)>,
}

impl Collection {
    /// A rejected game's message, its file named.
    pub fn describe(&self, (file, e): &(usize, GameError)) -> String {
        format!("{}: {e}", self.files[*file].0.display())
    }
}

/// Reads every game of `files` in `encoding` (found per file when `None`); `progress` is told
/// each file's size in bytes once it is read. An unreadable file is an error.
pub fn read(
    files: &[PathBuf],
    encoding: Option<Encoding>,
    progress: &dyn Fn(u64),
) -> Result<Collection> {
    let mut c = Collection::default();
    for path in files {
        let bytes = read_capped(path)?;
        let (text, used) = decode(&bytes, encoding);
        let text = batch::normalize_text(text);
        let index = c.files.len();
        c.files.push((path.clone(), used));
        for r in read_games(&text) {
            match r {
                Ok(g) => c.games.push((index, g)),
                Err(e) => c.rejected.push((index, e)),
            }
        }
        progress(bytes.len() as u64);
    }
    Ok(c)
}

fn read_capped(path: &Path) -> Result<Vec<u8>> {
    use std::io::Read;
    let file =
        std::fs::File::open(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut bytes = Vec::new();
    file.take(batch::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if bytes.len() as u64 > batch::MAX_FILE_BYTES {
        return Err(anyhow!(
            "{}: larger than {} MiB",
            path.display(),
            batch::MAX_FILE_BYTES >> 20
        ));
    }
    Ok(bytes)
}
