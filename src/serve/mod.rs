//! `c4 serve`: one page and a JSON API to play against any agent, see the solver's verdict on
//! every column beside what each learned model thinks and why, and browse pipeline runs.
//!
//! Not here: game rules, agents or models: the server calls the library for each.
//!
//! Built on axum over tokio: the maintained, widely used Rust HTTP stack, whose extractors
//! turn malformed input into typed rejections (mapped to 400s here) and whose handlers are
//! futures that hyper drops when a client disconnects, which is how abandoned work is
//! cancelled (see [`Interrupt::cancel_on_drop`]). Work (solving, agents' moves) runs on
//! tokio's blocking pool in one of two [`lanes`], each with its own slots and queue and every
//! task bounded by a time limit: millisecond work in the quick lane never waits behind
//! solving in the heavy lane, and light requests (the page, models' evaluations, runs) wait
//! behind neither. A full lane answers 503 with `Retry-After` at once.
//!
//! Endpoints (see README.md for the JSON):
//! - `GET /`, `/app.js`, `/style.css`: the page, embedded in the binary;
//! - `GET /api/analyze?moves=M`: the solver's scores of every column;
//! - `GET /api/review?moves=M`: every move of a game graded by the solver;
//! - `POST /api/move` `{agent, moves}`: an agent's column (with `state`, the adaptive
//!   agent's saved estimate, its estimate of the player comes back too);
//! - `POST /api/adaptive` `{agent, moves, side, state}`: the adaptive agent's estimate of
//!   the player after a game, and the state to keep;
//! - `GET /api/models`, `GET /api/evaluate?model=NAME&moves=M`: the learned models' values and
//!   per-feature contributions;
//! - `GET /api/agents`: the agent kinds;
//! - `GET /api/runs`, `GET /api/runs/NAME`, `GET /runs/NAME/FILE`: pipeline runs;
//! - `GET /api/status`: work in flight, finished and cancelled, and each lane's slots, queue
//!   and refusals.

mod analyze;
mod assets;
mod error;
pub mod lanes;
mod limits;
pub mod load;
mod models;
mod play;
mod presets;
mod review;
mod runs;

pub use assets::{ASSETS, Asset, page_weight};
pub use error::{ApiError, RETRY_AFTER_S};

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use connect4_engine::Interrupt;
use connect4_engine::solver::{PooledSolver, SolverPool};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// How the server runs.
#[derive(Clone, Debug)]
pub struct ServeConfig {
    /// Where to listen (loopback by default: the API runs solvers on request).
    pub addr: SocketAddr,
    /// The folder whose subfolders are pipeline runs.
    pub runs: PathBuf,
    /// The folder of model files (`*.bin`) offered to agents and to `/api/evaluate`.
    pub models: PathBuf,
    /// Heavy requests (solving past the book, timed searches, MCTS, the dial, the adaptive
    /// agent) worked on at once (see [`lanes`]).
    pub heavy: usize,
    /// Heavy requests that may wait for a slot; one more is refused at once with a 503.
    pub heavy_queue: usize,
    /// Quick requests (shallow searches, book answers, the last plies) worked on at once.
    pub quick: usize,
    /// Quick requests that may wait for a slot.
    pub quick_queue: usize,
    /// How long a request may wait in its lane's queue for a free slot before a 503.
    pub queue_wait: Duration,
    /// Default time limit of one analysis (a request may ask for less or up to
    /// [`ServeConfig::analyze_max`]).
    pub analyze_limit: Duration,
    /// The longest analysis a request may ask for.
    pub analyze_max: Duration,
    /// Time after which an agent's move is stopped: it answers the best move found so far.
    pub move_limit: Duration,
    /// Largest request body in bytes.
    pub body_limit: usize,
    /// Transposition table of each pooled solver, in MiB.
    pub tt_mib: usize,
    /// The opening book of analysis, review and perfect agents (`None`: none).
    pub book: Option<Arc<connect4_engine::solver::book::Book>>,
}

impl Default for ServeConfig {
    fn default() -> Self {
        ServeConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            runs: PathBuf::from("runs"),
            models: PathBuf::from("models"),
            heavy: cores(),
            heavy_queue: 16 * cores(),
            quick: cores(),
            quick_queue: 256,
            queue_wait: Duration::from_secs(10),
            analyze_limit: Duration::from_secs(3),
            analyze_max: Duration::from_secs(15),
            move_limit: Duration::from_secs(20),
            body_limit: 16 * 1024,
            tt_mib: 64,
            book: Some(connect4_engine::solver::book::embedded()),
        }
    }
}

/// The machine's cores: the default number of slots of each lane.
fn cores() -> usize {
    std::thread::available_parallelism().map_or(2, |n| n.get())
}

