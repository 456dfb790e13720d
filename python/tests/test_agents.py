"""Agents, tournaments and grading through Python, and clear errors on bad specs."""

import json
import subprocess

import pytest

import connect4_ml as c4


def test_agents_play_legal_moves_of_any_spec():
    p = c4.Position("4453")
    specs = ["random", "easy", "hard", "gbt:depth=2", "ntuple:depth=2", "lms:depth=2", "perfect", "mcts:sims=200,seed=3"]
    # The literature's yardstick: the network with the one-move rule, a perfect player with
    # random tie-breaks and a share of random safe moves.
    specs += ["ntuple:depth=1,safe=true", "ntuple:depth=1,safe=false", "perfect:ties=random,eps=0.2,seed=5"]
    # The agent that plays for that erring player's mistakes.
    specs += ["exploit:eps=0.2,ms=50,seed=1"]
    for spec in specs:
        a = c4.Agent(spec)
        col = a.move(p)
        assert col in p.legal_moves(), spec
    # x has columns 1-3 on the bottom row: the perfect agent wins in column index 3.
    assert c4.Agent("perfect").move(c4.Position("152637")) == 3
    # With the one-move rule the network blocks o's open three (column 5) whatever it values.
    assert c4.Agent("ntuple:depth=1,safe=true").move(c4.Position("15263")) == 3
    assert c4.Agent("exploit:eps=0.1,ms=50").move(c4.Position("15263")) == 3
    small = c4.Position("", 5, 4)
    assert c4.Agent("easy", 5, 4).move(small) in range(5)


# An 8x8 position (72 bits, past 64) where columns 3 and 5 (indices 2 and 4) win at once.
WIDE = "637122614117422267122177141635748278646744846688"


def test_agents_play_boards_past_64_bits():
    p = c4.Position(WIDE, 8, 8)
    for spec in ["random", "easy", "hard", "mcts:sims=200,seed=3", "ntuple", "ntuple:depth=1,safe=true", "level:elo=1200", "adaptive"]:
        a = c4.Agent(spec, 8, 8, seed=1)
        assert a.move(c4.Position("", 8, 8)) in range(8), spec
        assert a.move(p) in p.legal_moves(), spec
    # Every agent that looks one move ahead takes the win.
    for spec in ["easy", "hard", "ntuple:depth=1,safe=true", "level:elo=1800"]:
        assert c4.Agent(spec, 8, 8).move(p) in (2, 4), spec
    assert c4.Agent("hard", 9, 7).move(c4.Position("5", 9, 7)) in range(9)
    # The same seed, the same moves.
    r = c4.Position.random(10, rng=2, width=9, height=7)[0]
    assert c4.Agent("mcts:sims=100", 9, 7, seed=4).move(r) == c4.Agent("mcts:sims=100", 9, 7, seed=4).move(r)
    # The adaptive agent reads a finished 8x8 game and its state carries over.
    me = c4.Agent("adaptive", 8, 8)
    before = me.estimate
    after = me.end_game("1212121", "o")
    assert after != before and me.estimate == after
    assert abs(c4.Agent("adaptive", 8, 8, state=me.state).estimate - after) < 1e-9


def test_tournaments_on_boards_past_64_bits_are_the_same_at_any_jobs():
    agents = ["random", "easy", "hard", "ntuple:depth=1,safe=true", c4.Agent("mcts:sims=100", 8, 8)]
    t = c4.tournament(agents, games=4, seed=3, width=8, height=8, jobs=8)
    assert "board 8x8" in repr(t) and t.total_games == 40
    assert all(g.result in ("1-0", "0-1", "1/2-1/2") for g in t.games)
    # Every game is a legal 8x8 game that ended (a four, or a full board).
    for g in t.games:
        p = c4.Position(g.moves, 8, 8)
        assert p.is_over and p.stones == g.plies
    assert t.rating("random").score_pct == 0.0
    one = c4.tournament(agents, games=4, seed=3, width=8, height=8, jobs=1)
    assert [g.moves for g in one.games] == [g.moves for g in t.games]
    wide = c4.tournament(["easy", "hard"], games=2, seed=1, width=9, height=7)
    assert "board 9x7" in repr(wide) and wide.total_games == 2


