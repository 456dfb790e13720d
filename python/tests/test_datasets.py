"""The data the package carries, by name and from any folder; side-to-move planes."""

import numpy as np
import pytest

import connect4_ml as c4
from connect4_ml import datasets


def test_every_data_set_loads_by_name_from_another_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no data/ here: the package's copies are used
    assert datasets.names("bench") == [
        "end-easy", "middle-easy", "middle-medium", "begin-easy", "begin-medium", "begin-hard"
    ]
    assert datasets.names("labelled") == ["heldout", "train", "opening-6", "opening-8"]
    assert datasets.names("uci") == ["uci"]
    for name in datasets.names():
        assert "connect4_ml" in datasets.path(name), name
    held = datasets.labelled("heldout")
    assert len(held) == 20000 and held.boards.shape == (20000, 6, 7)
    # The repository's paths work from anywhere too, and give the same data.
    same = c4.read_labelled("data/positions/heldout.txt.gz")
    assert same["moves"][:5] == list(held.moves[:5])
    boards, labels = c4.read_uci("data/uci/connect-4.data.Z")
    assert boards.shape == (67557, 6, 7) and len(labels) == 67557
    with pytest.raises(ValueError, match="kind="):
        datasets.names("images")
    with pytest.raises(c4.Connect4Error, match=r"no-such-set: not found \(no such file.*heldout"):
        datasets.labelled("no-such-set")
    with pytest.raises(c4.Connect4Error, match=r"data/positions/missing.gz: not found \(no such file, nor in"):
        c4.read_labelled("data/positions/missing.gz")


def test_the_repository_copy_comes_first_in_a_clone():
    # The tests run from the repository root.
    assert datasets.path("middle-easy") == "data/bench/middle-easy"


def test_planes_are_the_environments_observation():
    d = datasets.labelled("heldout", planes=True)
    cells = datasets.labelled("heldout")
    assert d.boards.shape == (20000, 6, 7, 2) and d.boards.dtype == np.int8
    for i in range(50):
        moves = d.moves[i]
        p = c4.Position(moves)
        me = p.side_to_move
        board = cells.boards[i]
        assert (d.boards[i][:, :, 0] == (board == me)).all()
        assert (d.boards[i][:, :, 1] == (board == 3 - me)).all()
        assert d.values[i] == np.sign(d.scores[i])
    uci = datasets.uci(planes=True)
    assert uci.boards.shape == (67557, 6, 7, 2) and uci.scores is None
    # 8 stones, the first player to move: 4 stones in each plane.
    assert (uci.boards[:100].sum(axis=(1, 2)) == 4).all()


def test_a_labelled_set_is_a_map_style_dataset():
    d = datasets.labelled("opening-6")
    board, value = d[3]
    assert (board == d.boards[3]).all() and value == d.values[3]
    x, y = d.arrays()
    assert x.dtype == np.float32 and y.dtype == np.float32 and len(x) == len(d)
    assert set(np.unique(y)) <= {-1.0, 0.0, 1.0}
    # What torch's DataLoader does with a map-style dataset: index it in batches.
    batch = [d[i] for i in range(8)]
    assert np.stack([b for b, _ in batch]).shape == (8, 6, 7)


def test_an_evaluator_may_take_planes():
    seen = []

    def value(planes):
        seen.append(planes.shape)
        assert planes.dtype == np.int8
        # Centre stones of the side to move minus the opponent's.
        return (planes[:, :, 3, 0].sum(axis=1) - planes[:, :, 3, 1].sum(axis=1)) / 6.0

    agent = c4.Agent.from_evaluator(value, depth=2, takes="planes", name="planes")
    assert agent.move(c4.Position("44")) in range(7)
    assert seen and all(len(s) == 4 and s[1:] == (6, 7, 2) for s in seen)
    with pytest.raises(c4.Connect4Error, match="planes"):
        c4.Agent.from_evaluator(value, takes="cubes")
