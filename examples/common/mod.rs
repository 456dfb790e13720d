//! What the `*_player_mistakes` examples share: one game of an agent against the perfect
//! player, watched by the solver for the first move that throws a won position away.
#![allow(dead_code)] // each example reads the fields it reports
use connect4_engine::agents::{Agent, AgentSpec, Turn};
use connect4_engine::game::moves::column_char;
use connect4_engine::game::{Geometry, Position};
use connect4_engine::solver::{Mode, Solver};
use std::collections::BTreeMap;

/// The first move of the watched side that turned a won position into one that is not.
pub struct Slip {
    /// Plies before it (0: the first move of the game).
    pub ply: usize,
    /// The moves before it, 1-based columns.
    pub before: String,
    /// The column played, 1-based.
    pub col: usize,
    /// The columns that won, 1-based.
    pub winning: String,
}

/// How one game went for the watched agent.
pub struct Game {
    /// The agent won.
    pub won: bool,
    /// Nobody won.
    pub drawn: bool,
    /// The agent was to move in a won position at least once.
    pub had_win: bool,
    /// Its first slip, if any.
    pub slip: Option<Slip>,
}

/// Plays `games` games of `agent` (moving first when `agent_first`) against the agent of
/// `perfect`, a `perfect:...` spec, from the empty board on 7x6; game g seeds the agent
/// with `seed + g` and the perfect player with `seed * 7919 + g`.
pub fn play_match(
    agent: &AgentSpec,
    perfect: &str,
    agent_first: bool,
    games: u64,
    seed: u64,
) -> Vec<Game> {
    let geom = Geometry::default();
    let agent = agent.factory(geom).expect("agent");
    let perfect = perfect
        .parse::<AgentSpec>()
        .and_then(|s| s.factory(geom))
        .unwrap_or_else(|e| panic!("{perfect}: {e}"));
    let mut solver = Solver::new(geom);
    (0..games)
        .map(|g| {
            let (mut a, mut p) = (
                agent.build(seed + g).expect("the agent spec builds"),
                perfect
                    .build(seed * 7919 + g)
                    .expect("the perfect agent builds"),
            );
            play(a.as_mut(), p.as_mut(), agent_first, &mut solver, geom)
        })
        .collect()
}

/// Plays `agent` (moving first when `agent_first`) against `other` from the empty board.
pub fn play(
    agent: &mut dyn Agent,
    other: &mut dyn Agent,
    agent_first: bool,
    solver: &mut Solver,
    geom: Geometry,
) -> Game {
    let (mut pos, mut moves) = (Position::new(geom), String::new());
    let (mut had_win, mut slip) = (false, None);
    loop {
        let agents_turn = (moves.len() % 2 == 0) == agent_first;
        let col = if agents_turn {
            agent.choose(&Turn::new(pos))
        } else {
            other.choose(&Turn::new(pos))
        };
        if agents_turn && slip.is_none() {
            let scores = solver.analyze(&pos, Mode::Weak);
            let won = scores.iter().flatten().any(|&s| s > 0);
            had_win |= won;
            if won && scores[col].is_none_or(|s| s <= 0) {
                let winning = (0..geom.width())
                    .filter(|&c| scores[c].is_some_and(|s| s > 0))
                    .filter_map(column_char)
                    .collect();
                slip = Some(Slip {
                    ply: moves.len(),
                    before: moves.clone(),
                    col: col + 1,
                    winning,
                });
            }
        }
        moves.push(column_char(col).expect("a board's columns have names"));
        pos = pos.after(col).expect("a legal move");
        if pos.last_move_won() || pos.is_full() {
            let won = pos.last_move_won() && agents_turn;
            let drawn = !pos.last_move_won();
            return Game {
                won,
                drawn,
                had_win,
                slip,
            };
        }
    }
}

/// Prints how many slips each ply had, then the `top` most frequent slipped positions.
pub fn print_slips(slips: &[Slip], top: usize) {
    let (mut by_ply, mut where_) = (BTreeMap::new(), BTreeMap::new());
    for s in slips {
        *by_ply.entry(s.ply).or_insert(0) += 1;
        *where_.entry((&s.before, s.col, &s.winning)).or_insert(0) += 1;
    }
    println!("first win thrown away at ply (0 = the game's first move): games");
    for (ply, n) in &by_ply {
        println!("  ply {ply:2}: {n}");
    }
    println!("mistaken positions (moves, column played, winning columns): games");
    let mut list: Vec<_> = where_.into_iter().collect();
    list.sort_by_key(|e| std::cmp::Reverse(e.1));
    for ((before, col, winning), n) in list.iter().take(top) {
        println!("  {before:<24} played {col}, wins {winning}: {n}");
    }
}
