//! `c4 calibrate`: measures the strength dial against the ladder and writes the calibration
//! the dial reads (`models/level.json`), its points as CSV and its chart.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_engine::agents::level::Anchor;
use connect4_engine::agents::{AgentBoard, Resources};
use connect4_engine::game::Geometry;
use connect4_engine::io::{write_csv_atomic, write_json_atomic};
use connect4_engine::progress::Progress;
use connect4_learn::arena::{CalibrateConfig, CalibrateReport, calibrate};
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct CalibrateArgs {
    /// Games of each setting against each ladder agent (colours alternate, pairs share an
    /// opening).
    #[arg(long, default_value_t = 40, value_parser = super::at_least_one)]
    games: usize,
    /// The skills measured (0 random to 1 perfect, both included), comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1"
    )]
    skills: Vec<f64>,
    /// Random opening plies per game.
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// Seed of openings and draws.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Games played at once.
    #[arg(long, default_value_t = super::default_jobs())]
    jobs: usize,
    /// The ladder (a `c4 tournament` summary.json): its agents are the opponents, held at
    /// their ratings. Default on 7x6: models/ladder.json, else the one built into c4. On
    /// another board: models/ladder-WxH.json, made first when it is missing (a tournament
    /// of random, easy, hard, the board's network and the perfect player or MCTS, see
    /// --ladder-games); its ratings are shifted onto the 7x6 ladder's scale (the agents
    /// both share average the same), so an Elo means the same on every board.
    #[arg(long)]
    ladder: Option<PathBuf>,
    /// Games per pairing of a board's ladder tournament, when one is made.
    #[arg(long, default_value_t = 40, value_parser = super::at_least_one)]
    ladder_games: usize,
    /// The calibration file to write; level.csv and the chart level.png / level.svg go
    /// beside it. Default: models/level.json on 7x6, models/level-WxH.json on another board.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Instead of calibrating: play `level:elo=E` for each E given (comma-separated) against
    /// the ladder, on other openings than the calibration's, and report the Elo each
    /// measures (the dial's error where its curve was not fitted); writes OUT's stem with
    /// -check.json.
    #[arg(long, value_delimiter = ',')]
    check: Vec<f64>,
    /// Earlier calibrations (their level.json) whose points join this run's before the curve
    /// is fitted: a second run at skills between the first's (on another --seed) refines the
    /// curve where it bends. A skill measured twice is pooled (weighted by precision).
    #[arg(long)]
    merge: Vec<PathBuf>,
    #[command(flatten)]
    board: super::BoardArgs,
}

pub fn run(a: CalibrateArgs, book: super::BookChoice) -> Result<()> {
    if a.board.is_wide()? {
        let geom = a.board.wide_geometry()?;
        run_on(a, geom, book)
    } else {
        let geom = a.board.geometry()?;
        run_on(a, geom, book)
    }
}

/// `c4 calibrate` on a board of the integer `B` (`u128` past 64 bits).
fn run_on<B: AgentBoard>(
    mut a: CalibrateArgs,
    geom: Geometry<B>,
    book: super::BookChoice,
) -> Result<()> {
    if let Some(bad) = a.skills.iter().find(|s| !(0.0..=1.0).contains(*s)) {
        bail!("--skills: {bad} is not a skill from 0 to 1");
    }
    let out = a.out.clone().unwrap_or_else(|| {
        connect4_engine::agents::board_model(std::path::Path::new("models/level.json"), geom)
    });
    a.out = Some(out.clone());
    let resources = Resources {
        book,
        ..Resources::default()
    };
    let bars = super::Bars::new();
    let anchors = ladder_anchors(&a, geom, &out, &resources, &bars)?;
    let cfg = CalibrateConfig {
        anchors,
        skills: a.skills.clone(),
        games: a.games,
        openings: a.openings,
        seed: a.seed,
        jobs: a.jobs,
        geometry: geom,
    };
    if !a.check.is_empty() {
        return check(&a, &cfg, &resources, &bars);
    }
    bars.start(
        "calibration games",
        a.skills.len() * cfg.anchors.len() * a.games,
    );
    let mut report = calibrate(&cfg, &resources, &bars)?;
    bars.finish();
    if !a.merge.is_empty() {
        let mut points = report.calibration.points.clone();
        for path in &a.merge {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let earlier = connect4_engine::agents::level::Calibration::from_json(&text)
                .with_context(|| format!("{}", path.display()))?;
            points.extend(earlier.points);
        }
        report = connect4_learn::arena::report(&cfg, pool_points(points));
    }
    print_report(&report);
    let csv = out.with_extension("csv");
    let stem = out.with_extension("");
    write_json_atomic(&out, &report.calibration)
        .with_context(|| format!("cannot write {}", out.display()))?;
    write_csv_atomic(&csv, &report.calibration.points)
        .with_context(|| format!("cannot write {}", csv.display()))?;
    let [png, svg] =
        connect4_ml::plot::level::calibration_chart(&report.calibration).save(&stem)?;
    super::print_written(&[out.clone(), csv, png, svg]);
    println!(
        "the dial reads the calibration built into c4: rebuild c4 (and web/build-wasm.sh) to take this one"
    );
    Ok(())
}

