use super::*;
use crate::eval::{Evaluator, OpenLines, builtin};
use crate::game::Geometry;

fn searcher(eval: &str, depth: u32) -> Searcher {
    Searcher::new(
        builtin(eval, Geometry::STANDARD).unwrap(),
        SearchParams::depth(depth),
    )
}

fn pos(moves: &str) -> Position {
    Position::from_moves(Geometry::STANDARD, moves).unwrap()
}

#[test]
fn takes_an_immediate_win() {
    // x has c1-c3 on row 1: column 4 wins.
    let r = searcher("openlines", 3).choose(&pos("112233"));
    assert_eq!((r.column, r.value), (3, WIN - 1.0));
}

#[test]
fn blocks_the_only_threat_without_searching() {
    // o to move, x threatens c4r1: the one safe move is played at once.
    let r = searcher("window", 5).choose(&pos("11223"));
    assert_eq!(r.column, 3);
    assert_eq!(r.depth, 0);
}

#[test]
fn sees_a_double_threat_three_plies_ahead() {
    // x on c3 and c4 of row 1 with c2, c5 and c6 open; o elsewhere: x plays c5 (or c2) to
    // make an open three that o cannot stop, and wins on the third ply.
    let mut s = searcher("openlines", 3);
    let p = pos("3747");
    let r = s.choose(&p);
    assert!(r.column == 1 || r.column == 4, "column {}", r.column + 1);
    assert_eq!(r.value, WIN - 3.0);
    assert_eq!(decisive_plies(r.value), Some(3));
}

#[test]
fn a_lost_position_prefers_the_slowest_loss() {
    // o to move after x's open three on row 1 (c3 c4 c5, o twice on c7): o blocks one
    // end, x wins at the other on its next move: the loss is two plies away.
    let mut s = searcher("openlines", 4);
    let r = s.choose(&pos("37475"));
    assert_eq!(r.value, -(WIN - 2.0));
    // Analysis agrees for every column.
    let a = s.analyze(&pos("37475"), 4);
    for (c, v) in a.iter().enumerate() {
        let v = v.unwrap();
        assert!(v <= -(WIN - 2.0) + 1e-9, "column {} value {v}", c + 1);
    }
}

#[test]
fn analysis_gives_exact_values_per_column() {
    // Depth 1 analysis is just the static value of each child for the player who moves.
    let g = Geometry::STANDARD;
    let e = OpenLines::new(g);
    let p = pos("44");
    let mut s = searcher("openlines", 1);
    let a = s.analyze(&p, 1);
    for (col, &value) in a.iter().enumerate() {
        let child = p.after(col).unwrap();
        assert_eq!(
            value,
            Some(e.evaluate_for(&child, p.side_to_move())),
            "column {}",
            col + 1
        );
    }
    // A deeper analysis picks the same column as choose at that depth.
    let a3 = s.analyze(&p, 3);
    let best = (0..7)
        .max_by(|&x, &y| a3[x].unwrap().total_cmp(&a3[y].unwrap()).then(y.cmp(&x)))
        .unwrap();
    let r = searcher("openlines", 3).choose(&p);
    assert_eq!(a3[r.column].unwrap(), a3[best].unwrap());
    assert_eq!(r.value, a3[best].unwrap());
}

#[test]
fn variable_depth_schedule() {
    let p = SearchParams {
        depth: 3,
        schedule: vec![(10, 5), (20, 9)],
        ..SearchParams::default()
    };
    assert_eq!(p.depth_at(0), 3);
    assert_eq!(p.depth_at(10), 5);
    assert_eq!(p.depth_at(25), 9);
}

#[test]
fn time_budget_still_returns_a_move() {
    let mut s = Searcher::new(
        builtin("handtuned", Geometry::STANDARD).unwrap(),
        SearchParams {
            depth: 40,
            time_budget: Some(Duration::from_millis(30)),
            ..SearchParams::default()
        },
    );
    let r = s.choose(&pos("44"));
    assert!(r.depth >= 1 && r.depth < 40);
    assert!(pos("44").can_play(r.column));
}

