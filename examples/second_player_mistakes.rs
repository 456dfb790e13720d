//! Where a second player leaves wins on the table against a fallible perfect player: plays
//! AGENT second against `perfect:ties=random,eps=EPS` from the empty board and counts the
//! games in which the first player's errors handed it a won position (its chances), how
//! many of those it won, and where it first threw such a win away (the position before it
//! was won, the one after not; the first player may hand a win back later). The perfect
//! player is the reference: with AGENT `perfect:ties=random` every chance is won.
//! `cargo run --release --example second_player_mistakes AGENT EPS [GAMES] [SEED]`.
mod common;

use connect4_engine::agents::AgentSpec;

fn main() {
    let usage = "usage: second_player_mistakes AGENT EPS [GAMES] [SEED]";
    let mut args = std::env::args().skip(1);
    let spec: AgentSpec = args.next().expect(usage).parse().expect("an agent spec");
    let eps: f64 = args
        .next()
        .expect(usage)
        .parse()
        .expect("EPS: a share in [0, 1]");
    let games: u64 = args.next().map_or(200, |g| g.parse().expect("games"));
    let seed: u64 = args.next().map_or(7, |s| s.parse().expect("seed"));
    let perfect = format!("perfect:ties=random,eps={eps}");
    let (mut wins, mut draws, mut chances, mut converted) = (0, 0, 0, 0);
    let mut slips = Vec::new();
    for game in common::play_match(&spec, &perfect, false, games, seed) {
        wins += usize::from(game.won);
        draws += usize::from(game.drawn);
        chances += usize::from(game.had_win);
        converted += usize::from(game.had_win && game.won);
        slips.extend(game.slip);
    }
    println!(
        "{wins} wins, {draws} draws of {games}; {chances} games with a won position to move \
         in, {converted} of them won"
    );
    common::print_slips(&slips, 15);
}
