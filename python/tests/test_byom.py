"""Bring your own model: a Python policy or value function plays, is searched, graded and
rated like a built-in agent; the environments for any board (PettingZoo, Gymnasium)."""

import numpy as np
import pytest

import connect4_ml as c4

from conftest import record


def leftmost(position):
    return position.legal_moves()[0]


def centre_value(positions):
    """Stones in the middle column, the side to move's minus the opponent's, over 6."""
    out = []
    for p in positions:
        board = np.asarray(p.to_array())
        mid = board[:, p.width // 2]
        me = p.side_to_move
        out.append(((mid == me).sum() - (mid == 3 - me).sum()) / 6.0)
    return out


# --- policies -----------------------------------------------------------------------------


def test_a_policy_of_a_position_plays_moves_and_tournaments():
    agent = c4.Agent.from_policy(leftmost, name="leftmost")
    assert agent.spec == "leftmost"
    assert agent.move(c4.Position("1111")) == 0
    assert agent.move(c4.Position("111111")) == 1
    summary = c4.tournament([agent, "random", "easy"], games=10, seed=3)
    names = {e.agent for e in summary.elo}
    assert names == {"leftmost", "random", "easy"}
    assert len(summary.games) == 30
    vs_easy = [p for p in summary.pairings if {p.agent, p.opponent} == {"leftmost", "easy"}][0]
    assert vs_easy.games == 10


def test_a_policy_of_a_board_and_a_mask_sees_the_packages_arrays():
    seen = []

    def policy(board, mask):
        seen.append((board.copy(), mask.copy()))
        return int(np.flatnonzero(mask)[-1])

    agent = c4.Agent.from_policy(policy, width=5, height=4)
    pos = c4.Position("1111", 5, 4)
    assert agent.move(pos) == 4
    board, mask = seen[0]
    assert board.shape == (4, 5) and board.dtype == np.int8
    assert board[:, 0].tolist() == [2, 1, 2, 1], "row 0 at the top, 1 first player, 2 second"
    assert mask.tolist() == [False, True, True, True, True]


def test_an_exception_in_a_policy_ends_the_call_with_it():
    def broken(position):
        if position.stones > 4:
            raise KeyError("my bug")
        return position.legal_moves()[0]

    agent = c4.Agent.from_policy(broken, name="broken")
    with pytest.raises(KeyError, match="my bug") as caught:
        c4.tournament([agent, "easy"], games=4)
    # The traceback reaches into the user's function.
    assert any(t.name == "broken" for t in caught.traceback)
    with pytest.raises(KeyError):
        c4.evaluate(agent, baseline="random", games=2)
    # The agent is usable again after a failed call.
    assert agent.move(c4.Position("")) == 0


@pytest.mark.parametrize(
    "answer, needle",
    [(9, "column 9, off the 7-column board"), (0, "column 0, which is full"), ("a", "not a column number")],
)
def test_an_illegal_column_is_an_error_naming_it(answer, needle):
    agent = c4.Agent.from_policy(lambda p: answer, name="bad")
    with pytest.raises(c4.Connect4Error, match=needle):
        agent.move(c4.Position("111111"))


def test_a_policy_is_graded_and_evaluated_like_a_spec():
    agent = c4.Agent.from_policy(leftmost, name="leftmost")
    graded = c4.bench_agent(agent, {"middle-easy": "data/bench/middle-easy"}, limit=20)
    assert graded[0].agent == "leftmost" and graded[0].positions == 20
    report = c4.evaluate(agent, baseline="random", games=20, seed=5, sets=["middle-easy"], positions=10)
    assert isinstance(report, c4.Evaluation)
    row = report.agents[0]
    assert row.agent == "leftmost"
    vs = report.match
    assert vs is row.vs_baseline
    assert vs.games == 20 and vs.wins + vs.draws + vs.losses == 20
    # Shares in percent, every interval an Estimate in the value's unit.
    assert 0 <= vs.score_pct.low <= vs.score_pct.value <= vs.score_pct.high <= 100
    assert vs.score_pct.value == pytest.approx(100 * (vs.wins + vs.draws / 2) / vs.games)
    assert vs.elo.low <= vs.elo.value <= vs.elo.high
    assert vs.as_first.games == 10 and vs.as_second.games == 10
    assert vs.as_first.win_pct.value == pytest.approx(100 * vs.as_first.wins / 10)
    assert [e.set for e in row.errors] == ["middle-easy"] and row.errors[0].positions == 10
    assert report.baseline_errors[0].error_pct.high <= 100
    assert "against random" in repr(report) and "middle-easy" in repr(report)
    assert report.side == "both"
    first = c4.evaluate(agent, baseline="random", games=6, side="first")
    assert first.match.as_first.games == 6 and first.side == "first"
    with pytest.raises(c4.Connect4Error, match="side"):
        c4.evaluate(agent, side="left")


# --- evaluators in the search -------------------------------------------------------------


class Counting:
    """`centre_value`, counting calls and positions."""

    def __init__(self):
        self.calls = 0
        self.positions = 0

    def __call__(self, positions):
        self.calls += 1
        self.positions += len(positions)
        return centre_value(positions)


def test_an_evaluator_is_searched_in_batches_and_batching_changes_no_move():
    positions = [c4.Position(m) for m in ["", "4", "44", "4453", "3344", "112233", "4444"]]
    moves = {}
    for batch in (1, 7, 64):
        f = Counting()
        agent = c4.Agent.from_evaluator(f, depth=3, batch=batch)
        moves[batch] = [agent.move(p) for p in positions]
        record("python_evaluator_batches", {"batch": batch, "calls": f.calls, "positions": f.positions})
        if batch == 1:
            assert f.calls == f.positions, "one position a call"
        else:
            assert f.positions >= 3 * f.calls, f"batches of {batch}: {f.positions} in {f.calls} calls"
    assert moves[1] == moves[7] == moves[64]


def test_the_shipped_gbt_called_from_python_searches_as_the_built_in_one():
    # The same values, so the same search: every move equal to gbt:depth=3's.
    gbt = c4.Model("models/gbt.bin")
    built_in = c4.Agent("gbt:depth=3")
    for batch in (1, 64):
        mine = c4.Agent.from_evaluator(gbt.values, depth=3, batch=batch)
        for k in range(40):
            p, _ = c4.random_board(4 + k % 12, rng=900 + k)
            if not p.is_over:
                assert mine.move(p) == built_in.move(p), (batch, p.moves)


def test_an_evaluator_of_arrays_and_its_bad_answers():
    shapes = []

    def of_arrays(boards):
        shapes.append(boards.shape)
        return np.zeros(len(boards))

    agent = c4.Agent.from_evaluator(of_arrays, depth=2, takes="arrays", width=6, height=5)
    assert 0 <= agent.move(c4.Position("", 6, 5)) < 6
    assert all(s[1:] == (5, 6) for s in shapes)
    for bad, needle in [
        (lambda ps: [0.0], "returned 1 values for 7 positions"),
        (lambda ps: [float("nan")] * len(ps), "returned NaN for position 0"),
        (lambda ps: "x", "not one number per position"),
    ]:
        with pytest.raises(c4.Connect4Error, match=needle):
            c4.Agent.from_evaluator(bad, depth=2, batch=64).move(c4.Position("4"))
    with pytest.raises(ZeroDivisionError):
        c4.Agent.from_evaluator(lambda ps: [1 / 0], depth=2).move(c4.Position("4"))
    with pytest.raises(c4.Connect4Error, match="takes"):
        c4.Agent.from_evaluator(centre_value, takes="tensors")
    with pytest.raises(c4.Connect4Error, match="expected a function"):
        c4.Agent.from_policy(3)


def test_a_python_evaluator_in_the_hybrid_phases_is_asked_only_where_the_model_counts():
    def open_position(stones, seed):
        while True:
            p, _ = c4.random_board(stones, rng=seed)
            if not p.is_over and len(p.legal_moves(non_losing=True)) > 1:
                return p
            seed += 1000

    f = Counting()
    agent = c4.Agent.from_evaluator(f, depth=2, hybrid=True, playouts=20)
    assert 0 <= agent.move(open_position(12, 1)) < 7  # the blend (to ply 19) asks the model
    assert f.calls > 0
    f = Counting()
    agent = c4.Agent.from_evaluator(f, depth=2, hybrid=True, playouts=20)
    assert 0 <= agent.move(open_position(22, 2)) < 7  # from ply 20 on: rollouts alone
    assert f.positions == 0
    with pytest.raises(c4.Connect4Error, match="playouts"):
        c4.Agent.from_evaluator(f, playouts=10)


def test_values_are_fresh_each_move_and_kept_across_moves_only_when_asked():
    p = c4.Position("4453")
    f = Counting()
    agent = c4.Agent.from_evaluator(f, depth=3)
    agent.move(p)
    first = f.calls
    assert first > 0
    agent.move(p)
    assert f.calls == 2 * first, "a search keeps values for itself only: asked again"
    kept = Counting()
    agent = c4.Agent.from_evaluator(kept, depth=3, cache=1_000_000)
    agent.move(p)
    n = kept.calls
    assert n == first and agent.cached > 0
    agent.move(p)
    assert kept.calls == n, "cache=N keeps values across moves"
    agent.clear_cache()
    assert agent.cached == 0
    agent.move(p)
    assert kept.calls == 2 * n, "cleared: asked afresh"
    with pytest.raises(c4.Connect4Error, match="only an agent made by from_evaluator"):
        c4.Agent("easy").clear_cache()


class Net:
    """A 'network' whose weight training changes: centre_value times `w`."""

    def __init__(self):
        self.w = 1.0

    def __call__(self, positions):
        return [self.w * v for v in centre_value(positions)]


def test_a_network_rated_again_after_training_plays_its_new_values():
    net = Net()
    agent = c4.Agent.from_evaluator(net, depth=2, name="net")
    before = c4.tournament([agent, "easy"], games=6, seed=3).games
    before_move = agent.move(c4.Position("44"))
    net.w = -1.0  # "trained": now it wants the opponent in the middle
    after = c4.tournament([agent, "easy"], games=6, seed=3).games
    assert [g.moves for g in after] != [g.moves for g in before]
    assert agent.move(c4.Position("44")) != before_move
    net.w = 1.0  # back: the first games again, exactly
    again = c4.tournament([agent, "easy"], games=6, seed=3).games
    assert [g.moves for g in again] == [g.moves for g in before]


def test_worker_threads_get_the_torch_thread_count_of_the_agents_maker(monkeypatch):
    import sys
    import threading
    import types

    set_calls = []
    fake = types.ModuleType("torch")
    fake.get_num_threads = lambda: 3
    fake.set_num_threads = lambda n: set_calls.append((threading.get_ident(), n))
    monkeypatch.setitem(sys.modules, "torch", fake)
    agent = c4.Agent.from_evaluator(centre_value, depth=2, name="centre")
    c4.tournament([agent, "random"], games=4, jobs=2, seed=1)
    assert set_calls and all(n == 3 for _, n in set_calls)
    assert any(t != threading.get_ident() for t, _ in set_calls), "the workers' threads"


def test_an_evaluator_agent_plays_in_the_ladder_beside_specs():
    mine = c4.Agent.from_evaluator(centre_value, depth=2, name="centre:depth=2")
    summary = c4.tournament([mine, "random", "handtuned:depth=2"], games=8, seed=11)
    assert {e.agent for e in summary.elo} == {"centre:depth=2", "random", "handtuned:depth=2"}


# --- environments -------------------------------------------------------------------------


@pytest.mark.parametrize("size", [(7, 6), (5, 4), (8, 7), (9, 6)])
def test_the_pettingzoo_environment_passes_the_api_test_on_any_board(size):
    from pettingzoo.test import api_test

    from connect4_ml.pettingzoo import env

    api_test(env(*size), num_cycles=200)


def test_the_pettingzoo_environment_gives_the_solvers_score_and_plays_to_the_end():
    from connect4_ml.pettingzoo import env, policy

    e = env(solver_info=True)
    e.reset(seed=0)
    _, _, _, _, info = e.last()
    assert info["score"] == 1, "the first player wins the empty 7x6 board with its last stone"
    play = policy("perfect")
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        rewards[agent] = rewards.get(agent, 0) + reward
        if termination or truncation:
            e.step(None)
        else:
            assert "score" in info
            e.step(play(obs["observation"], obs["action_mask"]))
    assert rewards == {"player_0": 1, "player_1": -1}, "perfect play: the first player wins"


def test_the_gymnasium_environment_passes_the_checker_and_plays_against_a_spec():
    from gymnasium.utils.env_checker import check_env

    from connect4_ml.gymnasium import Connect4Env

    check_env(Connect4Env(opponent="random", width=5, height=4), skip_render_check=True)
    e = Connect4Env(opponent="easy", side="second")
    obs, info = e.reset(seed=1)
    assert obs.sum() == 1, "easy moved first"
    total, done = 0.0, False
    while not done:
        col = int(np.flatnonzero(info["action_mask"])[0])
        obs, reward, done, truncated, info = e.step(col)
        total += reward
    assert total in (-1.0, 0.0, 1.0)
    # An illegal column ends the game with -1 (both sides fill column 0 of a 4x4 board).
    e = Connect4Env(opponent=c4.Agent.from_policy(leftmost, width=4, height=4), side="first", width=4, height=4)
    e.reset(seed=2)
    for _ in range(2):
        assert e.step(0)[2] is False
    _, reward, done, _, info = e.step(0)
    assert (reward, done, info["illegal"]) == (-1.0, True, True)
    with pytest.raises(ValueError, match="side"):
        Connect4Env(side="left")


def test_the_sklearn_example_runs_as_written():
    import subprocess
    import sys

    from conftest import REPO

    done = subprocess.run(
        [sys.executable, "python/examples/sklearn_evaluator.py", "--train", "3000", "--games", "4"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    for name in ("sklearn:depth=3", "gbt:depth=3", "easy", "random"):
        assert name in done.stdout, done.stdout


def test_the_value_net_example_runs_with_numpy():
    """The torch example with its numpy network (torch's wheel is several GB): it trains on
    the packaged data, searches with batched planes and prints its Elo and batch sizes."""
    import re
    import subprocess
    import sys

    from conftest import REPO

    done = subprocess.run(
        [sys.executable, "python/examples/torch_value_net.py", "--backend", "numpy",
         "--positions", "20000", "--epochs", "2", "--games", "4", "--jobs", "8"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    assert "numpy: training on 20,000 positions" in done.stdout, done.stdout
    assert re.search(r"held-out win/draw/loss right: \d+\.\d% of [\d,]+", done.stdout), done.stdout
    assert "mlp-numpy:depth=3" in done.stdout, done.stdout
    batch = re.search(r"\((\d+) a call\)", done.stdout)
    assert batch and int(batch.group(1)) > 1, done.stdout
