//! Times the GBT evaluator on single positions, the way search calls it at every leaf:
//! `cargo run --release --example gbt_eval_timing MODEL [POSITIONS]`.
//!
//! Positions default to the shipped held-out set (every phase, 10-36 stones). Reports the
//! feature extraction alone and the whole evaluation (features + trees + softmax) per
//! position, best of five passes.
use connect4_engine::eval::{Evaluator, GbtEvaluator};
use connect4_engine::game::Geometry;
use connect4_engine::ml::model_file::load_gbt;
use connect4_learn::datasets::labelled::{Expect, read_moves_file};
use std::path::Path;
use std::time::Instant;

fn best_of<F: FnMut() -> f64>(passes: usize, n: usize, mut f: F) -> (f64, f64) {
    let mut best = f64::INFINITY;
    let mut check = 0.0;
    for _ in 0..passes {
        let t = Instant::now();
        check = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / n as f64);
    }
    (best, check)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let model = args
        .next()
        .expect("usage: gbt_eval_timing MODEL [POSITIONS]");
    let positions = args
        .next()
        .unwrap_or_else(|| "data/positions/heldout.txt.gz".into());
    let geom = Geometry::default();
    let file = load_gbt(Path::new(&model), Some(geom)).expect("model file");
    let extractor = file.features.extractor(geom);
    let e = GbtEvaluator::load(Path::new(&model), geom).expect("model file");
    let pos: Vec<_> = read_moves_file(Path::new(&positions), geom, Expect::Any)
        .expect("positions file")
        .into_iter()
        .map(|l| l.position)
        .collect();
    let mut buf = vec![0.0; extractor.len()];
    let (features_us, _) = best_of(5, pos.len(), || {
        let mut s = 0.0;
        for p in &pos {
            extractor.extract(std::hint::black_box(p), &mut buf);
            s += buf[buf.len() - 1];
        }
        s
    });
    let (total_us, check) = best_of(5, pos.len(), || {
        pos.iter()
            .map(|p| e.evaluate(std::hint::black_box(p)))
            .sum()
    });
    println!(
        "{model}: {} features ({}), {} iterations, {} positions of {positions}: features {features_us:.2} us, \
         whole evaluation {total_us:.2} us per position (checksum {check:.3})",
        extractor.len(),
        file.features.name(),
        e.model().n_iterations(),
        pos.len(),
    );
}
