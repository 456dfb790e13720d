"""Positions and the solver through Python: exact scores against Pons' files, conversions,
and clear errors on bad input."""

import numpy as np
import pytest

import connect4_ml as c4


def test_positions_play_convert_and_compare():
    p = c4.Position("4453")
    assert (p.stones, p.side_to_move, p.width, p.height) == (4, 1, 7, 6)
    assert p.moves == "4453"
    a = p.to_array()
    assert a.shape == (6, 7) and a.dtype == np.int8
    # Row 0 is the top; the first stone (player 1) is at the bottom of column index 3.
    assert a[5, 3] == 1 and a[4, 3] == 2 and a[5, 4] == 1 and a[5, 2] == 2
    q = c4.Position.from_array(a)
    assert q == p and hash(q) == hash(p) and q.moves is None
    assert q.side_to_move == 1
    assert p.play(0).moves == "44531"
    assert p.legal_moves() == list(range(7))
    assert p.mirror() == c4.Position("4435")
    assert p.mirror().canonical_key == p.canonical_key
    assert p.winner is None and not p.is_over
    won = c4.Position("1212121")
    assert won.winner == 1 and won.is_over and won.legal_moves() == []
    small = c4.Position("", 5, 4)
    assert small.to_array().shape == (4, 5)
    assert c4.Position.from_array(np.zeros((4, 5), dtype=np.uint8)) == small


def test_wide_boards_write_columns_past_nine_as_letters():
    # The one move codec: columns 10, 11, 12 are a, b, c (read in either case).
    p = c4.Position("a1B", 12, 4)
    assert p.moves == "a1B" and p.stones == 3
    assert p.play(11).moves == "a1Bc"
    assert p.mirror() == c4.Position("3c2", 12, 4)
    assert p.mirror().moves == "3c2"
    ten = c4.Position("", 10, 5).play(9).play(0)
    assert ten.moves == "a1"
    with pytest.raises((c4.Connect4Error, ValueError), match="column 13"):
        c4.Position("1d", 12, 4)


# An 8x8 position (72 bits: past 64, in 128-bit boards) with its analysis by `c4 analyze`
# (docs/boards.md): columns 3 and 5 win at once (the side to move's 25th stone), after 8
# the opponent does.
WIDE = "637122614117422267122177141635748278646744846688"


def test_boards_past_64_bits_play_convert_and_solve():
    p = c4.Position(WIDE, 8, 8)
    assert (p.width, p.height, p.stones, p.side_to_move) == (8, 8, 48, 1)
    assert 0 <= p.key < 2**72 and p.canonical_key < 2**72
    a = p.to_array()
    assert a.shape == (8, 8)
    q = c4.Position.from_array(a)
    assert q == p and hash(q) == hash(p) and q.width == 8 and q.height == 8
    assert p.mirror().canonical_key == p.canonical_key and p.mirror() != p
    assert p.legal_moves() == [2, 4, 7]
    assert p.legal_moves(non_losing=True) == [2, 4]  # a win at hand: just the winning moves
    assert p.can_win_next() and not p.is_over
    assert p.play(2).winner == 1 and p.play(2).is_over
    after = p.play(7)
    assert after.moves == WIDE + "8" and after.stones == 49 and after.side_to_move == 2
    solver = c4.Solver(8, 8, table_mib=16)
    assert solver.book_plies is None
    assert solver.analyze(p) == [None, None, 8, None, 8, None, None, -8]
    assert solver.solve(p) == 8 and solver.solve(p, weak=True) == 1
    assert solver.best_move(p) in [(2, 8), (4, 8)]
    assert solver.best_move(p, tie_break="random", rng=3)[1] == 8
    assert solver.score_all_moves(p) == {2: 8, 4: 8, 7: -8}
    assert solver.solve_many([p, after]) == [8, 8]
    # A 9x7 board (80 bits) from a random line, and a full 8x8 game played out to its end.
    r, moves = c4.Position.random(6, rng=5, width=9, height=7)
    assert r.stones == 6 and r.width == 9 and len(moves) == 6
    assert c4.Position.random(6, rng=5, width=9, height=7)[0] == r
    g = c4.Position("", 8, 8)
    for c in [0, 1] * 3 + [0]:
        g = g.play(c)
    assert g.winner == 1 and g.is_over and g.legal_moves() == []


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda: c4.Solver(8, 8, book=True), "no opening book for 8x8"),
        (lambda: c4.Solver(8, 8, book="data/book-7x6.bin"), "no opening book for 8x8"),
        (lambda: c4.Solver(7, 6).solve(c4.Position(WIDE, 8, 8)), "is 8x8 but this solver is for 7x6"),
        (lambda: c4.Solver(8, 8).solve(c4.Position(WIDE + "3", 8, 8)), "game is over"),
        (lambda: c4.Model("models/gbt.bin").value(c4.Position(WIDE, 8, 8)), "the position is 8x8 but the model is for 7x6"),
        (lambda: c4.Model("models/gbt.bin", 8, 8), "only n-tuple networks load"),
        (lambda: c4.Model("models/ntuple-9x7.bin", 8, 8), "model is for a 9x7 board, this board is 8x8"),
        (lambda: c4.Model("models/ntuple-8x8.bin", 8, 8).values([c4.Position(WIDE, 8, 8), c4.Position()]), "positions[1] is 7x6, not 8x8"),
        (lambda: c4.Model("models/ntuple-8x8.bin", 8, 8).probabilities_batch([c4.Position(WIDE, 8, 8)]), "probabilities come from GBT models"),
        (lambda: c4.features([c4.Position(), c4.Position(WIDE, 8, 8)]), "positions[1]: the 8x8 position"),
        (lambda: c4.Agent.from_policy(lambda p: 0, width=8, height=8), "8x8 boards are past 64 bits (width x (height + 1) = 72)"),
    ],
)
def test_boards_past_64_bits_are_refused_by_name_where_not_taken(make, needle):
    with pytest.raises((c4.Connect4Error, ValueError)) as e:
        make()
    assert needle in str(e.value)


