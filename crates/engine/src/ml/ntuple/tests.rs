//! Tests of the parent module.

use super::patterns::pattern;
use super::*;
use crate::game::Player;

#[test]
fn more_tuples_than_the_board_has_are_refused_at_once() {
    let g = Geometry::STANDARD;
    let layout = |tuples, cells| NTupleLayout {
        tuples,
        cells,
        sets: 1,
        seed: 1,
    };
    // 7x6 has 36 + 35 + 60 = 131 pairs of neighbouring cells.
    assert_eq!(
        NTupleNetwork::new(g, layout(131, 2)).unwrap().cells.len(),
        131
    );
    let e = NTupleNetwork::new(g, layout(200, 2)).unwrap_err();
    assert_eq!(
        e,
        NTupleError::TooManyTuples {
            tuples: 200,
            cells: 2,
            found: 131
        }
    );
}

#[test]
fn a_network_is_symmetric_and_learns_toward_its_target() {
    let g = Geometry::STANDARD;
    let mut net = NTupleNetwork::new(g, NTupleLayout::default()).unwrap();
    assert_eq!(net.tuples().len(), 70);
    assert!(net.tuples().iter().all(|t| t.len() == 8));
    let p = Position::from_moves(g, "4453").unwrap();
    assert_eq!(net.value(&p), 0.0);
    let a = net.active(&p);
    for _ in 0..200 {
        net.learn(&a, 0.8, 0.01);
    }
    let v = net.value(&p);
    assert!((v - 0.8).abs() < 0.05, "{v}");
    // The mirror image reads the same weights: same value.
    assert!((net.value(&p.mirror()) - v).abs() < 1e-6);
    // Other positions moved less.
    let q = Position::from_moves(g, "1122").unwrap();
    assert!(net.value(&q).abs() < v.abs());
    // value() and the active slots agree.
    assert!((net.raw(&a).tanh() - v).abs() < 1e-6);
    // Stored and rebuilt, the network is the same.
    let back = NTupleNetwork::from_data(g, net.data()).unwrap();
    assert_eq!(back.value(&p), v);
}

#[test]
fn bit_extraction_reads_the_same_patterns_as_cell_by_cell() {
    let g = Geometry::STANDARD;
    let net = NTupleNetwork::new(g, NTupleLayout::default()).unwrap();
    if net.extract.is_none() {
        eprintln!("no BMI2 here: only the cell-by-cell patterns are in use");
    }
    let slow = NTupleNetwork {
        extract: None,
        ..net.clone()
    };
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
    for _ in 0..300 {
        let mut p = Position::new(g);
        let plies = rng.gen_range(0..40);
        for _ in 0..plies {
            let legal: Vec<usize> = (0..7).filter(|&c| p.can_play(c)).collect();
            match p.after(legal[rng.gen_range(0..legal.len())]) {
                Some(q) if !q.last_move_won() && !q.is_full() => p = q,
                _ => break,
            }
        }
        assert_eq!(net.active(&p), slow.active(&p), "{p:?}");
    }
}

#[test]
fn patterns_read_the_four_cell_states() {
    let g = Geometry::STANDARD;
    // "41": first player at d1, second at a1; a2 and d2 are playable, b1 too.
    let p = Position::from_moves(g, "41").unwrap();
    let mask = p.mask();
    let reach = mask.wrapping_add(g.bottom_mask()) & g.board_mask();
    let lo = p.stones_of(Player::Second) | reach;
    let cells = [bit(g, 3, 0), bit(g, 0, 0), bit(g, 0, 1), bit(g, 0, 2)];
    // Digits, lowest first: first's stone 2, second's 3, playable 1, not yet 0.
    assert_eq!(pattern(&cells, mask, lo), 2 + 3 * 4 + 16);
}

#[test]
fn bad_layouts_and_data_are_refused() {
    let g = Geometry::STANDARD;
    let l = NTupleLayout::default();
    assert!(NTupleNetwork::new(g, NTupleLayout { cells: 1, ..l }).is_err());
    assert!(NTupleNetwork::new(g, NTupleLayout { sets: 3, ..l }).is_err());
    let net = NTupleNetwork::new(
        g,
        NTupleLayout {
            tuples: 3,
            cells: 4,
            ..l
        },
    )
    .unwrap();
    let mut d = net.data();
    d.weights.pop();
    assert!(NTupleNetwork::from_data(g, d).is_err());
    let mut d = net.data();
    d.weights[5] = f32::NAN;
    assert!(NTupleNetwork::from_data(g, d).is_err());
    let mut d = net.data();
    d.tuples[0][0] = (9, 0);
    assert!(NTupleNetwork::from_data(g, d).is_err());
}