def test_evaluate_and_bench_agent_past_64_bits(tmp_path):
    e1, e8 = (c4.evaluate("hard", baseline="random", games=6, openings=2, seed=1, jobs=j,
                          width=8, height=8) for j in (1, 8))
    m = e1.match
    assert m.games == 6 and m.wins >= 5
    assert (m.wins, m.draws, m.losses) == (e8.match.wins, e8.match.draws, e8.match.losses)
    # A labelled 8x8 file: hard's errors are the moves that lose value by the solver's reckoning.
    solver = c4.Solver(8, 8, table_mib=16)
    lines, positions = [], []
    for seed in range(8):
        p, _ = c4.Position.random(42, seed, width=8, height=8)
        positions.append(p)
        lines.append(f"{p.moves} {solver.solve(p)}")
    (tmp_path / "wide.txt").write_text("\n".join(lines) + "\n")
    graded = c4.bench_agent("hard", [str(tmp_path / "wide.txt")], width=8, height=8)[0]
    assert graded.positions == 8
    errors = 0
    for i, p in enumerate(positions):
        col = c4.Agent("hard", 8, 8, seed=i).move(p)
        child = p.play(col)
        value = 1 if child.is_over and child.winner is not None else -solver.solve(child, weak=True)
        errors += value < (1 if solver.solve(p) > 0 else 0 if solver.solve(p) == 0 else -1)
    assert graded.errors == errors
    with pytest.raises(c4.Connect4Error, match="8x8"):
        c4.evaluate("perfect", baseline="random", games=2, width=8, height=8)
    # Rated on the 8x8 ladder (its calibration is built in), the same at any jobs.
    r1, r8 = (c4.rate("easy", games=2, seed=1, jobs=j, width=8, height=8) for j in (1, 8))
    assert len(r1.opponents) == 5 and r1.low <= r1.elo <= r1.high
    assert (r1.elo, r1.low, r1.high) == (r8.elo, r8.low, r8.high)


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda: c4.Agent("perfect", 8, 8), "agent 'perfect' does not play 8x8 boards"),
        (lambda: c4.Agent("gbt", 9, 7), "not available on 9x7 boards"),
        (lambda: c4.Agent("easy", 8, 8).move(c4.Position()), "the position is 7x6 but the agent plays 8x8 boards"),
        (lambda: c4.Agent("easy").move(c4.Position(WIDE, 8, 8)), "the position is 8x8 but the agent plays 7x6 boards"),
        (lambda: c4.Agent("easy", 8, 8).move(c4.Position(WIDE + "3", 8, 8)), "game is over"),
        (lambda: c4.Agent("easy", 8, 8, state="{}"), "only the adaptive agent keeps a state"),
        (lambda: c4.Agent("easy", 12, 10), "12x10 is too large"),
        (lambda: c4.rate("easy", games=2, width=10, height=7), "no ladder for 10x7"),
        (lambda: c4.tournament(["easy", "perfect"], games=2, width=8, height=8), "agent 'perfect' does not play 8x8 boards"),
        (lambda: c4.tournament(["easy", c4.Agent("hard", 8, 8)], games=2, width=9, height=7), "agent hard: plays 8x8 boards, not 9x7"),
        (lambda: c4.tournament(["easy", c4.Agent.from_policy(lambda p: 0)], games=2, width=8, height=8), "agent python: plays 7x6 boards, not 8x8"),
    ],
)
def test_agents_past_64_bits_refuse_by_name(make, needle):
    with pytest.raises(c4.Connect4Error) as e:
        make()
    assert needle in str(e.value)


@pytest.mark.parametrize(
    "spec, needle",
    [
        ("bogus", "unknown agent 'bogus'"),
        ("hard:depth=3", "'hard' takes no option 'depth'"),
        ("model:missing.bin", "missing.bin"),
        ("exploit:eps=2", "eps=2: a share of random moves from 0 to 1"),
        ("exploit:eps=0.1,ms=0", "ms=0: milliseconds per move, 1 to 3600000"),
    ],
)
def test_bad_specs_raise_clear_errors(spec, needle):
    with pytest.raises(c4.Connect4Error, match=needle):
        c4.Agent(spec)


def test_moves_refused_on_finished_or_foreign_positions():
    a = c4.Agent("easy")
    with pytest.raises(c4.Connect4Error, match="game is over"):
        a.move(c4.Position("1212121"))
    with pytest.raises(c4.Connect4Error, match="5x4"):
        a.move(c4.Position("", 5, 4))