/// An evaluator that loves column 1 for whoever moved last, whatever the position.
struct LovesColumnOne;

impl Evaluator for LovesColumnOne {
    fn name(&self) -> String {
        "loves-column-one".into()
    }
    fn evaluate(&self, pos: &Position) -> f64 {
        // For the side to move: the opponent's stone at a1.. is great for the opponent.
        let g = pos.geometry();
        let theirs = pos.opponent_stones() & g.column_mask(0);
        -(theirs.count_ones() as f64)
    }
}

#[test]
fn safe_chooses_between_the_rule_alone_and_no_rule() {
    let with = |safe| {
        Searcher::new(
            std::sync::Arc::new(LovesColumnOne),
            SearchParams {
                safe,
                ..SearchParams::depth(1)
            },
        )
    };
    // o to move; x threatens d1 (a1-c1 are x's): only column 4 does not lose at once.
    let p = pos("15263");
    // No rule: the evaluator's favourite, column 1, though it hands x the game.
    assert_eq!(with(Some(false)).choose(&p).column, 0);
    // The one-move rule alone, and the default tactics: the block.
    assert_eq!(with(Some(true)).choose(&p).column, 3);
    assert_eq!(with(None).choose(&p).column, 3);
    // An immediate win is taken with the rule, and found by the search without it.
    let w = pos("152637");
    assert_eq!(with(Some(true)).choose(&w).column, 3);
    assert_eq!(with(Some(false)).choose(&w).column, 3);
}

/// An evaluator that batches: the window evaluator's values, counted by how they were asked
/// for, with prefetched values kept by position.
struct Batching {
    inner: Arc<dyn Evaluator>,
    depth: u32,
    kept: std::sync::Mutex<std::collections::HashMap<(u64, u64), f64>>,
    single: std::sync::atomic::AtomicUsize,
    batches: std::sync::atomic::AtomicUsize,
}

impl Evaluator for Batching {
    fn name(&self) -> String {
        "batching".into()
    }
    fn evaluate(&self, pos: &Position) -> f64 {
        let key = (pos.current_stones(), pos.mask());
        if let Some(&v) = self.kept.lock().unwrap().get(&key) {
            return v;
        }
        self.single
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.inner.evaluate(pos)
    }
    fn prefetch_depth(&self) -> u32 {
        self.depth
    }
    fn prefetch(&self, positions: &[Position]) {
        self.batches
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut kept = self.kept.lock().unwrap();
        for p in positions {
            kept.insert((p.current_stones(), p.mask()), self.inner.evaluate(p));
        }
    }
}

#[test]
fn an_evaluator_that_batches_hears_of_the_leaves_first_and_the_search_is_unchanged() {
    let window = builtin("window", Geometry::STANDARD).unwrap();
    let batching = |depth| {
        Arc::new(Batching {
            inner: window.clone(),
            depth,
            kept: Default::default(),
            single: 0.into(),
            batches: 0.into(),
        })
    };
    for (moves, depth) in [("", 3), ("4453", 4), ("444", 1), ("1122", 2), ("3344", 5)] {
        // The same values without the hook (prefetch depth 0: every leaf asked alone).
        let plain = Searcher::new(batching(0), SearchParams::depth(depth)).choose(&pos(moves));
        for prefetch in [1, 2] {
            let b = batching(prefetch);
            let r = Searcher::new(b.clone(), SearchParams::depth(depth)).choose(&pos(moves));
            let what = format!("{moves:?} depth {depth}, batches {prefetch} plies up");
            assert_eq!(
                (r.column, r.value, r.nodes),
                (plain.column, plain.value, plain.nodes),
                "{what}"
            );
            assert!(
                b.batches.load(std::sync::atomic::Ordering::Relaxed) > 0,
                "{what}"
            );
            assert_eq!(
                b.single.load(std::sync::atomic::Ordering::Relaxed),
                0,
                "every leaf was fetched first: {what}"
            );
        }
    }
}
