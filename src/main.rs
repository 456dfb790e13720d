//! `c4`: the command-line face of connect4-ml. Parses arguments and dispatches; the library
//! does the work.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    restore_sigpipe();
    // Ctrl-C: remove the temporary files of writes under way (every data, model and report
    // file is written to a temporary file and renamed), then stop as interrupted programs do.
    let _ = ctrlc::set_handler(|| {
        connect4_engine::io::remove_unfinished_writes();
        std::process::exit(130);
    });
    connect4_ml::builtin::carry_models();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4: {}", cli::describe_error(&e));
            if cli::is_bad_input(&e) {
                // As clap does for a bad flag: the command line (an agent spec, an Elo, a
                // saved state named on it) is what is wrong.
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
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
