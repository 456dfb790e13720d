//! Rating one agent on the project's fixed ladder: it plays every ladder agent, and its Elo
//! is fitted with the ladder's agents held at their ratings (as `c4 calibrate` measures the
//! dial), so ratings from different runs, machines and boards share one scale with each
//! other and with the page's presets. A tournament's Elo, by contrast, is relative to its
//! own pool.

use super::CalibrateError;
use super::calibrate::{LadderGames, LadderPlay, fit_anchored, gauntlet};
use connect4_engine::Interrupt;
use connect4_engine::agents::level::Anchor;
use connect4_engine::agents::{AgentBoard, AgentFactory};
use connect4_engine::game::{BitBoard, Geometry};
use connect4_engine::progress::Progress;
use serde::Serialize;

/// Settings of a rating run, on a board of the integer `B` (`u128` past 64 bits).
#[derive(Clone, Debug)]
pub struct RateConfig<B: BitBoard = u64> {
    /// The ladder: agents and the ratings they are held at.
    pub anchors: Vec<Anchor>,
    /// Games against each ladder agent (colours alternate, pairs share an opening).
    pub games: usize,
    /// Random opening plies per game.
    pub openings: usize,
    /// Seed of the openings and the agents' draws.
    pub seed: u64,
    /// Games played at once.
    pub jobs: usize,
    /// The board.
    pub geometry: Geometry<B>,
}

/// An agent's rating on the ladder, with what it rests on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Rating {
    /// The agent's label.
    pub agent: String,
    /// The board played, e.g. "7x6".
    pub board: String,
    /// Its Elo on the ladder's scale.
    pub elo: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Games behind it.
    pub games: usize,
    /// Points scored / games, percent.
    pub score_pct: f64,
    /// The ladder agent rated nearest to it: what the number means ("about as strong as").
    pub nearest: String,
    /// Random opening plies per game.
    pub openings: usize,
    /// The seed of the games.
    pub seed: u64,
    /// Its games against each ladder agent, strongest first.
    pub opponents: Vec<LadderGames>,
}

/// The fixed ladder of `geom`: the agents and ratings its built-in dial calibration was
/// measured on (models/ladder.json on 7x6; off 7x6, the board's ladder shifted onto the 7x6
/// scale), so a rating against it sits on the scale the dial and the page's presets use.
/// `None` for a board with no calibration of its own.
///
/// ```
/// use connect4_engine::Geometry;
/// let ladder = connect4_learn::arena::fixed_ladder(Geometry::STANDARD).unwrap();
/// assert!(ladder.iter().any(|a| a.agent == "hard"));
/// assert!(connect4_learn::arena::fixed_ladder(Geometry::new(8, 5).unwrap()).is_none());
/// ```
pub fn fixed_ladder<B: BitBoard>(geom: Geometry<B>) -> Option<Vec<Anchor>> {
    let calibrated = connect4_engine::agents::level::Calibration::calibrated_boards()
        .contains(&[geom.width(), geom.height()]);
    calibrated.then(|| {
        connect4_engine::agents::level::Calibration::for_board(geom)
            .anchors
            .clone()
    })
}

/// Plays `player` against every agent of `ladder` (built from `cfg.anchors`, in their order)
/// and fits its Elo with the ladder held at its ratings. `progress` advances once per game;
/// `stop` ends the run early ([`super::TournamentError::Interrupted`]). The same seed gives
/// the same games and rating at any `jobs`.
pub fn rate<B: AgentBoard>(
    cfg: &RateConfig<B>,
    player: &AgentFactory<B>,
    ladder: &[AgentFactory<B>],
    progress: &dyn Progress,
    stop: &Interrupt,
) -> Result<Rating, CalibrateError> {
    if cfg.anchors.len() < 2 || ladder.len() != cfg.anchors.len() {
        return Err(CalibrateError::Ladder);
    }
    let play = LadderPlay {
        anchors: &cfg.anchors,
        games: cfg.games,
        openings: cfg.openings,
        seed: cfg.seed,
        jobs: cfg.jobs,
        geometry: cfg.geometry,
        stream: 2,
    };
    let mut opponents = gauntlet(&play, std::slice::from_ref(player), ladder, progress, stop)?
        .pop()
        .unwrap_or_default();
    opponents.sort_by(|a, b| b.opponent_elo.total_cmp(&a.opponent_elo));
    let points: Vec<(f64, f64)> = opponents.iter().flat_map(LadderGames::points).collect();
    let (elo, low, high) = fit_anchored(&points);
    let games = points.len();
    let nearest = cfg
        .anchors
        .iter()
        .min_by(|a, b| (a.elo - elo).abs().total_cmp(&(b.elo - elo).abs()))
        .map(|a| a.agent.clone())
        .unwrap_or_default();
    Ok(Rating {
        agent: player.spec().label().to_string(),
        board: cfg.geometry.to_string(),
        elo,
        low,
        high,
        games,
        score_pct: 100.0 * points.iter().map(|p| p.1).sum::<f64>() / games.max(1) as f64,
        nearest,
        openings: cfg.openings,
        seed: cfg.seed,
        opponents,
    })
}

