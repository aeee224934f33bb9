"""Issue 45, item 3: bounds on what a file or an option can make the program loop over or
allocate. Each case hung or grew without bound before the issue."""

from __future__ import annotations

import time

import pytest

from pipeline.errors import InputError

pytestmark = pytest.mark.chaos


def test_a_catastrophic_where_regex_is_stopped_with_one_line(monkeypatch):
    from pipeline.formats.corpus import selection

    monkeypatch.setattr(selection, "WHERE_TIMEOUT", 0.2)
    for pattern in ("(a+)+$", "(a|aa)+$"):          # the issue's, and one the regex module backtracks on too
        where = selection.parse_where(f"subjects~{pattern}")
        t0 = time.monotonic()
        with pytest.raises(InputError) as exc:
            where.holds({"subjects": "a" * 5000 + "b"})
        assert str(exc.value).startswith(f"--where subjects~{pattern}: the regular expression took more than 0.2 s")
        assert time.monotonic() - t0 < 30
    assert selection.parse_where(r"subjects~\bfiction\b").holds({"subjects": "England -- Fiction"})


@pytest.mark.parametrize("argv,cap", [
    (["evaluate", "--dataset", "d.tsv", "--system", "s=x.tsv", "--out", "o", "--resamples", "100000000"],
     "outside 0..1,000,000 (the cap of --resamples)"),
    (["evaluate", "--dataset", "d", "--system", "s=x", "--out", "o", "--resamples", "-1"], "outside 0..1,000,000"),
    (["experiment-plan", "--benchmark", "b.parquet", "--experiment", "qa", "--participants", "100000", "--out", "o"],
     "outside 1..10,000 (the cap of --participants)"),
    (["experiment-plan", "--benchmark", "b.parquet", "--experiment", "maze", "--participants", "4",
      "--items", "10000000", "--out", "o"], "the cap of --items"),
])
def test_options_that_would_allocate_without_bound_are_capped(argv, cap, capsys):
    from pipeline.cli import main

    t0 = time.monotonic()
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and cap in capsys.readouterr().err
    assert time.monotonic() - t0 < 10


# ------------------------------------------------------------------ oversized lines -------

SENTENCES = "Mary smiled at John.\nHe waved back at her.\n"


def test_a_huge_line_in_a_sentences_gz_is_skipped_without_being_held(tmp_path, monkeypatch):
    import gzip
    import tracemalloc

    from pipeline.formats.corpus import sentences
    from tests.formats.test_corpus_readers import read

    monkeypatch.setattr(sentences, "MAX_LINE_BYTES", 1 << 20)
    path = tmp_path / "dump.txt.gz"
    with gzip.open(path, "wb") as f:
        f.write(SENTENCES.encode() + b"\n")                    # book 1
        f.write(b"x" * (40 << 20))                             # book 2: 40 MB without a newline
    assert path.stat().st_size < 200_000
    tracemalloc.start()
    books, skips = read(path, layout="sentences")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert [b.paragraphs for b in books.values()] == [["Mary smiled at John. He waved back at her."]]
    [skip] = skips.values()
    assert skip.reason.startswith("too large: a line of 41,943,040 bytes")
    assert peak < 16 << 20, f"peak {peak:,} bytes"


def test_jsonl_with_an_undecodable_line_and_an_oversized_one_keeps_the_good_rows(tmp_path, monkeypatch):
    import json

    from pipeline.formats.corpus import tables
    from tests.formats.test_corpus_readers import BOOKS, read

    monkeypatch.setattr(tables, "MAX_FIELD", 64 << 10)
    path = tmp_path / "c.jsonl"
    with open(path, "wb") as f:
        f.write((json.dumps(BOOKS[0]) + "\n").encode())
        f.write(b'{"id": "bad", "text": "caf\xe9 \xff"}\n')                 # not UTF-8
        f.write((json.dumps({"id": "big", "text": "y" * (200 << 10)}) + "\n").encode())
        f.write((json.dumps(BOOKS[1]) + "\n").encode())
    books, skips = read(path)
    assert list(books) == [BOOKS[0]["id"], BOOKS[1]["id"]]
    reasons = sorted(s.reason for s in skips.values())
    assert reasons[0] == "not UTF-8" and reasons[1].startswith("too large: a line of 204,")


def test_a_parquet_cell_over_the_cap_is_skipped_without_being_converted(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.formats.corpus import tables
    from tests.formats.test_corpus_readers import BOOKS, read

    monkeypatch.setattr(tables, "MAX_FIELD", 64 << 10)
    rows = [dict(BOOKS[0]), {**BOOKS[1], "id": "big", "text": "z" * (200 << 10)}, dict(BOOKS[2])]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "c.parquet", row_group_size=2)
    books, skips = read(tmp_path / "c.parquet")
    assert list(books) == [BOOKS[0]["id"], BOOKS[2]["id"]]
    [skip] = skips.values()
    assert skip.reason == f"too large: a text cell of {200 << 10:,} bytes (more than {64 << 10:,})"


# ------------------------------------------------------------------ cells over the cap, streamed

CAP = 1 << 20                    # the book size cap for these tests (tables.MAX_FIELD)
BIG = 24 << 20                   # a cell or line 24 times the cap


def _traced(fn):
    import tracemalloc

    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_csv_cell_over_the_cap_is_skipped_streamed_and_the_next_rows_kept(tmp_path, monkeypatch):
    """A quoted CSV cell of 24 MB (with line breaks) under a 1 MB cap: the row is skipped with the
    reason, the rows after it are read (a csv.Error lost the rest of the unit), and the plan and
    the read never hold the record (the unit was read whole, decoded and copied)."""
    from pipeline.formats.corpus import tables
    from tests.formats.test_corpus_readers import read

    monkeypatch.setattr(tables, "MAX_FIELD", CAP)
    path = tmp_path / "c.csv"
    line = b"He said that she was there, and " * 32 + b"\n"
    with open(path, "wb") as f:
        f.write(b"id,text\nfirst,Mary smiled at John. He waved back at her.\nbig,\"")
        for _ in range(BIG // len(line)):
            f.write(line)
        f.write(b"\"\nlast,Anne met Thomas. She said that he was late.\n")
    (books, skips), peak = _traced(lambda: read(path))
    assert list(books) == ["first", "last"]
    [skip] = skips.values()
    assert skip.row == 2 and skip.reason.startswith("too large: a record of 2") and f"more than {CAP:,}" in skip.reason
    assert peak < 4 * CAP, f"peak {peak:,} bytes"


def test_a_jsonl_line_over_the_cap_is_never_held_by_the_plan_nor_the_read(tmp_path, monkeypatch):
    import json

    from pipeline.formats.corpus import tables
    from tests.formats.test_corpus_readers import read

    monkeypatch.setattr(tables, "MAX_FIELD", CAP)
    path = tmp_path / "c.jsonl"
    with open(path, "wb") as f:
        f.write((json.dumps({"id": "first", "text": "Mary smiled at John."}) + "\n").encode())
        f.write(b'{"id": "big", "text": "' + b"y" * BIG + b'"}\n')
        f.write((json.dumps({"id": "last", "text": "Anne met Thomas."}) + "\n").encode())
    (books, skips), peak = _traced(lambda: read(path))
    assert list(books) == ["first", "last"]
    [skip] = skips.values()
    assert skip.reason == f"too large: a line of {BIG + 26:,} bytes (more than {CAP:,})"
    assert peak < 4 * CAP, f"peak {peak:,} bytes"           # the planner's scan held the whole line

