//! `report.md`: written from the stages' results and the run's configuration only, so every
//! number it quotes is the one the run used.

use super::ladder::RoundRobin;
use super::{PipelineConfig, PipelineError, Results, Sizes};
use connect4_engine::game::Geometry;
use std::fmt::Write as _;

/// The short name of a spec in the roster (the spec itself when it is not there).
fn name_of<'a>(spec: &'a str, roster: &'a [(String, String)]) -> &'a str {
    roster
        .iter()
        .find(|(_, s)| s == spec)
        .map_or(spec, |(n, _)| n.as_str())
}

fn elo_table(r: &RoundRobin, roster: &[(String, String)]) -> String {
    let mut t = String::from(
        "| agent | spec | Elo | 95% interval | games | score % |\n|---|---|---:|---|---:|---:|\n",
    );
    for e in &r.elo {
        let _ = writeln!(
            t,
            "| {} | `{}` | {:.0} | [{:.0}, {:.0}] | {} | {:.1} |",
            name_of(&e.agent, roster),
            crate::plot::files::short_label(&e.agent),
            e.elo,
            e.low,
            e.high,
            e.games,
            e.score_pct
        );
    }
    t
}

fn pairing_table(r: &RoundRobin, roster: &[(String, String)]) -> String {
    let mut t = String::from(
        "| agent | opponent | games | wins | draws | losses | score % |\n|---|---|---:|---:|---:|---:|---:|\n",
    );
    for p in &r.pairings {
        let _ = writeln!(
            t,
            "| {} | {} | {} | {} | {} | {} | {:.1} |",
            name_of(&p.agent, roster),
            name_of(&p.opponent, roster),
            p.games,
            p.wins,
            p.draws,
            p.losses,
            p.score_pct
        );
    }
    t
}

/// The whole report.
pub fn render(
    config: &PipelineConfig,
    sizes: &Sizes,
    results: &Results,
    total_seconds: f64,
    error: Option<&PipelineError>,
) -> String {
    let mut t = String::new();
    section_head(&mut t, config, sizes);
    section_data(&mut t, config, sizes, results);
    section_lms(&mut t, results);
    section_ntuple(&mut t, config, sizes, results);
    section_gbt(&mut t, config, sizes, results);
    section_gbt_heldout(&mut t, results);
    section_ladder(&mut t, results);
    section_evaluate(&mut t, results);
    section_bench(&mut t, config, results);
    section_plots(&mut t, results);
    section_wall_time(&mut t, results, total_seconds);
    section_error(&mut t, error);
    t
}

/// The title, the command and the sizes.
fn section_head(t: &mut String, config: &PipelineConfig, sizes: &Sizes) {
    let _ = writeln!(
        t,
        "# connect4-ml pipeline run\n\nCommand: `c4 pipeline --out {}{}{} --seed {}` (connect4-ml {}). Board: {}.\n",
        config.out.display(),
        if config.quick { " --quick" } else { "" },
        config.board_flags(),
        config.seed,
        env!("CARGO_PKG_VERSION"),
        config.geometry
    );
    let _ = writeln!(
        t,
        "Sizes: {} self-play games; labelled positions: {} for training, {} held out; LMS fit {} epochs, then up to {} self-play games (a match of {} games every {}); GBT up to {} iterations; depth {} for handtuned, lms, gbt and hybrid; ladder {} games per pairing ({} random opening plies); detail round robin {} games per pairing ({} random opening plies); {} games per agent against the hand-tuned agent; {} positions graded per benchmark file.\n",
        sizes.selfplay_games,
        sizes
            .positions_limit
            .map_or_else(|| "all".to_string(), |n| format!("up to {n}")),
        sizes
            .heldout_limit
            .map_or_else(|| "all".to_string(), |n| format!("up to {n}")),
        sizes.lms_epochs,
        sizes.lms_games,
        sizes.lms_eval_games,
        sizes.lms_eval_every,
        sizes.gbt_max_iter,
        sizes.depth,
        sizes.ladder_games,
        sizes.ladder_openings,
        sizes.detail_games,
        sizes.detail_openings,
        sizes.evaluate_games,
        sizes.bench_positions
    );
}

