"""Issue 45, item 1: a resumed extract knows its input. A book edited in place is extracted
again (and said so) instead of its stale instances being kept; a book that vanished is left
out of the merged outputs; an unchanged book is not read again."""

from __future__ import annotations

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main

pytestmark = pytest.mark.chaos

BOOK = ("Mr. Holmes lit his pipe and looked at the fire. Mr. Holmes was silent for a long time.\n\n"
        "Holmes said nothing, and he smiled at Mary Morstan. Mary Morstan smiled back at him.\n\n"
        "Demi ran out, and he laughed. Demi came back, and he sat down. Demi looked up and he grinned.\n\n")


def rows(path, *cols):
    table = pq.read_table(path)
    return sorted(zip(*(table.column(c).to_pylist() for c in cols)))


def test_a_book_edited_in_place_is_extracted_again(tmp_path, capsys):
    from pipeline.formats.resources import resource

    c = tmp_path / "corpus"
    c.mkdir()
    sample = (resource("sample") / "the-orchard-at-hollins-end.txt").read_text(encoding="utf-8")
    (c / "story.txt").write_text(sample, encoding="utf-8")
    (c / "other.txt").write_text(BOOK, encoding="utf-8")
    out = tmp_path / "out"
    assert main(["extract", "--corpus", str(c), "--out", str(out)]) == 0
    before = pq.read_metadata(out / "instances.parquet").num_rows
    assert before > 0
    paragraphs = sample.split("\n\n")
    (c / "story.txt").write_text("\n\n".join(paragraphs[:len(paragraphs) // 2]), encoding="utf-8")   # same path, other bytes
    capsys.readouterr()
    assert main(["extract", "--corpus", str(c), "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "1 book file(s) changed since extracted" in said and "story.txt" in said
    clean = tmp_path / "clean"
    assert main(["extract", "--corpus", str(c), "--out", str(clean)]) == 0
    cols = ("book_id", "pronoun_offset", "text")
    assert rows(out / "instances.parquet", *cols) == rows(clean / "instances.parquet", *cols)
    assert 0 < pq.read_metadata(out / "instances.parquet").num_rows < before
    # unchanged: nothing to redo, nothing said
    capsys.readouterr()
    assert main(["extract", "--corpus", str(c), "--out", str(out)]) == 0
    assert "changed since extracted" not in capsys.readouterr().out
    # a book that vanished is left out of the merged outputs
    (c / "other.txt").unlink()
    assert main(["extract", "--corpus", str(c), "--out", str(out)]) == 0
    assert {b for b, in rows(out / "books.parquet", "book_id")} == {"story"}
    assert {b for b, in rows(out / "instances.parquet", "book_id")} <= {"story"}
