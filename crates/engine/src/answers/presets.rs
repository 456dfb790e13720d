//! Strength presets for the page: named agents, each with the Elo measured for it in the
//! shipped ladder (`models/ladder.json`, a `c4 tournament` summary between exactly these
//! agents), so a player picks a level by its measured strength rather than by a spec.

use serde::Serialize;

/// The presets, weakest first: (name, agent spec, what it is).
pub const PRESETS: &[(&str, &str, &str)] = &[
    ("Easy", "easy", "open lines, one move ahead"),
    ("Medium", "hard", "open lines, five moves ahead"),
    (
        "Hard",
        "gbt:depth=3",
        "the gradient-boosted trees, three moves ahead",
    ),
    (
        "Expert",
        "ntuple:depth=1,safe=true",
        "the n-tuple network learned by self-play, one move ahead",
    ),
    (
        "Perfect",
        "perfect:ties=random",
        "the solver: never a mistake",
    ),
    (
        "Adaptive",
        "adaptive",
        "matches your strength: estimates your Elo from your moves and results, game after game, and plays the strength dial there",
    ),
];

/// One preset with its measured strength.
#[derive(Clone, Debug, Serialize)]
pub struct Preset {
    /// The level's name.
    pub name: &'static str,
    /// The agent spec it plays.
    pub agent: &'static str,
    /// What the agent is.
    pub about: &'static str,
    /// Elo in the shipped ladder, when the ladder has it.
    pub elo: Option<f64>,
    /// Lower end of the Elo's 95% interval.
    pub low: Option<f64>,
    /// Upper end of the Elo's 95% interval.
    pub high: Option<f64>,
    /// Ladder games behind the Elo.
    pub games: Option<u64>,
    /// The boards the agent plays on (`[width, height]`), when not every board: those its
    /// model was trained for, or (the perfect player) those the solver reaches in time;
    /// `None`: any board.
    pub boards: Option<Vec<[usize; 2]>>,
}

/// The boards with a shipped n-tuple network besides 7x6 (`models/ntuple-WxH.bin`, built
/// into `c4`, the wheel and the site): where the Expert preset and the dial's and adaptive
/// agent's fallback play (a test holds this list to the models folder). 8x8 and 9x7 take
/// more than 64 bits: they play in 128-bit bitboards.
pub const NETWORK_BOARDS: &[[usize; 2]] = &[
    [5, 4],
    [6, 5],
    [7, 5],
    [6, 6],
    [6, 7],
    [8, 7],
    [9, 6],
    [8, 8],
    [9, 7],
];

/// The boards of the page's list that the solver answers in time, each with its book: where
/// the Perfect preset is offered. 7x5 and 6x6 took seconds a move without theirs (`c4 bench
/// answers`: p95 1.1 s and 3.5 s), 23 ms and 10 ms with them.
pub const SOLVED_BOARDS: &[[usize; 2]] = &[[7, 6], [5, 4], [6, 5], [7, 5], [6, 6]];

/// The boards the agent of a preset plays on (see [`Preset::boards`]).
fn boards_of(agent: &str) -> Option<Vec<[usize; 2]>> {
    if agent.starts_with("gbt") {
        // The trees learned 7x6 alone.
        Some(vec![[7, 6]])
    } else if agent.starts_with("ntuple") {
        Some(
            std::iter::once([7, 6])
                .chain(NETWORK_BOARDS.iter().copied())
                .collect(),
        )
    } else if agent.starts_with("perfect") {
        Some(SOLVED_BOARDS.to_vec())
    } else {
        None
    }
}

/// The presets with the Elo of a ladder (the JSON of a `c4 tournament` summary; none when
/// `ladder` is `None`, not JSON, or does not hold an agent).
///
/// ```
/// let p = connect4_engine::answers::presets(None);
/// assert_eq!(p.len(), 6);
/// assert!(p.iter().all(|p| p.elo.is_none()));
/// let expert = p[3].boards.as_ref().unwrap(); // Expert's networks
/// assert!(expert.contains(&[7, 6]) && expert.contains(&[5, 4]));
/// assert!(expert.contains(&[8, 8])); // past 64 bits
/// assert!(!expert.contains(&[10, 7]));
/// assert_eq!(p[1].boards, None); // Medium (open lines) plays any board
/// ```
pub fn presets(ladder: Option<&str>) -> Vec<Preset> {
    let ladder: serde_json::Value = ladder
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(serde_json::Value::Null);
    let rows = ladder["elo"].as_array().cloned().unwrap_or_default();
    PRESETS
        .iter()
        .map(|&(name, agent, about)| {
            let row = rows.iter().find(|r| r["agent"] == agent);
            let num = |k: &str| row.and_then(|r| r[k].as_f64());
            Preset {
                name,
                agent,
                about,
                elo: num("elo"),
                low: num("low"),
                high: num("high"),
                games: row.and_then(|r| r["games"].as_u64()),
                boards: boards_of(agent),
            }
        })
        .collect()
}
