"""A regular (non-editable) install works: resources are package data, found without the checkout.

Builds the wheel, installs it into a fresh virtual environment (its dependencies are taken
from the project's environment through a path entry, so nothing is downloaded), and runs
``counter-gap extract`` from another directory on a copy of the sample book.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pyarrow.parquet as pq
import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(cmd, **kw):
    proc = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert proc.returncode == 0, f"{cmd} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc


@pytest.mark.slow
def test_wheel_installs_and_extracts_from_another_directory(tmp_path):
    wheels = tmp_path / "wheels"
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
          "-w", str(wheels), str(ROOT)], cwd=tmp_path)
    (wheel,) = wheels.glob("counter_gap-*.whl")

    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    vpy = venv / "bin" / "python"
    site = Path(_run([str(vpy), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip())
    # the dependencies (spaCy, pandas, ...) come from this environment; the project itself must not
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([sys.executable, "-m", "pip", "--python", str(vpy), "install", "-q", "--no-deps", str(wheel)])

    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt", corpus)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    where = _run([str(vpy), "-c", "import pipeline, pipeline.formats.resources as r; "
                  "print(pipeline.__file__); print(r.resource_path('titles.tsv'))"], cwd=elsewhere, env=env)
    module_file, titles = where.stdout.split()
    assert module_file.startswith(str(venv)), "the wheel, not the checkout, must be imported"
    assert titles.startswith(str(venv)) and Path(titles).is_file()

    _run([str(venv / "bin" / "counter-gap"), "extract", "--corpus", str(corpus), "--out", "out"],
         cwd=elsewhere, env=env)
    instances = pq.read_table(elsewhere / "out" / "instances.parquet")
    assert instances.num_rows > 0
    assert set(instances.column("pattern").to_pylist()) == {"INITIALPRO", "MEDIALPRO", "FINALPRO"}
