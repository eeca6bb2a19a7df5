//! CSV as the reports write it (RFC 4180: a field holding a comma, a quote or a line break is
//! quoted, its quotes doubled) and read back, so that a report can be split and merged.

use std::borrow::Cow;

/// One field, quoted when it has to be.
///
/// ```
/// assert_eq!(batch::csv_field("ok"), "ok");
/// assert_eq!(batch::csv_field("9 days, not \"7\""), "\"9 days, not \"\"7\"\"\"");
/// ```
pub fn csv_field(s: &str) -> Cow<'_, str> {
    if s.contains([',', '"', '\n', '\r']) {
        Cow::Owned(format!("\"{}\"", s.replace('"', "\"\"")))
    } else {
        Cow::Borrowed(s)
    }
}

/// The records of CSV text, each with the line it starts on (from 1). Every record must end
/// with a line break; an unterminated quote is an error naming the line it opened on.
///
/// ```
/// let rows = batch::csv_records("a,b\n\"x, \"\"y\"\"\nz\",2\n").unwrap();
/// assert_eq!(rows, [(1, vec!["a".to_string(), "b".into()]), (2, vec!["x, \"y\"\nz".into(), "2".into()])]);
/// assert!(batch::csv_records("a,\"b\n").unwrap_err().contains("line 1"));
/// ```
pub fn csv_records(text: &str) -> Result<Vec<(usize, Vec<String>)>, String> {
    let mut records = Vec::new();
    let (mut line, mut start) = (1, 1);
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut quoted = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match (quoted, c) {
            (true, '"') if chars.peek() == Some(&'"') => {
                chars.next();
                field.push('"');
            }
            (true, '"') => quoted = false,
            (true, c) => {
                line += usize::from(c == '\n');
                field.push(c);
            }
            (false, '"') if field.is_empty() => quoted = true,
            (false, '"') => return Err(format!("line {line}: a quote inside an unquoted field")),
            (false, ',') => fields.push(std::mem::take(&mut field)),
            (false, '\n') => {
                fields.push(std::mem::take(&mut field));
                records.push((start, std::mem::take(&mut fields)));
                line += 1;
                start = line;
            }
            (false, c) => field.push(c),
        }
    }
    if quoted {
        return Err(format!("line {start}: a quoted field is never closed"));
    }
    if !field.is_empty() || !fields.is_empty() {
        return Err(format!("line {start}: the last line has no line break"));
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn written_records_read_back(rows in proptest::collection::vec(
            proptest::collection::vec("[a-z,\"\n\r ]{0,6}", 1..5), 0..6)) {
            let mut text = String::new();
            for r in &rows {
                let fields: Vec<_> = r.iter().map(|f| csv_field(f)).collect();
                text.push_str(&fields.join(","));
                text.push('\n');
            }
            let back: Vec<Vec<String>> = csv_records(&text).unwrap().into_iter().map(|r| r.1).collect();
            prop_assert_eq!(back, rows);
        }
    }
}