/// The data the run read.
fn section_data(t: &mut String, config: &PipelineConfig, sizes: &Sizes, results: &Results) {
    let plies = sizes.selfplay_plies_on(config.geometry);
    if let Some(d) = &results.data {
        t.push_str("## Data\n\n");
        match &d.uci {
            Some(u) => {
                let _ = writeln!(
                    t,
                    "- UCI: `{}`, {} rows, sha256 of the uncompressed data `{}`{}",
                    u.source,
                    u.rows,
                    u.sha256,
                    if u.published {
                        " (the published file)"
                    } else {
                        ""
                    }
                );
            }
            None if config.geometry != Geometry::STANDARD => t.push_str(
                "- UCI: **not used** (its positions are 7x6): the GBT learns from self-play positions only\n",
            ),
            None => t.push_str(
                "- UCI: **not used** (`--no-uci`): the GBT learns from self-play positions only\n",
            ),
        }
        for (what, set) in [
            ("training (LMS fit and GBT rows)", &d.positions),
            ("held out (no model trains on it)", &d.heldout),
        ] {
            match set {
                Some(p) => {
                    let _ = writeln!(
                        t,
                        "- Labelled positions, {what}: `{}`, {} rows, sha256 `{}`",
                        p.source, p.rows, p.sha256
                    );
                }
                None => {
                    let _ = writeln!(t, "- Labelled positions, {what}: **not used**");
                }
            }
        }
        let half = d.selfplay_positions / 2;
        let _ = writeln!(
            t,
            "- Self-play: {} games `{}` vs `{}` ({} random opening plies), positions of plies {}-{} labelled by the solver (win/draw/loss): {} distinct positions in `{}` (sha256 `{}`); {} join the GBT's training rows, {} are held out as the phases test set.\n",
            sizes.selfplay_games,
            d.agents[0],
            d.agents[1],
            sizes.selfplay_openings,
            plies.0,
            plies.1,
            d.selfplay_positions,
            super::data::SELFPLAY_FILE,
            d.selfplay_sha256,
            half,
            d.selfplay_positions - half
        );
    }
}

/// The LMS weights and their curve.
fn section_lms(t: &mut String, results: &Results) {
    if let Some(l) = &results.lms {
        t.push_str("## LMS weights\n\n");
        if let Some(f) = &l.supervised {
            let _ = writeln!(
                t,
                "Supervised start: the LMS rule on {} labelled positions, {} epochs; on {} held-out positions mean squared error {}, sign right on {} of the decided ones (`models/lms.supervised.json`).\n",
                f.train_rows,
                f.epochs,
                f.test_rows,
                f.heldout_mse.map_or("-".into(), |v| format!("{v:.4}")),
                f.heldout_sign_accuracy
                    .map_or("-".into(), |v| format!("{:.1}%", 100.0 * v))
            );
        }
        let _ = writeln!(
            t,
            "`models/lms.bin`: {} training games against `handtuned:depth={}`, stopped: {}; kept the weights after game {}; mean squared error over the last {} games {:.4}; cosine similarity to the hand-tuned weights {:.3}.\n",
            l.games,
            l.depth,
            l.stop,
            l.kept_after_games,
            l.window,
            l.final_window_mse,
            l.cosine_to_hand_tuned
        );
        t.push_str("| feature | learned | hand-tuned |\n|---|---:|---:|\n");
        for (f, w, h) in &l.weights {
            let _ = writeln!(t, "| {f} | {w:.3} | {h:.3} |");
        }
        let scores: Vec<String> = l
            .evaluations
            .iter()
            .map(|(after, score)| format!("{after}: {:.0}%", 100.0 * score))
            .collect();
        let _ = writeln!(
            t,
            "\nEvaluation matches ({} games each; training games: score): {}.\n",
            l.eval_games,
            scores.join(", ")
        );
    }
}

