"""The data the package carries, from any folder: the six benchmark sets, the labelled
positions (exact scores from the solver) and the UCI Connect-4 file, by name.

    >>> from connect4_ml import datasets
    >>> sorted(datasets.names("labelled"))
    ['heldout', 'opening-6', 'opening-8', 'train']
    >>> d = datasets.labelled("heldout", planes=True)
    >>> d.boards.shape[1:], d.values.dtype.name
    ((6, 7, 2), 'float32')
    >>> board, value = d[0]

A ``LabelledSet`` is a map-style dataset (``len`` and ``[i]``, a ``(board, value)`` pair),
which ``torch.utils.data.DataLoader`` takes as it is; ``arrays()`` gives the whole set as
two numpy arrays. Names are looked up in ``./data`` first (a clone of the repository), then
inside the installed package; ``path(name)`` says which file is used. ``read_labelled``,
``read_uci``, ``bench_agent`` and ``evaluate`` take the same names.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional, Tuple

import numpy as np

from ._native import _data_catalogue, _data_path, read_labelled, read_uci


def names(kind: Optional[str] = None) -> List[str]:
    """The data sets' names, all or of one ``kind``: "bench" (the six benchmark sets,
    "MOVES SCORE" lines graded by ``bench_agent``), "labelled" (positions with their exact
    score: heldout, train, opening-6, opening-8) or "uci" (the UCI Connect-4 file)."""
    kinds = {"bench", "labelled", "uci"}
    if kind is not None and kind not in kinds:
        raise ValueError(f"kind={kind!r}: one of {', '.join(sorted(kinds))} (or None for all)")
    return [n for n, k, _ in _data_catalogue() if kind is None or k == kind]


def path(name: str) -> str:
    """The file of the data set ``name`` (or of a repository path such as
    "data/bench/middle-easy"): in ``./data`` when there, else the package's copy."""
    return str(_data_path(name))


@dataclass(frozen=True)
class LabelledSet:
    """Positions and their game-theoretic values as numpy arrays, indexable as a dataset:
    ``len(d)``, ``d[i] == (d.boards[i], d.values[i])``."""

    name: str
    moves: Tuple[str, ...]
    """Each position's move string (1-based columns)."""
    boards: np.ndarray
    """``n x height x width`` int8 (0 empty, 1 first player, 2 second; row 0 at the top), or
    with ``planes=True`` ``n x height x width x 2`` (plane 0 the side to move's stones, 1
    the opponent's: the Gymnasium and PettingZoo observation)."""
    values: np.ndarray
    """float32, from the side to move's view: 1 win, 0 draw, -1 loss."""
    scores: Optional[np.ndarray]
    """int32 exact scores (the solver's, side to move), or None where the file has only
    win/draw/loss (UCI)."""
    stones: np.ndarray
    """int32 stones on each board."""

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, i):
        return self.boards[i], self.values[i]

    def arrays(self, dtype=np.float32) -> Tuple[np.ndarray, np.ndarray]:
        """``(boards, values)`` as ``dtype`` arrays, e.g. for ``torch.from_numpy``."""
        return self.boards.astype(dtype), self.values.astype(dtype)


def labelled(name: str = "heldout", planes: bool = False, width: int = 7, height: int = 6) -> LabelledSet:
    """A labelled "MOVES SCORE" set by name (``names("labelled")``, a benchmark set's name
    too) or path, with side-to-move planes when ``planes``."""
    d = read_labelled(name, width, height, planes)
    return LabelledSet(
        name=name,
        moves=tuple(d["moves"]),
        boards=d["boards"],
        values=np.sign(d["scores"]).astype(np.float32),
        scores=d["scores"],
        stones=d["stones"],
    )


def uci(planes: bool = False) -> LabelledSet:
    """The UCI Connect-4 data (67,557 positions of 8 stones, the first player to move) as a
    ``LabelledSet``; no exact scores, only win/draw/loss."""
    boards, labels = read_uci("uci", planes)
    n = len(labels)
    return LabelledSet(
        name="uci",
        moves=(),
        boards=boards,
        values=labels.astype(np.float32),
        scores=None,
        stones=np.full(n, 8, dtype=np.int32),
    )
