//! Where a first player loses its win against perfect play: plays AGENT first against
//! `perfect:ties=random` from the empty board and, in every game it fails to win, finds the
//! first move that threw the win away (the position before it was won, the one after not).
//! `cargo run --release --example first_player_mistakes AGENT [GAMES] [SEED]`.
//!
//! Prints how many games each ply's mistake cost, then the mistaken positions (moves
//! played, 1-based columns) with the column chosen and the winning ones.
use connect4_ml::agents::{AgentSpec, Turn};
use connect4_ml::game::{Geometry, Position};
use connect4_ml::solver::Solver;
use std::collections::BTreeMap;

fn main() {
    let mut args = std::env::args().skip(1);
    let spec: AgentSpec = args
        .next()
        .expect("usage: first_player_mistakes AGENT [GAMES] [SEED]")
        .parse()
        .expect("an agent spec");
    let games: u64 = args.next().map_or(500, |g| g.parse().expect("games"));
    let seed: u64 = args.next().map_or(7, |s| s.parse().expect("seed"));
    let geom = Geometry::default();
    let agent = spec.factory(geom).expect("agent");
    let perfect = "perfect:ties=random"
        .parse::<AgentSpec>()
        .unwrap()
        .factory(geom)
        .unwrap();
    let mut solver = Solver::new(geom);
    let (mut by_ply, mut where_) = (BTreeMap::new(), BTreeMap::new());
    let mut wins = 0;
    for g in 0..games {
        let (mut a, mut p) = (
            agent.build(seed + g).unwrap(),
            perfect.build(seed * 7919 + g).unwrap(),
        );
        let (mut pos, mut moves, mut mistake) = (Position::new(geom), String::new(), None);
        loop {
            let first = moves.len() % 2 == 0;
            let col = if first {
                a.choose(&Turn::new(pos))
            } else {
                p.choose(&Turn::new(pos))
            };
            if first && mistake.is_none() {
                let scores = solver.analyze(&pos, connect4_ml::solver::Mode::Weak);
                let best = scores.iter().flatten().max().copied().unwrap_or(0);
                if best > 0 && scores[col].is_none_or(|s| s <= 0) {
                    let winning: String = (0..geom.width())
                        .filter(|&c| scores[c].is_some_and(|s| s > 0))
                        .map(|c| char::from(b'1' + c as u8))
                        .collect();
                    mistake = Some((moves.len(), moves.clone(), col + 1, winning));
                }
            }
            moves.push(char::from(b'1' + col as u8));
            pos = pos.after(col).expect("a legal move");
            if pos.last_move_won() {
                wins += usize::from(first);
                break;
            }
            if pos.is_full() {
                break;
            }
        }
        if let Some((ply, before, col, winning)) = mistake {
            *by_ply.entry(ply).or_insert(0) += 1;
            *where_.entry((before, col, winning)).or_insert(0) += 1;
        }
    }
    println!("{wins} wins of {games}; games lost to a mistake at ply (0 = first move):");
    for (ply, n) in &by_ply {
        println!("  ply {ply:2}: {n}");
    }
    println!("mistaken positions (moves, column played, winning columns): games");
    let mut list: Vec<_> = where_.into_iter().collect();
    list.sort_by_key(|e| std::cmp::Reverse(e.1));
    for ((before, col, winning), n) in list.iter().take(25) {
        println!("  {before:<20} played {col}, wins {winning}: {n}");
    }
}