/// The ladder the dial is calibrated against, on the 7x6 scale: on 7x6 the ladder given
/// (`--ladder`, else the built-in one); on another board its own ladder, played into
/// `ladder-WxH.json` beside the output when there is none yet, moved onto the 7x6 scale.
fn ladder_anchors<B: AgentBoard>(
    a: &CalibrateArgs,
    geom: Geometry<B>,
    out: &std::path::Path,
    resources: &Resources,
    bars: &super::Bars,
) -> Result<Vec<Anchor>> {
    let standard = || {
        let text = connect4_ml::builtin::ladder_in(std::path::Path::new("models"));
        anchors(&text).context("the 7x6 ladder")
    };
    Ok(if geom.narrow() == Some(Geometry::STANDARD) {
        let ladder = match &a.ladder {
            Some(p) => std::fs::read_to_string(p)
                .with_context(|| format!("cannot read the ladder {}", p.display()))?,
            None => connect4_ml::builtin::ladder_in(std::path::Path::new("models")),
        };
        anchors(&ladder).with_context(|| {
            format!(
                "the ladder {}",
                a.ladder
                    .as_ref()
                    .map_or("models/ladder.json".into(), |p| p.display().to_string())
            )
        })?
    } else {
        let path = a.ladder.clone().unwrap_or_else(|| {
            connect4_engine::agents::board_model(&out.with_file_name("ladder.json"), geom)
        });
        if a.ladder.is_none() && !path.exists() {
            make_ladder(a, geom, &path, resources, bars)?;
        }
        let text = std::fs::read_to_string(&path)
            .with_context(|| format!("cannot read the ladder {}", path.display()))?;
        let own = anchors(&text).with_context(|| format!("the ladder {}", path.display()))?;
        connect4_learn::arena::on_standard_scale(own, &standard()?)
    })
}

fn check<B: AgentBoard>(
    a: &CalibrateArgs,
    cfg: &CalibrateConfig<B>,
    resources: &Resources,
    bars: &super::Bars,
) -> Result<()> {
    let cal = connect4_engine::agents::level::Calibration::for_board(cfg.geometry);
    for &e in &a.check {
        cal.skill_of(e)?;
    }
    bars.start("check games", a.check.len() * cfg.anchors.len() * cfg.games);
    let points = connect4_learn::arena::check_calibration(cfg, &a.check, resources, bars)?;
    bars.finish();
    println!(
        "the dial (calibration built into c4, measured on {}) against {} ladder agents, {} games each, seed {}",
        cal.board,
        cfg.anchors.len(),
        cfg.games,
        cfg.seed
    );
    println!(
        "\n{:>8} {:>9} {:>18} {:>7} {:>6}",
        "asked", "measured", "95% interval", "error", "games"
    );
    let mut worst: f64 = 0.0;
    for p in &points {
        worst = worst.max((p.elo - p.asked).abs());
        println!(
            "{:>8.0} {:>9.0} {:>18} {:>+7.0} {:>6}",
            p.asked,
            p.elo,
            format!("[{:.0}, {:.0}]", p.low, p.high),
            p.elo - p.asked,
            p.games
        );
    }
    println!("\nlargest error: {worst:.0} Elo");
    let out = a.out.as_deref().expect("run sets the calibration's path");
    let path = out.with_file_name(format!(
        "{}-check.json",
        out.file_stem().and_then(|s| s.to_str()).unwrap_or("level")
    ));
    write_json_atomic(&path, &points)
        .with_context(|| format!("cannot write {}", path.display()))?;
    super::print_written(&[path]);
    Ok(())
}

