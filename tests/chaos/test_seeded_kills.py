"""Issue 45, "Figures to reach": the 33 seeded kills as a reproducible set. Each case runs one
command of the issue's list (extract, with ``--workers 2`` too; persons; generate; cda;
annotate-import; evaluate) on a tiny input as a process in its own process group, SIGKILLs
the group after a delay drawn from ``random.Random(seed)`` within the command's measured clean
duration, reruns the same command to completion and checks:

1. the rerun exits 0;
2. its outputs equal a clean run's (same paths, so byte for byte; Parquet files row for row
   without timing columns such as ``seconds``);
3. no file is left that a clean run does not leave (staging directories, locks, temporary
   files, ``.publishing.json``);
4. ``run.json`` (or the sidecar ``FILE.run.json``) lists exactly the files present, with their
   sizes and hashes.

The clean run of each command is made (and timed) once, in a module fixture; the kills and
reruns go to the same output path, which is emptied before each case. Every run (clean, killed,
rerun) is a process forked from a warm interpreter (:mod:`tests.chaos.zygote`: pipeline, spaCy
and its model, scipy, datasets imported once, and each command but ``--workers 2`` run once in
it on a throwaway output, so that its lazy loads such as name lists are warm too), in its own
process group: the command's work is a few tenths of a second where a fresh ``python -m
pipeline`` spends seconds importing and loading, so the seeded moment falls in the work
(reading, writing, publishing) and the set runs in a fraction of the time (``--workers 2``
still spawns its pool, its workers loading spaCy). Runs carry timeouts that only guard against
a hang."""

from __future__ import annotations

import hashlib
import os
import random
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from pipeline.formats.files import read_json
from pipeline.formats.run_record import _walk
from tests.chaos import malformed

pytestmark = pytest.mark.chaos
ROOT = Path(__file__).resolve().parents[2]
TIMING = {"seconds", "elapsed", "elapsed_seconds", "words_per_second", "wall_seconds", "created"}

# seed -> command: 33 kills (extract 4 + 2 with --workers 2, persons 4, generate 5, cda 6,
# annotate-import 7, evaluate 5), the cheap commands given more of them
PLAN = (["extract"] * 4 + ["extract-w2"] * 2 + ["persons"] * 4 + ["generate"] * 5 + ["cda"] * 6
        + ["annotate-import"] * 7 + ["evaluate"] * 5)
assert len(PLAN) == 33


@dataclass
class Clean:
    argv: list[str]
    out: Path                 # the output directory, or the output file
    ref: Path                 # a copy of the clean run's output (directory, or the file's folder)
    seconds: float


def _log_tail(log: Path) -> str:
    return log.read_text(errors="replace")[-2000:] if log.exists() else ""


def _folder(c: Clean) -> Path:
    return c.out if c.out.suffix == "" else c.out.parent


def _wipe(c: Clean) -> None:
    if c.out.suffix == "":
        shutil.rmtree(c.out, ignore_errors=True)
        return
    for p in c.out.parent.iterdir():                 # the output file, its sidecars, locks, temporaries
        if p.name.startswith(c.out.name) or p.name.startswith("." + c.out.name) or p.name.startswith(".staging"):
            shutil.rmtree(p) if p.is_dir() else p.unlink()


