"""Writes the four notebooks from the cell sources below (keeps them reviewable as text).

Run: python notebooks/make_notebooks.py   (from the repository root)
"""
import nbformat as nbf
from pathlib import Path

HERE = Path(__file__).parent

SETUP = '''import os, json
from pathlib import Path
import numpy as np
import pandas as pd
import matplotlib
import matplotlib.pyplot as plt
import connect4_ml as c4  # the Python package: pip install ./python
%matplotlib inline

# The run directory written by `c4 pipeline --out runs/NAME`; the test sets C4_RUN.
RUN = Path(os.environ.get("C4_RUN", "../runs/pipeline"))
assert RUN.is_dir(), f"{RUN} is not a run directory: run `c4 pipeline --out {RUN}` first or set C4_RUN"
print("run:", RUN.resolve())'''


def notebook(title, intro, cells):
    nb = nbf.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbf.v4.new_markdown_cell(f"# {title}\n\n{intro}"), nbf.v4.new_code_cell(SETUP)]
    for kind, src in cells:
        nb.cells.append(nbf.v4.new_markdown_cell(src) if kind == "md" else nbf.v4.new_code_cell(src))
    return nb


learning = notebook(
    "01 Learning curves",
    "LMS self-play training and GBT boosting, from a pipeline run's CSV and JSON files: "
    "smoothed errors, the weights against the hand-tuned ones, match scores with their "
    "uncertainty, and the GBT's generalisation gap.",
    [
        ("md", "## LMS: error per game, smoothed over several windows"),
        ("code", '''curve = pd.read_csv(RUN / "models/lms.curve.csv")
fig, ax = plt.subplots(figsize=(9, 4))
ax.plot(curve.game, curve.mse, lw=0.5, alpha=0.4, label="per game")
for w in (10, 50, 200):
    ax.plot(curve.game, curve.mse.rolling(w, min_periods=1).mean(), label=f"rolling mean, {w} games")
ax.set(xlabel="training game", ylabel="mean squared error", title="LMS error", yscale="log")
ax.legend(); plt.show()
print(curve[["mse", "max_change", "examples", "plies"]].describe().round(4))'''),
        ("md", "## LMS: weights against the hand-tuned weights (dashed)"),
        ("code", '''report = json.loads((RUN / "models/lms.report.json").read_text())
fig, ax = plt.subplots(figsize=(9, 5))
for i, name in enumerate(report["features"]):
    line, = ax.plot(curve.game, curve[f"w_{name}"], label=name)
    ax.axhline(report["hand_tuned_weights"][i], ls="--", color=line.get_color(), lw=0.8)
ax.set(xlabel="training game", ylabel="weight (normalised)", title="LMS weights (dashed: hand-tuned)")
ax.legend(fontsize=7, ncol=2); plt.show()
pd.DataFrame({"learned": report["weights"], "hand-tuned": report["hand_tuned_weights"]}, index=report["features"]).round(3)'''),
        ("md", "## LMS: evaluation matches with 95% intervals\n\nA match score is a mean of game points; the interval is the normal approximation from the points' spread."),
        ("code", '''ev = pd.read_csv(RUN / "models/lms.eval.csv")
p = ev.score
sd = np.sqrt((ev.wins * (1 - p) ** 2 + ev.draws * (0.5 - p) ** 2 + ev.losses * p ** 2) / ev.games)
half = 1.96 * sd / np.sqrt(ev.games)
fig, ax = plt.subplots(figsize=(9, 4))
ax.errorbar(ev.after_games, 100 * p, yerr=100 * half, fmt="o-", capsize=3)
ax.axhline(50, color="k", lw=0.8)
ax.set(xlabel="training games", ylabel="score against handtuned (%)", ylim=(0, 100), title="LMS evaluation matches")
plt.show()
ev.assign(low=100 * (p - half), high=100 * (p + half)).round(1)'''),
        ("md", "## GBT: generalisation gap per iteration"),
        ("code", '''g = pd.read_csv(RUN / "models/gbt.curve.csv")
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
for col in ["train_loss", "validation_loss", "eval_loss"]:
    if col in g and g[col].notna().any():
        axes[0].plot(g.iteration, g[col], label=col)
axes[0].set(xlabel="iteration", ylabel="log loss", title="GBT log loss"); axes[0].legend()
held = "eval_loss" if g.get("eval_loss") is not None and g["eval_loss"].notna().any() else "validation_loss"
axes[1].plot(g.iteration, g[held] - g.train_loss)
axes[1].set(xlabel="iteration", ylabel=f"{held} - train_loss", title="gap (overfitting grows it)")
plt.tight_layout(); plt.show()
print("best held-out loss at iteration", int(g.loc[g[held].idxmin(), "iteration"]), "of", len(g))'''),
    ],
)

