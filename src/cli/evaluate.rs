//! `c4 evaluate`: each agent against a baseline, with intervals, and graded by the solver.

use anyhow::{Context, Result, bail};
use clap::Args;
use connect4_ml::Geometry;
use connect4_ml::arena::bench_sets::BenchSet;
use connect4_ml::arena::evaluate::{
    EvaluateConfig, EvaluateReport, MatchReport, evaluate, work_items,
};
use connect4_ml::plot::{BarChart, Chart};
use connect4_ml::progress::Progress;
use std::path::PathBuf;

#[derive(Args, Debug)]
pub struct EvaluateArgs {
    /// Agents to evaluate (each one against the baseline), e.g.
    /// `--agent model:models/gbt.bin,depth=3 lms:models/lms.bin,depth=3`.
    #[arg(long, num_args = 1.., required = true)]
    agent: Vec<String>,
    /// What every agent plays against.
    #[arg(long, default_value = "handtuned:depth=3")]
    baseline: String,
    /// Games per agent and seed (colours alternate; pairs of games share an opening).
    #[arg(long, default_value_t = 400)]
    games: usize,
    /// Seeds: the match is played once per seed from --seed on, all games pooled.
    #[arg(long, default_value_t = 1)]
    seeds: usize,
    /// Random opening plies of every game.
    #[arg(long, default_value_t = 2)]
    openings: usize,
    /// First seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Folder of benchmark sets to grade moves on.
    #[arg(long, default_value = connect4_ml::arena::bench_sets::DEFAULT_BENCH_DIR)]
    bench: PathBuf,
    /// Sets to grade on (begin-hard is left out by default: grading it takes seconds per move).
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "end-easy,middle-easy,middle-medium,begin-easy,begin-medium"
    )]
    sets: Vec<String>,
    /// Positions graded per set (0 = no grading).
    #[arg(long, default_value_t = 200)]
    positions: usize,
    /// Also play each agent on the baseline's mean time per move (searching agents only).
    #[arg(long)]
    equal_time: bool,
    /// Worker threads (default: every core).
    #[arg(long)]
    jobs: Option<usize>,
    /// Solver table per grading worker, MiB.
    #[arg(long, default_value_t = 64)]
    tt_mib: usize,
    /// Output folder: evaluate.json, score.png/svg, errors.png/svg.
    #[arg(long)]
    out: PathBuf,
}

pub fn run(a: EvaluateArgs) -> Result<()> {
    let geometry = Geometry::default();
    let agents = connect4_ml::agents::split_agent_list(&a.agent)
        .iter()
        .map(|s| super::parse_agent(s))
        .collect::<Result<Vec<_>>>()?;
    let baseline = super::parse_agent(&a.baseline).context("--baseline")?;
    let mut bench = Vec::new();
    if a.positions > 0 {
        for name in &a.sets {
            let set = BenchSet::named(name).with_context(|| {
                format!(
                    "--sets: unknown benchmark set {name:?}; known: end-easy, middle-easy, middle-medium, begin-easy, begin-medium, begin-hard"
                )
            })?;
            let path = set.file_in(&a.bench).with_context(|| {
                format!(
                    "set {} not found in {} (--bench)",
                    set.name,
                    a.bench.display()
                )
            })?;
            let positions =
                connect4_ml::arena::read_graded_file(&path, geometry, Some(a.positions))?;
            bench.push((set.name.to_string(), positions));
        }
    }
    if a.jobs == Some(0) {
        bail!("--jobs must be at least 1");
    }
    let cfg = EvaluateConfig {
        agents,
        baseline,
        games: a.games,
        seeds: a.seeds,
        openings: a.openings,
        seed: a.seed,
        bench,
        equal_time: a.equal_time,
        jobs: a.jobs.unwrap_or_else(rayon::current_num_threads),
        tt_mib: a.tt_mib,
        geometry,
    };
    let bars = super::Bars::new();
    bars.start("games and graded positions", work_items(&cfg));
    let report = evaluate(&cfg, &bars)?;
    bars.finish();
    print_report(&report);
    std::fs::create_dir_all(&a.out).with_context(|| format!("creating {}", a.out.display()))?;
    let json = a.out.join("evaluate.json");
    connect4_ml::io::write_json_atomic(&json, &report)
        .with_context(|| format!("writing {}", json.display()))?;
    let mut written = vec![json];
    for (stem, chart) in charts(&report) {
        written.extend(chart.save(&a.out.join(stem))?);
    }
    super::print_written(&written);
    Ok(())
}