@pytest.mark.parametrize(
    "make, needle",
    [
        (lambda: c4.Position("48"), "column 8"),
        (lambda: c4.Position("4x"), "x"),
        (lambda: c4.Position("4453").play(7), "off the board"),
        (lambda: c4.Position("111111").play(0), "is full"),
        (lambda: c4.Position("1212121").play(3), "game is over"),
        (lambda: c4.Position("", 12, 10), "12x10 is too large"),
        (lambda: c4.Position.from_array(np.zeros((6, 7, 2))), "2"),
        (lambda: c4.Position.from_array([[0, 0], [0, 3]]), "board[1][1] is 3"),
        (lambda: c4.Position.from_array([[1] + [0] * 6] + [[0] * 7] * 5), "not a reachable"),
        (lambda: c4.Position.from_array([[0] * 7] * 5 + [[2] + [0] * 6]), "not a reachable"),
    ],
)
def test_bad_positions_raise_clear_errors(make, needle):
    with pytest.raises((c4.Connect4Error, ValueError, TypeError)) as e:
        make()
    assert needle in str(e.value)


def _pons(path, n):
    lines = path.read_text().split("\n")[:n]
    return [(m, int(s)) for m, s in (l.split() for l in lines if l)]


@pytest.mark.parametrize(
    "name, n",
    [("Test_L3_R1", 200), ("Test_L2_R1", 60), ("Test_L2_R2", 20), ("Test_L1_R1", 20), ("Test_L1_R2", 10), ("Test_L1_R3", 5)],
)
def test_solver_scores_equal_pons(pons, name, n):
    solver = c4.Solver()
    rows = _pons(pons / name, n)
    positions = [c4.Position(m) for m, _ in rows]
    assert solver.solve_many(positions) == [s for _, s in rows]
    # Weak scores are the signs; the best move keeps the score.
    m, s = rows[0]
    assert solver.solve(c4.Position(m), weak=True) == (s > 0) - (s < 0)
    col, best = solver.best_move(c4.Position(m))
    assert best == s and solver.analyze(c4.Position(m))[col] == s


def test_solver_book_and_errors(tmp_path):
    assert c4.Solver().book_plies == 10  # data/book-7x6.bin from the repository
    assert c4.Solver(book=False).book_plies is None
    assert c4.Solver(book="data/book-7x6.bin").solve(c4.Position("")) == 1
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"not a book")
    with pytest.raises(c4.Connect4Error, match="bad.bin"):
        c4.Solver(book=str(bad))
    with pytest.raises(c4.Connect4Error, match="missing.bin"):
        c4.Solver(book="missing.bin")
    # A damaged book: the header or a cut is refused when opened; a flip in the entries (the
    # last block's CRC, the file's last byte) when a question reads them, naming the file.
    good = open("data/book-7x6.bin", "rb").read()
    for name, data, why in [
        ("header.bin", good[:12] + bytes([good[12] ^ 1]) + good[13:], "header fails its checksum"),
        ("cut.bin", good[: len(good) // 2], "truncated"),
    ]:
        (tmp_path / name).write_bytes(data)
        with pytest.raises(c4.Connect4Error, match=f"{name}.*{why}"):
            c4.Solver(book=str(tmp_path / name))
    last = tmp_path / "last.bin"
    last.write_bytes(good[:-1] + bytes([good[-1] ^ 1]))
    solver = c4.Solver(book=str(last))
    assert solver.solve(c4.Position("4453")) == c4.Solver().solve(c4.Position("4453"))
    with pytest.raises(c4.Connect4Error, match="last.bin.*fail their checksum"):
        solver.solve(c4.Position("1771717117"))
    with pytest.raises(c4.Connect4Error, match="game is over"):
        c4.Solver().solve(c4.Position("1212121"))
    with pytest.raises(c4.Connect4Error, match="5x4"):
        c4.Solver().solve(c4.Position("", 5, 4))
    assert c4.Solver(5, 4).analyze(c4.Position("", 5, 4))[2] is not None


def test_ctrl_c_stops_a_long_solve():
    import signal
    import subprocess
    import sys
    import time

    code = (
        "import connect4_ml as c4, sys\n"
        "print('solving', flush=True)\n"
        "try:\n"
        "    c4.Solver(book=False).solve(c4.Position(''))\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted', flush=True)\n"
        "    sys.exit(3)\n"
    )
    p = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "solving"
    time.sleep(1.0)  # the empty board without a book takes minutes
    p.send_signal(signal.SIGINT)
    out, _ = p.communicate(timeout=60)
    assert p.returncode == 3 and "interrupted" in out
