//! Finding input files, naming output folders, reading and writing files safely.

use anyhow::{bail, Context, Result};
use std::cmp::Ordering;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Compares strings in natural order: runs of digits compare by value, so `input_2` sorts before
/// `input_10`.
///
/// ```
/// use batch::natural_cmp;
/// let mut v = vec!["input_10.txt", "input_2.txt", "input_1.txt"];
/// v.sort_by(|a, b| natural_cmp(a, b));
/// assert_eq!(v, ["input_1.txt", "input_2.txt", "input_10.txt"]);
/// ```
pub fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, _) => return Ordering::Less,
            (_, None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let ord = na
                    .len()
                    .cmp(&nb.len())
                    .then_with(|| na.cmp(nb))
                    .then(da.cmp(&db));
                if ord != Ordering::Equal {
                    return ord;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|&&c| c == b'0').count();
    &d[z..]
}

/// The input files named by `path`: the file itself, or the files of a folder (not recursive)
/// accepted by `accept`, in natural order of their names.
pub fn collect_inputs(path: &Path, accept: impl Fn(&Path) -> bool) -> Result<Vec<PathBuf>> {
    let meta = fs::metadata(path).with_context(|| format!("{}: cannot open", path.display()))?;
    if meta.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in fs::read_dir(path).with_context(|| format!("{}: cannot list", path.display()))? {
        let p = entry?.path();
        if p.is_file() && accept(&p) {
            files.push(p);
        }
    }
    if files.is_empty() {
        bail!("{}: no input files found", path.display());
    }
    files.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    Ok(files)
}

