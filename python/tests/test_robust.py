"""The package from any folder and any thread: shared objects never hang, Ctrl-C stops every
long call, the book and the shipped models are found wherever Python runs, every error is a
Connect4Error in board terms, and the pieces a BitBully user reaches for."""

import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import connect4_ml as c4

from conftest import REPO, record

# Positions that take the solver a while without being slow to test: 10-20 stones.
MIDDLE = ["44444326", "4453363", "33333342", "3434344", "4444433333"]


def run_script(code: str, cwd: Path, timeout: float = 120) -> subprocess.CompletedProcess:
    """Runs `code` in a fresh interpreter in `cwd`; a hang fails the test instead of pytest."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


# --- threads -------------------------------------------------------------------------------


def test_one_solver_agent_and_model_shared_by_four_threads():
    solver = c4.Solver()
    agent = c4.Agent("ntuple:depth=3")
    perfect = c4.Agent("perfect")
    model = c4.Model("models/gbt.bin")
    positions = [c4.Position(m) for m in MIDDLE] * 4
    expected = [c4.Solver().solve(p) for p in positions[:5]] * 4

    def work(i):
        p = positions[i]
        return (
            solver.solve(p),
            agent.move(p),
            perfect.move(p),
            model.value(p),
            solver.book_plies,
        )

    with ThreadPoolExecutor(4) as pool:
        out = list(pool.map(work, range(len(positions))))
    assert [o[0] for o in out] == expected
    for (score, a, b, v, plies), p in zip(out, positions):
        assert a in p.legal_moves() and b in p.legal_moves()
        # The perfect agent plays a move of the position's exact score.
        assert c4.Solver().score_all_moves(p)[b] == score
        assert isinstance(v, float) and plies is not None
    # The same through map, the use README's "release the GIL" invites.
    with ThreadPoolExecutor(2) as pool:
        assert list(pool.map(solver.solve, positions[:5])) == expected[:5]


def test_random_calls_from_several_threads_never_hang_or_crash():
    solver, agent, model = c4.Solver(table_mib=16), c4.Agent("gbt:depth=2"), c4.Model("models/lms.bin")
    errors = []

    def worker(seed):
        rng = random.Random(seed)
        for _ in range(60):
            p, _ = c4.random_board(rng.randrange(4, 30), rng=rng)
            call = rng.randrange(6)
            try:
                if call == 0:
                    solver.analyze(p, weak=True)
                elif call == 1:
                    assert agent.move(p) in p.legal_moves()
                elif call == 2:
                    model.value(p)
                elif call == 3:
                    col, score = solver.best_move(p, tie_break="random", rng=rng)
                    assert col in p.legal_moves()
                elif call == 4:
                    # Bad input from a thread is an error, never a crash or a hang.
                    with pytest.raises(c4.Connect4Error):
                        p.play(rng.choice([-1, 7, 99, "x"]))
                else:
                    solver.clear()
            except Exception as e:  # noqa: BLE001 - collected and reported below
                errors.append(repr(e))

    threads = [threading.Thread(target=worker, args=(s,)) for s in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
        assert not t.is_alive(), "a thread hung"
    assert errors == []


# --- Ctrl-C --------------------------------------------------------------------------------

LONG_CALLS = {
    # The empty 8x7 board has no book: minutes to solve.
    "solve": "c4.Solver(8, 7).solve(c4.Position('', 8, 7))",
    "analyze": "c4.Solver(8, 7).analyze(c4.Position('44', 8, 7))",
    "best_move": "c4.Solver(8, 7).best_move(c4.Position('4', 8, 7))",
    "agent_move_perfect": "c4.Agent('perfect', 8, 7).move(c4.Position('1', 8, 7))",
    "agent_move_search": "c4.Agent('handtuned:depth=40').move(c4.Position('4'))",
    "agent_move_mcts": "c4.Agent('mcts:sims=100000000').move(c4.Position('4'))",
    "tournament": "c4.tournament(['mcts:sims=10000000', 'perfect'], games=100)",
    "bench_agent": "c4.bench_agent('mcts:sims=10000000', ['data/bench/middle-easy'])",
    "evaluate": "c4.evaluate('mcts:sims=10000000', baseline='perfect', games=100)",
    # The user's own code in the search and in the arena.
    "python_evaluator": "c4.Agent.from_evaluator(lambda ps: [0.0] * len(ps), depth=20).move(c4.Position('4'))",
    "python_policy": "c4.tournament([c4.Agent.from_policy(lambda p: p.legal_moves()[0]), 'mcts:sims=10000000'], games=100)",
}


# Each call is also tried after the program set its own SIGINT handler (which displaces the
# package's hook: calls then run on a worker thread that relays the signal).
@pytest.mark.parametrize(
    "name, own_handler",
    [(n, False) for n in sorted(LONG_CALLS)]
    + [(n, True) for n in ("solve", "agent_move_mcts", "tournament")],
)
def test_ctrl_c_stops_every_long_call_within_about_a_second(name, own_handler):
    handler = (
        "c4.Solver().solve(c4.Position('4')); import signal; "
        "signal.signal(signal.SIGINT, signal.default_int_handler)"
        if own_handler
        else "pass"
    )
    code = f"""
        import sys, time
        import connect4_ml as c4
        {handler}
        print("started", flush=True)
        try:
            {LONG_CALLS[name]}
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            sys.exit(3)
        print("finished", flush=True)
    """
    proc = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(code)],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "started"
    time.sleep(1.0)
    assert proc.poll() is None, f"{name} ended before Ctrl-C: {proc.communicate()}"
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    try:
        out, err = proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail(f"{name} ignored Ctrl-C for 30 s")
    waited = time.monotonic() - sent
    assert proc.returncode == 3, (out, err)
    assert "interrupted" in out
    print(f"{name} (own handler: {own_handler}): stopped {waited:.2f} s after SIGINT")


# --- the program's own signal handlers -------------------------------------------------------


@pytest.mark.parametrize("name", sorted(LONG_CALLS))
def test_an_alarm_handler_that_raises_ends_every_long_call_with_its_exception(name):
    # The way signal.alarm timeouts and pytest-timeout's signal method work: a SIGALRM
    # handler that raises. The call ends with that exception, soon after the alarm.
    code = f"""
        import signal, sys, time
        import connect4_ml as c4
        class Timeout(Exception):
            pass
        fired = []
        def on_alarm(signum, frame):
            fired.append(time.monotonic())
            raise Timeout()
        signal.signal(signal.SIGALRM, on_alarm)
        due = time.monotonic() + 1.0
        signal.setitimer(signal.ITIMER_REAL, 1.0)
        try:
            {LONG_CALLS[name]}
        except Timeout:
            # From the alarm to the call's end with the handler's exception.
            print(f"timeout {{time.monotonic() - due:.3f}}", flush=True)
            sys.exit(4)
        print("finished", flush=True)
    """
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: the alarm's handler never ran (killed after 60 s)")
    assert done.returncode == 4, (done.stdout, done.stderr)
    waited = float(done.stdout.split()[1])
    record("signal_handler_delay", {"call": name, "seconds": waited})


# --- from any folder -----------------------------------------------------------------------


def test_the_book_and_the_shipped_models_are_found_from_any_folder(tmp_path):
    r = run_script(
        """
        import time
        import connect4_ml as c4
        s = c4.Solver()
        assert s.book_plies is not None, "no book"
        assert c4.Solver(book=True).book_plies == s.book_plies
        t = time.perf_counter()
        score = s.solve(c4.Position(""))
        print("empty", score, round((time.perf_counter() - t) * 1e3, 3), "ms")
        assert score == 1
        print(c4.Model("models/gbt.bin").kind, c4.Model("ntuple.bin").kind)
        print(c4.Agent("ntuple:depth=3").move(c4.Position("4453")))
        print(c4.Agent("gbt:depth=2").move(c4.Position("")))
        print(c4.tournament(["easy", "lms:depth=1"], games=2).elo[0].agent)
        """,
        tmp_path,
    )
    assert r.returncode == 0, r.stderr
    assert "gbt ntuple" in r.stdout
    ms = float(r.stdout.split("empty 1 ")[1].split()[0])
    print(f"empty board from another folder: {ms} ms")


def test_an_explicit_models_folder_always_wins(tmp_path):
    bad = tmp_path / "mymodels"
    bad.mkdir()
    (bad / "gbt.bin").write_bytes(b"not a model at all")
    # From the repository root, where ./models holds a good gbt.bin: the named folder is read.
    with pytest.raises(c4.Connect4Error) as e:
        c4.Agent("gbt:depth=1", models=str(bad))
    assert "gbt.bin" in str(e.value)
    with pytest.raises(c4.Connect4Error) as e:
        c4.Agent("ntuple:depth=1", models=str(bad))
    assert "not found" in str(e.value) and "mymodels" in str(e.value)
    with pytest.raises(c4.Connect4Error) as e:
        c4.tournament(["easy", "gbt:depth=1"], games=2, models=str(bad))
    with pytest.raises(c4.Connect4Error) as e:
        c4.Model("models/missing.bin")
    assert "not found" in str(e.value)


def test_book_true_without_a_book_raises():
    assert c4.Solver(book=False).book_plies is None
    with pytest.raises(c4.Connect4Error, match="no opening book for 8x7"):
        c4.Solver(8, 7, book=True)
    # 6x5 and 5x4 have books of their own, built into the engine.
    assert c4.Solver(6, 5, book=True).book_plies == 8
    with pytest.raises(c4.Connect4Error, match="book"):
        c4.Solver(book="no/such/book.bin")


# --- one exception type --------------------------------------------------------------------


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda: c4.Position("4453").play(-1), "column -1 is off the board"),
        (lambda: c4.Position("4453").play("a"), "column 'a'"),
        (lambda: c4.Position("4453").play(2.5), "column 2.5"),
        (lambda: c4.Solver(table_mib=-1), "-1 is negative"),
        (lambda: c4.Solver(width=-7), "-7 is negative"),
        (lambda: c4.Position("", -1, 6), "negative"),
        (lambda: c4.tournament(["easy", "random"], games=-1), "-1 is negative"),
        (lambda: c4.tournament("easy"), "expected a list of agent specs"),
        (lambda: c4.tournament([1, 2]), "agents[0]: expected an agent spec (a string) or an Agent"),
        (lambda: c4.Agent("easy", seed=-3), "-3 is negative"),
        (lambda: c4.bench_agent("easy", "data/bench/middle-easy"), "got the string"),
        (lambda: c4.Position.from_array(np.zeros((2, 6, 7))), "expected a 2-D array of shape (height, width)"),
        (lambda: c4.Position.from_array(np.zeros(7)), "expected a 2-D array of shape (height, width)"),
        (lambda: c4.Position.from_array(np.zeros((7, 6), dtype=int)), "(height, width)"),
        (lambda: c4.Position.from_array(np.full((6, 7), 0.5)), "whole numbers"),
        (lambda: c4.Position.from_array(np.array([["a"] * 7] * 6)), "whole numbers"),
        (lambda: c4.Position.from_array(np.zeros((6, 7)), width=6, height=7), "(7, 6), got (6, 7)"),
        (lambda: c4.Position.from_array(np.full((6, 7), 3)), "is 3"),
        (lambda: c4.Solver().best_move(c4.Position("4"), tie_break="left"), "tie_break"),
        (lambda: c4.Solver().best_move(c4.Position("4"), tie_break="random", rng="x"), "rng"),
        (lambda: c4.random_board(42), "over after 42"),
        (lambda: c4.Solver().solve("4453"), "expected a Position"),
        (lambda: c4.Agent("easy").move("44"), "expected a Position"),
        (lambda: c4.Model("models/gbt.bin").values([c4.Position(), 1]), "positions[1]: expected a Position"),
        (lambda: c4.features("abc"), "expected a list of Positions"),
        (lambda: c4.Solver().solve_many("44"), "expected a list of Positions"),
        (lambda: c4.Position(4453), "expected a string"),
        (lambda: c4.Agent(5), "expected a string"),
        (lambda: c4.Model(123), "expected a file path"),
        (lambda: c4.read_uci(5), "expected a file path"),
        (lambda: c4.random_board(-2), "negative"),
    ],
)
def test_bad_input_is_a_connect4error_in_board_terms(make, needle):
    with pytest.raises(c4.Connect4Error) as e:
        make()
    assert needle in str(e.value)
    # Messages quote at most a few dozen characters of what was given.
    assert len(str(e.value)) < 400


def test_arrays_of_both_encodings_and_confirmed_shapes():
    p = c4.Position("4453")
    a = p.to_array().astype(np.int64)
    assert c4.Position.from_array(a) == p
    minus = np.where(a == 2, -1, a)
    assert c4.Position.from_array(minus) == p
    assert c4.Position.from_array(a.astype(float)) == p
    assert c4.Position.from_array(a.tolist()) == p
    tall = c4.Position.from_array(np.zeros((7, 6), dtype=int), width=6, height=7)
    assert (tall.width, tall.height) == (6, 7)


# --- what a BitBully user expects ----------------------------------------------------------


def test_bitbully_pieces():
    assert c4.__version__.count(".") == 2
    s = c4.Solver()
    p = c4.Position("4453")
    scores = s.score_all_moves(p)
    assert scores == {c: v for c, v in enumerate(s.analyze(p)) if v is not None}
    best = max(scores.values())
    col, score = s.best_move(p)
    assert score == best and scores[col] == best
    # Random tie-breaks among the optimal columns, with each kind of rng.
    empty = c4.Position("")
    assert s.best_move(empty) == (3, 1)
    tie = c4.Position("44")
    tie_scores = s.score_all_moves(tie)
    tie_best = [c for c, v in tie_scores.items() if v == max(tie_scores.values())]
    picks = {s.best_move(tie, tie_break="random", rng=seed)[0] for seed in range(40)}
    assert picks <= set(tie_best)
    assert s.best_move(tie, tie_break="random", rng=5) == s.best_move(tie, tie_break="random", rng=5)
    for rng in (random.Random(1), np.random.default_rng(1), None):
        col, score = s.best_move(tie, tie_break="random", rng=rng)
        assert col in tie_best and score == max(tie_scores.values())
    # Random boards: reproducible, never over, never a win on the board for the side to move.
    q, moves = c4.random_board(12, rng=3)
    assert q.stones == 12 and len(moves) == 12 and not q.is_over and not q.can_win_next()
    assert c4.random_board(12, rng=3)[0] == q
    assert c4.Position.random(12, rng=3)[0] == q
    r = c4.Position("")
    for m in moves:
        r = r.play(m)
    assert r == q
    # Non-losing moves and an immediate win.
    threat = c4.Position("112233")  # x threatens 4 on the bottom row
    assert threat.can_win_next() and threat.legal_moves(non_losing=True) == [3]
    block = c4.Position("11223")  # o to move must block column 4
    assert not block.can_win_next()
    assert block.legal_moves(non_losing=True) == [3]
    assert block.legal_moves() == list(range(7))
    # Random tie-breaks in agents, for self-play and evaluation.
    agent = c4.Agent("perfect:ties=random,seed=4")
    assert agent.move(tie) in tie_best


# --- the manual's tour -------------------------------------------------------------------------


def test_the_manuals_tour_runs_as_written():
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    code = text.split("```python", 1)[1].split("```", 1)[0]
    assert "c4.Solver()" in code
    exec(compile(code, "docs/python.md (the tour)", "exec"), {})
    # The sections after the tour run as written too (bring your own model, environments).
    for k, block in enumerate(text.split("## Bring your own model", 1)[1].split("```python")[1:]):
        code = block.split("```", 1)[0]
        exec(compile(code, f"docs/python.md (bring your own model, block {k + 1})", "exec"), {})
