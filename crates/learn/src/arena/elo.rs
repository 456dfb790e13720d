//! Elo ratings fitted on all games at once (Bradley-Terry with draws as half points), with
//! bootstrap confidence intervals.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// One game for rating purposes: agents `a` and `b` and `a`'s points (1, 0.5, 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GameScore {
    /// First agent's index.
    pub a: usize,
    /// Second agent's index.
    pub b: usize,
    /// `a`'s points.
    pub score: f64,
}

/// An agent's fitted rating.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct EloRating {
    /// The agent.
    pub agent: String,
    /// The rating; the mean over agents is 1500.
    pub elo: f64,
    /// Lower end of the 95% bootstrap interval.
    pub low: f64,
    /// Upper end of the 95% bootstrap interval.
    pub high: f64,
    /// Games played.
    pub games: usize,
    /// Points scored / games, in percent.
    pub score_pct: f64,
}

/// Mean of the ratings.
const MEAN: f64 = 1500.0;

/// Maximum-likelihood ratings by the minorisation-maximisation iteration for the
/// Bradley-Terry model, where P(a beats b) = 1 / (1 + 10^((Rb - Ra) / 400)) and a draw counts
/// as half a win for each side. One virtual draw per pairing that met keeps the ratings of
/// an agent that won (or lost) everything finite.
fn fit(n: usize, games: &[GameScore]) -> Vec<f64> {
    let mut wins = vec![0.0; n];
    let mut met = vec![vec![0.0; n]; n];
    for g in games {
        wins[g.a] += g.score;
        wins[g.b] += 1.0 - g.score;
        met[g.a][g.b] += 1.0;
        met[g.b][g.a] += 1.0;
    }
    for (i, row) in met.iter_mut().enumerate() {
        for (j, m) in row.iter_mut().enumerate() {
            if i != j && *m > 0.0 {
                // One virtual draw per pairing: half a point to each side.
                wins[i] += 0.5;
                *m += 1.0;
            }
        }
    }
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = vec![0.0; n];
        for i in 0..n {
            let denom: f64 = (0..n)
                .filter(|&j| j != i && met[i][j] > 0.0)
                .map(|j| met[i][j] / (gamma[i] + gamma[j]))
                .sum();
            next[i] = if denom > 0.0 {
                wins[i] / denom
            } else {
                gamma[i]
            };
        }
        // Fix the scale: geometric mean 1.
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        let mut change = 0.0f64;
        for i in 0..n {
            let g = (next[i].ln() - log_mean).exp();
            change = change.max((g / gamma[i]).ln().abs());
            gamma[i] = g;
        }
        if change < 1e-12 {
            break;
        }
    }
    gamma.iter().map(|g| MEAN + 400.0 * g.log10()).collect()
}

/// Fits ratings for `names` on `games`, with 95% intervals from `resamples` bootstrap
/// replicates of the game list (seeded by `seed`).
pub fn fit_elo(
    names: &[String],
    games: &[GameScore],
    resamples: usize,
    seed: u64,
) -> Vec<EloRating> {
    let n = names.len();
    let point = fit(n, games);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut samples: Vec<Vec<f64>> = vec![Vec::with_capacity(resamples); n];
    if !games.is_empty() {
        for _ in 0..resamples {
            let resample: Vec<GameScore> = (0..games.len())
                .map(|_| games[rng.gen_range(0..games.len())])
                .collect();
            for (i, r) in fit(n, &resample).into_iter().enumerate() {
                samples[i].push(r);
            }
        }
    }
    (0..n)
        .map(|i| {
            let s = &mut samples[i];
            s.sort_by(f64::total_cmp);
            let q = |p: f64| {
                if s.is_empty() {
                    point[i]
                } else {
                    s[((s.len() - 1) as f64 * p).round() as usize]
                }
            };
            let played: Vec<f64> = games
                .iter()
                .filter_map(|g| {
                    if g.a == i {
                        Some(g.score)
                    } else if g.b == i {
                        Some(1.0 - g.score)
                    } else {
                        None
                    }
                })
                .collect();
            EloRating {
                agent: names[i].clone(),
                elo: point[i],
                low: q(0.025),
                high: q(0.975),
                games: played.len(),
                score_pct: if played.is_empty() {
                    0.0
                } else {
                    100.0 * played.iter().sum::<f64>() / played.len() as f64
                },
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn games(a_wins: usize, draws: usize, b_wins: usize) -> Vec<GameScore> {
        let mut g = Vec::new();
        g.extend((0..a_wins).map(|_| GameScore {
            a: 0,
            b: 1,
            score: 1.0,
        }));
        g.extend((0..draws).map(|_| GameScore {
            a: 0,
            b: 1,
            score: 0.5,
        }));
        g.extend((0..b_wins).map(|_| GameScore {
            a: 1,
            b: 0,
            score: 1.0,
        }));
        g
    }

    #[test]
    fn two_players_match_the_logistic_formula() {
        // 75% score (with the virtual draw: 75.5 of 101) means a gap of
        // 400 log10(p / (1 - p)).
        let names = vec!["a".to_string(), "b".to_string()];
        let r = fit_elo(&names, &games(70, 10, 20), 50, 1);
        let p: f64 = 75.5 / 101.0;
        let gap = 400.0 * (p / (1.0 - p)).log10();
        assert!((r[0].elo - r[1].elo - gap).abs() < 1e-6, "{r:?}");
        assert!((r[0].elo + r[1].elo - 3000.0).abs() < 1e-6);
        assert!(r[0].low <= r[0].elo && r[0].elo <= r[0].high);
        assert_eq!(r[0].games, 100);
        assert!((r[0].score_pct - 75.0).abs() < 1e-9);
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_ordered() {
        let names = vec!["strong".to_string(), "weak".to_string(), "mid".to_string()];
        let mut g = games(50, 0, 0);
        g.extend((0..50).map(|i| GameScore {
            a: 2,
            b: 1,
            score: if i % 4 == 0 { 0.0 } else { 1.0 },
        }));
        g.extend((0..50).map(|_| GameScore {
            a: 0,
            b: 2,
            score: 1.0,
        }));
        let r = fit_elo(&names, &g, 100, 7);
        assert!(r.iter().all(|x| x.elo.is_finite()));
        assert!(r[0].elo > r[2].elo && r[2].elo > r[1].elo, "{r:?}");
    }
}