#[test]
fn afterstates_patched_from_a_common_list_are_read_afresh_exactly() {
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(11);
    // Both table splits, a small board where tuples reach the top row, and both ways of
    // reading patterns.
    for (g, layout) in [
        (Geometry::STANDARD, NTupleLayout::default()),
        (
            Geometry::STANDARD,
            NTupleLayout {
                sets: 1,
                ..NTupleLayout::default()
            },
        ),
        (
            Geometry::new(5, 4).unwrap(),
            NTupleLayout {
                tuples: 12,
                cells: 5,
                sets: 2,
                seed: 3,
            },
        ),
    ] {
        let fast = NTupleNetwork::new(g, layout).unwrap();
        let slow = NTupleNetwork {
            extract: None,
            ..fast.clone()
        };
        let (mut common, mut patched) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            let p = random_open_position(g, &mut rng);
            for net in [&fast, &slow] {
                net.afterstate_common(&p, &mut common);
                for c in p.legal_columns() {
                    net.afterstate_into(&p, &common, c, &mut patched);
                    let after = p.after(c).unwrap();
                    assert_eq!(patched, net.active(&after), "{p:?} then column {c}");
                }
            }
        }
    }
}

/// A position of a random game of random length on `g` that is not over.
pub(super) fn random_open_position(g: Geometry, rng: &mut impl Rng) -> Position {
    let mut p = Position::new(g);
    for _ in 0..rng.gen_range(0..g.cells()) {
        let legal: Vec<usize> = p.legal_columns().collect();
        match p.after(legal[rng.gen_range(0..legal.len())]) {
            Some(q) if !q.last_move_won() && !q.is_full() => p = q,
            _ => break,
        }
    }
    p
}

/// Random weights on the slots a board can index (what a trained network has).
fn with_random_weights<B: BitBoard>(mut net: NTupleNetwork<B>, seed: u64) -> NTupleNetwork<B> {
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(seed);
    for s in net.reachable_slots() {
        net.weights[s as usize] = rng.gen_range(-0.05..0.05);
    }
    net
}

#[test]
fn a_network_reads_a_board_alike_in_either_integer() {
    // 8x7 fills every bit of a u64: the u128 network (cell by cell) must give exactly the
    // slots, afterstates and values of the u64 one (bit extraction where the CPU has it).
    let g = Geometry::new(8, 7).unwrap();
    let narrow = with_random_weights(NTupleNetwork::new(g, NTupleLayout::default()).unwrap(), 4);
    let wide = NTupleNetwork::from_data(g.widen(), narrow.data()).unwrap();
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(9);
    let (mut common, mut after, mut wide_common, mut wide_after) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for _ in 0..200 {
        let mut p = Position::new(g);
        for _ in 0..rng.gen_range(0..40) {
            let cols: Vec<usize> = p
                .legal_columns()
                .filter(|&c| !p.is_winning_move(c))
                .collect();
            if cols.is_empty() {
                break;
            }
            p.play_col(cols[rng.gen_range(0..cols.len())]);
        }
        let w = p.widen();
        assert_eq!(narrow.active(&p), wide.active(&w));
        assert_eq!(narrow.value(&p), wide.value(&w));
        narrow.afterstate_common(&p, &mut common);
        wide.afterstate_common(&w, &mut wide_common);
        for col in p.legal_columns() {
            narrow.afterstate_into(&p, &common, col, &mut after);
            wide.afterstate_into(&w, &wide_common, col, &mut wide_after);
            assert_eq!(after, wide_after);
            assert_eq!(after, wide.active(&w.after(col).unwrap()));
        }
    }
}

#[test]
fn a_network_for_a_board_past_64_bits_is_saved_and_read_back() {
    let g = Geometry::<u128>::sized(9, 7).unwrap();
    let layout = NTupleLayout {
        tuples: 12,
        cells: 6,
        sets: 2,
        seed: 3,
    };
    let net = with_random_weights(NTupleNetwork::new(g, layout).unwrap(), 5);
    let dir = std::env::temp_dir().join(format!("c4-ntuple-wide-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("ntuple-9x7.bin");
    crate::ml::model_file::save_ntuple(&path, &net, Default::default()).unwrap();
    let back = crate::ml::model_file::load_ntuple_on(&path, g).unwrap();
    assert_eq!(back.data(), net.data());
    let p = Position::from_moves(g, "556647731928").unwrap();
    assert_eq!(back.value(&p), net.value(&p));
    assert_ne!(net.value(&p), 0.0);
    // Read for another board: an error naming both.
    let other = Geometry::<u128>::sized(8, 8).unwrap();
    let err = crate::ml::model_file::load_ntuple_on(&path, other)
        .unwrap_err()
        .to_string();
    assert!(err.contains("9x7") && err.contains("8x8"), "{err}");
    let err = crate::ml::model_file::load_ntuple(&path, Some(Geometry::STANDARD))
        .unwrap_err()
        .to_string();
    assert!(err.contains("9x7") && err.contains("7x6"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}
