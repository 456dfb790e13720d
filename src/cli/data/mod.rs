//! `c4 data`: the UCI data set (summary, download, exact reconstruction, label checks,
//! solver labelling) and solver-labelled self-play positions.

mod book;
mod games;
mod label;
mod uci;

use anyhow::Result;
use book::BookArgs;
use clap::Subcommand;
use games::{BenchSetsArgs, PositionsArgs, SelfplayArgs};
use label::{LabelArgs, MergeArgs};
use uci::{EnumerateArgs, FetchArgs, GenerateArgs, UciArgs, VerifyArgs};

#[derive(Subcommand, Debug)]
pub enum DataCommand {
    /// Read and validate the UCI data file; print summary statistics.
    #[command(after_help = "Examples:\n  c4 data uci")]
    Uci(UciArgs),
    /// Download the official UCI archive, unpack connect-4.data (LZW .Z inside a zip), check
    /// its sha256 and write it (default data/uci/connect-4.data; the repository already ships
    /// the compressed file, data/uci/connect-4.data.Z).
    #[command(after_help = "Examples:\n  c4 data fetch-uci")]
    FetchUci(FetchArgs),
    /// Rebuild the UCI position set from the rules alone and compare it with the file.
    #[command(after_help = "Examples:\n  c4 data enumerate-uci")]
    EnumerateUci(EnumerateArgs),
    /// Weak-solve a seeded sample of the file's rows and report agreement with its labels.
    #[command(after_help = "Examples:\n  c4 data verify-uci --sample 1000")]
    VerifyUci(VerifyArgs),
    /// Solver-labelled positions sampled from games between two agents (CSV: 42 cells, side
    /// to move, ply, label, score, game result).
    #[command(after_help = "Examples:\n  c4 data selfplay --games 100 --out selfplay.csv")]
    Selfplay(SelfplayArgs),
    /// Label the whole reconstructed set with the solver (multi-threaded, resumable), writing
    /// UCI format.
    #[command(after_help = "Examples:\n  c4 data generate-uci --out connect-4.data")]
    GenerateUci(GenerateArgs),
    /// Sample N distinct unlabelled positions ("MOVES" lines) spread evenly over a range of
    /// stone counts, from games of a seeded agent mix with random moves mixed in.
    #[command(
        after_help = "Examples:\n  c4 data positions --plies 10..36 --count 100000 --seed 1 --out positions.txt"
    )]
    Positions(PositionsArgs),
    /// Label "MOVES" lines with the solver: "MOVES SCORE" lines in the source's order
    /// (strong scores unless --weak), sharded, resumable.
    #[command(
        after_help = "Examples:\n  c4 data label positions.txt --out parts/part-0.txt --shard 0/8 --resume"
    )]
    Label(LabelArgs),
    /// Merge the shards of a `c4 data label` job into one file in the source's order, after
    /// checking they are every shard once, complete, and agree; prints the sha256.
    #[command(
        after_help = "Examples:\n  c4 data merge parts/part-*.txt --source positions.txt --out labelled.txt"
    )]
    Merge(MergeArgs),
    /// Make the opening book: the exact score of every unfinished position with at most
    /// --plies stones (mirror images folded). Only the deepest positions are solved (sharded,
    /// resumable, merged like `c4 data label`); the others follow from them.
    #[command(after_help = "Examples:\n  c4 data book --plies 8 --out book-7x6.bin")]
    Book(BookArgs),
    /// Make the six benchmark sets (end/middle/begin x easy/medium/hard, "MOVES SCORE" lines,
    /// exact scores) from games of a seeded agent mix: what data/bench/ ships.
    #[command(after_help = "Examples:\n  c4 data bench-sets --out data/bench")]
    BenchSets(BenchSetsArgs),
}

/// Runs a `c4 data` subcommand.
pub fn run(cmd: DataCommand, book: super::BookChoice) -> Result<()> {
    match cmd {
        DataCommand::Uci(a) => uci::run_uci(a),
        DataCommand::FetchUci(a) => uci::run_fetch(a),
        DataCommand::EnumerateUci(a) => uci::run_enumerate(a),
        DataCommand::VerifyUci(a) => uci::run_verify(a, book),
        DataCommand::GenerateUci(a) => uci::run_generate(a, book),
        DataCommand::Selfplay(a) => games::run_selfplay(a, book),
        DataCommand::BenchSets(a) => games::run_bench_sets(a, book),
        DataCommand::Positions(a) => games::run_positions(a),
        DataCommand::Label(a) => label::run_label(a, book),
        DataCommand::Merge(a) => label::run_merge(a),
        DataCommand::Book(a) => book::run_book(a, book),
    }
}