/// The n-tuple network and its curve.
fn section_ntuple(t: &mut String, config: &PipelineConfig, sizes: &Sizes, results: &Results) {
    if let Some(n) = &results.ntuple {
        let _ = writeln!(
            t,
            "## n-tuple network\n\n`models/ntuple.bin`: {} weights; {} labelled positions (none: from scratch), then {} TD self-play games in {:.1} s. Learning curve (the network as a depth-1 agent: score against `handtuned:depth=5`{}; `models/ntuple.curve.csv`, charts in `plots/`):\n",
            n.weights,
            n.labelled,
            n.games,
            n.seconds,
            if config.geometry == Geometry::STANDARD {
                format!(
                    ", mistakes on the first {} positions of each benchmark set",
                    sizes.ntuple_curve_positions
                )
            } else {
                String::new()
            }
        );
        if let Some(first) = n.curve.first() {
            t.push_str("| part | games | seconds | score |");
            for (set, _) in &first.mistakes {
                let _ = write!(t, " {set} |");
            }
            t.push_str("\n|---|---:|---:|---:|");
            t.push_str(&"---:|".repeat(first.mistakes.len()));
            t.push('\n');
            for p in &n.curve {
                let _ = write!(
                    t,
                    "| {} | {} | {:.0} | {:.1}% [{:.1}, {:.1}] |",
                    p.part,
                    p.games,
                    p.seconds,
                    100.0 * p.score,
                    100.0 * p.score_low,
                    100.0 * p.score_high
                );
                for (_, m) in &p.mistakes {
                    let _ = write!(t, " {:.1}% |", 100.0 * m);
                }
                t.push('\n');
            }
            t.push('\n');
        } else {
            t.push_str("No curve: the benchmark folder has no `curve-columns.json` (the shipped `data/bench` has).\n\n");
        }
        let measured: Vec<_> = n
            .curve
            .iter()
            .filter(|p| !p.vs_perfect.is_empty())
            .collect();
        if let Some(first) = measured.first() {
            t.push_str("Against the perfect player with random tie-breaks, from the empty board (the n-tuple literature's yardstick: the network at depth 1 with the one-move rule; wins with 95% Wilson intervals; `models/ntuple.perfect.csv`, chart `plots/ntuple_first_seconds.png`; Thill 2026 reaches 94.6% as first player after 5 minutes on an A100):\n\n| games | seconds |");
            for m in &first.vs_perfect {
                let _ = write!(t, " {} |", m.label());
            }
            t.push_str("\n|---:|---:|");
            t.push_str(&"---:|".repeat(first.vs_perfect.len()));
            t.push('\n');
            for p in &measured {
                let _ = write!(t, "| {} | {:.0} |", p.games, p.seconds);
                for m in &p.vs_perfect {
                    let _ = write!(
                        t,
                        " {:.0}% [{:.0}, {:.0}] of {} |",
                        100.0 * m.win_rate,
                        100.0 * m.low,
                        100.0 * m.high,
                        m.games
                    );
                }
                t.push('\n');
            }
            t.push('\n');
        }
    }
}

/// The GBT and its holdout.
fn section_gbt(t: &mut String, config: &PipelineConfig, sizes: &Sizes, results: &Results) {
    let plies = sizes.selfplay_plies_on(config.geometry);
    if let Some(g) = &results.gbt {
        let _ = writeln!(
            t,
            "## GBT\n\n`models/gbt.bin`: reference configuration with up to {} leaves per tree, up to {} iterations, `{}` features, {} training rows ({} main, {} of {} further rows kept: self-play and labelled positions, less any that equal or mirror a test row), {} iterations, fit {:.2} s. Holdout ({} rows): accuracy **{:.4}**, log loss **{:.4}**; recall loss/draw/win {:.3}/{:.3}/{:.3}. On the {} held-out self-play positions of plies {}-{}: accuracy {} (`models/gbt.phases.csv`).\n",
            super::gbt::LEAVES,
            sizes.gbt_max_iter,
            g.features,
            g.train_rows,
            g.main_train_rows,
            g.extra_kept,
            g.extra_rows,
            g.iterations,
            g.fit_seconds,
            g.test_rows,
            g.accuracy,
            g.log_loss,
            g.recall[0],
            g.recall[1],
            g.recall[2],
            g.phase_rows,
            plies.0,
            plies.1,
            g.phase_accuracy
                .map_or_else(|| "-".to_string(), |a| format!("{a:.4}"))
        );
    }
}

/// The GBT on held-out positions by stones.
fn section_gbt_heldout(t: &mut String, results: &Results) {
    if let Some(g) = &results.gbt
        && !g.heldout_by_stones.is_empty()
    {
        t.push_str("Held-out labelled positions by stones on the board:\n\n| stones | rows | accuracy | log loss |\n|---|---:|---:|---:|\n");
        for b in &g.heldout_by_stones {
            let _ = writeln!(
                t,
                "| {}-{} | {} | {:.4} | {:.4} |",
                b.lo, b.hi, b.metrics.rows, b.metrics.accuracy, b.metrics.log_loss
            );
        }
        t.push('\n');
    }
}

/// The tournament ladder.
fn section_ladder(t: &mut String, results: &Results) {
    if let Some(l) = &results.ladder {
        let _ = writeln!(
            t,
            "## Tournament ladder\n\nRound robin, {} games per pairing, colours alternating, {} random opening plies (`ladder/games.csv`, `ladder/summary.json`).\n",
            l.ladder.games, l.ladder.openings
        );
        t.push_str(&elo_table(&l.ladder, &l.roster));
        let _ = writeln!(
            t,
            "\n### Every model agent against the hand-tuned agent (and hard)\n\nRound robin of {}, {} games per pairing, {} random opening plies (`detail/`).\n",
            super::ladder::DETAIL_AGENTS.join(", "),
            l.detail.games,
            l.detail.openings
        );
        t.push_str(&pairing_table(&l.detail, &l.roster));
        t.push('\n');
        t.push_str(&elo_table(&l.detail, &l.roster));
        t.push('\n');
    }
}

