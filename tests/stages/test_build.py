"""build: extract + generate in one run, each stage's outputs exactly as the separate
commands write them, resumed after a kill (SIGKILL) inside extract, between the stages and
inside generate, and after a stop inside generate."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import main

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"
EXTRACT_FILES = ("books.parquet", "mentions.parquet", "instances.parquet", "evidence.parquet", "refused.parquet")
GENERATE_FILES = ("quadruples.parquet", "quadruples.tsv", "recheck.json")


def _outputs(out: Path) -> dict:
    """Every output's bytes; books.parquet's rows without their timing (``seconds``)."""
    import pyarrow.parquet as pq

    got = {f"extract/{f}": (out / "extract" / f).read_bytes() for f in EXTRACT_FILES if f != "books.parquet"}
    got["extract/books"] = pq.read_table(out / "extract" / "books.parquet").drop(["seconds"]).to_pylist()
    got.update({f"generate/{f}": (out / "generate" / f).read_bytes() for f in GENERATE_FILES})
    return got


@pytest.mark.slow
def test_build_writes_what_the_two_commands_write_and_resumes(tmp_path, capsys):
    out = tmp_path / "build"
    assert main(["build", "--corpus", str(SAMPLE), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "build summary" in printed and "quadruples       36" in printed
    summary = json.loads((out / "build.json").read_text())
    assert summary["quadruples"] == 36 and summary["books_ok"] == 1 and summary["words"] > 0
    whole = _outputs(out)
    # the separate commands, by hand, into the same layout
    sep = tmp_path / "separate"
    assert main(["extract", "--corpus", str(SAMPLE), "--out", str(sep / "extract")]) == 0
    assert main(["generate", "--instances", str(sep / "extract"), "--out", str(sep / "generate")]) == 0
    assert _outputs(sep) == whole
    # stopped inside generate (the book's part not done, nothing merged): the rerun finishes it
    for part in (out / "generate" / "generate-parts").iterdir():
        if part.is_dir():
            (part / "part.json").unlink()
    for f in GENERATE_FILES:
        (out / "generate" / f).unlink()
    capsys.readouterr()
    assert main(["build", "--corpus", str(SAMPLE), "--out", str(out)]) == 0
    assert _outputs(out) == whole
    # other settings than the run in OUT: refused by the stage concerned, one line
    assert main(["build", "--corpus", str(SAMPLE), "--out", str(out), "--strategy", "full"]) == 2
    assert "settings differ" in capsys.readouterr().err


@pytest.fixture(scope="module")
def two_book_build(tmp_path_factory):
    """A corpus of two books (the sample under two names) and its uninterrupted build."""
    import shutil

    root = tmp_path_factory.mktemp("two-book-build")
    corpus = root / "corpus"
    corpus.mkdir()
    for name in ("orchard-a.txt", "orchard-b.txt"):
        shutil.copy(SAMPLE / "the-orchard-at-hollins-end.txt", corpus / name)
    subprocess.run([sys.executable, "-m", "pipeline", "build", "--corpus", str(corpus), "--out", str(root / "whole")],
                   check=True, env={**os.environ, "PIPELINE_PROGRESS": "lines"}, cwd=ROOT,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return corpus, root / "whole"


# the progress line after which the build is killed (SIGKILL): one book of two extracted, extract
# done and generate not begun, one book of two generated
MOMENTS = {"inside extract": "extract: books: 1/2", "between the stages": "build: stage 2/2 generate",
           "inside generate": "generate: books: 1/2"}


@pytest.mark.slow
@pytest.mark.parametrize("moment", sorted(MOMENTS))
def test_a_killed_build_resumes_to_the_same_outputs(two_book_build, tmp_path, moment):
    corpus, whole = two_book_build
    env = {**os.environ, "PIPELINE_PROGRESS": "lines", "PIPELINE_PROGRESS_SECONDS": "0"}
    cmd = [sys.executable, "-m", "pipeline", "build", "--corpus", str(corpus), "--out", str(tmp_path / "b")]
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    seen = []
    for line in proc.stderr:
        seen.append(line)
        if line.startswith(MOMENTS[moment]):
            proc.send_signal(signal.SIGKILL)
            break
    proc.wait()
    assert proc.returncode == -signal.SIGKILL, "".join(seen[-5:])
    assert not (tmp_path / "b" / "generate" / "quadruples.parquet").exists()
    done = subprocess.run(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert done.returncode == 0, done.stderr
    assert "build summary" in done.stdout
    assert _outputs(tmp_path / "b") == _outputs(whole)
