//! Bad input never panics: arbitrary bytes and strings into every parser of the project
//! (move strings, benchmark lines, UCI rows, position CSV files, model files, agent specs,
//! plot inputs). Each property runs `cases()` cases (25,000, or `C4_PROP_CASES`); every call
//! must return `Ok` or a typed error, never panic.

// Test code: a failed unwrap is a failed test (library code may not unwrap).
#![allow(clippy::unwrap_used)]

use connect4_engine::Geometry;
use connect4_engine::agents::AgentSpec;
use connect4_engine::features::FeatureSet;
use connect4_engine::game::Position;
use connect4_engine::game::record::parse_test_line;
use connect4_engine::io::model_format::{ModelHeader, ModelKind, TrainingMeta, encode_model};
use connect4_engine::ml::gbt::{GbtParams, fit_gbt};
use connect4_engine::ml::model_file::decode_gbt;
use connect4_learn::datasets::games_csv::read_positions;
use connect4_learn::datasets::uci::parse_uci_bytes;
use linfa::ParamGuard;
use proptest::prelude::*;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Cases per property: 25,000 (about 15 s for all of them in CI's 2 cores), or as many as
/// `C4_PROP_CASES` says for a longer search (`C4_PROP_CASES=1000000 cargo test --test
/// parser_props`).
fn cases() -> u32 {
    match std::env::var("C4_PROP_CASES") {
        Ok(v) => v
            .parse()
            .unwrap_or_else(|_| panic!("C4_PROP_CASES={v:?}: expected a number of cases")),
        Err(_) => 25_000,
    }
}

const G: Geometry = Geometry::STANDARD;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: cases(),
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Text made mostly of the characters each format is built from, so that cases get past the
/// first check and reach the deeper ones.
fn near_text(alphabet: &'static str, max: usize) -> impl Strategy<Value = String> {
    let chars: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(
        prop_oneof![
            9 => prop::sample::select(chars),
            1 => any::<char>(),
        ],
        0..max,
    )
    .prop_map(|v| v.into_iter().collect())
}

/// A small valid GBT model file (trained once), to mutate.
fn model_bytes() -> &'static (Vec<u8>, usize) {
    static BYTES: OnceLock<(Vec<u8>, usize)> = OnceLock::new();
    BYTES.get_or_init(|| {
        let ext = FeatureSet::Cells.extractor(G);
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for (i, moves) in [
            "4", "44", "444", "4445", "12", "1234", "7", "765", "33", "3",
        ]
        .iter()
        .enumerate()
        {
            let mut row = vec![0.0; ext.len()];
            ext.extract(&Position::from_moves(G, moves).unwrap(), &mut row);
            rows.extend(row);
            labels.push(i % 3);
        }
        let x = ndarray::Array2::from_shape_vec((labels.len(), ext.len()), rows).unwrap();
        let params = GbtParams::new()
            .max_iter(3)
            .early_stopping(false)
            .min_samples_leaf(1)
            .check()
            .unwrap();
        let model = fit_gbt(
            &params,
            x.view(),
            &labels,
            None,
            &connect4_engine::progress::Quiet,
        )
        .unwrap();
        let header = ModelHeader {
            kind: ModelKind::Gbt,
            feature_set: "cells".into(),
            width: 7,
            height: 6,
            meta: TrainingMeta::default(),
        };
        let bytes = encode_model(&header, model.data()).unwrap();
        let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
        (bytes, 16 + header_len + 8)
    })
}

/// A temporary file per test thread, rewritten for every case.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("c4-parser-props-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn move_strings(s in near_text("1234567890 -", 60)) {
        if let Ok(p) = Position::from_moves(G, &s) {
            prop_assert!(p.moves_played() <= 42);
        }
    }

    #[test]
    fn benchmark_lines(s in near_text("1234567 -0#\t", 60)) {
        if let Ok(Some(t)) = parse_test_line(&s) {
            let _ = Position::from_moves(G, &t.moves);
        }
    }

    #[test]
    fn uci_rows(s in near_text("xob,\nwinlossdraw", 300)) {
        let _ = parse_uci_bytes(s.as_bytes(), Path::new("fuzz.data"), G, Some(8));
        let _ = parse_uci_bytes(s.as_bytes(), Path::new("fuzz.data"), G, None);
    }

    #[test]
    fn uci_bytes(b in prop::collection::vec(any::<u8>(), 0..300)) {
        let _ = parse_uci_bytes(&b, Path::new("fuzz.data"), G, Some(8));
    }

    #[test]
    fn agent_specs(s in near_text("abcdeghiklmnoprstuwy:=,.0123456789/_ ", 60)) {
        // Parsing only: building a factory loads model files named by the spec.
        let _ = s.parse::<AgentSpec>();
    }

    #[test]
    fn model_files(edits in prop::collection::vec((any::<prop::sample::Index>(), any::<u8>()), 0..6),
                   cut in any::<prop::sample::Index>(), mode in 0u8..3) {
        let (good, body_at) = model_bytes();
        let mut bytes = good.clone();
        match mode {
            // Bytes changed anywhere (the checksum catches them).
            0 => for (i, v) in &edits { let i = i.index(bytes.len()); bytes[i] = *v; },
            // Cut short anywhere.
            1 => bytes.truncate(cut.index(bytes.len())),
            // Body bytes changed and the checksum recomputed: the decoder and the model's own
            // checks must catch what the checksum no longer does.
            _ => {
                let end = bytes.len() - 32;
                for (i, v) in &edits {
                    let i = body_at + i.index(end - body_at);
                    bytes[i] = *v;
                }
                let sum = {
                    use sha2::Digest;
                    sha2::Sha256::digest(&bytes[..end])
                };
                bytes[end..].copy_from_slice(&sum);
            }
        }
        if let Ok(file) = decode_gbt(Path::new("fuzz.bin"), &bytes, Some(G)) {
            // A model that passes its checks must also predict without panicking.
            let mut out = [0.0; 3];
            let row = vec![0.0; file.model.n_features()];
            file.model.predict_proba_row(&row, &mut out);
        }
    }
}

// The file readers take paths: each case rewrites one scratch file.
proptest! {
    #![proptest_config(config())]

    #[test]
    fn position_csv_files(s in near_text("xob,\n0123456789winlossdraw-", 200), header in any::<bool>()) {
        let path = scratch("positions.csv");
        let text = if header {
            let cells: Vec<String> = (0..42).map(|i| connect4_engine::game::uci::cell_name(G, i)).collect();
            format!("{},to_move,ply,label,score,result\n{s}", cells.join(","))
        } else {
            s
        };
        write(&path, text.as_bytes());
        let _ = read_positions(&path, G);
    }

    #[test]
    fn plot_inputs(s in near_text("game,iteration,mse,score,loss,accuracy,feature,importance\n0123456789.-e{}[]\":agent", 200),
                   kind in 0usize..5) {
        let name = ["w.curve.csv", "g.curve.csv", "w.eval.csv", "g.importance.csv", "summary.json"][kind];
        let path = scratch(name);
        write(&path, s.as_bytes());
        let _ = connect4_ml::plot::files::charts_for(&path);
    }
}