tournament = notebook(
    "02 Tournament and Elo",
    "The ladder and the detailed round robin: score matrix, Elo with intervals, the first-move "
    "advantage and game lengths per agent.",
    [
        ("code", '''def load(name):
    s = json.loads((RUN / name / "summary.json").read_text())
    games = pd.read_csv(RUN / name / "games.csv")
    return s, games

def short(spec):
    # the agent's kind, plus the model file name when there is one
    kind = spec.split(":")[0]
    return {"model": "gbt", "handtuned": "handtuned"}.get(kind, kind)

ladder, ladder_games = load("ladder")
detail, detail_games = load("detail")
print(len(ladder_games), "ladder games;", len(detail_games), "detail games")'''),
        ("md", "## Score matrix (row agent's score against the column agent, %)"),
        ("code", '''def matrix(s):
    agents = [short(a) for a in s["agents"]]
    m = pd.DataFrame(np.nan, index=agents, columns=agents)
    for p in s["pairings"]:
        a, b = short(p["agent"]), short(p["opponent"])
        m.loc[a, b] = p["score_pct"]; m.loc[b, a] = 100 - p["score_pct"]
    return m

for title, s in [("ladder", ladder), ("detail", detail)]:
    m = matrix(s)
    fig, ax = plt.subplots(figsize=(6, 5))
    im = ax.imshow(m.values, cmap="RdYlGn", vmin=0, vmax=100)
    ax.set_xticks(range(len(m)), m.columns, rotation=45, ha="right"); ax.set_yticks(range(len(m)), m.index)
    for i in range(len(m)):
        for j in range(len(m)):
            if not np.isnan(m.values[i, j]):
                ax.text(j, i, f"{m.values[i, j]:.0f}", ha="center", va="center", fontsize=8)
    ax.set_title(f"{title}: score of row against column (%)"); fig.colorbar(im); plt.show()'''),
        ("md", "## Elo with 95% bootstrap intervals"),
        ("code", '''fig, axes = plt.subplots(1, 2, figsize=(12, 4))
for ax, (title, s) in zip(axes, [("ladder", ladder), ("detail", detail)]):
    e = pd.DataFrame(s["elo"]).assign(name=lambda d: d.agent.map(short)).iloc[::-1]
    ax.errorbar(e.elo, e.name, xerr=[e.elo - e.low, e.high - e.elo], fmt="o", capsize=4)
    ax.set(xlabel="Elo", title=title)
plt.tight_layout(); plt.show()
pd.DataFrame(ladder["elo"]).assign(agent=lambda d: d.agent.map(short)).round(1)'''),
        ("md", "## Against the hand-tuned agent (the evaluate stage)\n\nEach learned agent against the baseline at equal depth and, where run, with the baseline's mean time per move as its budget; scores with their 95% intervals, from `evaluate/evaluate.json`."),
        ("code", '''ev = json.loads((RUN / "evaluate/evaluate.json").read_text())
rows = []
for a in ev["agents"]:
    for setting in ("vs_baseline", "equal_time"):
        m = a.get(setting)
        if m:
            rows.append({"agent": short(a["agent"]), "setting": "equal depth" if setting == "vs_baseline" else "equal time",
                         "games": m["games"], "wins": m["wins"], "draws": m["draws"], "losses": m["losses"],
                         "score": 100 * m["score"]["value"], "low": 100 * m["score"]["low"], "high": 100 * m["score"]["high"],
                         "elo": m["elo"]["value"], "ms_per_move": m["ms_per_move"]})
table = pd.DataFrame(rows)
fig, ax = plt.subplots(figsize=(8, 3.5))
for k, (setting, t) in enumerate(table.groupby("setting", sort=False)):
    y = np.arange(len(t)) + 0.2 * k
    # (clipped at 0: an interval end can round past a score of 0% or 100%)
    err = [(t.score - t.low).clip(lower=0), (t.high - t.score).clip(lower=0)]
    ax.errorbar(t.score, y, xerr=err, fmt="o", capsize=4, label=setting)
    ax.set_yticks(np.arange(len(t)), t.agent)
ax.axvline(50, color="k", lw=0.8, ls="--")
ax.set(xlabel=f"score against {ev['baseline']} (%)", xlim=(0, 100), title="learned agents against the baseline")
ax.legend(); plt.show()
table.round(2)'''),
        ("md", "## First-move advantage and game length"),
        ("code", '''g = pd.concat([ladder_games.assign(t="ladder"), detail_games.assign(t="detail")])
g["first_points"] = g.result.map({"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0})
print("first player's mean score:", g.groupby("t").first_points.mean().round(3).to_dict())
rows = []
for _, r in g.iterrows():
    rows.append((short(r["first"]), r.plies)); rows.append((short(r["second"]), r.plies))
lengths = pd.DataFrame(rows, columns=["agent", "plies"])
ax = lengths.boxplot(by="agent", column="plies", figsize=(9, 4), rot=45)
ax.set(title="game length per agent (all its games)", xlabel="", ylabel="plies"); plt.suptitle(""); plt.show()'''),
    ],
)