def test_tournament_returns_the_cli_summary_as_an_object():
    t = c4.tournament(["random", "hard"], games=6, seed=4)
    assert isinstance(t, c4.TournamentResult)
    p = t.pairings[0]
    assert p.wins + p.draws + p.losses == 6
    assert t.total_games == 6 and len(t.games) == 6
    assert {g.result for g in t.games} <= {"1-0", "0-1", "1/2-1/2"}
    assert {e.agent for e in t.elo} == {"random", "hard"}
    hard = t.rating("hard")
    assert hard.low <= hard.elo <= hard.high and hard.ms_per_move > 0
    # The repr is the CLI's table; to_dict is plain data.
    assert "agent" in repr(t) and "95% interval" in repr(t) and "board 7x6" in repr(t)
    assert "<table>" in t._repr_html_()
    json.dumps(t.to_dict())
    assert t.to_dict()["pairings"][0]["score_pct"] == p.score_pct
    again = c4.tournament(["random", "hard"], games=6, seed=4)
    assert [g.moves for g in again.games] == [g.moves for g in t.games]
    with pytest.raises(KeyError, match="easy"):
        t.rating("easy")
    with pytest.raises(c4.Connect4Error, match="at least two agents"):
        c4.tournament(["random"])


def test_tournament_table_is_the_clis(c4_bin, tmp_path):
    t = c4.tournament(["random", "easy"], games=4, seed=9, width=5, height=4)
    out = subprocess.run(
        [str(c4_bin), "tournament", "--agents", "random", "easy", "--games", "4", "--seed", "9",
         "--width", "5", "--height", "4", "--jobs", "1", "--out", str(tmp_path)],
        capture_output=True, text=True, check=True,
    ).stdout
    # The ms/move column differs run to run: compare the lines before it.
    strip = lambda text: [l.rsplit(None, 1)[0] if l.strip() else "" for l in text.splitlines()]
    assert strip(repr(t))[:6] == strip(out)[:6]
    cli = json.loads((tmp_path / "summary.json").read_text())
    assert [p.score_pct for p in t.pairings] == [p["score_pct"] for p in cli["pairings"]]
    assert [e.elo for e in t.elo] == [e["elo"] for e in cli["elo"]]


def test_bench_agent_grades_like_the_cli_by_name_from_any_folder(tmp_path, monkeypatch):
    sets = {"begin-easy": "data/bench/begin-easy", "end-easy": "data/bench/end-easy"}
    out = c4.bench_agent("perfect", sets, limit=20)
    assert isinstance(out, c4.BenchResult)
    assert [s.set for s in out] == ["begin-easy", "end-easy"]
    assert all(s.positions == 20 and s.errors == 0 and s.optimal_pct == 100.0 for s in out)
    assert "AlphaZero.jl" in repr(out)
    monkeypatch.chdir(tmp_path)  # no data/ here: the names and repository paths still load
    weak = c4.bench_agent("random", ["end-easy"], limit=50)["end-easy"]
    assert weak.set == "end-easy" and weak.errors > 0
    e = weak.error_pct
    assert e.low <= e.value <= e.high and e.value == 100.0 * weak.errors / weak.positions
    same = c4.bench_agent("random", ["data/bench/end-easy"], limit=50)[0]
    assert same.errors == weak.errors
    with pytest.raises(c4.Connect4Error, match="nothing-here.*middle-easy"):
        c4.bench_agent("random", ["nothing-here"])


def test_the_dial_and_the_adaptive_agent_with_its_saved_state():
    p = c4.Position("4453")
    assert c4.Agent("level:elo=1500").move(p) in p.legal_moves()
    with pytest.raises(c4.Connect4Error, match="elo=abc: an Elo from"):
        c4.Agent("level:elo=abc")
    with pytest.raises(c4.Connect4Error, match="an Elo from"):
        c4.Agent("level:elo=99999")
    a = c4.Agent("adaptive:ms=200")
    start = a.estimate
    assert a.move(p) in p.legal_moves()
    # It reads a finished game it played as o (x won with four in column 1): one game more,
    # a new estimate, kept in the state.
    after = a.end_game("1212121", "o")
    assert after != start
    saved = a.state
    assert json.loads(saved)["games"] == 1
    b = c4.Agent("adaptive:ms=200", state=saved)
    assert b.estimate == pytest.approx(after)
    with pytest.raises(c4.Connect4Error, match="state"):
        c4.Agent("adaptive", state="{not json")
    with pytest.raises(c4.Connect4Error, match="only the adaptive agent"):
        c4.Agent("easy", state=saved)
    with pytest.raises(c4.Connect4Error, match="not over"):
        a.end_game("44", "o")
    with pytest.raises(c4.Connect4Error, match="only the adaptive agent"):
        c4.Agent("easy").end_game("1212121", "o")
