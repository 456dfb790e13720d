"""Shared set-up: the repository root as the working folder (models/, data/ as the CLI sees
them), the `c4` binary for comparisons, and the shared benchmark data, named when missing."""

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data"


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


@pytest.fixture(scope="session")
def c4_bin() -> Path:
    """The c4 binary: $C4_BIN, else target/debug/c4 or target/release/c4 (the newest)."""
    if os.environ.get("C4_BIN"):
        return Path(os.environ["C4_BIN"])
    found = [p for p in (REPO / "target/debug/c4", REPO / "target/release/c4") if p.exists()]
    if not found:
        pytest.fail("no c4 binary: run `cargo build` (or set C4_BIN) before these tests")
    return max(found, key=lambda p: p.stat().st_mtime)


@pytest.fixture(scope="session")
def pons() -> Path:
    """Pons' benchmark files, which ../shared/data/pons must hold."""
    d = SHARED / "pons"
    if not (d / "Test_L3_R1").exists():
        pytest.fail(f"the shared Pons files are missing: expected {d}/Test_L3_R1 (see ../shared/GUIDE.md)")
    return d


def record(name: str, result) -> None:
    """Prints an adapter's results and appends them to $C4_PY_RESULTS (JSON lines) when set."""
    import json

    line = json.dumps({"test": name, **result})
    print(line)
    path = os.environ.get("C4_PY_RESULTS")
    if path:
        with open(path, "a", encoding="utf-8") as f:
            f.write(line + "\n")
