//! The command line: `playground` serves on the port it prints (loopback by default), and a
//! port already taken or a bad option is an error with a message, not a panic.

use batch::run_tool;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_playground");

/// `playground` (no subcommand: `serve`) on a free port answers the page it serves.
#[test]
fn serves_the_pages_on_the_port_it_prints() {
    let mut server = Command::new(BIN)
        .args(["--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .split_whitespace()
        .find(|w| w.starts_with("http://127.0.0.1:"))
        .unwrap_or_else(|| panic!("no loopback URL in {line:?}"));
    let address = url.trim_start_matches("http://").trim_end_matches('/');
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    write!(
        stream,
        "GET /othello HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    server.kill().unwrap();
    server.wait().unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains("<title>Othello"), "{answer}");
}

#[test]
fn a_taken_port_and_a_bad_option_are_errors() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    run_tool!(BIN, "serve", "--port", &port).fails(1, "cannot listen on 127.0.0.1:");
    run_tool!(BIN, "serve", "--host", "nowhere").fails(2, "invalid value 'nowhere'");
    run_tool!(BIN, "serve", "--port", "70000").fails(2, "--port");
}

#[test]
fn engines_and_connections_out_of_range_are_refused_before_serving() {
    for n in [
        "0",
        "257",
        "18446744073709551615",
        "99999999999999999999999",
    ] {
        run_tool!(BIN, "serve", "--port", "0", "--engines", n).fails(2, "--engines");
    }
    run_tool!(BIN, "serve", "--port", "0", "--max-connections", "3").fails(2, "--max-connections");
}

#[test]
fn a_book_that_cannot_be_read_stops_the_server_with_its_reason() {
    run_tool!(
        BIN,
        "serve",
        "--port",
        "0",
        "--othello-book",
        "/no/such/book.bin"
    )
    .fails(1, "/no/such/book.bin: No such file");
    let junk = std::env::temp_dir().join(format!("junk-book-{}.bin", std::process::id()));
    std::fs::write(&junk, b"not a book").unwrap();
    run_tool!(BIN, "serve", "--port", "0", "--othello-book", &junk).fails(1, "junk-book");
    std::fs::remove_file(&junk).unwrap();
}
