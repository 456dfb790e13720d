"""Type stubs of the compiled module (see the docstrings of each item at run time)."""

from os import PathLike
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

_Path = Union[str, PathLike]
_Rng = Union[None, int, Any]  # an int seed, a random.Random or a numpy Generator

__version__: str

class Connect4Error(ValueError):
    """Bad input or a failed call of the library: the message names what and where."""

class Position:
    """A Connect Four position; immutable, hashable. Columns 0-based, move strings 1-based."""
    def __init__(self, moves: str = "", width: int = 7, height: int = 6) -> None: ...
    @staticmethod
    def from_array(
        board: npt.ArrayLike, width: Optional[int] = None, height: Optional[int] = None
    ) -> Position: ...
    @staticmethod
    def random(
        plies: int,
        rng: _Rng = None,
        forbid_direct_win: bool = True,
        width: int = 7,
        height: int = 6,
    ) -> Tuple[Position, List[int]]: ...
    def to_array(self) -> npt.NDArray[np.int8]: ...
    def play(self, column: int) -> Position: ...
    def legal_moves(self, non_losing: bool = False) -> List[int]: ...
    def can_win_next(self) -> bool: ...
    def mirror(self) -> Position: ...
    @property
    def moves(self) -> Optional[str]: ...
    @property
    def width(self) -> int: ...
    @property
    def height(self) -> int: ...
    @property
    def stones(self) -> int: ...
    @property
    def side_to_move(self) -> int: ...
    @property
    def key(self) -> int: ...
    @property
    def canonical_key(self) -> int: ...
    @property
    def winner(self) -> Optional[int]: ...
    @property
    def is_over(self) -> bool: ...

class Solver:
    """The perfect solver; scores from the side to move (22 - k for a win with the k-th stone)."""
    def __init__(
        self,
        width: int = 7,
        height: int = 6,
        table_mib: int = 64,
        book: Union[None, bool, _Path] = None,
    ) -> None: ...
    def solve(self, position: Position, weak: bool = False) -> int: ...
    def analyze(self, position: Position, weak: bool = False) -> List[Optional[int]]: ...
    def best_move(
        self, position: Position, tie_break: str = "center", rng: _Rng = None
    ) -> Tuple[int, int]: ...
    def score_all_moves(self, position: Position) -> Dict[int, int]: ...
    def solve_many(self, positions: Sequence[Position], weak: bool = False) -> List[int]: ...
    @property
    def book_plies(self) -> Optional[int]: ...
    def clear(self) -> None: ...

class Model:
    """A model file (GBT, linear, n-tuple) as an evaluator."""
    def __init__(self, path: _Path, width: int = 7, height: int = 6) -> None: ...
    @property
    def kind(self) -> str: ...
    @property
    def features(self) -> str: ...
    def value(self, position: Position) -> float: ...
    def probabilities(self, position: Position) -> Optional[Tuple[float, float, float]]: ...
    def values(self, positions: Sequence[Position]) -> npt.NDArray[np.float64]: ...
    def probabilities_batch(self, positions: Sequence[Position]) -> npt.NDArray[np.float64]: ...
    def explain(self, position: Position) -> Dict[str, Any]: ...

class Agent:
    """Any agent spec as a player; ``move`` returns a 0-based column."""
    def __init__(
        self,
        spec: str,
        width: int = 7,
        height: int = 6,
        seed: int = 0,
        models: Optional[_Path] = None,
        state: Optional[str] = None,
    ) -> None: ...
    @staticmethod
    def from_policy(
        policy: Union[Callable[[Position], int], Callable[[npt.NDArray[np.int8], npt.NDArray[np.bool_]], int]],
        name: str = "python",
        width: int = 7,
        height: int = 6,
    ) -> Agent: ...
    @staticmethod
    def from_evaluator(
        evaluator: Union[Callable[[List[Position]], Any], Callable[[npt.NDArray[np.int8]], Any]],
        depth: Optional[int] = None,
        ms: Optional[int] = None,
        name: str = "python-eval",
        batch: int = 64,
        takes: str = "positions",  # or "arrays" (N x H x W int8: 0, 1, 2) or "planes" (N x H x W x 2 int8, side to move first)
        hybrid: bool = False,
        playouts: Optional[int] = None,
        width: int = 7,
        height: int = 6,
        cache: Optional[int] = None,
    ) -> Agent: ...
    def move(self, position: Position) -> int: ...
    def clear_cache(self) -> None: ...
    @property
    def cached(self) -> int: ...
    @property
    def evaluator_stats(self) -> Optional[Dict[str, float]]:
        """``{"calls", "positions", "mean_batch"}`` for a ``from_evaluator`` agent, else None;
        games played at once (``jobs``) share calls."""
        ...
    def end_game(self, moves: str, side: str) -> float: ...
    @property
    def spec(self) -> str: ...
    @property
    def estimate(self) -> float: ...
    @property
    def state(self) -> str: ...

def features(positions: Sequence[Position], name: str = "cells+oddeven") -> npt.NDArray[np.float64]: ...
def feature_names(name: str = "cells+oddeven", width: int = 7, height: int = 6) -> List[str]: ...
def _tournament(
    agents: Sequence[Union[str, Agent]],
    games: int = 20,
    openings: int = 2,
    seed: int = 0,
    jobs: int = 1,
    width: int = 7,
    height: int = 6,
    models: Optional[_Path] = None,
) -> Dict[str, Any]: ...
def _evaluate(
    agent: Union[str, Agent],
    baseline: str = "handtuned:depth=3",
    side: str = "both",
    games: int = 400,
    seeds: int = 1,
    openings: int = 2,
    seed: int = 0,
    sets: Union[None, Mapping[str, _Path], Sequence[_Path]] = None,
    positions: int = 200,
    jobs: int = 1,
    tt_mib: int = 64,
    width: int = 7,
    height: int = 6,
    models: Optional[_Path] = None,
) -> Dict[str, Any]: ...
def _rate(
    agent: Union[str, Agent],
    games: int = 40,
    openings: int = 2,
    seed: int = 0,
    jobs: int = 1,
    width: int = 7,
    height: int = 6,
    models: Optional[_Path] = None,
) -> Dict[str, Any]: ...
def _bench_agent(
    agent: Union[str, Agent],
    sets: Union[Mapping[str, _Path], Sequence[_Path]],
    limit: Optional[int] = None,
    jobs: int = 1,
    tt_mib: int = 64,
    width: int = 7,
    height: int = 6,
    models: Optional[_Path] = None,
) -> Dict[str, Any]: ...
def random_board(
    plies: int,
    rng: _Rng = None,
    forbid_direct_win: bool = True,
    width: int = 7,
    height: int = 6,
) -> Tuple[Position, List[int]]: ...
def read_uci(path: _Path = "uci", planes: bool = False) -> Tuple[npt.NDArray[np.int8], npt.NDArray[np.int8]]: ...
def read_labelled(path: _Path, width: int = 7, height: int = 6, planes: bool = False) -> Dict[str, Any]: ...
def _data_path(name: _Path) -> str: ...
def _data_catalogue() -> List[Tuple[str, str, str]]: ...
def rust_features_seconds(positions: Sequence[Position], name: str = "cells+oddeven", repeats: int = 3) -> float: ...
def rust_gbt_batch_seconds(path: _Path, positions: Sequence[Position], repeats: int = 3) -> float: ...
def rust_move_seconds(spec: str, positions: Sequence[Position], repeats: int = 3) -> float: ...
