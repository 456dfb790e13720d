//! A load test of a running server over real loopback sockets (`c4 bench serve`): simulated
//! players, each on its own thread with its own keep-alive connection as a browser tab has,
//! play whole games against the page's presets for a bounded time, asking for analyses on
//! the way and a review (and, against the adaptive agent, its estimate) at the end, as the
//! page does. Every answer is timed and sorted by route and by what it means: a success, the
//! client's fault (4xx), a 503 that says the server is full (with or without `Retry-After`),
//! any other 5xx, or a dropped connection.
//!
//! A refused request is asked again after its `Retry-After`, as a well-behaved client does;
//! what counts is that the server says so rather than stalling or failing.

use connect4_engine::game::{Geometry, Outcome, Position};
use connect4_engine::progress::Progress;
use connect4_engine::solver::book::Book;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Mutex;
use std::time::{Duration, Instant};

mod process;
mod report;

pub use process::{Spawned, peak_rss_mib};
use report::{Answer, Kind, Tally, quantile};
pub use report::{LoadReport, RouteFigures};

/// What a load test does.
#[derive(Clone, Debug)]
pub struct LoadConfig {
    /// The server, e.g. `http://127.0.0.1:8080`.
    pub url: String,
    /// Players playing at once, each on its own connection.
    pub players: usize,
    /// How long they play; games under way at the end are abandoned.
    pub duration: Duration,
    /// The agents they play, in turn (player `i`'s game `g` plays agent `(i + g) % len`).
    pub agents: Vec<String>,
    /// Seed of the players' moves and of the agents' seeds.
    pub seed: u64,
    /// A player's pause before each of their moves (uniform between 0 and twice this).
    pub think: Duration,
    /// Chance that a player asks for an analysis of the position before their move.
    pub analyze_chance: f64,
    /// Further players who only ask for analyses of fresh 12-ply positions, which the book
    /// does not hold and which take seconds to solve: the work that saturates the heavy lane.
    pub solvers: usize,
    /// The longest any request may take before it counts as dropped (a stall).
    pub request_timeout: Duration,
}

impl Default for LoadConfig {
    fn default() -> Self {
        LoadConfig {
            url: "http://127.0.0.1:8080".into(),
            players: 200,
            duration: Duration::from_secs(60),
            agents: connect4_engine::answers::presets(None)
                .into_iter()
                .map(|p| p.agent.to_string())
                .collect(),
            seed: 0,
            think: Duration::ZERO,
            analyze_chance: 0.25,
            solvers: 0,
            request_timeout: Duration::from_secs(120),
        }
    }
}

/// One request of a player.
enum Call<'a> {
    /// `GET {url}{path}?moves=M`.
    Get(&'a str, &'a str),
    /// `POST {url}{path}` with a JSON body.
    Post(&'a str, &'a serde_json::Value),
}

/// Sends `call` to the server at `url` and sorts the answer.
fn send(agent: &ureq::Agent, url: &str, call: &Call) -> Answer {
    let sent = match call {
        Call::Get(path, moves) => agent
            .get(&format!("{url}{path}"))
            .query("moves", moves)
            .call(),
        Call::Post(path, body) => agent
            .post(&format!("{url}{path}"))
            .set("Content-Type", "application/json")
            .send_string(&body.to_string()),
    };
    match sent {
        Ok(r) => match r.into_string().map(|t| serde_json::from_str(&t)) {
            Ok(Ok(v)) => Answer::Ok(v),
            // A 200 whose body is not the JSON promised is the server's failure.
            Ok(Err(_)) => Answer::Failed(Kind::Server),
            Err(_) => Answer::Failed(Kind::Dropped),
        },
        Err(ureq::Error::Status(503, r)) => {
            Answer::Busy(r.header("retry-after").and_then(|v| v.parse().ok()))
        }
        Err(ureq::Error::Status(s, _)) if s < 500 => Answer::Failed(Kind::Client),
        Err(ureq::Error::Status(..)) => Answer::Failed(Kind::Server),
        Err(ureq::Error::Transport(_)) => Answer::Failed(Kind::Dropped),
    }
}

