"""Issue 45, item 2: never write through what is not ours. A lock that is a symbolic link is
refused (naming it) and the file it points at is untouched; output files (cda, weights) take a
lock beside them, so a second run into one file is refused instead of one silently winning."""

from __future__ import annotations

import os

import pytest

from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.formats.files import LOCK_NAME, file_lock_path, output_file_lock, output_lock, staged_outputs
from tests.chaos.malformed import CONLL
from tests.chaos.test_chaos import helper, wait_line

pytestmark = pytest.mark.chaos


def test_a_symlinked_lock_is_refused_and_its_target_untouched(tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("not a lock\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).symlink_to(victim)
    for attempt in (lambda: output_lock(out), lambda: staged_outputs(out)):
        with pytest.raises(InputError) as exc:
            with attempt():
                pass
        assert str(exc.value).startswith(f"{out / LOCK_NAME}: the lock file is a symbolic link (to {victim})")
    assert victim.read_text() == "not a lock\n" and (out / LOCK_NAME).is_symlink()


def test_generate_refuses_a_symlinked_lock_with_one_line(tmp_path, capsys):
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / LOCK_NAME).symlink_to(victim)
    code = main(["generate", "--instances", str(tmp_path / "missing.parquet"), "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "symbolic link" in err and LOCK_NAME in err
    assert victim.read_text() == "keep me\n"


def test_a_symlinked_file_lock_is_refused(tmp_path):
    victim = tmp_path / "precious.txt"
    victim.write_text("x")
    target = tmp_path / "out.conll"
    file_lock_path(target).symlink_to(victim)
    with pytest.raises(InputError, match="symbolic link"):
        with output_file_lock(target):
            pass
    assert victim.read_text() == "x"


def test_the_file_lock_is_reentrant_and_removed_after(tmp_path):
    target = tmp_path / "w.json"
    with output_file_lock(target):
        with output_file_lock(target):
            assert file_lock_path(target).exists()
    assert not file_lock_path(target).exists() and not os.listdir(tmp_path)


@pytest.mark.parametrize("command", ["cda", "weights"])
def test_a_second_run_into_one_output_file_is_refused(tmp_path, capsys, command):
    target = tmp_path / ("out.conll" if command == "cda" else "weights.json")
    conll = tmp_path / "tiny.conll"
    conll.write_text(CONLL, encoding="utf-8")
    argv = {"cda": ["cda", "--conll", str(conll), "--mode", "acda", "--out", str(target), "--no-progress"],
            "weights": ["weights", "--dataset", str(tmp_path / "d.tsv"), "--out", str(target)]}[command]
    proc = helper("lock-file-and-sleep", str(target), "30")
    try:
        wait_line(proc, "locked")
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"pid {proc.pid}" in err and "another run is writing into this file" in err
        assert not target.exists()
    finally:
        proc.kill()
        proc.wait(timeout=30)


# ------------------------------------------------------------------ persons' --overwrite ---

def extract_like(out):
    """A folder as extract leaves it: its manifest, a partition, a merged file."""
    (out / "parts" / "00" / "ab").mkdir(parents=True)
    (out / "parts" / "00" / "ab" / "mentions.parquet").write_bytes(b"extract's")
    (out / "manifest.json").write_text('{"command": "extract", "settings": {}}', encoding="utf-8")
    (out / "instances.parquet").write_bytes(b"extract's")
    return {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


@pytest.mark.parametrize("extra", [[], ["--overwrite"]])
def test_persons_overwrite_refuses_an_extract_folder(tmp_path, capsys, extra):
    from tests.stages.test_persons import corpus

    out = tmp_path / "out"
    before = extract_like(out)
    assert main(["persons", "--corpus", str(corpus(tmp_path)), "--out", str(out), *extra]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "not the manifest of a persons run but of an extract run" in err
    assert "manifest.json" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_persons_overwrite_refuses_another_commands_partitions_without_a_manifest(tmp_path, capsys):
    from tests.stages.test_persons import corpus

    out = tmp_path / "out"
    before = extract_like(out)
    (out / "manifest.json").unlink()
    del before[out / "manifest.json"]
    assert main(["persons", "--corpus", str(corpus(tmp_path)), "--out", str(out), "--overwrite"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "partitions of another command" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_persons_redoes_a_partition_whose_marker_was_cut_and_writes_it_atomically(tmp_path, capsys, monkeypatch):
    import json

    import pandas as pd

    from pipeline.formats import files
    from tests.stages.test_persons import corpus

    c, out = corpus(tmp_path), tmp_path / "out"
    written = []
    real = files.atomic_path

    def spy(target):
        written.append(os.path.basename(target))
        return real(target)

    monkeypatch.setattr(files, "atomic_path", spy)
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    assert written.count("books.json") == 2 and "manifest.json" in written     # marker and manifest: atomic
    want = pd.read_parquet(out / "cast.parquet")
    [marker] = [m for m in (out / "parts").rglob("books.json") if "story" in m.read_text()]
    marker.write_text(marker.read_text()[:20], encoding="utf-8")               # a cut marker (old writer, kill -9)
    capsys.readouterr()
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    assert json.loads(marker.read_text())[0]["book_id"] == "story"
    pd.testing.assert_frame_equal(pd.read_parquet(out / "cast.parquet"), want)


def test_a_second_persons_run_into_one_out_is_refused(tmp_path, capsys):
    from tests.stages.test_persons import corpus

    out = tmp_path / "out"
    proc = helper("stage-and-sleep", str(out), "30")           # a live run holding OUT's lock
    try:
        wait_line(proc, "staging")
        assert main(["persons", "--corpus", str(corpus(tmp_path)), "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"pid {proc.pid}" in err and "another run" in err
        assert not (out / "manifest.json").exists()
    finally:
        proc.kill()
        proc.wait(timeout=30)


# ------------------------------------------------------------------ --out inside the corpus

@pytest.mark.parametrize("command", ["extract", "persons", "build"])
def test_out_inside_the_corpus_is_refused(tmp_path, capsys, command):
    from tests.stages.test_persons import corpus

    c = corpus(tmp_path)
    out = c / "out"
    assert main([command, "--corpus", str(c), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    said = err.splitlines()
    if command == "build":
        assert said[0].startswith("build: stage 1/2 extract")       # build names its stage first
        said = said[1:]
    assert len(said) == 1 and "--out is inside the corpus folder" in err and str(out) in err
    assert not out.exists()
    assert main([command, "--corpus", str(c), "--out", str(c)]) == 2      # the corpus folder itself
    assert "inside the corpus folder" in capsys.readouterr().err


# ------------------------------------------------------------------ one guard for every --overwrite

def persons_like(out):
    """A folder as persons leaves it: its manifest, a partition, the merged cast."""
    (out / "parts" / "story-ab").mkdir(parents=True)
    (out / "parts" / "story-ab" / "cast.parquet").write_bytes(b"persons'")
    (out / "manifest.json").write_text('{"kind": "persons", "model": "m"}', encoding="utf-8")
    (out / "cast.tsv").write_text("persons'\n", encoding="utf-8")
    return {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


def build_like(out):
    """A folder as build leaves it: its stages' folders and summary."""
    (out / "extract" / "parts" / "a-1").mkdir(parents=True)
    (out / "extract" / "manifest.json").write_text('{"command": "extract", "settings": {}}', encoding="utf-8")
    (out / "generate" / "generate-parts").mkdir(parents=True)
    (out / "generate" / "generate-parts" / "manifest.json").write_text('{"command": "generate"}', encoding="utf-8")
    (out / "build.json").write_text('{"books": 1}', encoding="utf-8")
    return {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


def generate_like(out):
    """A folder generate wrote alone (--instances FILE --out OUT): its parts and manifest."""
    (out / "generate-parts" / "b-1").mkdir(parents=True)
    (out / "generate-parts" / "b-1" / "part.parquet").write_bytes(b"generate's")
    (out / "generate-parts" / "manifest.json").write_text('{"command": "generate", "settings": {}}', encoding="utf-8")
    (out / "quadruples.parquet").write_bytes(b"generate's")
    return {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}


def argv_of(command, tmp_path, out):
    from tests.stages.test_persons import corpus

    if command in ("extract", "persons", "build"):
        c = tmp_path / "corpus"
        return [command, "--corpus", str(c if c.exists() else corpus(tmp_path)), "--out", str(out)]
    return ["generate", "--instances", str(tmp_path / "instances.parquet"), "--out", str(out), "--no-recheck"]


@pytest.mark.parametrize("command,folder,whose", [
    ("persons", extract_like, "an extract run"), ("persons", build_like, "a build run"),
    ("persons", generate_like, "a generate run"),
    ("extract", persons_like, "a persons run"), ("extract", build_like, "a build run"),
    ("generate", persons_like, "a persons run"), ("generate", build_like, "a build run"),
    ("build", extract_like, "an extract run"), ("build", persons_like, "a persons run"),
    ("build", generate_like, "a generate run"),
])
@pytest.mark.parametrize("extra", [[], ["--overwrite"]])
def test_every_overwrite_refuses_another_commands_folder(tmp_path, capsys, command, folder, whose, extra):
    """Issue 45 item 2: the guard extract had, shared (pipeline.formats.out_guard.check_out) by
    every command with --out and --overwrite: one line naming the other run's mark, exit 2,
    not a file removed or added."""
    out = tmp_path / "out"
    before = folder(out)
    assert main(argv_of(command, tmp_path, out) + extra) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {out}/"), err
    assert f"not the manifest of {'an' if command == 'extract' else 'a'} {command} run but of {whose}" in err
    assert "--overwrite leaves another command's folder alone" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_generate_overwrite_leaves_parts_under_a_foreign_manifest(tmp_path, capsys):
    """generate --overwrite removed OUT/generate-parts before reading the manifest there."""
    out = tmp_path / "out"
    (out / "generate-parts" / "x").mkdir(parents=True)
    (out / "generate-parts" / "x" / "keep.parquet").write_bytes(b"keep")
    (out / "generate-parts" / "manifest.json").write_text('{"command": "weights"}', encoding="utf-8")
    assert main(argv_of("generate", tmp_path, out) + ["--overwrite"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "of another command ('weights')" in err
    assert (out / "generate-parts" / "x" / "keep.parquet").read_bytes() == b"keep"


def test_extract_overwrite_refuses_persons_partitions_without_a_manifest(tmp_path, capsys):
    out = tmp_path / "out"
    before = persons_like(out)
    (out / "manifest.json").unlink()
    del before[out / "manifest.json"]
    assert main(argv_of("extract", tmp_path, out) + ["--overwrite"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "partitions of another command (story-ab: cast.parquet is not extract's)" in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before


def test_generate_shares_extracts_folder_and_extract_generates(tmp_path):
    """Extract and generate write one folder by design (generate --instances OUT --out OUT)."""
    from pipeline.formats.out_guard import check_out

    out = tmp_path / "out"
    extract_like(out)
    generate_like(out)
    check_out(out, "generate")
    check_out(out, "extract")
    with pytest.raises(InputError, match="but of an extract run"):
        check_out(out, "persons")
