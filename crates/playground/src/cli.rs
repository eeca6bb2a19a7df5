//! The command line: `playground serve [--port 8080] [--host 127.0.0.1] [--open]`.

use clap::Parser;
use std::net::{IpAddr, SocketAddr};

/// The playground's commands.
#[derive(Debug, Parser)]
#[command(
    name = "playground",
    version,
    about = "Play and watch the workspace's search tools in a browser"
)]
pub enum Command {
    /// Serves the web app until interrupted.
    Serve {
        /// Port to listen on (0: any free port, printed at start).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to bind: loopback by default, so only this machine can connect.
        #[arg(long, default_value = "127.0.0.1")]
        host: IpAddr,
        /// Open the app in the default browser once it is listening.
        #[arg(long)]
        open: bool,
        /// Searches running at once (default: the number of cores, at least 2); one client
        /// runs at most half of them.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
        engines: Option<u64>,
        /// Also answer under this host name (the name students type, when a teaching assistant
        /// serves the class); loopback names always work, and with --host 0.0.0.0 any address.
        #[arg(long = "allow-host", value_name = "NAME")]
        allow_hosts: Vec<String>,
        /// An opening book (`othello book build`) whose moves the othello page shows.
        #[arg(long, value_name = "FILE")]
        othello_book: Option<std::path::PathBuf>,
        /// Connections open at once (default: three quarters of the files the process may open,
        /// at most 4096).
        #[arg(long, value_parser = clap::value_parser!(u64).range(4..=65_536))]
        max_connections: Option<u64>,
    },
}

/// Runs the command line; returns the exit code.
pub fn main() -> i32 {
    let Command::Serve {
        port,
        host,
        open,
        engines,
        allow_hosts,
        othello_book,
        max_connections,
    } = batch::parse_with_default_subcommand::<Command>("serve");
    if let Some(path) = othello_book {
        match crate::othello_book::load_book(&path) {
            Ok(n) => eprintln!(
                "playground: opening book {} ({n} positions)",
                path.display()
            ),
            Err(e) => {
                eprintln!("playground: {e}");
                return 1;
            }
        }
    }
    let mut limits = crate::api::Limits::default();
    if let Some(n) = engines {
        limits.engines = n as usize;
    }
    let access = crate::access::Access {
        hosts: allow_hosts,
        any_ip: host.is_unspecified(),
    };
    let mut connections = crate::connections::Connections::default();
    if let Some(n) = max_connections {
        connections.max = n as usize;
    }
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("playground: cannot start the server: {e}");
            return 1;
        }
    };
    match runtime.block_on(serve(
        SocketAddr::new(host, port),
        limits,
        access,
        connections,
        open,
    )) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("playground: {e}");
            1
        }
    }
}

/// Serves the app on `addr` until the process is interrupted.
pub async fn serve(
    addr: SocketAddr,
    limits: crate::api::Limits,
    access: crate::access::Access,
    connections: crate::connections::Connections,
    open: bool,
) -> std::io::Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| std::io::Error::new(e.kind(), format!("cannot listen on {addr}: {e}")))?;
    let url = format!("http://{}/", listener.local_addr()?);
    if !addr.ip().is_loopback() {
        eprintln!("playground: listening on {addr}, which other machines can reach");
    }
    println!("playground: serving {url} (Ctrl-C stops)");
    if open {
        if let Err(e) = std::process::Command::new("xdg-open").arg(&url).spawn() {
            eprintln!("playground: could not open a browser ({e}); open {url} yourself");
        }
    }
    let app = crate::server::router_with(limits, access);
    crate::connections::serve(listener, app, connections).await
}