/// One simulated player: a connection, a seeded hand, and the adaptive agent's state kept
/// from game to game as the page keeps it.
struct Player<'a> {
    config: &'a LoadConfig,
    agent: ureq::Agent,
    rng: ChaCha8Rng,
    deadline: Instant,
    book: Option<&'a Book>,
    adaptive_state: Option<String>,
    tally: Tally,
}

impl Player<'_> {
    fn time_left(&self) -> bool {
        Instant::now() < self.deadline
    }

    /// Sends one request (again after each 503's `Retry-After`, while time is left) and
    /// records every answer under `route`.
    fn ask(&mut self, route: &str, call: Call) -> Option<serde_json::Value> {
        loop {
            let start = Instant::now();
            let answer = send(&self.agent, &self.config.url, &call);
            let ms = start.elapsed().as_secs_f64() * 1e3;
            self.tally.record(route, ms, &answer);
            match answer {
                Answer::Ok(v) => return Some(v),
                Answer::Busy(Some(s)) if self.time_left() => {
                    let left = self.deadline.saturating_duration_since(Instant::now());
                    std::thread::sleep(Duration::from_secs(s.max(1)).min(left));
                    if !self.time_left() {
                        return None;
                    }
                }
                _ => return None,
            }
        }
    }

    /// Plays one game against `spec`, the computer moving first when `computer_first`.
    fn play(&mut self, spec: &str, computer_first: bool) {
        let geom = Geometry::STANDARD;
        let mut pos = Position::new(geom);
        let mut moves = String::new();
        let game_seed: u64 = self.rng.r#gen();
        let adaptive = spec.starts_with("adaptive");
        let state = if adaptive {
            self.adaptive_state.clone()
        } else {
            None
        };
        while pos.outcome() == Outcome::Ongoing {
            if !self.time_left() {
                return;
            }
            let computer = (pos.moves_played() % 2 == 0) == computer_first;
            let col = if computer {
                let body = serde_json::json!({
                    "agent": spec, "moves": moves, "seed": game_seed, "state": state,
                });
                let route = format!("move {spec}");
                let Some(v) = self.ask(&route, Call::Post("/api/move", &body)) else {
                    return;
                };
                match v["column"].as_u64() {
                    Some(c) if c >= 1 => c as usize - 1,
                    _ => return,
                }
            } else {
                if self.rng.gen_bool(self.config.analyze_chance) {
                    let lane = super::lanes::of_solving(&pos, self.book);
                    let route = match lane {
                        super::lanes::Lane::Quick => "analyze (book or last plies)",
                        super::lanes::Lane::Heavy => "analyze (solving)",
                    };
                    if self.ask(route, Call::Get("/api/analyze", &moves)).is_none()
                        && !self.time_left()
                    {
                        return;
                    }
                }
                let think = self.config.think.as_secs_f64() * 2.0 * self.rng.r#gen::<f64>();
                std::thread::sleep(Duration::from_secs_f64(think));
                let legal: Vec<usize> = (0..geom.width()).filter(|&c| pos.can_play(c)).collect();
                legal[self.rng.gen_range(0..legal.len())]
            };
            let Some(next) = pos.after(col) else {
                return;
            };
            pos = next;
            moves.push_str(&connect4_engine::game::moves::format_moves(&[col]));
        }
        self.tally.games += 1;
        self.ask("review", Call::Get("/api/review", &moves));
        if adaptive {
            let side = if computer_first { "x" } else { "o" };
            let body = serde_json::json!({
                "agent": spec, "moves": moves, "side": side, "seed": game_seed, "state": state,
            });
            if let Some(v) = self.ask("adaptive estimate", Call::Post("/api/adaptive", &body))
                && let Some(s) = v["state"].as_str()
            {
                self.adaptive_state = Some(s.to_string());
            }
        }
    }
}

