"""Extract on hand-made bad input: book identity (same stem in two folders, ``a/b.txt`` beside
``a__b.txt``), a 2-million-character single-line book, a book that fails, the run manifest
(rerun with other settings, ``--overwrite``), consolidation of the current corpus only, and a
worker killed with SIGKILL."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.core import extract as core
from pipeline.runs import extract as stage

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_BOOK = ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt"


def sample_text() -> str:
    return SAMPLE_BOOK.read_text(encoding="utf-8")


def halves() -> tuple[str, str]:
    text = sample_text()
    cut = text.index("CHAPTER V")
    return text[:cut], text[cut:]


def write(corpus: Path, rel: str, text: str) -> None:
    path = corpus / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def books(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "books.parquet").set_index("path")


@pytest.fixture(scope="module")
def sample_instances(tmp_path_factory) -> pd.DataFrame:
    corpus = tmp_path_factory.mktemp("one")
    write(corpus, "story.txt", sample_text())
    out = tmp_path_factory.mktemp("one-out")
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    return pd.read_parquet(out / "instances.parquet")


def keys(instances: pd.DataFrame) -> list[tuple]:
    return sorted(zip(instances.book_start + instances.pronoun_offset, instances.pattern, instances.a, instances.b))


# ------------------------------------------------------------------ identity ------------

@pytest.mark.slow
def test_same_stem_in_two_folders(tmp_path, sample_instances):
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "a/story.txt", sample_text())
    write(corpus, "b/story.txt", sample_text())
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    b = books(out)
    assert list(b.index) == ["a/story.txt", "b/story.txt"]
    assert list(b.book_id) == ["a/story", "b/story"] and set(b.status) == {"ok"}
    inst = pd.read_parquet(out / "instances.parquet")
    assert inst.instance_id.is_unique and len(inst) == 2 * len(sample_instances)
    for book_id in ("a/story", "b/story"):
        mine = inst[inst.book_id == book_id]
        assert keys(mine) == keys(sample_instances)
        assert all(i.startswith(book_id + "-") for i in mine.instance_id)
    assert len(list((out / "parts").iterdir())) == 2


def test_a_slash_b_beside_a__b(tmp_path):
    first, second = halves()
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "a/b.txt", first)
    write(corpus, "a__b.txt", second)
    assert stage.partition_name("a/b.txt") != stage.partition_name("a__b.txt")
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    b = books(out)
    assert b.loc["a/b.txt", "book_id"] == "a/b" and b.loc["a__b.txt", "book_id"] == "a__b"
    assert (b.n_instances > 0).all() and (b.status == "ok").all()
    inst = pd.read_parquet(out / "instances.parquet")
    assert inst.groupby("book_id").size().to_dict() == {"a/b": b.loc["a/b.txt", "n_instances"],
                                                        "a__b": b.loc["a__b.txt", "n_instances"]}
    assert sorted(p.name for p in (out / "parts").iterdir()) == sorted(
        [stage.partition_name("a/b.txt"), stage.partition_name("a__b.txt")])


def test_partition_names_are_readable_and_distinct():
    rels = ["a/b.txt", "a__b.txt", "a_b.txt", "A/b.txt", "a b.txt", "ü/ß.txt", "x" * 300 + ".txt"]
    names = [stage.partition_name(r) for r in rels]
    assert len(set(names)) == len(names)
    assert names[0].startswith("a_b.txt-") and names[1].startswith("a__b.txt-")
    assert all(len(n) <= 80 and "/" not in n for n in names)
    assert stage.partition_name("a/b.txt") == names[0]          # stable


# ------------------------------------------------------------------ failures per book ---

@pytest.mark.slow
def test_two_million_character_line_next_to_a_normal_book(tmp_path, sample_instances):
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "long.txt", "the cat sat on the mat and looked at the door. " * 42_600)   # 2,002,200 chars
    write(corpus, "normal.txt", sample_text())
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    b = books(out)
    assert b.loc["long.txt", "status"] == "ok" and b.loc["long.txt", "n_paragraphs"] == 1
    assert b.loc["long.txt", "n_words"] == 42_600 * 11           # every piece was read
    assert b.loc["normal.txt", "status"] == "ok"
    inst = pd.read_parquet(out / "instances.parquet")
    assert keys(inst[inst.book_id == "normal"]) == keys(sample_instances)


def test_a_failing_book_is_skipped_with_its_reason(tmp_path, monkeypatch, capsys):
    first, second = halves()
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "bad.txt", first)
    write(corpus, "good.txt", second)
    real = core.extract_chunks

    def boom(parsed, meta, **kwargs):
        if meta.book_id == "bad":
            raise RuntimeError("boom\nsecond line")
        return real(parsed, meta, **kwargs)

    monkeypatch.setattr(core, "extract_chunks", boom)
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    b = books(out)
    assert b.loc["bad.txt", "status"] == "skipped"
    assert b.loc["bad.txt", "skip_reason"] == "error: RuntimeError: boom second line"
    assert b.loc["good.txt", "status"] == "ok" and b.loc["good.txt", "n_instances"] > 0
    captured = capsys.readouterr()
    assert "bad.txt: skipped (error: RuntimeError: boom second line)" in captured.err
    assert "1 skipped" in captured.out


@pytest.mark.slow
def test_worker_killed_with_sigkill(tmp_path):
    """A worker that dies (SIGKILL, as the out-of-memory killer sends) costs only its book: it is
    retried once alone, dies again, and is recorded as failed with the signal; the run finishes
    the other books and exits 1; a rerun retries the failed book. The subprocess timeout only
    guards against a hang."""
    first, second = halves()
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "a.txt", first)
    write(corpus, "b.txt", "Nobody is named here. The dog barked at the moon.\n" * 50)
    write(corpus, "c.txt", second)
    env = dict(os.environ, TQDM_DISABLE="1")
    args = ["--corpus", str(corpus), "--out", str(out), "--workers", "2"]
    res = subprocess.run([sys.executable, "-m", "tests.stages.engine_helpers", "extract", "b.txt", *args],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 1, res.stderr[-2000:]
    b = books(out)
    assert b.loc["b.txt", "status"] == "failed"
    assert b.loc["b.txt", "skip_reason"].startswith("worker process died twice")
    assert "SIGKILL" in b.loc["b.txt", "skip_reason"]
    assert (b.loc[["a.txt", "c.txt"], "status"] == "ok").all()
    assert (b.loc[["a.txt", "c.txt"], "n_instances"] > 0).all()
    assert "b.txt" in res.stderr and "worker process died" in res.stderr
    assert "2 read" in res.stdout and "1 FAILED" in res.stdout and "rerun to retry" in res.stdout
    # the rerun retries the failed book only
    res = subprocess.run([sys.executable, "-m", "tests.stages.engine_helpers", "extract", "none", *args],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, res.stderr[-2000:]
    assert "(1 unit(s) this run, 2 already done)" in res.stdout
    assert set(books(out).status) == {"ok"}


# ------------------------------------------------------------------ manifest ------------

@pytest.fixture()
def finished_run(tmp_path):
    first, second = halves()
    corpus, out = tmp_path / "c", tmp_path / "o"
    write(corpus, "a.txt", first)
    write(corpus, "b.txt", second)
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    return corpus, out


def test_manifest_records_the_settings(finished_run):
    _, out = finished_run
    manifest = json.loads((out / "manifest.json").read_text())
    settings = manifest["settings"]
    assert manifest["command"] == "extract"
    assert settings["strategy"] == "prune" and settings["chunk_chars"] == core.CHUNK_CHARS
    for key in ("model", "model_name", "model_version", "spacy_version", "components"):
        assert settings[key], key
    fingerprint = manifest["fingerprint"]
    assert len(fingerprint["code"]) == 64 and fingerprint["spacy"] and fingerprint["gender_guesser"]
    assert fingerprint["model"].startswith(settings["model"])


def test_rerun_with_another_model_is_refused(finished_run, capsys):
    corpus, out = finished_run
    before = (out / "instances.parquet").read_bytes()
    model = json.loads((out / "manifest.json").read_text())["settings"]["model"]
    assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--model", "fake_model_xyz"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"error: {out / 'manifest.json'}: ")
    assert f"model {model!r} -> 'fake_model_xyz'" in err and "--overwrite" in err
    assert (out / "instances.parquet").read_bytes() == before


def test_rerun_with_another_strategy_is_refused(finished_run, capsys):
    corpus, out = finished_run
    assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--strategy", "full"]) == 2
    assert "strategy 'prune' -> 'full'" in capsys.readouterr().err


def test_rerun_with_another_model_version_is_refused(finished_run, capsys):
    corpus, out = finished_run
    manifest = json.loads((out / "manifest.json").read_text())
    real = manifest["settings"]["model_version"]
    manifest["settings"]["model_version"] = "0.0.1"
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 2
    assert f"model_version '0.0.1' -> {real!r}" in capsys.readouterr().err


@pytest.mark.slow
def test_overwrite_starts_afresh(finished_run, tmp_path):
    corpus, out = finished_run
    (out / "parts" / "stale-book-0123456789ab").mkdir()
    (out / "notes.txt").write_text("mine")
    assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--strategy", "full", "--overwrite"]) == 0
    assert json.loads((out / "manifest.json").read_text())["settings"]["strategy"] == "full"
    assert sorted(p.name for p in (out / "parts").iterdir()) == sorted(
        [stage.partition_name("a.txt"), stage.partition_name("b.txt")])
    assert (out / "notes.txt").read_text() == "mine"              # not extract's: left alone
    assert not list(out.glob(".trash-*")) and not list(out.glob(".staging-*"))
    assert set(pd.read_parquet(out / "books.parquet").strategy) == {"full"}
    # full and prune find the same instances
    again = tmp_path / "prune"
    assert main(["extract", "--corpus", str(corpus), "--out", str(again)]) == 0
    cols = ["instance_id", "pattern", "a", "b", "text"]
    pd.testing.assert_frame_equal(pd.read_parquet(out / "instances.parquet")[cols],
                                  pd.read_parquet(again / "instances.parquet")[cols])


def test_output_without_manifest_is_refused_unless_overwrite(finished_run, capsys):
    corpus, out = finished_run
    (out / "manifest.json").unlink()
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 2
    assert "without a manifest" in capsys.readouterr().err
    assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--overwrite"]) == 0
    assert (out / "manifest.json").exists()


def test_overwrite_leaves_a_foreign_directory_alone(tmp_path, capsys):
    out = tmp_path / "o"
    out.mkdir()
    (out / "manifest.json").write_text(json.dumps({"command": "generate"}))
    (out / "books.parquet").write_text("not ours")
    write(tmp_path / "c", "a.txt", halves()[0])
    assert main(["extract", "--corpus", str(tmp_path / "c"), "--out", str(out), "--overwrite"]) == 2
    assert "not the manifest of an extract run" in capsys.readouterr().err
    assert (out / "books.parquet").read_text() == "not ours"


def test_consolidate_merges_only_the_current_corpus(finished_run):
    corpus, out = finished_run
    (corpus / "b.txt").unlink()
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    assert list(books(out).index) == ["a.txt"]
    assert set(pd.read_parquet(out / "instances.parquet").book_id) == {"a"}
    assert set(pd.read_parquet(out / "mentions.parquet").book_id) == {"a"}
    assert (out / "parts" / stage.partition_name("b.txt") / "book.parquet").exists()   # kept, not merged


def test_a_partition_without_its_marker_is_redone(finished_run, monkeypatch):
    corpus, out = finished_run
    (out / "parts" / stage.partition_name("b.txt") / "book.parquet").unlink()
    calls = []
    real = stage.process_unit
    monkeypatch.setattr(stage, "process_unit", lambda unit, *a, **k: calls.append(Path(unit.path).name) or real(unit, *a, **k))
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    assert calls == ["b.txt"]
    assert list(books(out).index) == ["a.txt", "b.txt"]


def test_resume_across_other_code_is_refused(finished_run, capsys):
    """A run made by other code (another source hash, as an older commit has) is not resumed:
    one line naming what changed; --overwrite starts afresh."""
    corpus, out = finished_run
    before = (out / "instances.parquet").read_bytes()
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["fingerprint"].update(code="0" * 64, git="abc1234")
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "made by other code" in err and "code 000000000000 (git abc1234)" in err
    assert (out / "instances.parquet").read_bytes() == before
    # a manifest of the version before fingerprints: refused too
    del manifest["fingerprint"]
    (out / "manifest.json").write_text(json.dumps(manifest))
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 2
    assert "no fingerprint recorded" in capsys.readouterr().err
    assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--overwrite"]) == 0
    assert json.loads((out / "manifest.json").read_text())["fingerprint"]["code"] != "0" * 64


# ------------------------------------------------------------------ damaged partitions ----

@pytest.mark.parametrize("name", ["mentions.parquet", "book.parquet"])
def test_a_damaged_partition_is_one_line_exit_2_and_its_folder_redoes_it(tmp_path, capsys, name):
    """The merge reads each partition through formats.tables.read_table (issue 47): a cut
    Parquet file of a done partition is ``error: FILE: ...`` (exit 2), naming the folder to
    remove (it was an ArrowInvalid traceback); the merged files of the last run stay; once the
    folder is gone the unit is extracted again and the merge is what it was."""
    import shutil

    from tests.stages.test_persons import BOOK

    corpus, out = tmp_path / "corpus", tmp_path / "out"
    write(corpus, "story.txt", BOOK * 3)
    write(corpus, "other.txt", BOOK)
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    merged = {f: (out / f).read_bytes() for f in ("books.parquet", "mentions.parquet", "instances.parquet")}
    want = pd.read_parquet(out / "instances.parquet")
    [damaged] = [p for p in (out / "parts").rglob(name) if p.parent.name.startswith("story.txt")]
    damaged.write_bytes(damaged.read_bytes()[:100])
    capsys.readouterr()
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {damaged}: not a readable Parquet file")
    assert err.rstrip().endswith(f"remove the folder {damaged.parent.name} to extract that unit again")
    assert {f: (out / f).read_bytes() for f in merged} == merged
    shutil.rmtree(damaged.parent)
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(out / "instances.parquet"), want)
