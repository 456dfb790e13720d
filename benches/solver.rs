//! Criterion benches of the solver's hot paths on fixed positions.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]
// criterion_group! makes an undocumented public function.
#![allow(missing_docs)]

use connect4_engine::{Geometry, Mode, Position, Solver};
use criterion::{Criterion, criterion_group, criterion_main};

fn solver(c: &mut Criterion) {
    let geom = Geometry::STANDARD;
    // A middle-game position from Test_L2_R1 and an end-game one from Test_L3_R1.
    let cases = [
        ("end_easy", "2252576253462244111563365343671351441"),
        ("middle_easy", "5554224333234511764415115"),
    ];
    for (name, moves) in cases {
        let pos = Position::from_moves(geom, moves).unwrap();
        c.bench_function(&format!("solve_{name}_cold"), |b| {
            let mut s = Solver::with_table_mib(geom, 1).unwrap();
            b.iter(|| {
                s.clear();
                s.score(&pos, Mode::Strong)
            })
        });
    }
    let pos = Position::from_moves(geom, "4453").unwrap();
    c.bench_function("possible_non_losing_moves", |b| {
        b.iter(|| std::hint::black_box(&pos).possible_non_losing_moves())
    });
}

criterion_group!(benches, solver);
criterion_main!(benches);