impl Player<'_> {
    /// Plays games, one agent after another, until the time is up.
    fn play_games(&mut self, i: usize) {
        let mut game = 0;
        while self.time_left() && !self.config.agents.is_empty() {
            let spec = self.config.agents[(i + game) % self.config.agents.len()].clone();
            self.play(&spec, (i + game) % 2 == 1);
            game += 1;
        }
    }

    /// Asks for the analysis of a random 12-ply position (a game not over), again and again.
    fn solve_positions(&mut self) {
        let geom = Geometry::STANDARD;
        while self.time_left() {
            let mut pos = Position::new(geom);
            let mut moves = String::new();
            while pos.moves_played() < 12 {
                let safe: Vec<(usize, Position)> = (0..geom.width())
                    .filter_map(|c| pos.after(c).map(|p| (c, p)))
                    .filter(|(_, p)| !p.last_move_won())
                    .collect();
                if safe.is_empty() {
                    break;
                }
                let (c, p) = safe[self.rng.gen_range(0..safe.len())];
                moves.push_str(&connect4_engine::game::moves::format_moves(&[c]));
                pos = p;
            }
            if pos.moves_played() < 12 {
                continue;
            }
            self.ask(
                "analyze (12 plies, solving)",
                Call::Get("/api/analyze", &moves),
            );
        }
    }
}

/// Runs the load test against `config.url`; `server` (the server's process id, when known)
/// gives the report its peak memory; `progress` hears a step a second.
pub fn run(config: &LoadConfig, server: Option<u32>, progress: &dyn Progress) -> LoadReport {
    let book = connect4_engine::solver::book::embedded();
    let start = Instant::now();
    let deadline = start + config.duration;
    let total = Mutex::new(Tally::default());
    progress.start("players playing (s)", config.duration.as_secs() as usize);
    std::thread::scope(|s| {
        for i in 0..config.players + config.solvers {
            let total = &total;
            let book = &book;
            s.spawn(move || {
                let mut player = Player {
                    config,
                    agent: ureq::AgentBuilder::new()
                        .timeout(config.request_timeout)
                        .build(),
                    rng: ChaCha8Rng::seed_from_u64(connect4_engine::seed::derive_seed(
                        config.seed,
                        connect4_engine::seed::Stream::LoadPlayers,
                        &[i as u64],
                    )),
                    deadline,
                    book: Some(book),
                    adaptive_state: None,
                    tally: Tally::default(),
                };
                // Players arrive over the first pause, not all in one instant.
                let arrive = config.think.as_secs_f64() * 2.0 * player.rng.r#gen::<f64>();
                std::thread::sleep(Duration::from_secs_f64(arrive));
                if i >= config.players {
                    player.solve_positions();
                } else {
                    player.play_games(i);
                }
                total
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .merge(player.tally);
            });
        }
        let mut shown = 0;
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(250));
            let secs = start.elapsed().as_secs().min(config.duration.as_secs()) as usize;
            progress.advance(secs - shown);
            shown = secs;
        }
    });
    progress.finish();
    let tally = total.into_inner().unwrap_or_else(|e| e.into_inner());
    let routes = tally
        .routes
        .into_iter()
        .map(|(route, (mut times, mut f))| {
            times.sort_by(f64::total_cmp);
            f.route = route;
            f.p50_ms = quantile(&times, 0.5);
            f.p99_ms = quantile(&times, 0.99);
            f.max_ms = times.last().copied().unwrap_or(0.0);
            f
        })
        .collect();
    LoadReport {
        players: config.players,
        solvers: config.solvers,
        seconds: start.elapsed().as_secs_f64(),
        games: tally.games,
        routes,
        server_peak_rss_mib: server.and_then(peak_rss_mib),
    }
}
