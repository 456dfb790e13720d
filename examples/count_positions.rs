//! Counts the positions reachable in legal play with each number of stones (games that ended
//! earlier stop there), all and up to mirror symmetry: the sizes behind deploy/README.md's
//! cost table. `cargo run --release --example count_positions -- 12`
use connect4_engine::{Geometry, Position};
use std::collections::HashSet;

fn main() {
    let max: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(10);
    let g = Geometry::STANDARD;
    let mut level: Vec<Position> = vec![Position::new(g)];
    for plies in 1..=max {
        let mut seen = HashSet::with_capacity(level.len() * 4);
        let mut next = Vec::with_capacity(level.len() * 4);
        for p in &level {
            if p.last_move_won() {
                continue;
            }
            for c in p.legal_columns().collect::<Vec<_>>() {
                let q = p.after(c).expect("legal");
                if seen.insert(q.key()) {
                    next.push(q);
                }
            }
        }
        let mirror: HashSet<u64> = next.iter().map(|p| p.canonical_key()).collect();
        let open = next.iter().filter(|p| !p.last_move_won()).count();
        println!(
            "{plies} stones: {} positions ({} up to mirror), {} with the game still open",
            next.len(),
            mirror.len(),
            open
        );
        level = next;
    }
}
