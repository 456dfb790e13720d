//! `c4`: the command-line face of connect4-ml. Parses arguments and dispatches; the library
//! does the work.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("c4: {e:#}");
            ExitCode::FAILURE
        }
    }
}