quality = notebook(
    "03 Evaluator quality",
    "Against the solver: error rate by ply for every agent, calibration and accuracy by ply of "
    "the GBT's probabilities on held-out self-play positions, and its feature importance laid "
    "out on the board.",
    [
        ("md", "## Error rate by ply\n\nEvery graded move from `bench/moves.csv`, binned by the position's ply."),
        ("code", '''moves = pd.read_csv(RUN / "bench/moves.csv")
moves["ply_bin"] = pd.cut(moves.ply, bins=[0, 10, 16, 22, 28, 34, 42], right=False)
by = moves.groupby(["agent", "ply_bin"], observed=True).error.mean().unstack(0) * 100
ax = by.plot(marker="o", figsize=(9, 4))
ax.set(xlabel="ply of the position", ylabel="error rate (%)", title="moves that lose value, by ply")
plt.show()
moves.groupby("agent")[["error", "optimal"]].mean().mul(100).round(1).sort_values("error")'''),
        ("md", "## Calibration of the GBT's P(win) on held-out self-play positions"),
        ("code", '''ph = pd.read_csv(RUN / "models/gbt.phases.csv")
ph["won"] = (ph.label == "win").astype(float)
ph["bin"] = pd.cut(ph.p_win, np.linspace(0, 1, 11), include_lowest=True)
cal = ph.groupby("bin", observed=True).agg(predicted=("p_win", "mean"), observed=("won", "mean"), n=("won", "size"))
fig, ax = plt.subplots(figsize=(5, 5))
ax.plot([0, 1], [0, 1], "k--", lw=0.8)
ax.plot(cal.predicted, cal.observed, "o-")
ax.set(xlabel="predicted P(win)", ylabel="observed win frequency", title="GBT calibration (plies 10-41)")
plt.show()
brier = ((ph.p_win - ph.won) ** 2).mean()
print(f"Brier score of P(win): {brier:.4f} over {len(ph)} positions")
cal.round(3)'''),
        ("md", "## Accuracy by ply: a model trained on 8-ply positions, away from ply 8"),
        ("code", '''classes = np.array(["loss", "draw", "win"])
ph["pred"] = classes[ph[["p_loss", "p_draw", "p_win"]].values.argmax(axis=1)]
acc = ph.assign(ok=ph.pred == ph.label).groupby(pd.cut(ph.ply, [10, 16, 22, 28, 34, 42], right=False), observed=True).ok.agg(["mean", "size"])
ax = acc["mean"].plot(marker="o", figsize=(8, 3.5))
ax.set(xlabel="ply", ylabel="accuracy", title="GBT accuracy by ply", ylim=(0, 1)); plt.show()
acc.round(3)'''),
        ("md", "## The run's GBT on the shipped held-out positions, through the Python package\n\n"
               "`c4.read_labelled` reads the positions with their exact scores, `c4.Model` loads the run's model "
               "file and predicts the whole batch in Rust."),
        ("code", '''held = c4.read_labelled("../data/positions/heldout.txt.gz")
positions = [c4.Position(m) for m in held["moves"]]
model = c4.Model(RUN / "models/gbt.bin")
p = model.probabilities_batch(positions)
truth = np.sign(held["scores"]) + 1  # 0 loss, 1 draw, 2 win for the side to move
ok = p.argmax(axis=1) == truth
by_stones = pd.DataFrame({"stones": held["stones"], "ok": ok}).groupby("stones").ok.mean()
ax = by_stones.plot(marker="o", figsize=(8, 3.5))
ax.set(xlabel="stones on the board", ylabel="accuracy", title=f"{model.kind} on {len(positions):,} held-out positions", ylim=(0, 1))
plt.show()
print(f"accuracy {ok.mean():.4f}")'''),
        ("md", "## Feature importance on the board (cells features)"),
        ("code", '''imp = pd.read_csv(RUN / "models/gbt.importance.csv").set_index("feature").importance
board = np.full((6, 7), np.nan)
for name, v in imp.items():
    if len(name) == 2 and name[0] in "abcdefg" and name[1] in "123456":
        board[int(name[1]) - 1, "abcdefg".index(name[0])] = v
fig, ax = plt.subplots(figsize=(6, 5))
im = ax.imshow(board, origin="lower", cmap="viridis")
ax.set_xticks(range(7), list("abcdefg")); ax.set_yticks(range(6), range(1, 7))
ax.set_title("GBT gain per cell (row 1 = bottom)"); fig.colorbar(im); plt.show()
imp.sort_values(ascending=False).head(10).round(4)'''),
    ],
)

