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
    /// The one board the agent plays on (`[width, height]`), when its model is for one
    /// board only; `None`: any board.
    pub board: Option<[usize; 2]>,
}

/// The presets with the Elo of a ladder (the JSON of a `c4 tournament` summary; none when
/// `ladder` is `None`, not JSON, or does not hold an agent).
///
/// ```
/// let p = connect4_engine::answers::presets(None);
/// assert_eq!(p.len(), 6);
/// assert!(p.iter().all(|p| p.elo.is_none()));
/// assert_eq!(p[3].board, Some([7, 6])); // Expert's network is for 7x6
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
            // Model-based agents read files made for 7x6.
            let one_board = agent.starts_with("gbt") || agent.starts_with("ntuple");
            Preset {
                name,
                agent,
                about,
                elo: num("elo"),
                low: num("low"),
                high: num("high"),
                games: row.and_then(|r| r["games"].as_u64()),
                board: one_board.then_some([7, 6]),
            }
        })
        .collect()
}
