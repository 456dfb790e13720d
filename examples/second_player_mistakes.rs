//! Where a second player leaves wins on the table against a fallible perfect player: plays
//! AGENT second against `perfect:ties=random,eps=EPS` from the empty board and counts the
//! games in which the first player's errors handed it a won position (its chances), how
//! many of those it won, and where it threw such a win away (the position before it was
//! won, the one after not). The perfect player itself is the reference: run with AGENT
//! `perfect:ties=random` to see how many chances it converts.
//! `cargo run --release --example second_player_mistakes AGENT EPS [GAMES] [SEED]`.
use connect4_ml::agents::{AgentSpec, Turn};
use connect4_ml::game::{Geometry, Position};
use connect4_ml::solver::Solver;
use std::collections::BTreeMap;

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
    let geom = Geometry::default();
    let agent = spec.factory(geom).expect("agent");
    let perfect = format!("perfect:ties=random,eps={eps}")
        .parse::<AgentSpec>()
        .unwrap()
        .factory(geom)
        .unwrap();
    let mut solver = Solver::new(geom);
    let mut where_ = BTreeMap::new();
    let (mut wins, mut draws, mut chances, mut converted) = (0, 0, 0, 0);
    let mut by_ply = BTreeMap::new();
    for g in 0..games {
        let (mut a, mut p) = (
            agent.build(seed + g).unwrap(),
            perfect.build(seed * 7919 + g).unwrap(),
        );
        let (mut pos, mut moves) = (Position::new(geom), String::new());
        let (mut had_win, mut mistake) = (false, None);
        let won = loop {
            let second = moves.len() % 2 == 1;
            let col = if second {
                a.choose(&Turn::new(pos))
            } else {
                p.choose(&Turn::new(pos))
            };
            if second && mistake.is_none() {
                let scores = solver.analyze(&pos, connect4_ml::solver::Mode::Weak);
                let best = scores.iter().flatten().max().copied().unwrap_or(0);
                had_win |= best > 0;
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
                break second;
            }
            if pos.is_full() {
                draws += 1;
                break false;
            }
        };
        wins += usize::from(won);
        chances += usize::from(had_win);
        converted += usize::from(had_win && won);
        if let Some((ply, before, col, winning)) = mistake {
            *by_ply.entry(ply).or_insert(0) += 1;
            *where_.entry((before, col, winning)).or_insert(0) += 1;
        }
    }
    println!(
        "{wins} wins, {draws} draws of {games}; {chances} games with a won position to move \
         in, {converted} of them won; first win thrown away at ply:"
    );
    for (ply, n) in &by_ply {
        println!("  ply {ply:2}: {n}");
    }
    println!("mistaken positions (moves, column played, winning columns): games");
    let mut list: Vec<_> = where_.into_iter().collect();
    list.sort_by_key(|e| std::cmp::Reverse(e.1));
    for ((before, col, winning), n) in list.iter().take(15) {
        println!("  {before:<24} played {col}, wins {winning}: {n}");
    }
}
