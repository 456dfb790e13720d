//! `c4 train lms --restarts K`: several seeded self-play runs, keeping the one that plays best,
//! so that one unlucky seed (weights stuck with a wrong sign) no longer ships a bad model.

use super::{LmsRun, LmsTrainError, ValidLmsConfig, evaluation_match, train};
use connect4_engine::progress::Progress;
use serde::Serialize;

/// One restart and how its weights did in the common match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Restart {
    /// The run's seed (the configuration's seed plus the restart's index).
    pub seed: u64,
    /// Training games it played.
    pub games: usize,
    /// Its weights' score in the common match against the hand-tuned agent.
    pub score: f64,
    /// The weights it returned.
    pub weights: [f64; connect4_engine::ml::lms::N_WEIGHTS],
}

/// The common match that compares weights trained under `config`: `games` games against the
/// hand-tuned agent at the training depth, on openings drawn from a seed derived from
/// `config.seed` (the same openings for every restart, and for a supervised fit).
pub fn common_match(
    config: &ValidLmsConfig,
    weights: [f64; connect4_engine::ml::lms::N_WEIGHTS],
    games: usize,
) -> super::MatchScore {
    evaluation_match(
        config.geometry,
        weights,
        config.depth,
        games,
        config.opening,
        connect4_engine::seed::derive_seed(
            config.seed,
            connect4_engine::seed::Stream::LmsCommonMatch,
            &[],
        ),
    )
}

/// Runs `restarts` trainings with seeds `config.seed`, `config.seed + 1`, ... and returns the
/// run whose weights score best (the earliest on ties) with every restart's summary.
///
/// Each run's own evaluation matches use its own seed, so their scores are not comparable
/// across runs; the restarts are compared instead in one common match of `match_games` games
/// against the hand-tuned agent at the training depth, on the same openings for every run.
pub fn train_restarts(
    config: &ValidLmsConfig,
    restarts: usize,
    match_games: usize,
    progress: &dyn Progress,
) -> Result<(LmsRun, Vec<Restart>), LmsTrainError> {
    if restarts == 0 || match_games == 0 {
        return Err(LmsTrainError::Setting(
            crate::train::setting::SettingError {
                name: "restarts and their match games",
                value: format!("{restarts} and {match_games}"),
                expected: "at least 1 each",
            },
        ));
    }
    let mut best: Option<(LmsRun, f64)> = None;
    let mut summaries = Vec::with_capacity(restarts);
    for i in 0..restarts {
        let cfg = config.with_seed(config.seed + i as u64);
        let run = train(&cfg, progress)?;
        let m = common_match(config, run.weights, match_games);
        summaries.push(Restart {
            seed: cfg.seed,
            games: run.games,
            score: m.score,
            weights: run.weights,
        });
        if best.as_ref().is_none_or(|(_, s)| m.score > *s) {
            best = Some((run, m.score));
        }
    }
    let (run, _) = best.expect("at least one restart");
    Ok((run, summaries))
}

#[cfg(test)]
mod tests {
    use super::super::LmsConfig;
    use super::*;
    use linfa::ParamGuard;

    #[test]
    fn the_best_restart_is_kept_and_restart_zero_is_the_plain_run() {
        let config = LmsConfig {
            max_games: 30,
            window: 10,
            eval_every: 15,
            eval_games: 4,
            depth: 1,
            seed: 9,
            ..LmsConfig::default()
        }
        .check()
        .unwrap();
        let quiet = connect4_engine::progress::Quiet;
        let (run, all) = train_restarts(&config, 3, 10, &quiet).unwrap();
        assert_eq!(
            all.iter().map(|r| r.seed).collect::<Vec<_>>(),
            vec![9, 10, 11]
        );
        let best = all
            .iter()
            .fold(&all[0], |b, r| if r.score > b.score { r } else { b });
        assert_eq!(run.weights, best.weights);
        assert_eq!(all[0].weights, train(&config, &quiet).unwrap().weights);
        assert!(train_restarts(&config, 0, 10, &quiet).is_err());
    }
}
