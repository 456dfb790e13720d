"""Executes every notebook against a run directory; exits non-zero naming the failing cell.

Run: python notebooks/run_notebooks.py runs/NAME [--save OUTDIR]
"""
import os, sys
from pathlib import Path
import nbformat
from nbclient import NotebookClient

HERE = Path(__file__).parent


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: run_notebooks.py RUN_DIR [--save OUTDIR]")
    run = Path(sys.argv[1]).resolve()
    save = Path(sys.argv[sys.argv.index("--save") + 1]) if "--save" in sys.argv else None
    os.environ["C4_RUN"] = str(run)
    # Idle OpenMP threads sleep instead of spinning: a spinning scikit-learn fit on a busy
    # machine (or beside the tests) runs many times slower.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    for path in sorted(HERE.glob("0*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(HERE)}}).execute()
        images = sum(1 for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []) if "image/png" in o.get("data", {}))
        print(f"{path.name}: executed, {images} figures")
        if save:
            save.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, save / path.name)


if __name__ == "__main__":
    main()