/// Counters of the lanes' work, for `/api/status` and the tests.
#[derive(Debug, Default)]
struct Stats {
    in_flight: AtomicU64,
    finished: AtomicU64,
    cancelled: AtomicU64,
    stopped_at_limit: AtomicU64,
    /// The longest a heavy task ran past its time limit, in microseconds.
    max_overrun_us: AtomicU64,
}

/// What every handler shares.
struct AppState {
    config: ServeConfig,
    quick: lanes::Slots,
    heavy: lanes::Slots,
    /// The threads heavy work runs on, one per heavy slot, at lower priority.
    heavy_threads: rayon::ThreadPool,
    /// Solvers kept between requests, so that asking again about a position that ran out of
    /// time goes on from what the table already holds (analysis, review, perfect agents).
    solvers: Arc<SolverPool>,
    models: models::Models,
    /// Strength presets with their measured Elo (see [`presets`]).
    presets: Vec<presets::Preset>,
    agents: play::AgentCache,
    /// What agents are built with: the book, and the built-in models the folder lacks.
    resources: connect4_engine::agents::Resources,
    stats: Stats,
}

type Shared = Arc<AppState>;

impl AppState {
    /// The slots of `lane`.
    fn slots(&self, lane: lanes::Lane) -> &lanes::Slots {
        match lane {
            lanes::Lane::Quick => &self.quick,
            lanes::Lane::Heavy => &self.heavy,
        }
    }

    /// Runs `work` on the blocking pool in a slot of `lane`, with an interrupt that fires at
    /// `limit` or when the calling request is dropped (the client went away); a 503 when the
    /// lane's queue is full or no slot freed within [`ServeConfig::queue_wait`].
    async fn work<T: Send + 'static>(
        self: &Arc<Self>,
        lane: lanes::Lane,
        limit: Duration,
        work: impl FnOnce(&AppState, &Interrupt) -> T + Send + 'static,
    ) -> Result<(T, bool), ApiError> {
        let permit = self.slots(lane).acquire(self.config.queue_wait).await?;
        let interrupt = Interrupt::new();
        // Dropped with this future: a disconnect cancels the blocking work below.
        let _cancel = interrupt.cancel_on_drop();
        let state = Arc::clone(self);
        let stop = interrupt
            .clone()
            .with_deadline(std::time::Instant::now() + limit);
        let task = move || {
            let _permit = permit;
            state.stats.in_flight.fetch_add(1, Ordering::Relaxed);
            let started = std::time::Instant::now();
            let out = work(&state, &stop);
            state.slots(lane).ran(started.elapsed());
            let overrun = started.elapsed().saturating_sub(limit);
            state
                .stats
                .max_overrun_us
                .fetch_max(overrun.as_micros() as u64, Ordering::Relaxed);
            state.stats.in_flight.fetch_sub(1, Ordering::Relaxed);
            let counter = if stop.is_cancelled() {
                &state.stats.cancelled
            } else if stop.should_stop() {
                &state.stats.stopped_at_limit
            } else {
                &state.stats.finished
            };
            counter.fetch_add(1, Ordering::Relaxed);
            (out, stop.should_stop())
        };
        match lane {
            lanes::Lane::Quick => tokio::task::spawn_blocking(task)
                .await
                .map_err(|e| ApiError::Internal(format!("quick task failed: {e}"))),
            // Heavy work runs on threads of lower priority, so that the operating system
            // gives quick work the cores first when both want them.
            lanes::Lane::Heavy => {
                let (tx, rx) = tokio::sync::oneshot::channel();
                self.heavy_threads.spawn(move || {
                    let out = std::panic::catch_unwind(std::panic::AssertUnwindSafe(task));
                    // The request may be gone (its client left): nobody to tell.
                    let _ = tx.send(out);
                });
                match rx.await {
                    Ok(Ok(out)) => Ok(out),
                    Ok(Err(_)) => Err(ApiError::Internal("heavy task panicked".into())),
                    Err(_) => Err(ApiError::Internal("heavy task was dropped".into())),
                }
            }
        }
    }

    /// A pooled solver for `geom` (a new one if none is free), back in the pool when dropped.
    fn lend_solver<B: connect4_engine::solver::PoolBoard>(
        &self,
        geom: connect4_engine::Geometry<B>,
    ) -> Result<PooledSolver<B>, ApiError> {
        self.solvers
            .lend(geom)
            .map_err(|e| ApiError::Internal(e.to_string()))
    }
}

/// The position after `moves` on a `width` x `height` board (see
/// [`connect4_engine::answers::position_of`]), or a 400 naming the bad move or size.
fn position_of(
    moves: &str,
    width: Option<usize>,
    height: Option<usize>,
) -> Result<connect4_engine::Position, ApiError> {
    connect4_engine::answers::position_of(moves, width, height).map_err(ApiError::bad)
}