/// Every learned agent against the hand-tuned one.
fn section_evaluate(t: &mut String, results: &Results) {
    if let Some(e) = &results.evaluate {
        let _ = writeln!(
            t,
            "## Against the hand-tuned agent\n\n`c4 evaluate --equal-time`: each learned agent against `{}`, colours alternating, pairs of games sharing a random opening; the line ending `@Tms` is the same agent searching on the hand-tuned agent's mean time per move (`evaluate/evaluate.json`, [chart](evaluate/score.png)).\n",
            e.baseline
        );
        let _ = writeln!(t, "```text\n{}```\n", e.text());
    }
}

/// Error rates against the solver.
fn section_bench(t: &mut String, config: &PipelineConfig, results: &Results) {
    if let Some(b) = &results.bench {
        let what = match &config.bench {
            Some(dir) => format!(
                "The first {} positions of each benchmark set in `{}`",
                b.positions,
                dir.display()
            ),
            None => format!(
                "Up to {} of the data stage's held-out self-play positions per phase (begin: under a third of the board's {} cells filled, middle: under two thirds, end: the rest)",
                b.positions,
                config.geometry.cells()
            ),
        };
        let _ = writeln!(
            t,
            "## Error rates against the solver\n\n{what}, one move per position, graded by the solver: an error is a move that loses game-theoretic value (win to draw or loss, draw to loss); 95% Wilson intervals in brackets. `perfect` is the oracle and is not graded.{} (`bench/error_rates.json`, per move with its ply in `bench/moves.csv`.)\n",
            if config.bench.is_some() {
                " The begin-hard set is left out: its positions take seconds each to grade."
            } else {
                ""
            }
        );
        let _ = write!(t, "| agent | {} |\n|---|", b.sets.join(" | "));
        t.push_str(&"---:|".repeat(b.sets.len()));
        t.push('\n');
        for name in &b.agents {
            let cells: Vec<String> = b
                .sets
                .iter()
                .map(|set| {
                    b.summaries
                        .iter()
                        .find(|s| &s.agent == name && &s.set == set)
                        .map_or("-".into(), |s| {
                            let w = connect4_learn::arena::wilson(s.errors, s.positions);
                            format!(
                                "{:.1}% [{:.1}, {:.1}]",
                                100.0 * s.error_rate,
                                100.0 * w.low,
                                100.0 * w.high
                            )
                        })
                })
                .collect();
            let _ = writeln!(t, "| {name} | {} |", cells.join(" | "));
        }
        t.push('\n');
        if config.bench.is_none() {
            return;
        }
        t.push_str(
        "The learned agents in AlphaZero.jl's layout (its benchmark against Pons' six sets; `-` where a set was not graded):\n\n",
    );
        for name in super::evaluate::EVALUATED {
            let mine: Vec<_> = b
                .summaries
                .iter()
                .filter(|s| s.agent == name)
                .cloned()
                .collect();
            if !mine.is_empty() {
                let _ = write!(
                    t,
                    "`{name}`:\n\n```text\n{}```\n\n",
                    connect4_learn::arena::benchmark_sets::six_set_table(&mine)
                );
            }
        }
    }
}

/// The charts.
fn section_plots(t: &mut String, results: &Results) {
    if let Some(p) = &results.plots {
        t.push_str("## Plots\n\n");
        for stem in &p.charts {
            let _ = writeln!(t, "- [{stem}](plots/{stem}.png) ([svg](plots/{stem}.svg))");
        }
        t.push('\n');
    }
}

/// Time per stage.
fn section_wall_time(t: &mut String, results: &Results, total_seconds: f64) {
    let _ = writeln!(t, "## Wall time\n\n| stage | seconds |\n|---|---:|");
    for (stage, seconds, resumed) in &results.timings {
        let how = if *resumed {
            " (resumed: not run again)"
        } else {
            ""
        };
        let _ = writeln!(t, "| {stage}{how} | {seconds:.1} |");
    }
    let _ = writeln!(t, "| total | {total_seconds:.1} |\n");
}

/// Why the run stopped, when it did.
fn section_error(t: &mut String, error: Option<&PipelineError>) {
    if let Some(e) = error {
        let _ = writeln!(
            t,
            "## Run stopped\n\n{e}\n\nEverything above finished and its files are kept."
        );
    }
}
