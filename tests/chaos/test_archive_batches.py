"""Issue 45, item 3: a zip of many small members is read in batches. Each member was a unit of
its own (the zip opened and its whole directory read once per member, a partition of five
files written and merged per member): 3.9 members/s, per-unit overhead and not per-word work.
Now consecutive small members of one zip are one unit (one opening, one partition), and the
books, their ids, paths and rows are those of one unit per member."""

from __future__ import annotations

import zipfile

import pandas as pd
import pytest

from pipeline.formats import books
from pipeline.formats.corpus import walk

pytestmark = pytest.mark.chaos


def many_zip(path, n: int, others: tuple = ()) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for i in range(n):
            z.writestr(f"notes/{i:04d}.txt", f"Anne met John in the garden, day {i}. She said that he was late.\n")
            if i in others:
                z.writestr(f"notes/{i:04d}.png", b"\x89PNG not a book")


def test_small_members_are_batched_and_the_zip_opened_once_per_batch(tmp_path, monkeypatch):
    corpus = tmp_path / "many.zip"
    many_zip(corpus, 1000)
    plan = books.plan_corpus(books.CorpusSpec(path=str(corpus)))
    assert plan.books == 1000
    assert len(plan.units) <= 1000 // walk.BATCH_MEMBERS + 1          # was 1,000 units
    opened = []
    real = zipfile.ZipFile

    def counting(*a, **kw):
        opened.append(a[0])
        return real(*a, **kw)

    monkeypatch.setattr(zipfile, "ZipFile", counting)
    items = [item for u in plan.units for item in books.read_unit(u, plan.spec)]
    assert [b.book_id for b in items] == [f"many.zip/notes/{i:04d}" for i in range(1000)]
    assert all(isinstance(b, books.Book) for b in items)
    assert len(opened) == len(plan.units)                                # was one opening per member


def test_a_large_member_stays_a_unit_of_its_own(tmp_path):
    corpus = tmp_path / "mixed.zip"
    with zipfile.ZipFile(corpus, "w") as z:
        z.writestr("a.txt", "Anne met John.\n")
        z.writestr("b.txt", "Anne met John. " * (walk.BATCH_BYTES // 10))
        z.writestr("c.txt", "Anne met John.\n")
    plan = books.plan_corpus(books.CorpusSpec(path=str(corpus)))
    assert [u.kind for u in plan.units] == ["member", "member", "member"]
    assert [u.key for u in plan.units] == ["mixed.zip/a.txt", "mixed.zip/b.txt", "mixed.zip/c.txt"]


def test_a_batch_reports_a_bad_member_and_reads_the_others(tmp_path):
    corpus = tmp_path / "bad.zip"
    with zipfile.ZipFile(corpus, "w") as z:
        z.writestr("a.txt", "Anne met John.\n")
        z.writestr("b.txt", b"\x00\x01\x02" * 100)
        z.writestr("c.txt", "Anne met John.\n")
    plan = books.plan_corpus(books.CorpusSpec(path=str(corpus)))
    [unit] = plan.units
    items = list(books.read_unit(unit, plan.spec))
    assert [type(i).__name__ for i in items] == ["Book", "Skip", "Book"]
    alone = [next(books.read_unit(u, plan.spec)) for u in unit.batch]      # each member as its own unit
    assert [getattr(i, "reason", "") for i in items] == [getattr(a, "reason", "") for a in alone]
    assert items[1].reason and items[1].book_id == "bad.zip/b"


def test_extract_rows_are_those_of_one_unit_per_member(tmp_path, monkeypatch):
    """The merged books, mentions and evidence of a batched zip (with members that are not
    books between the texts) equal those of one unit per member, row for row."""
    from pipeline.cli import main

    corpus = tmp_path / "c"
    corpus.mkdir()
    many_zip(corpus / "many.zip", 12, others=(3, 7))
    (corpus / "zz.txt").write_text("Mary met Thomas. He said that she was early.\n", encoding="utf-8")
    assert main(["extract", "--corpus", str(corpus), "--out", str(tmp_path / "batched")]) == 0
    assert sum(1 for _ in (tmp_path / "batched" / "parts").iterdir()) == 2
    monkeypatch.setattr(walk, "BATCH_MEMBERS", 1)                        # the old units: one per member
    assert main(["extract", "--corpus", str(corpus), "--out", str(tmp_path / "single")]) == 0
    assert sum(1 for _ in (tmp_path / "single" / "parts").iterdir()) == 13
    for name in ("books", "mentions", "instances", "evidence"):
        a, b = (pd.read_parquet(tmp_path / d / f"{name}.parquet") for d in ("batched", "single"))
        if "seconds" in a:
            a, b = a.drop(columns="seconds"), b.drop(columns="seconds")
        pd.testing.assert_frame_equal(a, b)
    paths = pd.read_parquet(tmp_path / "batched" / "books.parquet")["path"].tolist()
    assert paths[3:6] == ["many.zip/notes/0003.png", "many.zip/notes/0003.txt", "many.zip/notes/0004.txt"]


def test_the_books_display_counts_the_members_of_a_batch():
    """A batch is one task but its members are books: the display counts books, not tasks."""
    from pipeline import engines

    seen = {}

    class Bar:
        def __init__(self, total=None, desc="", **kw):
            self.desc, self.n = desc, 0
            seen[desc] = self
            self.total = total

        def update(self, n):
            self.n += n

        def close(self):
            pass

    engines.run_books([(3,), (200,), (1,)], lambda n: n, lambda task, result: 0, bar=Bar, books=lambda t: t[0])
    assert (seen["books"].total, seen["books"].n) == (204, 204)
