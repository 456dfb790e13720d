"""Models and features through Python: equal to the CLI's predictions on the held-out set,
features as the library defines them, readers, and clear errors."""

import csv
import io
import subprocess

import numpy as np
import pytest

import connect4_ml as c4

HELDOUT = "data/positions/heldout.txt.gz"
N = 2000


def _cli_predictions(c4_bin, model):
    out = subprocess.run(
        [str(c4_bin), "predict", model, HELDOUT, "--limit", str(N)],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return list(csv.DictReader(io.StringIO(out)))


@pytest.mark.parametrize("model", ["models/gbt.bin", "models/ntuple.bin", "models/lms.bin"])
def test_predictions_equal_the_cli_on_the_heldout_set(c4_bin, model):
    rows = _cli_predictions(c4_bin, model)
    assert len(rows) == N
    data = c4.read_labelled(HELDOUT)
    assert data["moves"][:N] == [r["moves"] for r in rows]
    positions = [c4.Position(m) for m in data["moves"][:N]]
    m = c4.Model(model)
    values = m.values(positions)
    assert np.array_equal(values, np.array([float(r["value"]) for r in rows]))
    assert m.value(positions[7]) == pytest.approx(values[7], abs=1e-12)
    if m.kind == "gbt":
        p = m.probabilities_batch(positions)
        cli = np.array([[float(r[k]) for k in ("p_loss", "p_draw", "p_win")] for r in rows])
        assert np.array_equal(p, cli)
        assert np.allclose(m.probabilities(positions[3]), p[3], atol=1e-12)
        x = m.explain(positions[3])
        assert x["probabilities"] == pytest.approx(list(p[3]))
        assert len(x["contributions"]) == len(c4.feature_names(m.features))
    else:
        assert m.probabilities(positions[0]) is None
        with pytest.raises(c4.Connect4Error, match="GBT"):
            m.probabilities_batch(positions[:2])


def test_features_are_the_library_sets():
    data = c4.read_labelled(HELDOUT)
    positions = [c4.Position(m) for m in data["moves"][:500]]
    cells = c4.features(positions, "cells")
    assert cells.shape == (500, 42) and cells.dtype == np.float64
    # cells: +1 the side to move's stone, -1 the opponent's, column by column from the bottom
    # (a1, a2, ..., g6), as the names say.
    boards = data["boards"][:500]
    for i, p in enumerate(positions):
        me = p.side_to_move
        expect = np.where(boards[i] == me, 1.0, np.where(boards[i] == 0, 0.0, -1.0))
        assert np.array_equal(cells[i], expect[::-1, :].T.reshape(-1))
    assert c4.feature_names("cells")[:3] == ["a1", "a2", "a3"]
    both = c4.features(positions, "cells+oddeven")
    assert both.shape[1] == len(c4.feature_names("cells+oddeven"))
    assert np.array_equal(both[:, :42], cells)
    one = np.vstack([c4.features([p], "cells+oddeven") for p in positions[:20]])
    assert np.array_equal(one, both[:20])
    with pytest.raises(c4.Connect4Error, match="unknown feature set"):
        c4.features(positions, "cels")
    with pytest.raises(c4.Connect4Error, match="5x4"):
        c4.features([positions[0], c4.Position("", 5, 4)])
    with pytest.raises(c4.Connect4Error, match="at least one"):
        c4.features([])


def test_readers_give_the_files_counts():
    boards, labels = c4.read_uci("data/uci/connect-4.data.Z")
    assert boards.shape == (67557, 6, 7)
    assert [(labels == v).sum() for v in (1, -1, 0)] == [44473, 16635, 6449]
    assert np.all((boards != 0).sum(axis=(1, 2)) == 8)
    data = c4.read_labelled(HELDOUT)
    assert len(data["moves"]) == 20000 and data["boards"].shape == (20000, 6, 7)
    assert data["stones"].min() == 10 and data["stones"].max() == 36
    assert np.array_equal((data["boards"] != 0).sum(axis=(1, 2)), data["stones"])


def test_bad_files_raise_clear_errors(tmp_path):
    with pytest.raises(c4.Connect4Error, match="missing.bin"):
        c4.Model("missing.bin")
    junk = tmp_path / "junk.bin"
    junk.write_bytes(b"\x00" * 64)
    with pytest.raises(c4.Connect4Error, match="junk.bin"):
        c4.Model(junk)
    bad = tmp_path / "bad.txt"
    bad.write_text("4453 3\n44x 2\n")
    with pytest.raises(c4.Connect4Error, match="bad.txt:2: move 3"):
        c4.read_labelled(bad)
    with pytest.raises(c4.Connect4Error, match="not found"):
        c4.read_uci(tmp_path / "none.data")
    with pytest.raises(c4.Connect4Error, match="5x4"):
        c4.Model("models/gbt.bin").value(c4.Position("", 5, 4))


def test_a_network_past_64_bits_values_as_the_cli_does(c4_bin, tmp_path):
    """An 8x8 network (72 bits) through Model: the same values as `c4 predict` on 8x8
    positions, one at a time or in a batch, and explanations that add up to them."""
    sample = tmp_path / "p88.txt"
    subprocess.run(
        [str(c4_bin), "data", "positions", "--width", "8", "--height", "8", "--plies", "6..30",
         "--count", "60", "--seed", "3", "--out", str(sample)],
        check=True, capture_output=True,
    )
    out = subprocess.run(
        [str(c4_bin), "predict", "models/ntuple-8x8.bin", str(sample), "--width", "8", "--height", "8"],
        check=True, capture_output=True, text=True,
    ).stdout
    rows = list(csv.DictReader(io.StringIO(out)))
    assert len(rows) == 60 and all(r["p_win"] == "" for r in rows)
    m = c4.Model("models/ntuple-8x8.bin", 8, 8)
    assert m.kind == "ntuple" and m.features.startswith("ntuple(")
    positions = [c4.Position(r["moves"], 8, 8) for r in rows]
    values = m.values(positions)
    assert np.array_equal(values, np.array([float(r["value"]) for r in rows]))
    assert len(set(values.tolist())) > 50, "a trained network tells positions apart"
    p = positions[11]
    assert m.value(p) == values[11]
    assert m.probabilities(p) is None
    e = m.explain(p)
    assert e["value"] == pytest.approx(values[11])
    total = sum(c["contribution"] for c in e["contributions"]) + e["bias"]
    assert np.arctanh(e["value"]) == pytest.approx(total, abs=1e-4)


def test_labelled_files_of_a_board_past_64_bits_read_as_arrays(c4_bin, tmp_path):
    """`c4 data label` output on 8x8 (72 bits) through read_labelled: the file's moves and
    scores, and boards equal to each position's own array."""
    raw, labelled = tmp_path / "p.txt", tmp_path / "p.lab.txt"
    board = ["--width", "8", "--height", "8"]
    subprocess.run(
        [str(c4_bin), "data", "positions", *board, "--plies", "48..56", "--count", "30",
         "--seed", "4", "--out", str(raw)],
        check=True, capture_output=True,
    )
    subprocess.run(
        [str(c4_bin), "data", "label", *board, str(raw), "--out", str(labelled)],
        check=True, capture_output=True,
    )
    lines = [line.split() for line in labelled.read_text().splitlines()]
    data = c4.read_labelled(labelled, 8, 8)
    assert data["moves"] == [m for m, _ in lines]
    assert data["scores"].tolist() == [int(s) for _, s in lines]
    assert data["boards"].shape == (30, 8, 8)
    assert data["stones"].min() >= 48 and data["stones"].max() <= 56
    for i in (0, 17, 29):
        assert np.array_equal(data["boards"][i], c4.Position(data["moves"][i], 8, 8).to_array())
    assert c4.read_labelled(labelled, 8, 8, planes=True)["boards"].shape == (30, 8, 8, 2)
    with pytest.raises(c4.Connect4Error, match="p.lab.txt:1"):
        c4.read_labelled(labelled, 7, 6)
