"""The ``--cast`` file is read once per run (issue 47 item 3), in the parent: one opening, its
bytes hashed (the manifest's ``cast_sha256``) and parsed from that one read, the overrides
handed to the books as data. extract, persons (and ``--explain``), generate (``--instances``
with the re-check, two books; ``--gap-tsv``) and build (both stages) each open it once, and its overrides still reach
every book. The runs are called from Python with their settings: through the CLI, ``run.json``'s
record hashes its inputs too (:mod:`pipeline.formats.run_record`)."""

from __future__ import annotations

import builtins
import contextlib
import hashlib
import io
import os
from pathlib import Path

import pandas as pd
import pytest

from tests.stages.test_persons import BOOK

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample" / "the-orchard-at-hollins-end.txt"


@pytest.fixture
def opened(monkeypatch):
    """-> a function: how many times ``path`` was opened for reading (``open``, ``io.open``:
    ``Path.open``, ``read_bytes`` and ``read_text`` too) since the test began, in this process."""
    seen: list[str] = []
    real = io.open

    def counting(file, *a, **k):
        mode = a[0] if a else k.get("mode", "r")
        if isinstance(file, (str, os.PathLike)) and not set(mode) & set("wax+"):
            seen.append(os.path.realpath(file))
        return real(file, *a, **k)

    monkeypatch.setattr(io, "open", counting)
    monkeypatch.setattr(builtins, "open", counting)
    return lambda path: seen.count(os.path.realpath(path))


def _quiet(call):
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return call()


def three_books(tmp_path):
    c = tmp_path / "corpus"
    c.mkdir()
    for name in ("one", "two", "three"):
        (c / f"{name}.txt").write_text(BOOK * 3, encoding="utf-8")
    over = tmp_path / "over.tsv"
    over.write_text("*\tDemi\tfeminine\ntwo\tHolmes\tnot-a-person\n", encoding="utf-8")
    return c, over


def test_the_cast_file_is_hashed_and_parsed_from_one_read(tmp_path, opened):
    from pipeline.formats.cast import cast_fingerprint, read_cast_file, read_cast_overrides

    _, over = three_books(tmp_path)
    cast = read_cast_file(over)
    assert opened(over) == 1
    assert cast.sha256 == hashlib.sha256(over.read_bytes()).hexdigest() == cast_fingerprint(cast)
    assert cast.overrides == read_cast_overrides(over) == {"*": {"Demi": "feminine"}, "two": {"Holmes": "not-a-person"}}
    assert cast_fingerprint(None) == ""


def test_extract_reads_the_cast_file_once_per_run(tmp_path, opened):
    from pipeline.formats.books import CorpusSpec
    from pipeline.runs.extract import ExtractSettings, extract

    c, over = three_books(tmp_path)
    out = tmp_path / "out"
    assert _quiet(lambda: extract(ExtractSettings(out=out, corpus=CorpusSpec(path=str(c)), cast=over))) == 0
    assert opened(over) == 1
    books = pd.read_parquet(out / "books.parquet")
    assert list(books.status) == ["ok"] * 3
    names = pd.read_parquet(out / "mentions.parquet").query("kind == 'name'")
    demi = names[names.text == "Demi"]
    assert set(demi.book_id) == {"one", "two", "three"} and set(demi.gender) == {"feminine"}
    holmes = names[names.text.str.contains("Holmes")]
    assert "two" not in set(holmes.book_id) and {"one", "three"} <= set(holmes.book_id)


def test_persons_reads_the_cast_file_once_per_run(tmp_path, opened):
    from pipeline.runs.persons import PersonsSettings, persons

    c, over = three_books(tmp_path)
    out = tmp_path / "out"
    assert _quiet(lambda: persons(PersonsSettings(out=out, corpus=c, cast=over))) == 0
    assert opened(over) == 1
    cast = pd.read_parquet(out / "cast.parquet")
    demi = cast[cast.name == "Demi"]
    assert set(demi.book_id) == {"one", "two", "three"} and set(demi.gender) == {"feminine"}
    assert set(cast[cast.name == "Holmes"].book_id) == {"one", "three"}
    assert _quiet(lambda: persons(PersonsSettings(out=None, corpus=c, cast=over, explain="Demi"))) == 0
    assert opened(over) == 2


