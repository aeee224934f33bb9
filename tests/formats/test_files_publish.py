"""One writer per output directory and the journaled all-or-nothing publish
(pipeline/formats/files.py), in one process."""

from __future__ import annotations

import json
import os

import pytest

from pipeline.errors import InputError
from pipeline.formats import files


def test_lock_is_reentrant_and_removed_after_use(tmp_path):
    out = tmp_path / "out"
    with files.output_lock(out, remove_if_created=True):
        assert (out / files.LOCK_NAME).read_text().startswith(f"pid {os.getpid()}: ")
        with files.output_lock(out):               # the same process: re-entrant
            assert files.holds_lock(out)
        assert files.holds_lock(out)
    assert not out.exists()                        # created by the lock and left empty: removed
    out.mkdir()
    (out / "mine.txt").write_text("x")
    with files.output_lock(out, remove_if_created=True):
        pass
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def test_staged_set_and_journal(tmp_path):
    out = tmp_path / "out"
    with files.staged_outputs(out) as stage:
        (stage / "a.txt").write_text("new a")
        (stage / "sub").mkdir()
        (stage / "sub" / "b.txt").write_text("new b")
    assert (out / "a.txt").read_text() == "new a" and (out / "sub" / "b.txt").read_text() == "new b"
    assert sorted(p.name for p in out.iterdir()) == ["a.txt", "sub"]


def test_an_interrupted_publish_is_refused_to_readers_and_rolled_forward(tmp_path):
    """What a crash between two renames leaves: a journal, one new file in place, the other
    still staged by a dead owner."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.json").write_text('"old a"')
    (out / "b.json").write_text('"old b"')
    stage = out / ".staging-999999-dead"
    stage.mkdir()
    (stage / files.OWNER).write_text("pid 999999\n")      # nobody holds its lock: dead
    (stage / "b.json").write_text('"new b"')
    (out / "a.json").write_text('"new a"')                # renamed before the crash
    (out / files.JOURNAL).write_text(json.dumps({"pid": 999999, "stage": stage.name,
                                                 "files": ["a.json", "b.json"]}))
    with pytest.raises(InputError, match="interrupted while publishing"):
        files.read_json(out / "b.json")
    with files.staged_outputs(out) as new:                 # the next writer completes it first
        (new / "c.json").write_text('"c"')
    assert [files.read_json(out / f) for f in ("a.json", "b.json", "c.json")] == ["new a", "new b", "c"]
    assert not stage.exists() and not (out / files.JOURNAL).exists()


def test_a_failure_before_the_journal_changes_nothing(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "a.txt").write_text("old")
    with pytest.raises(RuntimeError):
        with files.staged_outputs(out) as stage:
            (stage / "a.txt").write_text("new")
            raise RuntimeError("boom")
    assert (out / "a.txt").read_text() == "old"
    assert sorted(p.name for p in out.iterdir()) == ["a.txt"]


def test_write_csv_rows(tmp_path):
    import csv

    from pipeline.formats.files import write_csv_rows

    rows = [{"key": "W1", "code": None, "n": 3, "extra": "x"}, {"key": 'W "2", b', "code": "CG-1", "n": 0}]
    write_csv_rows(tmp_path / "a.csv", rows, ["key", "code", "n"])
    assert (tmp_path / "a.csv").read_text().splitlines()[:2] == ["key,code,n", "W1,,3"]
    with open(tmp_path / "a.csv", newline="") as fh:
        assert list(csv.DictReader(fh))[1] == {"key": 'W "2", b', "code": "CG-1", "n": "0"}
    write_csv_rows(tmp_path / "b.csv", rows[:1])                    # columns from the first row
    assert (tmp_path / "b.csv").read_text().splitlines()[0] == "key,code,n,extra"
    write_csv_rows(tmp_path / "c.csv", [])                          # nothing to say: an empty file
    assert (tmp_path / "c.csv").read_text() == ""
