//! Reading text the way users save it, and quoting it back to them: a UTF-8 byte-order mark
//! (Windows editors) is dropped, old Mac line ends (CR alone) become line feeds, lines and files
//! have a size cap so that `/dev/zero` is an error and not an endless read, and text quoted in a
//! message shows invisible characters escaped.

use std::io::BufRead;
use std::num::IntErrorKind;

/// Longest line any reader accepts, in bytes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Largest file [`crate::read_text`] reads, in bytes.
pub const MAX_FILE_BYTES: u64 = 256 << 20;

/// Text as the parsers expect it: without a leading byte-order mark, and with every line end
/// (LF, CRLF, or CR alone) a line feed.
///
/// ```
/// assert_eq!(batch::normalize_text("\u{feff}1 2\r\n3\r4\n".into()), "1 2\n3\n4\n");
/// assert_eq!(batch::normalize_text("plain\n".into()), "plain\n");
/// ```
pub fn normalize_text(text: String) -> String {
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    }
}

/// The most characters of a text [`shown`] quotes: a message never echoes a whole file.
pub const SHOWN_CHARS: usize = 200;

/// `text` as it can be quoted in a message: characters that do not show (control and format
/// characters such as a byte-order mark or a zero-width space) are written as `\u{…}` escapes,
/// the rest, line feeds included, as they are; past [`SHOWN_CHARS`] characters it is cut, with
/// how many more there were.
///
/// ```
/// assert_eq!(batch::shown("\u{feff}5"), "\\u{feff}5");
/// assert_eq!(batch::shown("a\tb"), "a\\tb");
/// assert_eq!(batch::shown("数字 7\nnext"), "数字 7\nnext");
/// let long = "x".repeat(1 << 20);
/// assert_eq!(batch::shown(&long), format!("{}… ({} more characters)", "x".repeat(200), (1 << 20) - 200));
/// ```
pub fn shown(text: &str) -> String {
    shown_within(text, SHOWN_CHARS)
}

/// The most characters of a whole message a tool prints ([`shown_within`]): the tools' own
/// messages carry plans and lines of moves a user needs whole, and quote the user's text with
/// [`shown`] where they do.
pub const MESSAGE_CHARS: usize = 4096;

