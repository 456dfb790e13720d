//! Tests of the LMS self-play trainer.

use super::*;
use crate::arena::GameResult;
use crate::arena::PlayedGame;
use connect4_engine::game::Geometry;
use connect4_engine::progress::Quiet;
use linfa::ParamGuard;

#[test]
fn examples_target_the_next_met_position_and_the_result() {
    let g = Geometry::STANDARD;
    let f = Linear8::new(g);
    let lms = Lms::new(HAND_TUNED_WEIGHTS, 0.01).unwrap();
    // x plays column 1 four times and wins: "1212121".
    let moves = [0, 1, 0, 1, 0, 1, 0];
    let game = PlayedGame {
        moves: moves.to_vec(),
        result: GameResult::FirstWin,
        ms_per_move: [0.0; 2],
    };
    let ex = game_examples(&lms, &f, g, &game, Player::First, 1.0, || true);
    // x met plies 0, 2, 4, 6: four examples plus the final position.
    assert_eq!(ex.len(), 5);
    let pos = |n: usize| {
        let mut p = Position::new(g);
        for &c in &moves[..n] {
            p.play_col(c);
        }
        f.extract(&p)
    };
    assert_eq!(ex[0].features, pos(0));
    assert_eq!(ex[0].target, lms.estimate(&pos(2)));
    assert_eq!(ex[3].target, lms.estimate(&pos(7)));
    assert_eq!(ex[4].features, pos(7));
    assert_eq!(
        ex[4].target, 1.0,
        "a first-player win is +1 in the first player's frame"
    );
    // The same game seen by o: o met plies 1, 3, 5; the result is still +1 for x.
    let ex = game_examples(&lms, &f, g, &game, Player::Second, 2.0, || false);
    assert_eq!(ex.len(), 1, "nothing sampled but the final position");
    assert_eq!(ex[0].target, 2.0);
}

#[test]
fn an_interrupted_run_resumed_from_its_checkpoint_ends_as_an_uninterrupted_one() {
    let config = LmsConfig {
        max_games: 40,
        window: 10,
        eval_every: 15,
        eval_games: 4,
        depth: 2,
        weight_tol: 0.0,
        seed: 9,
        ..LmsConfig::default()
    };
    let whole = train(&config.clone().check().unwrap(), &Quiet).unwrap();
    let dir = std::env::temp_dir().join(format!("c4-lms-ck-{}", std::process::id()));
    let cp = Checkpointing {
        path: dir.join("w.checkpoint"),
        every: 10,
        resume: true,
    };
    /// Counts games; panics at game `die_at`; remembers the first step size (a resumed
    /// run first advances by the games its checkpoint held).
    struct Games {
        done: std::sync::atomic::AtomicUsize,
        first_step: std::sync::atomic::AtomicUsize,
        die_at: usize,
    }
    impl Progress for Games {
        fn advance(&self, steps: usize) {
            use std::sync::atomic::Ordering::Relaxed;
            let _ = self.first_step.compare_exchange(0, steps, Relaxed, Relaxed);
            if self.done.fetch_add(steps, Relaxed) + steps == self.die_at {
                panic!("interrupted");
            }
        }
    }
    let games = |die_at| Games {
        done: 0.into(),
        first_step: 0.into(),
        die_at,
    };
    // The process dies during game 27: the checkpoint after game 20 is on disk.
    let crashed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        train_with(&config.clone().check().unwrap(), Some(&cp), &games(27))
    }));
    assert!(crashed.is_err());
    let counter = games(usize::MAX);
    let resumed = train_with(&config.clone().check().unwrap(), Some(&cp), &counter).unwrap();
    assert_eq!(
        counter.first_step.into_inner(),
        20,
        "the checkpoint held 20 games"
    );
    assert_eq!(resumed.weights, whole.weights);
    assert_eq!(resumed.last_weights, whole.last_weights);
    assert_eq!(resumed.records, whole.records);
    assert_eq!(resumed.evaluations, whole.evaluations);
    // Other settings refuse the checkpoint instead of mixing two runs.
    let other = LmsConfig {
        seed: 10,
        ..config.clone()
    };
    let err = train_with(&other.clone().check().unwrap(), Some(&cp), &Quiet).unwrap_err();
    assert!(err.to_string().contains("other settings"), "{err}");
    std::fs::write(&cp.path, b"junk").unwrap();
    let err = train_with(&config.clone().check().unwrap(), Some(&cp), &Quiet).unwrap_err();
    assert!(err.to_string().contains("not a checkpoint"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn training_is_reproducible_and_stops_by_its_rules() {
    let config = LmsConfig {
        max_games: 30,
        window: 10,
        eval_every: 15,
        eval_games: 4,
        depth: 2,
        weight_tol: 0.0,
        ..LmsConfig::default()
    };
    let a = train(&config.clone().check().unwrap(), &Quiet).unwrap();
    let b = train(&config.clone().check().unwrap(), &Quiet).unwrap();
    assert_eq!(a.weights, b.weights);
    assert_eq!(a.records, b.records);
    assert_eq!(a.stop, StopReason::MaxGames);
    assert_eq!(a.games, 30);
    assert_eq!(
        a.evaluations.len(),
        3,
        "before training, after 15 and 30 games"
    );
    let max = a.weights.iter().fold(0.0f64, |m, w| m.max(w.abs()));
    assert!((max - 1.0).abs() < 1e-12, "normalised: {:?}", a.weights);
    // A stop score of 0 stops at the first evaluation after training starts.
    let quick = LmsConfig {
        stop_score: 0.0,
        ..config.clone()
    };
    let r = train(&quick.clone().check().unwrap(), &Quiet).unwrap();
    assert_eq!((r.stop, r.games), (StopReason::BeatHandTuned, 15));
    // A huge tolerance stops as soon as the window is full.
    let loose = LmsConfig {
        weight_tol: 100.0,
        ..config
    };
    let r = train(&loose.clone().check().unwrap(), &Quiet).unwrap();
    assert_eq!((r.stop, r.games), (StopReason::WeightsConverged, 10));
}

#[test]
fn bad_settings_are_named() {
    for (config, want) in [
        (
            LmsConfig {
                rate: -1.0,
                ..LmsConfig::default()
            },
            "learning rate",
        ),
        (
            LmsConfig {
                sample_rate: 0.0,
                ..LmsConfig::default()
            },
            "sample_rate",
        ),
        (
            LmsConfig {
                depth: 0,
                ..LmsConfig::default()
            },
            "depth",
        ),
        (
            LmsConfig {
                opening: 42,
                ..LmsConfig::default()
            },
            "opening",
        ),
    ] {
        let err = config.check().unwrap_err().to_string();
        assert!(err.contains(want), "{err}");
    }
}
