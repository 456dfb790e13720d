"""Reading a run folder's JSON and CSV files into Python objects."""

import json

import numpy as np
import pytest

import connect4_ml as c4


def test_read_run_reads_json_and_csv(tmp_path):
    (tmp_path / "gbt").mkdir()
    (tmp_path / "summary.json").write_text(json.dumps({"games": 4, "agents": ["a", "b"]}))
    (tmp_path / "gbt" / "curve.csv").write_text("iteration,loss,name\n1,0.5,a\n2,,b\n")
    (tmp_path / "notes.txt").write_text("ignored")
    run = c4.read_run(tmp_path)
    assert sorted(run) == ["gbt/curve.csv", "summary.json"]
    assert run["summary.json"]["games"] == 4
    curve = run["gbt/curve.csv"]
    assert np.array_equal(curve["iteration"], [1.0, 2.0])
    assert curve["loss"][0] == 0.5 and np.isnan(curve["loss"][1])
    assert curve["name"] == ["a", "b"]


def test_read_run_names_what_is_wrong(tmp_path):
    with pytest.raises(FileNotFoundError, match="nowhere"):
        c4.read_run(tmp_path / "nowhere")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="bad.json"):
        c4.read_run(tmp_path)
    (tmp_path / "bad.json").unlink()
    (tmp_path / "short.csv").write_text("a,b\n1\n")
    with pytest.raises(ValueError, match="line 2"):
        c4.read_run(tmp_path)
