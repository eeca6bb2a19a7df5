//! The one guard every file a tool writes goes through before any long work: the same rules for
//! reports, games, weights and models in every tool. A path is refused when it is a folder or
//! something other than a regular file (a device node, a FIFO, a socket: replacing one would
//! break what uses it), when it is one of the command's own inputs or lies inside an input
//! folder (a report written over a student's answer, weights over the weights they start
//! from), when it would create a folder at the root of the filesystem (`-o /out` typed for
//! `-o ./out`), or when its folder cannot be written. An existing regular file is replaced, and
//! the tool says so on stderr.

use anyhow::{bail, Result};
use std::path::Path;

/// Checks that `path` may be written by a command that reads `inputs` (files or folders); see
/// the module header for the rules. Creates the folder if needed and leaves nothing behind.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("guard-{}", std::process::id()));
/// std::fs::create_dir_all(dir.join("class")).unwrap();
/// std::fs::write(dir.join("in.txt"), "1").unwrap();
/// assert!(batch::check_output(&dir.join("out.txt"), &[dir.join("in.txt")]).is_ok());
/// assert!(batch::check_output(&dir.join("in.txt"), &[dir.join("in.txt")]).is_err());
/// assert!(batch::check_output(&dir.join("class/r.csv"), &[dir.join("class")]).is_err());
/// assert!(batch::check_output(std::path::Path::new("/dev/null"), &[] as &[&str]).is_err());
/// assert!(batch::check_output(std::path::Path::new("/no-such-top/r.csv"), &[] as &[&str]).is_err());
/// std::fs::remove_dir_all(dir).unwrap();
/// ```
pub fn check_output<P: AsRef<Path>>(path: &Path, inputs: &[P]) -> Result<()> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        let meta = if meta.file_type().is_symlink() {
            std::fs::metadata(path).unwrap_or(meta)
        } else {
            meta
        };
        if meta.is_dir() {
            bail!("{}: is a folder, not a file", path.display());
        }
        if !meta.is_file() {
            bail!(
                "{}: not a regular file (a device, a FIFO or a socket); refusing to replace it",
                path.display()
            );
        }
    }
    let resolved = resolve(path);
    for input in inputs {
        let input = input.as_ref();
        if crate::files::same_file(input, path) {
            bail!(
                "{}: that is an input of this command; write elsewhere",
                path.display()
            );
        }
        if let (Ok(folder), Some(out)) = (input.canonicalize(), &resolved) {
            if folder.is_dir() && out.starts_with(&folder) {
                bail!(
                    "{}: inside the input folder {}, where it would overwrite or add to what \
                     is read; write elsewhere",
                    path.display(),
                    input.display()
                );
            }
        }
    }
    if let Some(top) = crate::files::new_root_folder(path) {
        bail!(
            "{}: would create the folder {} at the root of the filesystem; give a path inside \
             an existing folder (./{} for one here)",
            path.display(),
            top.display(),
            path.strip_prefix("/").unwrap_or(path).display()
        );
    }
    crate::files::check_writable(path)?;
    if path.is_file() {
        eprintln!("replacing {}", path.display());
    }
    Ok(())
}

/// `path` with its folder resolved (links and `..`), its own name kept; `None` when the folder
/// does not exist yet.
fn resolve(path: &Path) -> Option<std::path::PathBuf> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    Some(folder.canonicalize().ok()?.join(path.file_name()?))
}