/// The files `paths` name for a reader of `what` (such as "game files (.wtb, .gam, .ggf)"):
/// each folder's files that `accept` takes, recursively, in natural order (an error when
/// there are none), and each file as it is; with `strict`, a named file `accept` refuses is an
/// error too (without, a `.txt` holding PGN is read as the user asks).
pub fn named_files(
    paths: &[PathBuf],
    accept: &dyn Fn(&Path) -> bool,
    what: &str,
    strict: bool,
) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in paths {
        let meta = fs::metadata(p).with_context(|| format!("{}: cannot open", p.display()))?;
        if meta.is_dir() {
            let before = out.len();
            files_below(p, accept, &mut out)?;
            if out.len() == before {
                anyhow::bail!("{}: no {what} in this folder", p.display());
            }
        } else if strict && !accept(p) {
            anyhow::bail!("{}: not one of the {what}", p.display());
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The size of `files` together, in bytes (a file that cannot be read counts 0): the total of
/// a progress bar over them.
pub fn total_bytes(files: &[PathBuf]) -> u64 {
    files
        .iter()
        .map(|f| fs::metadata(f).map_or(0, |m| m.len()))
        .sum()
}

/// Appends to `out` the files below `dir` (recursively, each folder in natural order of its
/// names) that `accept` takes: the game archives a folder of collections holds.
pub fn files_below(
    dir: &Path,
    accept: &dyn Fn(&Path) -> bool,
    out: &mut Vec<PathBuf>,
) -> Result<()> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("{}: cannot list", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    entries.sort_by(|a, b| natural_cmp(&a.to_string_lossy(), &b.to_string_lossy()));
    for e in entries {
        if e.is_dir() {
            files_below(&e, accept, out)?;
        } else if accept(&e) {
            out.push(e);
        }
    }
    Ok(())
}

/// Whether `p` looks like a course input: a `.txt` file whose name does not start with
/// `output` (so an output folder placed among the inputs is not read back as input).
///
/// ```
/// use std::path::Path;
/// assert!(batch::is_txt_input(Path::new("input/3.txt")));
/// assert!(!batch::is_txt_input(Path::new("input/output_3.txt")));
/// assert!(!batch::is_txt_input(Path::new("input/3.jpg")));
/// ```
pub fn is_txt_input(p: &Path) -> bool {
    p.extension().is_some_and(|e| e == "txt")
        && !p
            .file_name()
            .is_some_and(|n| n.to_string_lossy().starts_with("output"))
}

/// The course layout's output folder for an input path: the sibling `output/` of the input
/// folder (`Astar/input/` gives `Astar/output/`); for a single file, the sibling of its folder.
///
/// ```
/// use batch::default_output_dir;
/// use std::path::Path;
/// assert_eq!(default_output_dir(Path::new("Astar/input"), true), Path::new("Astar/output"));
/// assert_eq!(default_output_dir(Path::new("Astar/input/input_1.txt"), false), Path::new("Astar/output"));
/// ```
pub fn default_output_dir(input: &Path, input_is_dir: bool) -> PathBuf {
    let dir = if input_is_dir {
        input
    } else {
        input.parent().unwrap_or(Path::new(""))
    };
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.join("output"),
        _ => {
            // `input` relative with no parent: resolve it to find a sibling.
            match fs::canonicalize(dir)
                .ok()
                .and_then(|d| d.parent().map(|p| p.join("output")))
            {
                Some(p) => p,
                None => PathBuf::from("output"),
            }
        }
    }
}

/// Reads a text file as the parsers expect it ([`crate::normalize_text`]: no byte-order mark,
/// every line end a line feed). Invalid UTF-8, and a file over [`crate::MAX_FILE_BYTES`] (such
/// as `/dev/zero`), are errors naming the file.
///
/// ```
/// let path = std::env::temp_dir().join(format!("read-text-{}.txt", std::process::id()));
/// std::fs::write(&path, "\u{feff}3 3 1\r\n").unwrap();
/// assert_eq!(batch::read_text(&path).unwrap(), "3 3 1\n");
/// std::fs::remove_file(path).unwrap();
/// let err = batch::read_text(std::path::Path::new("/dev/zero")).unwrap_err();
/// assert!(err.to_string().contains("larger than"), "{err}");
/// ```
pub fn read_text(path: &Path) -> Result<String> {
    use std::io::Read;
    let file = fs::File::open(path).with_context(|| format!("{}: cannot read", path.display()))?;
    let mut bytes = Vec::new();
    file.take(crate::text::MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    if bytes.len() as u64 > crate::text::MAX_FILE_BYTES {
        bail!(
            "{}: larger than {} MiB: not an input file",
            path.display(),
            crate::text::MAX_FILE_BYTES >> 20
        );
    }
    let text = String::from_utf8(bytes)
        .with_context(|| format!("{}: not valid UTF-8 text", path.display()))?;
    Ok(crate::text::normalize_text(text))
}

/// Writes `contents` to `path` atomically: a temporary file in the same folder, flushed, then
/// renamed over the target, so a reader never sees half a file. Creates missing folders.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("batch-doc-{}", std::process::id()));
/// let file = dir.join("sub/output_1.txt");
/// batch::write_atomic(&file, b"5\nURUUU\n").unwrap();
/// assert_eq!(std::fs::read_to_string(&file).unwrap(), "5\nURUUU\n");
/// std::fs::remove_dir_all(dir).unwrap();
/// ```
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let tmp = temporary_for(path)?;
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(contents)?;
        f.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.with_context(|| format!("{}: cannot write", path.display()))
}

/// Whether two paths name the same file or folder (through links and `..`); paths that do not
/// exist are the same only when written the same. A merge uses it to refuse writing its
/// result over one of its own inputs.
///
/// ```
/// let dir = std::env::temp_dir();
/// assert!(batch::same_file(&dir, &dir.join(".")));
/// assert!(batch::same_file(&dir.join("no-such-a"), &dir.join("no-such-a")));
/// assert!(!batch::same_file(&dir.join("no-such-a"), &dir.join("no-such-b")));
/// ```
pub fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// Checks that [`write_atomic`] will be able to write `path`, before any long work whose
/// result goes there: the folder can be created and written, and `path` is not a folder.
/// Nothing is left behind (an existing file at `path` is not touched).
///
/// ```
/// assert!(batch::check_writable(std::path::Path::new("/proc/no/such/result.txt")).is_err());
/// let dir = std::env::temp_dir();
/// assert!(batch::check_writable(&dir).is_err()); // a folder
/// assert!(batch::check_writable(&dir.join("result.txt")).is_ok());
/// ```
pub fn check_writable(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("{}: is a folder, not a file", path.display());
    }
    let probe = temporary_for(path)?;
    fs::File::create(&probe).with_context(|| format!("{}: cannot write", path.display()))?;
    let _ = fs::remove_file(probe);
    Ok(())
}