impl Rating {
    /// The rating as the CLI prints it: a row per ladder agent, then the Elo and its
    /// interval.
    ///
    /// ```
    /// use connect4_learn::arena::{LadderGames, Rating};
    /// let r = Rating {
    ///     agent: "easy".into(), board: "7x6".into(), elo: 1180.0, low: 1100.0, high: 1260.0,
    ///     games: 4, score_pct: 50.0, nearest: "easy".into(), openings: 2, seed: 0,
    ///     opponents: vec![LadderGames {
    ///         opponent: "easy".into(), opponent_elo: 1177.5, games: 4, wins: 2, draws: 0,
    ///         losses: 2, score_pct: 50.0,
    ///     }],
    /// };
    /// assert!(r.table().contains("Elo 1180, 95% interval [1100, 1260]"));
    /// ```
    pub fn table(&self) -> String {
        let mut out = format!(
            "{} on the {} ladder ({} games, {} opening plies, seed {})\n\n{:<28} {:>6} {:>6} {:>6} {:>6} {:>6} {:>8}\n",
            self.agent,
            self.board,
            self.games,
            self.openings,
            self.seed,
            "opponent",
            "Elo",
            "games",
            "wins",
            "draws",
            "losses",
            "score %"
        );
        for o in &self.opponents {
            out.push_str(&format!(
                "{:<28} {:>6.0} {:>6} {:>6} {:>6} {:>6} {:>8.1}\n",
                o.opponent, o.opponent_elo, o.games, o.wins, o.draws, o.losses, o.score_pct
            ));
        }
        out.push_str(&format!(
            "\nElo {:.0}, 95% interval [{:.0}, {:.0}]; nearest ladder agent: {}\n",
            self.elo, self.low, self.high, self.nearest
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use connect4_engine::agents::{AgentSpec, Resources};

    fn factory(spec: &str, g: Geometry) -> AgentFactory {
        spec.parse::<AgentSpec>()
            .unwrap()
            .factory_in(g, &Resources::default())
            .unwrap()
    }

    fn config(jobs: usize) -> RateConfig {
        RateConfig {
            anchors: vec![
                Anchor {
                    agent: "random".into(),
                    elo: 700.0,
                },
                Anchor {
                    agent: "easy".into(),
                    elo: 1200.0,
                },
            ],
            games: 6,
            openings: 2,
            seed: 5,
            jobs,
            geometry: Geometry::new(5, 4).unwrap(),
        }
    }

    #[test]
    fn rating_is_fitted_on_the_ladder_and_the_same_at_any_thread_count() {
        let cfg = config(1);
        let g = cfg.geometry;
        let ladder: Vec<AgentFactory> = ["random", "easy"].iter().map(|s| factory(s, g)).collect();
        let player = factory("hard", g);
        let one = rate(
            &cfg,
            &player,
            &ladder,
            &connect4_engine::progress::Quiet,
            &Interrupt::new(),
        )
        .unwrap();
        assert_eq!(one.games, 12);
        assert_eq!(one.opponents.len(), 2);
        assert_eq!(one.opponents[0].opponent, "easy", "strongest first");
        let wdl: usize = one
            .opponents
            .iter()
            .map(|o| o.wins + o.draws + o.losses)
            .sum();
        assert_eq!(wdl, 12);
        assert!(one.low < one.elo && one.elo < one.high);
        // The fit is the anchored one of exactly these games.
        let points: Vec<(f64, f64)> = one.opponents.iter().flat_map(LadderGames::points).collect();
        assert_eq!(fit_anchored(&points).0, one.elo);
        for jobs in [8, 16] {
            let many = rate(
                &config(jobs),
                &player,
                &ladder,
                &connect4_engine::progress::Quiet,
                &Interrupt::new(),
            )
            .unwrap();
            assert_eq!(many, one, "jobs={jobs}");
        }
    }

    #[test]
    fn a_ladder_of_one_or_a_mismatched_ladder_is_refused() {
        let mut cfg = config(1);
        let g = cfg.geometry;
        let ladder = vec![factory("random", g)];
        let player = factory("easy", g);
        let q = &connect4_engine::progress::Quiet;
        assert!(matches!(
            rate(&cfg, &player, &ladder, q, &Interrupt::new()),
            Err(CalibrateError::Ladder)
        ));
        cfg.anchors.truncate(1);
        assert!(matches!(
            rate(&cfg, &player, &ladder, q, &Interrupt::new()),
            Err(CalibrateError::Ladder)
        ));
    }

    #[test]
    fn a_stopped_rating_says_so() {
        let cfg = config(2);
        let g = cfg.geometry;
        let ladder: Vec<AgentFactory> = ["random", "easy"].iter().map(|s| factory(s, g)).collect();
        let stop = Interrupt::new();
        stop.cancel();
        let r = rate(
            &cfg,
            &factory("easy", g),
            &ladder,
            &connect4_engine::progress::Quiet,
            &stop,
        );
        assert!(matches!(
            r,
            Err(CalibrateError::Tournament(
                super::super::TournamentError::Interrupted
            ))
        ));
    }
}
