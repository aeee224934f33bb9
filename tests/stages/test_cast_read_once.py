"""The ``--cast`` file is read once per run (issue 47 item 3), in the parent, and handed to the
books as data: extract and persons on a three-book corpus read it once, and its overrides still
reach every book."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.formats import cast as cast_format

from tests.stages.test_persons import BOOK


@pytest.fixture
def reads(monkeypatch):
    """The paths the cast reader of formats was called on."""
    seen = []
    real = cast_format.read_cast_overrides

    def counting(path, *a, **k):
        seen.append(path)
        return real(path, *a, **k)

    monkeypatch.setattr(cast_format, "read_cast_overrides", counting)
    return seen


def three_books(tmp_path):
    c = tmp_path / "corpus"
    c.mkdir()
    for name in ("one", "two", "three"):
        (c / f"{name}.txt").write_text(BOOK * 3, encoding="utf-8")
    over = tmp_path / "over.tsv"
    over.write_text("*\tDemi\tfeminine\ntwo\tHolmes\tnot-a-person\n", encoding="utf-8")
    return c, over


def test_extract_reads_the_cast_file_once_per_run(tmp_path, reads, capsys):
    c, over = three_books(tmp_path)
    out = tmp_path / "out"
    assert main(["extract", "--corpus", str(c), "--out", str(out), "--cast", str(over)]) == 0
    assert len(reads) == 1 and reads[0] == over
    books = pd.read_parquet(out / "books.parquet")
    assert list(books.status) == ["ok"] * 3
    names = pd.read_parquet(out / "mentions.parquet").query("kind == 'name'")
    demi = names[names.text == "Demi"]
    assert set(demi.book_id) == {"one", "two", "three"} and set(demi.gender) == {"feminine"}
    holmes = names[names.text.str.contains("Holmes")]
    assert "two" not in set(holmes.book_id) and {"one", "three"} <= set(holmes.book_id)


def test_persons_reads_the_cast_file_once_per_run(tmp_path, reads, capsys):
    c, over = three_books(tmp_path)
    out = tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out), "--cast", str(over)]) == 0
    assert len(reads) == 1 and reads[0] == over
    cast = pd.read_parquet(out / "cast.parquet")
    demi = cast[cast.name == "Demi"]
    assert set(demi.book_id) == {"one", "two", "three"} and set(demi.gender) == {"feminine"}
    assert set(cast[cast.name == "Holmes"].book_id) == {"one", "three"}


def test_a_unit_is_sent_only_its_books_cast():
    from pipeline.formats.corpus.base import Unit
    from pipeline.runs.partitions import unit_cast

    overrides = {"*": {"Polly": "not-a-person"}, "one": {"Demi": "feminine"}, "two": {"Jo": "masculine"}}
    one = Unit(key="one.txt", kind="file", path="c/one.txt", rel="one.txt", size=1)
    assert unit_cast(overrides, one) == {"*": {"Polly": "not-a-person"}, "one": {"Demi": "feminine"}}
    assert unit_cast(None, one) is None
    rows = Unit(key="t.csv rows 0-9", kind="csv", path="c/t.csv", rel="t.csv", size=1)
    assert unit_cast(overrides, rows) == overrides       # ids known only once read: all of it
