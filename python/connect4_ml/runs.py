"""Reading a pipeline run folder (``c4 pipeline --out runs/NAME``): its JSON summaries and
CSV records, as the notebooks read them. Conversion only: the files are the CLI's."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any, Dict, Union

import numpy as np

__all__ = ["read_run", "read_csv"]


def _column(values: list) -> Any:
    """A float64 array when every value is a number (empty cells become NaN), else the strings."""
    try:
        return np.array([float(v) if v != "" else np.nan for v in values], dtype=np.float64)
    except ValueError:
        return list(values)


def read_csv(path: Union[str, Path]) -> Dict[str, Any]:
    """One CSV file as ``{column: values}``: numeric columns as float64 arrays, others as lists."""
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        return {}
    header, body = rows[0], rows[1:]
    for i, r in enumerate(body, start=2):
        if len(r) != len(header):
            raise ValueError(f"{path}: line {i}: {len(r)} fields, the header has {len(header)}")
    return {name: _column([r[j] for r in body]) for j, name in enumerate(header)}


def read_run(folder: Union[str, Path]) -> Dict[str, Any]:
    """Every JSON and CSV file of a run folder (and its subfolders), keyed by the path inside
    the folder: JSON files parsed, CSV files as :func:`read_csv` gives them.

    Raises ``FileNotFoundError`` naming the folder when it is missing, ``ValueError`` naming
    the file for a malformed one."""
    root = Path(folder)
    if not root.is_dir():
        raise FileNotFoundError(f"run folder {root} not found")
    out: Dict[str, Any] = {}
    for p in sorted(root.rglob("*")):
        key = p.relative_to(root).as_posix()
        if p.suffix == ".json":
            try:
                out[key] = json.loads(p.read_text(encoding="utf-8"))
            except json.JSONDecodeError as e:
                raise ValueError(f"{p}: {e}") from None
        elif p.suffix == ".csv":
            out[key] = read_csv(p)
    return out
