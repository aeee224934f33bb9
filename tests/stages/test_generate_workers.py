"""generate --workers: the split by book, parts and resume inside generate, identical outputs
for any number of workers, the run identity that refuses other settings or code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.runs.generate import PARTS_DIR, _book_groups

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample" / "the-orchard-at-hollins-end.txt"
OUTPUTS = ("quadruples.parquet", "quadruples.tsv", "recheck.json")


@pytest.fixture(scope="module")
def two_books(tmp_path_factory):
    """An extract run of a corpus of two books (the sample under two names)."""
    root = tmp_path_factory.mktemp("two-books")
    corpus = root / "corpus"
    corpus.mkdir()
    shutil.copy(SAMPLE, corpus / "orchard-a.txt")
    shutil.copy(SAMPLE, corpus / "orchard-b.txt")
    ext = root / "extract"
    assert main(["extract", "--corpus", str(corpus), "--out", str(ext)]) == 0
    return ext


def _same(a: Path, b: Path) -> None:
    for f in OUTPUTS:
        assert (a / f).read_bytes() == (b / f).read_bytes(), f


def test_the_split_is_by_book_in_the_order_of_the_file():
    insts = [{"book_id": b, "i": i} for i, b in enumerate(["x", "y", "x", "z", "y"])]
    groups = _book_groups(insts)
    assert [b for b, _ in groups] == ["x", "y", "z"]
    assert [[k for k, _ in items] for _, items in groups] == [[1, 3], [2, 5], [4]]


@pytest.mark.slow
def test_two_workers_write_what_one_writes(two_books, tmp_path, capsys):
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["generate", "--instances", str(two_books), "--out", str(one)]) == 0
    printed = capsys.readouterr().out
    assert "books             2 (0 done before: resumed)" in printed
    assert main(["generate", "--instances", str(two_books), "--out", str(two), "--workers", "2"]) == 0
    capsys.readouterr()
    _same(one, two)
    parts = sorted(p.name for p in (one / PARTS_DIR).iterdir() if p.is_dir())
    assert len(parts) == 2 and parts[0].startswith("orchard-a") and parts[1].startswith("orchard-b")
    import pandas as pd

    df = pd.read_parquet(one / "quadruples.parquet")
    books = list(dict.fromkeys(df["book_id"]))
    assert books == ["orchard-a", "orchard-b"]          # the books in the order of the instances file


@pytest.mark.slow
def test_a_rerun_resumes_the_books_done(two_books, tmp_path, capsys):
    out = tmp_path / "g"
    assert main(["generate", "--instances", str(two_books), "--out", str(out)]) == 0
    whole = {f: (out / f).read_bytes() for f in OUTPUTS}
    parts = sorted(p for p in (out / PARTS_DIR).iterdir() if p.is_dir())
    kept_part = parts[0] / "quadruples.parquet"
    stamp = kept_part.stat().st_mtime_ns
    # stopped inside generate: the second book not done yet, nothing merged
    (parts[1] / "part.json").unlink()
    for f in OUTPUTS:
        (out / f).unlink()
    capsys.readouterr()
    assert main(["generate", "--instances", str(two_books), "--out", str(out)]) == 0
    assert "books             2 (1 done before: resumed)" in capsys.readouterr().out
    assert kept_part.stat().st_mtime_ns == stamp            # the done book was not made again
    assert {f: (out / f).read_bytes() for f in OUTPUTS} == whole
    # a part whose book changed in extract's output (another digest) is made again
    info = json.loads((parts[0] / "part.json").read_text())
    info["digest"] = "0" * 64
    (parts[0] / "part.json").write_text(json.dumps(info))
    assert main(["generate", "--instances", str(two_books), "--out", str(out)]) == 0
    assert "books             2 (1 done before: resumed)" in capsys.readouterr().out
    assert {f: (out / f).read_bytes() for f in OUTPUTS} == whole


def test_other_settings_or_code_are_refused(two_books, tmp_path, capsys):
    out = tmp_path / "g"
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck"]) == 0
    capsys.readouterr()
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck",
                 "--name-forms", "shape"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and "manifest.json" in err and "name_forms 'person' -> 'shape'" in err
    assert len(err.splitlines()) == 1
    manifest = out / PARTS_DIR / "manifest.json"
    data = json.loads(manifest.read_text())
    data["fingerprint"]["code"] = "0" * 64
    manifest.write_text(json.dumps(data))
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck"]) == 2
    assert "other code" in capsys.readouterr().err
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck",
                 "--name-forms", "shape", "--overwrite"]) == 0


def test_workers_apply_to_instances_only(tmp_path, capsys):
    gap = tmp_path / "g.tsv"
    gap.write_text("ID\tText\n", encoding="utf-8")
    assert main(["generate", "--gap-tsv", str(gap), "--out", str(tmp_path / "o"), "--workers", "2"]) == 2
    assert "--gap-tsv runs in this process" in capsys.readouterr().err


def test_a_lost_book_is_one_line_and_the_others_are_kept(two_books, tmp_path, capsys, monkeypatch):
    """A book whose task fails (here: its quadruples raise) stops the merge with one line;
    the other book's part is kept and a rerun makes only the lost one."""
    from pipeline.core import quadruples as core

    real = core.quadruple

    def broken(inst, *a, **k):
        if inst["book_id"] == "orchard-b":
            raise MemoryError("out of memory")
        return real(inst, *a, **k)

    monkeypatch.setattr(core, "quadruple", broken)
    out = tmp_path / "g"
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck"]) == 2
    err = capsys.readouterr().err
    assert "error: " in err and "1 book(s) not generated (book orchard-b: MemoryError: out of memory)" in err
    assert not (out / "quadruples.parquet").exists()
    monkeypatch.setattr(core, "quadruple", real)
    assert main(["generate", "--instances", str(two_books), "--out", str(out), "--no-recheck"]) == 0
    assert "books             2 (1 done before: resumed)" in capsys.readouterr().out