/// Plays the ladder tournament of board `geom` and writes its summary to `path`.
fn make_ladder<B: AgentBoard>(
    a: &CalibrateArgs,
    geom: Geometry<B>,
    path: &std::path::Path,
    resources: &Resources,
    bars: &super::Bars,
) -> Result<()> {
    let net: connect4_engine::agents::AgentSpec = "ntuple:depth=1,safe=true".parse()?;
    let has_network = net.factory_on(geom, resources).is_ok();
    let agents = connect4_learn::arena::board_ladder_agents(geom, has_network)
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<Vec<_>>>()?;
    println!(
        "no ladder for {geom} yet: playing one ({} agents, {} games per pairing) for {}",
        agents.len(),
        a.ladder_games,
        path.display()
    );
    let t = connect4_learn::arena::Tournament::on_board(
        connect4_learn::arena::TournamentConfig {
            agents,
            games: a.ladder_games,
            openings: a.openings,
            seed: a.seed,
            jobs: a.jobs,
            geometry: geom,
            side: Default::default(),
        },
        resources,
    )?;
    bars.start("ladder games", t.total_games());
    let summary = t.run(bars)?;
    bars.finish();
    for r in &summary.elo {
        println!("  {:<28} {:>6.0}", r.agent, r.elo);
    }
    write_json_atomic(path, &summary)
        .with_context(|| format!("cannot write {}", path.display()))?;
    super::print_written(&[path.to_path_buf()]);
    Ok(())
}

/// Points of the same skill pooled into one (precision-weighted mean, its interval), the
/// rest kept, sorted by skill.
fn pool_points(
    mut points: Vec<connect4_engine::agents::level::CalibrationPoint>,
) -> Vec<connect4_engine::agents::level::CalibrationPoint> {
    points.sort_by(|a, b| a.skill.total_cmp(&b.skill));
    let mut out: Vec<connect4_engine::agents::level::CalibrationPoint> = Vec::new();
    for p in points {
        match out.last_mut() {
            Some(q) if q.skill == p.skill => {
                let w = |x: &connect4_engine::agents::level::CalibrationPoint| {
                    1.0 / ((x.high - x.low) / 2.0).powi(2).max(1e-9)
                };
                let (wq, wp) = (w(q), w(&p));
                let elo = (q.elo * wq + p.elo * wp) / (wq + wp);
                let half = (1.0 / (wq + wp)).sqrt();
                let games = q.games + p.games;
                q.score_pct =
                    (q.score_pct * q.games as f64 + p.score_pct * p.games as f64) / games as f64;
                q.elo = elo;
                q.low = elo - half;
                q.high = elo + half;
                q.games = games;
            }
            _ => out.push(p),
        }
    }
    out
}

/// The ladder's agents and ratings from a tournament summary's JSON.
pub(super) fn anchors(json: &str) -> Result<Vec<Anchor>> {
    let v: serde_json::Value = serde_json::from_str(json).context("not JSON")?;
    let rows = v["elo"].as_array().context("no \"elo\" list of ratings")?;
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            Ok(Anchor {
                agent: r["agent"]
                    .as_str()
                    .with_context(|| format!("rating {i} has no \"agent\""))?
                    .to_string(),
                elo: r["elo"]
                    .as_f64()
                    .with_context(|| format!("rating {i} has no \"elo\""))?,
            })
        })
        .collect()
}

fn print_report(r: &CalibrateReport) {
    let c = &r.calibration;
    println!(
        "the dial against {} ladder agents, {} games each per setting, {} opening plies, seed {}",
        c.anchors.len(),
        c.games_per_agent,
        c.openings,
        c.seed
    );
    println!(
        "\n{:>6} {:>8} {:>18} {:>6} {:>8} {:>8} {:>9}",
        "skill", "Elo", "95% interval", "games", "score %", "curve", "LOO err"
    );
    for (i, p) in c.points.iter().enumerate() {
        let loo = r
            .leave_one_out
            .iter()
            .find(|(s, _)| *s == p.skill)
            .map_or("-".to_string(), |(_, e)| format!("{e:+.0}"));
        println!(
            "{:>6.2} {:>8.0} {:>18} {:>6} {:>8.2} {:>8.0} {:>9}",
            p.skill,
            p.elo,
            format!("[{:.0}, {:.0}]", p.low, p.high),
            p.games,
            p.score_pct,
            c.curve[i].1,
            loo
        );
    }
    println!(
        "\nfit error (largest leave-one-out error of the curve): {:.0} Elo; range {:.0} to {:.0}",
        r.fit_error,
        c.curve[0].1,
        c.curve[c.curve.len() - 1].1
    );
}
