//! Where a first player loses its win against perfect play: plays AGENT first against
//! `perfect:ties=random` from the empty board and, in every game it fails to win, finds the
//! first move that threw the win away (the position before it was won, the one after not).
//! `cargo run --release --example first_player_mistakes AGENT [GAMES] [SEED]`.
//!
//! Prints how many games each ply's mistake cost, then the mistaken positions (moves
//! played, 1-based columns) with the column chosen and the winning ones.
mod common;

use connect4_engine::agents::AgentSpec;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec: AgentSpec = args
        .next()
        .expect("usage: first_player_mistakes AGENT [GAMES] [SEED]")
        .parse()
        .expect("an agent spec");
    let games: u64 = args.next().map_or(500, |g| g.parse().expect("games"));
    let seed: u64 = args.next().map_or(7, |s| s.parse().expect("seed"));
    let (mut wins, mut slips) = (0, Vec::new());
    for game in common::play_match(&spec, "perfect:ties=random", true, games, seed) {
        wins += usize::from(game.won);
        // A first player's game not won had its slip: it starts in a won position.
        if !game.won {
            slips.extend(game.slip);
        }
    }
    println!("{wins} wins of {games}");
    common::print_slips(&slips, 25);
}