/// The app: page, API and run files over `config`. Model files are loaded here, once.
pub fn router(config: ServeConfig) -> Router {
    let models = models::Models::load(&config.models);
    let presets = presets::load(&config.models);
    let state = Arc::new(AppState {
        quick: lanes::Slots::new(lanes::Lane::Quick, config.quick, config.quick_queue),
        heavy: lanes::Slots::new(lanes::Lane::Heavy, config.heavy, config.heavy_queue),
        heavy_threads: lanes::background_threads(config.heavy),
        // Other board sizes are rarer: smaller tables for them; at most one idle solver per
        // slot.
        solvers: Arc::new(
            SolverPool::new(config.tt_mib)
                .with_book(config.book.clone())
                .with_other_boards_mib(16)
                .keeping(config.heavy.max(1) + config.quick.max(1)),
        ),
        agents: play::AgentCache::default(),
        resources: connect4_engine::agents::Resources {
            book: config.book.clone(),
            models: crate::builtin::missing_from(&config.models).0,
        },
        models,
        presets,
        stats: Stats::default(),
        config,
    });
    Router::new()
        .route("/", get(assets::index))
        .route("/{file}", get(assets::file))
        .route("/api/analyze", get(analyze::analyze))
        .route("/api/review", get(review::review_game))
        .route("/api/move", post(play::play_move))
        .route("/api/adaptive", post(play::adaptive))
        .route("/api/agents", get(play::agents))
        .route("/api/models", get(models::list))
        .route("/api/evaluate", get(models::evaluate))
        .route("/api/runs", get(runs::list))
        .route("/api/runs/{name}", get(runs::show))
        .route("/runs/{name}/{*file}", get(runs::file))
        .route("/api/status", get(status))
        .fallback(|| async { ApiError::NotFound("no such page or endpoint".into()) })
        .layer(DefaultBodyLimit::max(state.config.body_limit))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            refuse_long_bodies,
        ))
        .with_state(state)
}

/// The most a refused request body is read before its answer: enough for any client that sent
/// a long body by mistake, little enough that nobody can make the server read for long.
const DRAIN_LIMIT: usize = 1 << 20;

/// Answers a request whose declared body is over [`ServeConfig::body_limit`] with a 400, after
/// reading the body (up to [`DRAIN_LIMIT`]): a server that answers before the client finished
/// sending closes the connection under it, and the client sees a broken pipe instead of the
/// message. Bodies without a declared length are bounded by the extractors' own limit.
async fn refuse_long_bodies(
    axum::extract::State(state): axum::extract::State<Shared>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let declared = request
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<usize>().ok());
    match declared {
        Some(n) if n > state.config.body_limit => {
            if n <= DRAIN_LIMIT {
                // Whatever it holds, the body is refused; reading it only keeps the connection whole.
                let _ = axum::body::to_bytes(request.into_body(), DRAIN_LIMIT).await;
            }
            ApiError::BadRequest(format!(
                "bad request body: {n} bytes is over the length limit of {} bytes",
                state.config.body_limit
            ))
            .into_response()
        }
        _ => next.run(request).await,
    }
}

/// `GET /api/status`: counters of the lanes' work.
async fn status(
    axum::extract::State(state): axum::extract::State<Shared>,
) -> axum::Json<serde_json::Value> {
    let s = &state.stats;
    let n = |a: &AtomicU64| a.load(Ordering::Relaxed);
    axum::Json(serde_json::json!({
        "heavy_slots": state.config.heavy,
        "lanes": {"quick": state.quick.status(), "heavy": state.heavy.status()},
        "in_flight": n(&s.in_flight),
        "finished": n(&s.finished),
        "cancelled": n(&s.cancelled),
        "stopped_at_limit": n(&s.stopped_at_limit),
        "max_overrun_ms": n(&s.max_overrun_us) as f64 / 1e3,
        "models": state.models.names(),
    }))
}

/// Serves `router(config)` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: ServeConfig) -> std::io::Result<()> {
    axum::serve(listener, router(config)).await
}

/// Binds `config.addr`, prints the page's address on stdout (the first line, which scripts
/// and tests read; with port 0 it names the port the system chose) and serves forever.
pub fn run(config: ServeConfig) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(config.addr).await?;
        let addr = listener.local_addr()?;
        println!("listening on http://{addr}/");
        eprintln!(
            "runs from {}, models from {}; {} quick and {} heavy requests at once \
             ({} and {} may wait); Ctrl-C stops",
            config.runs.display(),
            config.models.display(),
            config.quick,
            config.heavy,
            config.quick_queue,
            config.heavy_queue
        );
        serve(listener, config).await
    })
}
