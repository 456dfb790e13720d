//! Times the GBT evaluator on single positions: `cargo run --release --example gbt_eval_timing MODEL`.
use connect4_ml::eval::{Evaluator, GbtEvaluator};
use connect4_ml::ml::uci::read_uci;
fn main() {
    let model = std::env::args().nth(1).expect("model path");
    let e = GbtEvaluator::load(std::path::Path::new(&model), Default::default()).unwrap();
    let rows = read_uci(std::path::Path::new("../shared/data/uci/connect-4.data")).unwrap();
    let pos: Vec<_> = rows.iter().take(10000).map(|r| r.position).collect();
    let mut s = 0.0;
    let t = std::time::Instant::now();
    for _ in 0..3 {
        for p in &pos {
            s += e.evaluate(std::hint::black_box(p));
        }
    }
    let us = t.elapsed().as_secs_f64() * 1e6 / (3 * pos.len()) as f64;
    println!(
        "{model}: {} iterations, {us:.2} us per evaluation (features + trees), checksum {s:.3}",
        e.model().n_iterations()
    );
}