fn match_line(m: &MatchReport) -> String {
    format!(
        "{:<40} {:>5} {:>4}/{:>3}/{:>4} {:>6.1}% [{:>5.1}, {:>5.1}] {:>+6.0} [{:>+5.0}, {:>+5.0}] {:>9.3} {:>9.3}",
        m.agent,
        m.games,
        m.wins,
        m.draws,
        m.losses,
        100.0 * m.score.value,
        100.0 * m.score.low,
        100.0 * m.score.high,
        m.elo.value,
        m.elo.low,
        m.elo.high,
        m.ms_per_move,
        m.baseline_ms_per_move
    )
}

/// The tables on stdout: matches, then error rates per set.
fn print_report(r: &EvaluateReport) {
    println!(
        "against {} ({} games x {} seed(s) per agent, {} random opening plies, seed {}):",
        r.baseline, r.games, r.seeds, r.openings, r.seed
    );
    println!(
        "{:<40} {:>5} {:>14} {:>23} {:>21} {:>9} {:>9}",
        "agent", "games", "W/D/L", "score [95% CI]", "Elo diff [95% CI]", "ms/move", "base ms"
    );
    for a in &r.agents {
        println!("{}", match_line(&a.vs_baseline));
        if let Some(m) = &a.equal_time {
            println!("{}", match_line(m));
        }
    }
    if r.baseline_errors.is_empty() {
        return;
    }
    println!("\nerror rate against the solver (moves that lose value), % [95% CI]:");
    let sets: Vec<&str> = r.baseline_errors.iter().map(|s| s.set.as_str()).collect();
    print!("{:<40}", "agent");
    for s in &sets {
        print!(" {s:>22}");
    }
    println!();
    let row = |name: &str, errs: &[connect4_ml::arena::evaluate::SetErrors]| {
        print!("{name:<40}");
        for e in errs {
            print!(
                " {:>22}",
                format!(
                    "{:.1} [{:.1}, {:.1}] n={}",
                    100.0 * e.error_rate.value,
                    100.0 * e.error_rate.low,
                    100.0 * e.error_rate.high,
                    e.positions
                )
            );
        }
        println!();
    };
    row(&format!("{} (baseline)", r.baseline), &r.baseline_errors);
    for a in &r.agents {
        row(&a.agent, &a.errors);
    }
}

/// The score chart (with intervals) and the error-rate chart.
fn charts(r: &EvaluateReport) -> Vec<(&'static str, Chart)> {
    let mut matches: Vec<&MatchReport> = Vec::new();
    for a in &r.agents {
        matches.push(&a.vs_baseline);
        if let Some(m) = &a.equal_time {
            matches.push(m);
        }
    }
    let short = connect4_ml::plot::files::short_label;
    let score = Chart::Bar(BarChart {
        title: format!("Score against {} (95% CI)", r.baseline),
        value_label: "score %".into(),
        categories: matches.iter().map(|m| short(&m.agent)).collect(),
        groups: vec![(
            "score".into(),
            matches.iter().map(|m| 100.0 * m.score.value).collect(),
        )],
        intervals: Some(
            matches
                .iter()
                .map(|m| (100.0 * m.score.low, 100.0 * m.score.high))
                .collect(),
        ),
        dots: false,
    });
    let mut out = vec![("score", score)];
    if !r.baseline_errors.is_empty() {
        let mut groups = vec![(
            short(&r.baseline),
            r.baseline_errors
                .iter()
                .map(|e| 100.0 * e.error_rate.value)
                .collect(),
        )];
        for a in &r.agents {
            groups.push((
                short(&a.agent),
                a.errors
                    .iter()
                    .map(|e| 100.0 * e.error_rate.value)
                    .collect(),
            ));
        }
        out.push((
            "errors",
            Chart::Bar(BarChart {
                title: "Error rate against the solver".into(),
                value_label: "moves that lose value, %".into(),
                categories: r.baseline_errors.iter().map(|e| e.set.clone()).collect(),
                groups,
                intervals: None,
                dots: false,
            }),
        ));
    }
    out
}
