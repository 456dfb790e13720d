//! How much a feature set can tell apart: `cargo run --release --example feature_ceiling
//! [UCI_FILE] [POSITIONS_FILE]`.
//!
//! For each feature set, positions with identical feature vectors are one group; no model
//! reading only those features can give two positions of one group different answers, so
//! the share of rows carrying their group's most common label bounds the accuracy any model
//! of that set can reach on the same rows (it is a ceiling, measured on the rows themselves).
//! Run on the UCI file (all 8 stones) and on the shipped labelled positions (10-36 stones).
use connect4_engine::features::{FEATURE_SETS, FeatureSet};
use connect4_engine::game::Geometry;
use connect4_learn::datasets::Example;
use std::collections::HashMap;
use std::path::Path;

/// Share of rows where either player has a threat cell (an empty cell completing four).
fn with_threat(rows: &[Example]) -> f64 {
    let ext = FeatureSet::OddEven.extractor(Geometry::default());
    let mut buf = vec![0.0; ext.len()];
    let n = rows
        .iter()
        .filter(|e| {
            ext.extract(&e.position, &mut buf);
            // threats_good/bad of the mover (0, 1) and of the opponent (6, 7).
            buf[0] + buf[1] + buf[6] + buf[7] > 0.0
        })
        .count();
    n as f64 / rows.len() as f64
}

fn ceiling(set: FeatureSet, rows: &[Example]) -> (usize, f64) {
    let geom = Geometry::default();
    let ext = set.extractor(geom);
    let mut buf = vec![0.0; ext.len()];
    let mut groups: HashMap<Vec<u64>, [usize; 3]> = HashMap::new();
    for e in rows {
        ext.extract(&e.position, &mut buf);
        let key: Vec<u64> = buf.iter().map(|v| v.to_bits()).collect();
        groups.entry(key).or_default()[e.label.index()] += 1;
    }
    let best: usize = groups
        .values()
        .map(|c| c.iter().max().copied().unwrap_or(0))
        .sum();
    (groups.len(), best as f64 / rows.len() as f64)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let uci = args
        .next()
        .unwrap_or_else(|| connect4_learn::datasets::uci::DEFAULT_UCI_PATH.into());
    let positions = args
        .next()
        .unwrap_or_else(|| "data/positions/train.txt.gz".into());
    let geom = Geometry::default();
    let uci_rows: Vec<Example> = connect4_learn::datasets::uci::load_uci(Path::new(&uci))
        .expect("UCI file")
        .rows
        .iter()
        .map(Example::from)
        .collect();
    let (shipped, _) =
        connect4_learn::datasets::sources::read_labelled_examples(Path::new(&positions), geom)
            .expect("positions file");
    for (name, rows) in [(uci.as_str(), &uci_rows), (positions.as_str(), &shipped)] {
        println!(
            "{name}: {} rows, {:.1}% with a threat cell of either player",
            rows.len(),
            100.0 * with_threat(rows)
        );
        println!("  {:<14} {:>9} {:>9}", "features", "distinct", "ceiling");
        for set in FEATURE_SETS {
            let (distinct, top) = ceiling(set, rows);
            println!("  {:<14} {distinct:>9} {:>8.2}%", set.name(), 100.0 * top);
        }
    }
}
