//! CSV as the reports, tournaments and class runs write it (RFC 4180: a field holding a comma,
//! a quote or a line break is quoted, its quotes doubled) and read back, so that a report can
//! be split and merged: written and read by the `csv` crate, with the line each record starts
//! on kept for messages.

use std::borrow::Cow;

/// One field, quoted when it has to be.
///
/// ```
/// assert_eq!(batch::csv_field("ok"), "ok");
/// assert_eq!(batch::csv_field("9 days, not \"7\""), "\"9 days, not \"\"7\"\"\"");
/// assert_eq!(batch::csv_field("a\r"), "\"a\r\"");
/// ```
pub fn csv_field(s: &str) -> Cow<'_, str> {
    if !s.contains([',', '"', '\n', '\r']) {
        return Cow::Borrowed(s);
    }
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    // Writing to memory does not fail; the field comes back with its terminator.
    let _ = w.write_record([s]);
    let bytes = w.into_inner().unwrap_or_default();
    let text = String::from_utf8(bytes).unwrap_or_default();
    Cow::Owned(text.strip_suffix('\n').unwrap_or(&text).to_string())
}

/// One record as a CSV line with its line break (a record of one empty field as `""`, so that
/// it is not read as a blank line).
///
/// ```
/// assert_eq!(batch::csv_line(&["a", "b,c"]), "a,\"b,c\"\n");
/// assert_eq!(batch::csv_line(&[""]), "\"\"\n");
/// ```
pub fn csv_line<S: AsRef<str>>(fields: &[S]) -> String {
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::Any(b'\n'))
        .quote_style(csv::QuoteStyle::Necessary)
        .from_writer(Vec::new());
    let _ = w.write_record(fields.iter().map(|f| f.as_ref()));
    String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
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
    if !text.is_empty() && !text.ends_with('\n') {
        let last = text.lines().count().max(1);
        return Err(format!("line {last}: the last line has no line break"));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut out = Vec::new();
    let mut record = csv::StringRecord::new();
    loop {
        let start = reader.position().line() as usize;
        match reader.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {
                // A quote left open runs to the end of the text: the crate takes it as a field.
                let end = reader.position().byte() as usize;
                let raw = text.get(..end).unwrap_or(text);
                if end >= text.len() && raw.matches('"').count() % 2 == 1 {
                    return Err(format!("line {start}: a quoted field is never closed"));
                }
                out.push((start, record.iter().map(str::to_string).collect()));
            }
            Err(e) => return Err(format!("line {start}: {e}")),
        }
    }
    Ok(out)
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
                text.push_str(&csv_line(r));
                // Field by field, the same line but for a record of one empty field.
                let fields: Vec<_> = r.iter().map(|f| csv_field(f)).collect();
                if r != &[String::new()] {
                    prop_assert_eq!(format!("{}\n", fields.join(",")), csv_line(r));
                }
            }
            let back: Vec<Vec<String>> = csv_records(&text).unwrap().into_iter().map(|r| r.1).collect();
            prop_assert_eq!(back, rows);
        }
    }
}