@pytest.mark.slow
def test_two_workers_load_no_model_in_this_process(two_books, tmp_path, capsys):
    """With workers the re-check's pipeline is loaded once, in the pool's fork server
    (pipeline.engines.started), never in this process: the run's serial head is this process
    reading the instances while the server loads."""
    from pipeline.nlp import load as nlp_mod

    nlp_mod.load.cache_clear()
    assert main(["generate", "--instances", str(two_books), "--out", str(tmp_path / "g"), "--workers", "2"]) == 0
    capsys.readouterr()
    assert nlp_mod.load.cache_info().currsize == 0


def test_the_warm_up_loads_what_the_first_book_needs():
    """warm_worker loads, once for all the workers, what a worker would otherwise load on its
    first book: the spaCy pipeline, gender-guesser's names, wordfreq's list, the place names."""
    from pipeline.lang.names import _detector
    from pipeline.lang.places import place_names
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp.persons import head_words, zipf
    from pipeline.runs.generate import warm_worker

    caches = (_detector, place_names, head_words, zipf)
    for cache in caches:
        cache.cache_clear()
    model = nlp_mod.resolve_model_name(None)
    warm_worker(model)
    assert all(cache.cache_info().currsize for cache in caches)
    assert nlp_mod.load.cache_info().currsize


@pytest.mark.slow
def test_a_worker_reads_the_book_s_cast_without_pandas(two_books):
    """book_rows gives what read_table's filter gives, and a worker (its warm-up and a book)
    imports no pandas (pyarrow's dataset layer imports it: 0.9 CPU s before the first book)."""
    import subprocess
    import sys

    from pipeline.formats.tables import read_table
    from pipeline.formats.tables import book_rows

    for name in ("mentions.parquet", "evidence.parquet"):
        for books in ({"orchard-b"}, {"orchard-a", "orchard-b"}, {"none"}):
            assert book_rows(two_books / name, books) == read_table(
                two_books / name, filters=[("book_id", "in", sorted(books))]).to_pylist()
    code = ("import sys; import pyarrow.parquet as pq; from pipeline.runs import generate as g; "
            "from pipeline.nlp.load import resolve_model_name; g.warm_worker(resolve_model_name(None)); "
            "p = sys.argv[1]; rows = pq.ParquetFile(p).read().to_pylist(); "
            "items = [(k, r) for k, r in enumerate(rows, 1) if r['book_id'] == 'orchard-b']; "
            "r = g.process_book('orchard-b', items, g.BookOptions(instances=p)); "
            "assert r['rows'] and r['recheck']['checked']; print('pandas' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code, str(two_books / "instances.parquet")], capture_output=True,
                         text=True, cwd=Path(__file__).resolve().parents[2], timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "False"