def test_generate_reads_the_cast_file_once_per_run(tmp_path, opened):
    """Two books re-checked in this process: the file is opened once (before: once for the
    manifest's hash, once to check it, then once more per book)."""
    from pipeline.formats.books import CorpusSpec
    from pipeline.runs.extract import ExtractSettings, extract
    from pipeline.runs.generate import GenerateSettings, generate

    c = tmp_path / "corpus"
    c.mkdir()
    for name in ("orchard-a", "orchard-b"):
        (c / f"{name}.txt").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    ext = tmp_path / "ext"
    assert _quiet(lambda: extract(ExtractSettings(out=ext, corpus=CorpusSpec(path=str(c))))) == 0
    over = tmp_path / "over.tsv"
    over.write_text("orchard-b\tThomas\tnot-a-person\n", encoding="utf-8")
    result = _quiet(lambda: generate(GenerateSettings(out=tmp_path / "gen", instances=ext, cast=over)))
    assert result == 0 and opened(over) == 1
    kept = pd.read_parquet(tmp_path / "gen" / "quadruples.parquet").query("variant == 'original'")
    with_thomas = {r.book_id for r in kept.itertuples() if any(n["name"] == "Thomas" for n in r.names)}
    assert with_thomas == {"orchard-a"}         # the override reached book b only


def test_build_reads_the_cast_file_once_for_both_stages(tmp_path, opened):
    """build reads the file once and hands the CastFile to extract and generate (before: once
    per stage, each opening it twice or more)."""
    import json

    from pipeline.formats.books import CorpusSpec
    from pipeline.runs.build import BuildSettings, build

    c, over = three_books(tmp_path)
    (c / "orchard.txt").write_text(SAMPLE.read_text(encoding="utf-8"), encoding="utf-8")
    over.write_text("*\tDemi\tfeminine\norchard\tThomas\tnot-a-person\n", encoding="utf-8")
    out = tmp_path / "build"
    assert _quiet(lambda: build(BuildSettings(out=out, corpus=CorpusSpec(path=str(c)), cast=over))) == 0
    assert opened(over) == 1
    sha = hashlib.sha256(over.read_bytes()).hexdigest()
    assert json.loads((out / "extract" / "manifest.json").read_text())["settings"]["cast_sha256"] == sha
    assert json.loads((out / "generate" / "generate-parts" / "manifest.json").read_text())["settings"]["cast_sha256"] == sha
    kept = pd.read_parquet(out / "generate" / "quadruples.parquet").query("variant == 'original'")
    assert len(kept) and not any(n["name"] == "Thomas" for r in kept.itertuples() for n in r.names)


def test_generate_from_gap_rows_reads_the_cast_file_once(tmp_path, opened):
    from pipeline.runs.generate import GenerateSettings, generate
    from tests.stages.gap_fixtures import write_toy_gap

    gap = write_toy_gap(tmp_path / "toy.tsv")
    over = tmp_path / "over.tsv"
    over.write_text("*\tMary\tfeminine\n", encoding="utf-8")
    assert _quiet(lambda: generate(GenerateSettings(out=tmp_path / "gen", gap_tsv=gap, cast=over))) == 0
    assert opened(over) == 1


def test_a_unit_is_sent_only_its_books_cast():
    from pipeline.formats.cast import CastFile
    from pipeline.formats.corpus.base import Unit
    from pipeline.runs.generate import cast_for_book
    from pipeline.runs.partitions import unit_cast

    overrides = {"*": {"Polly": "not-a-person"}, "one": {"Demi": "feminine"}, "two": {"Jo": "masculine"}}
    one = Unit(key="one.txt", kind="file", path="c/one.txt", rel="one.txt", size=1)
    assert unit_cast(overrides, one) == {"*": {"Polly": "not-a-person"}, "one": {"Demi": "feminine"}}
    assert unit_cast(CastFile(Path("c.tsv"), "", overrides), one) == unit_cast(overrides, one)
    assert unit_cast(None, one) is None
    rows = Unit(key="t.csv rows 0-9", kind="csv", path="c/t.csv", rel="t.csv", size=1)
    assert unit_cast(overrides, rows) == overrides       # ids known only once read: all of it
    assert cast_for_book(CastFile(Path("c.tsv"), "", overrides), "two") == {"*": {"Polly": "not-a-person"},
                                                                            "two": {"Jo": "masculine"}}
    assert cast_for_book(None, "two") is None