python = notebook(
    "04 From Python: scikit-learn on our features, our agent against OpenSpiel",
    "The package `connect4_ml` gives our feature sets as numpy matrices: a scikit-learn model "
    "trains on exactly what our GBT reads, and both are scored on the shipped held-out positions. "
    "Then our agent plays OpenSpiel's MCTS bot through the OpenSpiel adapter.",
    [
        ("md", "## The same features for scikit-learn\n\n"
               "Training rows: the UCI file's 67,557 8-ply positions (first player to move) and the shipped "
               "labelled positions of 10-36 stones; the test: the shipped held-out positions, which no shipped "
               "model trained on. Labels: win / draw / loss of the side to move."),
        ("code", '''from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.metrics import accuracy_score, log_loss

FEATURES = "cells+oddeven"
train = c4.read_labelled("../data/positions/train.txt.gz")
boards, uci_labels = c4.read_uci("../data/uci/connect-4.data.Z")
train_pos = [c4.Position(m) for m in train["moves"]] + [c4.Position.from_array(b) for b in boards]
y_train = np.concatenate([np.sign(train["scores"]) + 1, uci_labels + 1])
held = c4.read_labelled("../data/positions/heldout.txt.gz")
test_pos = [c4.Position(m) for m in held["moves"]]
y_test = np.sign(held["scores"]) + 1
X_train, X_test = c4.features(train_pos, FEATURES), c4.features(test_pos, FEATURES)
print(X_train.shape, X_test.shape, c4.feature_names(FEATURES)[:5], "...")'''),
        ("code", '''import time
t = time.perf_counter()
sk = HistGradientBoostingClassifier(max_iter=150, learning_rate=0.1, max_leaf_nodes=63, random_state=0).fit(X_train, y_train)
fit_s = time.perf_counter() - t
ours = c4.Model("../models/gbt.bin")
rows = []
for name, proba in [("scikit-learn HistGradientBoosting", sk.predict_proba(X_test)), ("connect4-ml GBT (models/gbt.bin)", ours.probabilities_batch(test_pos))]:
    rows.append({"model": name, "accuracy": accuracy_score(y_test, proba.argmax(axis=1)), "log loss": log_loss(y_test, proba, labels=[0, 1, 2])})
print(f"scikit-learn fit: {fit_s:.1f} s on {len(y_train):,} rows")
pd.DataFrame(rows).set_index("model").round(4)'''),
        ("md", "## Our agent against OpenSpiel's MCTS bot\n\n"
               "`connect4_ml.openspiel.AgentBot` is a `pyspiel.Bot`; the opponent is OpenSpiel's own "
               "`MCTSBot` (UCT, random rollouts). Colours alternate."),
        ("code", '''import pyspiel
from open_spiel.python.algorithms import mcts
from connect4_ml.openspiel import AgentBot

game = pyspiel.load_game("connect_four")
rng = np.random.RandomState(2026)
ours = AgentBot("ntuple:depth=3", models="../models")
theirs = mcts.MCTSBot(game, 2.0, 300, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)
results = []
for g in range(6):
    state, seat = game.new_initial_state(), g % 2
    while not state.is_terminal():
        bot = ours if state.current_player() == seat else theirs
        state.apply_action(bot.step(state))
    results.append({"game": g, "ours as": "first" if seat == 0 else "second", "score": (state.returns()[seat] + 1) / 2, "plies": len(state.history())})
res = pd.DataFrame(results)
print(f"ntuple:depth=3 scored {res.score.sum():g} of {len(res)} against MCTSBot (300 simulations)")
res'''),
    ],
)

for name, nb in [("01_learning_curves", learning), ("02_tournament_and_elo", tournament), ("03_evaluator_quality", quality), ("04_python_package", python)]:
    nbf.write(nb, HERE / f"{name}.ipynb")
    print("wrote", HERE / f"{name}.ipynb")
