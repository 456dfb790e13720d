//! `c4`: the command-line face of connect4-ml. Parses arguments and dispatches; the library
//! does the work.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4: {}", cli::describe_error(&e));
            ExitCode::FAILURE
        }
    }
}

/// Rust ignores SIGPIPE, so `c4 ... | head` would end in a "broken pipe" panic once the
/// reader closes. A command-line tool should stop quietly instead, as Unix tools do.
fn restore_sigpipe() {
    #[cfg(unix)]
    // SAFETY: called first thing in main, before any thread exists; SIG_DFL is a valid
    // disposition for SIGPIPE.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}
