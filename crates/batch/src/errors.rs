//! Input errors that say where: `input_3.txt:2: expected 4 numbers, found 3`.

use std::fmt;
use std::path::{Path, PathBuf};

/// A problem with an input file, located by file and (1-based) line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct InputError {
    /// The file, when known (parsers working on a string leave it empty until
    /// [`InputError::in_file`] is applied).
    pub file: Option<PathBuf>,
    /// 1-based line number, 0 when the problem concerns the whole file.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl InputError {
    /// An error on `line` (1-based; 0 for "the whole file").
    ///
    /// ```
    /// use batch::InputError;
    /// let e = InputError::at(2, "expected 4 numbers, found 3").in_file("input_3.txt");
    /// assert_eq!(e.to_string(), "input_3.txt:2: expected 4 numbers, found 3");
    /// ```
    pub fn at(line: usize, message: impl Into<String>) -> Self {
        InputError {
            file: None,
            line,
            message: message.into(),
        }
    }

    /// Attaches the file name.
    pub fn in_file(mut self, file: impl AsRef<Path>) -> Self {
        self.file = Some(file.as_ref().to_path_buf());
        self
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(file) = &self.file {
            write!(f, "{}:", file.display())?;
        }
        if self.line > 0 {
            write!(f, "{}:", self.line)?;
        }
        if self.file.is_some() || self.line > 0 {
            write!(f, " ")?;
        }
        // What the user's file said is quoted in messages; show what does not print.
        write!(f, "{}", crate::text::shown(&self.message))
    }
}
