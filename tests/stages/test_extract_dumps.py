"""Extract on corpus dumps as people have them: a zip, a Parquet table and a JSON-lines file
give the same instances as the plain files; a Latin-1 Gutenberg copy the same as its UTF-8
copy; files that are not read are listed in the summary and books.parquet; repeated table ids;
reader options in the manifest; the Dask engine on a table split by row groups."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import zipfile
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.report.extract import LISTED

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = (ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt").read_text(encoding="utf-8")
HALVES = {"a": SAMPLE[:SAMPLE.index("CHAPTER V")], "b": SAMPLE[SAMPLE.index("CHAPTER V"):]}
TINY = "Mary walked to the village. John followed her.\n"
KEY = ["book_id", "pattern", "pronoun", "pronoun_offset", "a", "b", "text", "book_start"]


def extract(corpus, out, *extra) -> int:
    return main(["extract", "--corpus", str(corpus), "--out", str(out), *map(str, extra)])


def frame(out: Path, name: str = "instances") -> pd.DataFrame:
    return pd.read_parquet(out / f"{name}.parquet")


@pytest.fixture(scope="module")
def plain_run(tmp_path_factory):
    corpus = tmp_path_factory.mktemp("plain")
    for name, text in HALVES.items():
        (corpus / f"{name}.txt").write_text(text, encoding="utf-8")
    out = tmp_path_factory.mktemp("plain-out")
    assert extract(corpus, out) == 0
    return frame(out)[KEY]


def test_zip_with_other_files_gives_the_plain_instances(tmp_path, plain_run, capsys):
    corpus = tmp_path / "c"
    corpus.mkdir()
    with zipfile.ZipFile(corpus / "dump.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, text in HALVES.items():
            z.writestr(f"{name}.txt", text)
        z.writestr("cover.jpg", b"\xff\xd8\xff")
    (corpus / "nul.txt").write_bytes(TINY.encode() * 500 + b"\x00")
    os.symlink(corpus / "missing", corpus / "dangling.txt")
    os.mkfifo(corpus / "pipe.txt")
    (corpus / "readme.md").write_text("notes")
    assert extract(corpus, tmp_path / "o") == 0
    got = frame(tmp_path / "o")[KEY]
    got["book_id"] = got.book_id.str.replace("dump.zip/", "", regex=False)
    pd.testing.assert_frame_equal(got.reset_index(drop=True), plain_run.reset_index(drop=True))
    books = frame(tmp_path / "o", "books").set_index("path")
    assert list(books.index) == ["dangling.txt", "dump.zip/a.txt", "dump.zip/b.txt", "dump.zip/cover.jpg",
                                 "nul.txt", "pipe.txt", "readme.md"]
    assert books.loc["nul.txt", "status"] == "skipped"
    assert books.loc["nul.txt", "skip_reason"] == f"binary: NUL byte at offset {len(TINY) * 500}"
    assert (books.loc[["dangling.txt", "pipe.txt", "readme.md", "dump.zip/cover.jpg"], "status"] == "not-read").all()
    assert books.loc["dump.zip/a.txt", "encoding"] == "utf-8"
    out = capsys.readouterr().out
    assert "2 read" in out and "1 skipped" in out and "4 not-read" in out
    assert "not-read         pipe.txt: FIFO (named pipe): not opened" in out
    assert "not-read         dangling.txt: dangling symlink ->" in out


@pytest.mark.slow
def test_parquet_table_gives_the_plain_instances(tmp_path, plain_run):
    rows = [{"id": k, "title": k, "text": v} for k, v in HALVES.items()] + [{"id": "c", "title": "", "text": None}]
    path = tmp_path / "books.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=1)
    out = tmp_path / "o"
    assert extract(path, out, "--workers", 2) == 0
    pd.testing.assert_frame_equal(frame(out)[KEY].reset_index(drop=True), plain_run.reset_index(drop=True))
    books = frame(out, "books")
    assert list(books.row) == [1, 2, 3] and list(books.status) == ["ok", "ok", "skipped"]
    assert books.skip_reason.iloc[2] == "null text: column 'text'"
    # a rerun with the same options has nothing to do; another reader option is refused
    assert extract(path, out) == 0
    assert extract(path, out, "--min-words", 10) == 2


def test_reader_options_are_compared_on_resume(tmp_path, capsys):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "t.txt").write_text(TINY)
    assert extract(tmp_path / "c", tmp_path / "o") == 0
    manifest = json.loads((tmp_path / "o" / "manifest.json").read_text())
    assert manifest["settings"]["corpus"]["layout"] == "auto" and "corpus" in manifest["compared"]
    capsys.readouterr()
    assert extract(tmp_path / "c", tmp_path / "o", "--layout", "sentences") == 2
    err = capsys.readouterr().err.strip()
    assert "corpus.layout 'auto' -> 'sentences'" in err and "\n" not in err
    assert extract(tmp_path / "c", tmp_path / "o", "--layout", "sentences", "--overwrite") == 0
    assert frame(tmp_path / "o", "books").book_id.tolist() == ["t#1"]


def test_jsonl_bad_rows_are_listed_and_a_table_without_text_is_exit_2(tmp_path, capsys):
    path = tmp_path / "c.jsonl"
    path.write_text(json.dumps({"id": "x", "text": TINY}) + "\n{oops\n" + json.dumps({"id": "y", "body": 1}) + "\n")
    assert extract(path, tmp_path / "o") == 0
    books = frame(tmp_path / "o", "books")
    assert books[["book_id", "row", "status"]].values.tolist() == [["x", 1, "ok"], ["c.jsonl#row-2", 2, "skipped"],
                                                                   ["c.jsonl#row-3", 3, "skipped"]]
    assert books.skip_reason.iloc[1].startswith("not JSON")
    assert "c.jsonl, row 2: skipped (not JSON" in capsys.readouterr().err
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"id": "x", "body": TINY}) + "\n")
    assert extract(bad, tmp_path / "o2") == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {bad}: no text column 'text'") and "\n" not in err
    assert not (tmp_path / "o2").exists()


def test_repeated_table_ids_in_two_row_groups(tmp_path):
    rows = [{"id": "a", "text": HALVES["a"]}, {"id": "z", "text": TINY}, {"id": "a", "text": HALVES["a"]}]
    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=1)
    assert extract(path, tmp_path / "o") == 0
    books = frame(tmp_path / "o", "books")
    assert books.status.tolist() == ["ok", "ok", "duplicate"]
    assert "duplicate book id 'a' (first at t.parquet, row 1)" == books.skip_reason.iloc[2]
    inst = frame(tmp_path / "o")
    assert inst.instance_id.is_unique and len(inst) == books.n_instances.iloc[0] > 0


def test_latin1_copy_gives_the_instances_of_its_utf8_copy(tmp_path):
    text = HALVES["a"].replace("the orchard", "the verger\u2019s caf\u00e9 orchard").replace(
        "schoolroom", "\u00e9cole-room")
    text = text.replace("\u2019", "'")         # Latin-1 has no curly apostrophe
    header = ("The Project Gutenberg EBook of The Orchard, by A. Writer\n\nTitle: The Orchard\n\n"
              "Author: A. Writer\n\nLanguage: English\n\nCharacter set encoding: {}\n\n"
              "*** START OF THIS PROJECT GUTENBERG EBOOK THE ORCHARD ***\n\n")
    footer = "\n\n*** END OF THIS PROJECT GUTENBERG EBOOK THE ORCHARD ***\n"
    corpus = tmp_path / "c"
    (corpus / "latin").mkdir(parents=True)
    (corpus / "utf8").mkdir()
    (corpus / "latin" / "99-8.txt").write_bytes((header.format("ISO-8859-1") + text + footer).encode("latin-1"))
    (corpus / "utf8" / "99-0.txt").write_bytes((header.format("UTF-8") + text + footer).encode("utf-8"))
    with gzip.open(corpus / "latin.txt.gz", "wb") as f:
        f.write((header.format("ISO-8859-1") + text + footer).encode("latin-1"))
    assert extract(corpus, tmp_path / "o", "--language", "en") == 0
    books = frame(tmp_path / "o", "books").set_index("book_id")
    assert books.loc["latin/99-8", ["encoding", "encoding_source"]].tolist() == ["iso8859-1", "declared"]
    assert books.loc["utf8/99-0", ["encoding", "encoding_source"]].tolist() == ["utf-8", "declared"]
    assert books.loc["latin/99-8", "language"] == "English"
    inst = frame(tmp_path / "o").drop(columns=["instance_id", "book_id"])
    by_book = {b: g.reset_index(drop=True) for b, g in frame(tmp_path / "o").groupby("book_id")}
    assert len(by_book) == 3 and len(by_book["utf8/99-0"]) > 0
    cols = [c for c in inst.columns]
    for other in ("latin/99-8", "latin.txt.gz"):
        pd.testing.assert_frame_equal(by_book[other][cols], by_book["utf8/99-0"][cols])


def test_many_files_not_read_are_grouped_in_the_summary(tmp_path, capsys):
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "12.txt").write_text(TINY)
    (corpus / "12-0.txt").write_text(TINY)
    for i in range(LISTED + 5):
        (corpus / f"img{i:03}.png").write_bytes(b"png")
    assert extract(corpus, tmp_path / "o") == 0
    out = capsys.readouterr().out
    assert f"{LISTED + 5} × not a book file (.png): img000.png; img001.png; img002.png …" in out
    assert "duplicate        12.txt: another copy of the same Gutenberg ebook: 12-0.txt is read" in out
    books = frame(tmp_path / "o", "books")
    assert (books.status == "not-read").sum() == LISTED + 5
    assert books.set_index("path").loc["12-0.txt", "status"] == "ok"


def test_tasks_carry_no_text(tmp_path):
    """A table unit is a few hundred bytes whatever the table holds: workers read their rows."""
    from pipeline.formats.books import CorpusSpec, plan_corpus

    path = tmp_path / "t.parquet"
    pq.write_table(pa.Table.from_pylist([{"id": str(i), "text": SAMPLE} for i in range(8)]), path, row_group_size=2)
    plan = plan_corpus(CorpusSpec(path=str(path)))
    assert len(plan.units) == 4
    assert all(len(pickle.dumps((u, plan.spec))) < 2000 for u in plan.units)


@pytest.mark.slow
def test_dask_local_cluster_on_a_table(tmp_path, plain_run):
    import distributed

    path = tmp_path / "books.parquet"
    pq.write_table(pa.Table.from_pylist([{"id": k, "title": k, "text": v} for k, v in HALVES.items()]), path,
                   row_group_size=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        assert extract(path, tmp_path / "o", "--scheduler", cluster.scheduler_address) == 0
    pd.testing.assert_frame_equal(frame(tmp_path / "o")[KEY].reset_index(drop=True), plain_run.reset_index(drop=True))