/// The folder directly under `/` that writing `path` would create, if any.
pub(crate) fn new_root_folder(path: &Path) -> Option<std::path::PathBuf> {
    let mut missing = None;
    let mut dir = path.parent()?;
    while !dir.as_os_str().is_empty() && !dir.exists() {
        missing = Some(dir.to_path_buf());
        dir = dir.parent()?;
    }
    (dir == Path::new("/")).then_some(missing).flatten()
}

/// The temporary [`write_atomic`] writes `path` through (`.NAME.tmpPID` beside it), after
/// creating the folder and clearing stale temporaries of killed runs from it.
fn temporary_for(path: &Path) -> Result<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    if let Some(top) = new_root_folder(path) {
        bail!(
            "{}: would create the folder {} at the root of the filesystem; give a path inside \
             an existing folder",
            path.display(),
            top.display()
        );
    }
    fs::create_dir_all(dir).with_context(|| format!("{}: cannot create folder", dir.display()))?;
    remove_stale_temporaries(dir);
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    Ok(dir.join(format!(".{name}.tmp{}", std::process::id())))
}

/// Removes the temporaries that [`write_atomic`] left in `dir` when its process was killed
/// before the rename (`.NAME.tmpPID` whose process no longer runs), once per folder and
/// process, so that an interrupted batch leaves nothing behind after the next run.
fn remove_stale_temporaries(dir: &Path) {
    use std::collections::HashSet;
    use std::sync::Mutex;
    static CLEANED: Mutex<Option<HashSet<PathBuf>>> = Mutex::new(None);
    {
        let mut cleaned = CLEANED.lock().unwrap_or_else(|e| e.into_inner());
        if !cleaned
            .get_or_insert_with(HashSet::new)
            .insert(dir.to_path_buf())
        {
            return;
        }
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        let Some(pid) = name
            .strip_prefix('.')
            .and_then(|n| n.rsplit_once(".tmp"))
            .and_then(|(_, pid)| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !process_runs(pid) {
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Whether a process with this id is running (on systems without `/proc`, assume it is, so
/// that nothing of a live process is removed).
fn process_runs(pid: u32) -> bool {
    let proc_root = Path::new("/proc");
    !proc_root.is_dir() || proc_root.join(pid.to_string()).exists()
}

/// Reads and parses a file whose parser reports [`InputError`](crate::InputError)s, naming the file in the error.
///
/// ```
/// use std::str::FromStr;
/// #[derive(Debug)]
/// struct Num(u32);
/// impl FromStr for Num {
///     type Err = batch::InputError;
///     fn from_str(s: &str) -> Result<Num, batch::InputError> {
///         s.trim().parse().map(Num).map_err(|_| batch::InputError::at(1, "not a number"))
///     }
/// }
/// let path = std::env::temp_dir().join(format!("num-{}.txt", std::process::id()));
/// std::fs::write(&path, "x").unwrap();
/// let err = batch::parse_file::<Num>(&path).unwrap_err().to_string();
/// assert!(err.ends_with(".txt:1: not a number"));
/// std::fs::remove_file(path).unwrap();
/// ```
pub fn parse_file<T>(path: &Path) -> Result<T>
where
    T: std::str::FromStr<Err = crate::errors::InputError>,
{
    let text = read_text(path)?;
    text.parse::<T>().map_err(|e| e.in_file(path).into())
}