def _listing(folder: Path, only: str | None = None) -> set[str]:
    """Every path under FOLDER, hidden ones included (for a file output: those named after it
    or hidden)."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(folder):
        for n in dirnames + filenames:
            rel = Path(dirpath, n).relative_to(folder).as_posix()
            if only is None or rel.startswith(only) or rel.startswith("."):
                found.add(rel)
    return found


def _rows(path: Path) -> list:
    import pyarrow.parquet as pq

    table = pq.read_table(path)
    keep = [n for n in table.column_names if n not in TIMING and not n.endswith("_seconds")]
    return table.select(keep).to_pylist()


def _untimed(value):
    """A JSON value without its timing keys."""
    if isinstance(value, dict):
        return {k: _untimed(v) for k, v in value.items() if k not in TIMING and not k.endswith("_seconds")}
    if isinstance(value, list):
        return [_untimed(v) for v in value]
    return value


@pytest.fixture(scope="module")
def cleans(tmp_path_factory, zygote):
    root = tmp_path_factory.mktemp("seeded-kills")
    inp = root / "in"
    corpus = inp / "corpus"
    corpus.mkdir(parents=True)
    from pipeline.formats.resources import resource
    from tests.chaos.test_resume_input import BOOK

    shutil.copy(resource("sample") / "the-orchard-at-hollins-end.txt", corpus / "orchard.txt")
    (corpus / "other.txt").write_text(BOOK, encoding="utf-8")
    inputs = malformed.make_inputs(inp, malformed.sample_instances(inp))
    results = inp / "results.csv"
    results.write_text(malformed._mturk_csv(inputs), encoding="utf-8")
    system = malformed._system_tsv(inp)
    w = root / "work"
    argvs = {
        "extract": (["extract", "--corpus", str(corpus), "--out", str(w / "extract")], w / "extract"),
        "extract-w2": (["extract", "--corpus", str(corpus), "--out", str(w / "extract-w2"), "--workers", "2"],
                       w / "extract-w2"),
        "persons": (["persons", "--corpus", str(corpus), "--out", str(w / "persons")], w / "persons"),
        "generate": (["generate", "--instances", str(inputs.instances), "--out", str(w / "generate")],
                     w / "generate"),
        "cda": (["cda", "--conll", str(inputs.conll), "--mode", "acda", "--out", str(w / "cda" / "out.conll"),
                 "--no-progress"], w / "cda" / "out.conll"),
        "annotate-import": (["annotate-import", "--results", str(results), "--quadruples", str(inputs.quadruples),
                             "--out", str(w / "import")], w / "import"),
        "evaluate": (["evaluate", "--dataset", str(inputs.dataset), "--out", str(w / "evaluate"), "--resamples",
                      "10", "--system", f"s={system}"], w / "evaluate"),
    }
    for name, (argv, out) in argvs.items():     # each command's lazy loads, once, in the zygote
        if "--workers" not in argv:
            warm_out = root / "warm" / out.relative_to(w)
            warm_out.parent.mkdir(parents=True, exist_ok=True)
            assert zygote.warm([str(warm_out) if a == str(out) else a for a in argv]) == 0, name
    made: dict[str, Clean] = {}

    def get(name: str) -> Clean:
        if name not in made:
            argv, out = argvs[name]
            (w / "cda").mkdir(parents=True, exist_ok=True)
            log = root / f"clean-{name}.log"
            code, seconds = zygote.run(argv, log)
            assert code == 0, _log_tail(log)
            c = Clean(argv, out, root / "ref" / name, seconds)
            shutil.copytree(_folder(c), c.ref)
            made[name] = c
        return made[name]

    return get


def _check_record(c: Clean) -> None:
    """run.json lists exactly the files present (a file output: the file), sizes and hashes."""
    folder = _folder(c)
    record = read_json(c.out / "run.json" if c.out.suffix == "" else c.out.with_name(c.out.name + ".run.json"))
    listed = {e["path"]: e for e in record["outputs"]}
    present = ({f.relative_to(folder).as_posix() for f in _walk(folder)} if c.out.suffix == ""
               else {c.out.name})
    assert set(listed) == present, f"run.json lists {sorted(set(listed) ^ present)} against the files"
    for rel, e in listed.items():
        data = (folder / rel).read_bytes()
        assert e.get("bytes") in (None, len(data)) and e.get("sha256") in (None, hashlib.sha256(data).hexdigest()), rel


def _check_same(c: Clean) -> None:
    folder = _folder(c)
    only = None if c.out.suffix == "" else c.out.name
    got, want = _listing(folder, only), _listing(c.ref, only)
    assert got == want, f"left or missing after the rerun: {sorted(got ^ want)}"
    for rel in sorted(want):
        a, b = folder / rel, c.ref / rel
        if a.is_dir():
            continue
        if a.suffix == ".parquet":
            assert _rows(a) == _rows(b), rel
        elif a.name == "run.json" or a.name.endswith(".run.json"):
            # the same record but the outputs' hashes: a Parquet file's bytes may differ in a
            # timing column (its rows are compared above); _check_record holds the hashes
            got_r, want_r = read_json(a), read_json(b)
            got_r["outputs"], want_r["outputs"] = ([e["path"] for e in r["outputs"]] for r in (got_r, want_r))
            assert got_r == want_r, rel
        elif a.suffix == ".json":
            assert _untimed(read_json(a)) == _untimed(read_json(b)), rel
        else:
            assert a.read_bytes() == b.read_bytes(), rel


@pytest.mark.parametrize("seed", range(33), ids=lambda s: f"{s}-{PLAN[s]}")
def test_a_seeded_kill_resumes_to_a_clean_runs_outputs(seed, cleans, zygote, tmp_path):
    c = cleans(PLAN[seed])
    delay = random.Random(seed).uniform(0.05, 0.95) * c.seconds
    _wipe(c)
    # SIGKILL to the run's process group at the seeded moment (or at once if it ended before)
    zygote.run(c.argv, tmp_path / "killed.log", kill_after=delay)
    log = tmp_path / "rerun.log"
    code, _ = zygote.run(c.argv, log)
    assert code == 0, f"after a kill at {delay:.2f} s of {c.seconds:.2f} s: {_log_tail(log)}"
    _check_same(c)
    _check_record(c)


def test_a_killed_writers_temporary_file_is_removed_by_the_next_write_and_a_live_ones_kept(tmp_path):
    """What the cda kills showed: ``.tmp-out.conll.*`` of a writer killed before its rename was
    left beside the output for good. A writer now holds a lock on its temporary file; the next
    write of that output removes the temporaries whose lock is free."""
    import fcntl

    from pipeline.formats.files import write_text

    target = tmp_path / "out.conll"
    dead = tmp_path / ".tmp-out.conll.dead1234"
    dead.write_text("half")
    live = tmp_path / ".tmp-out.conll.live5678"
    live.write_text("being written")
    other = tmp_path / ".tmp-other.conll.dead9999"
    other.write_text("another output's")
    fd = os.open(live, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        write_text(target, "whole")
        assert target.read_text() == "whole"
        assert not dead.exists() and live.exists() and other.exists()
    finally:
        os.close(fd)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([target.name, live.name, other.name])