/// [`shown`] with room for `limit` characters.
///
/// ```
/// let plan = "R".repeat(600);
/// assert_eq!(batch::shown_within(&plan, batch::MESSAGE_CHARS), plan);
/// assert!(batch::shown_within(&plan, 10).ends_with("… (590 more characters)"));
/// ```
pub fn shown_within(text: &str, limit: usize) -> String {
    let mut out = String::with_capacity(text.len().min(4 * limit));
    for (i, c) in text.chars().enumerate() {
        if i == limit {
            let more = text.chars().count() - limit;
            out.push_str(&format!("… ({more} more characters)"));
            break;
        }
        let invisible = (c.is_control() && c != '\n')
            || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{00ad}');
        if invisible {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// Parses a non-negative integer token, with a message that says what is wrong: not a number,
/// or too large for what it counts (the token quoted with [`shown`]).
///
/// ```
/// assert_eq!(batch::parse_count::<u8>("12"), Ok(12));
/// assert_eq!(batch::parse_count::<u8>("300").unwrap_err(), "`300` is too large (at most 255)");
/// assert_eq!(batch::parse_count::<u8>("-1").unwrap_err(), "`-1` is not a non-negative integer");
/// assert_eq!(batch::parse_count::<u8>("\u{feff}1").unwrap_err(), "`\\u{feff}1` is not a non-negative integer");
/// ```
pub fn parse_count<T>(token: &str) -> Result<T, String>
where
    T: std::str::FromStr<Err = std::num::ParseIntError> + num_max::Max,
{
    token.parse::<T>().map_err(|e| match e.kind() {
        IntErrorKind::PosOverflow => {
            format!(
                "`{}` is too large (at most {})",
                shown(token),
                T::max_text()
            )
        }
        _ => format!("`{}` is not a non-negative integer", shown(token)),
    })
}

/// The largest value of an unsigned integer type, as text (for [`parse_count`]'s messages).
pub mod num_max {
    /// An unsigned integer type's largest value as text.
    pub trait Max {
        /// The largest value, written out.
        fn max_text() -> String;
    }
    macro_rules! max {
        ($($t:ty),*) => {$(impl Max for $t { fn max_text() -> String { <$t>::MAX.to_string() } })*};
    }
    max!(u8, u16, u32, u64, usize);
}

/// Consumes `reader` up to and including the next `\n` (or to its end), keeping nothing.
pub(crate) fn skip_line(reader: &mut impl BufRead) -> std::io::Result<()> {
    loop {
        let buffer = match reader.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            return Ok(());
        }
        match buffer.iter().position(|&b| b == b'\n') {
            Some(i) => {
                reader.consume(i + 1);
                return Ok(());
            }
            None => {
                let n = buffer.len();
                reader.consume(n);
            }
        }
    }
}

/// Reads one line (up to and without its `\n` or `\r\n`) into `line`, refusing lines longer than
/// [`MAX_LINE_BYTES`] (and skipping the rest of such a line, so that reading on gives the next); `Ok(false)` at the end of input. Invalid UTF-8 is an error too, and so is
/// a carriage return inside the line (old Mac line ends, which would run lines together). A
/// byte-order mark before line 1 is dropped. `number` is the 1-based number of the line, for
/// messages.
///
/// ```
/// let mut input = std::io::Cursor::new(b"ab\r\ncd".to_vec());
/// let mut line = String::new();
/// assert!(batch::read_line_capped(&mut input, &mut line, 1).unwrap());
/// assert_eq!(line, "ab");
/// assert!(batch::read_line_capped(&mut input, &mut line, 2).unwrap());
/// assert_eq!(line, "cd");
/// assert!(!batch::read_line_capped(&mut input, &mut line, 3).unwrap());
/// let mut mac = std::io::Cursor::new(b"4455\r4444\r".to_vec());
/// assert!(batch::read_line_capped(&mut mac, &mut line, 1).unwrap_err().contains("carriage return"));
/// let mut zeros = std::io::Read::take(std::io::repeat(0), 1 << 21);
/// let mut endless = std::io::BufReader::new(&mut zeros);
/// let err = batch::read_line_capped(&mut endless, &mut line, 1).unwrap_err();
/// assert_eq!(err, "line 1 is longer than 1048576 bytes");
/// let mut long = b"x".repeat(3 << 20);
/// long.extend_from_slice(b"\nnext\n");
/// let mut long = std::io::Cursor::new(long);
/// assert!(batch::read_line_capped(&mut long, &mut line, 1).is_err());
/// assert!(batch::read_line_capped(&mut long, &mut line, 2).unwrap());
/// assert_eq!(line, "next");
/// ```
pub fn read_line_capped(
    reader: &mut impl BufRead,
    line: &mut String,
    number: usize,
) -> Result<bool, String> {
    let mut bytes = Vec::new();
    let read = std::io::Read::take(&mut *reader, MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', &mut bytes)
        .map_err(|e| format!("line {number}: {e}"))?;
    if read == 0 {
        line.clear();
        return Ok(false);
    }
    if bytes.len() > MAX_LINE_BYTES && bytes.last() != Some(&b'\n') {
        // Skip the rest of the line, so that the caller that goes on reads the next line, not
        // the tail of this one.
        skip_line(reader).map_err(|e| format!("line {number}: {e}"))?;
        return Err(format!(
            "line {number} is longer than {MAX_LINE_BYTES} bytes"
        ));
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
        if bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
    }
    if bytes.contains(&b'\r') {
        // Old Mac line ends (CR alone) would run several lines into one: refuse, not misread.
        return Err(format!(
            "line {number} holds a carriage return: save the file with LF or CRLF line ends"
        ));
    }
    *line = String::from_utf8(bytes).map_err(|_| format!("line {number} is not valid UTF-8"))?;
    if number == 1 {
        if let Some(rest) = line.strip_prefix('\u{feff}') {
            *line = rest.to_string();
        }
    }
    Ok(true)
}

/// `n` and the noun, singular for one: "1 student", "3 students".
///
/// ```
/// assert_eq!(batch::plural(1, "game", "games"), "1 game");
/// assert_eq!(batch::plural(0, "file", "files"), "0 files");
/// ```
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// The whitespace-separated whole numbers of `words` (a line of a weights file), or the
/// first word that is not one, quoted.
///
/// ```
/// assert_eq!(batch::whole_numbers(" 3 -4 0 "), Ok(vec![3, -4, 0]));
/// assert_eq!(batch::whole_numbers("3 x"), Err("`x` is not a whole number".to_string()));
/// ```
pub fn whole_numbers(words: &str) -> Result<Vec<i32>, String> {
    words
        .split_whitespace()
        .map(|w| {
            w.parse()
                .map_err(|_| format!("`{}` is not a whole number", shown(w)))
        })
        .collect()
}

/// Where `name` stands in `names` (the keys of a weights file), or the message naming it as
/// an unknown `what`.
///
/// ```
/// assert_eq!(batch::key_index(&["a", "b"], "b", "term"), Ok(1));
/// assert_eq!(batch::key_index(&["a"], "c", "term"), Err("unknown term `c`".to_string()));
/// ```
pub fn key_index(names: &[&str], name: &str, what: &str) -> Result<usize, String> {
    names
        .iter()
        .position(|&n| n == name)
        .ok_or_else(|| format!("unknown {what} `{}`", shown(name)))
}
