"""Corpus dumps as people have them, read without spaCy: zip / gz / bz2 / xz, encodings,
Gutenberg copies of one ebook, symlinked folders and special files, table corpora (Parquet,
JSON lines, CSV, Hugging Face dataset folders), the sentences layout, selection, and every
bad case: each test makes its own small files."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
import zipfile
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.errors import InputError
from pipeline.formats import books as B
from pipeline.formats.corpus import tables
from pipeline.formats.corpus.base import CorpusSpec
from pipeline.formats.corpus.sentences import rebuild_paragraphs
from pipeline.formats.corpus.text import decode, encoding_name

STORY = ("Mary walked to the village with her brother John.\n\n"
         "Later that day Anne met Peter at the gate, and she smiled.\n")


def gutenberg(body: str = STORY, number: int = 4242, encoding_line: str = "", language: str = "English",
              title: str = "A Test Book") -> str:
    enc = f"Character set encoding: {encoding_line}\r\n\r\n" if encoding_line else ""
    lang = f"Language: {language}\r\n\r\n" if language else ""
    return (f"The Project Gutenberg EBook of {title}\r\n\r\nTitle: {title}\r\n\r\nAuthor: Ann Author\r\n\r\n"
            f"Release Date: May 5, 2008 [EBook #{number}]\r\n\r\n{lang}{enc}"
            f"*** START OF THIS PROJECT GUTENBERG EBOOK ***\r\n\r\n{body}\r\n"
            "*** END OF THIS PROJECT GUTENBERG EBOOK ***\r\n\r\nLicence.\r\n")


def spec(path, **kw) -> CorpusSpec:
    return CorpusSpec(path=str(path), **kw)


def items(path, **kw) -> list:
    return list(B.iter_corpus(spec(path, **kw)))


def read(path, **kw) -> tuple[dict, dict]:
    """(book_id -> Book, path -> Skip) of a corpus."""
    got = items(path, **kw)
    return ({i.book_id: i for i in got if isinstance(i, B.Book)},
            {(i.path, i.row) if i.row else i.path: i for i in got if isinstance(i, B.Skip)})


# ------------------------------------------------------------------ archives -------------

def test_zip_every_text_member_and_the_others_listed(tmp_path):
    with zipfile.ZipFile(tmp_path / "dump.zip", "w") as z:
        z.writestr("a/one.txt", STORY)
        z.writestr("two.txt", gutenberg())
        z.writestr("cover.jpg", b"\xff\xd8\xff\xe0binary")
        z.writestr("folder/", "")
    books, skips = read(tmp_path)
    assert set(books) == {"dump.zip/a/one", "dump.zip/two"}
    assert books["dump.zip/two"].format == "gutenberg" and books["dump.zip/two"].ebook == "4242"
    assert books["dump.zip/a/one"].path == "dump.zip/a/one.txt"
    assert skips["dump.zip/cover.jpg"].status == "not-read"
    assert "not a text file (.jpg)" in skips["dump.zip/cover.jpg"].reason


def test_corrupt_zip_is_listed_and_the_rest_goes_on(tmp_path):
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 this is not a zip at all")
    (tmp_path / "good.txt").write_text(STORY, encoding="utf-8")
    books, skips = read(tmp_path)
    assert set(books) == {"good"}
    assert skips["bad.zip"].status == "not-read" and skips["bad.zip"].reason.startswith("corrupt zip")


def test_zip_member_with_broken_data_is_skipped(tmp_path):
    path = tmp_path / "d.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("x.txt", STORY * 50)
        z.writestr("y.txt", STORY)
    data = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        info = z.getinfo("x.txt")
    start = info.header_offset + 30 + len(info.filename) + 10
    data[start:start + 20] = b"\x00" * 20          # inside x.txt's compressed data
    path.write_bytes(bytes(data))
    books, skips = read(tmp_path)
    assert set(books) == {"d.zip/y"}
    assert skips["d.zip/x.txt"].status == "skipped" and "corrupt zip" in skips["d.zip/x.txt"].reason


@pytest.mark.parametrize("suffix,opener", [(".gz", gzip.open), (".bz2", bz2.open), (".xz", lzma.open)])
def test_compressed_book_reads_like_the_plain_one(tmp_path, suffix, opener):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "4242.txt").write_text(gutenberg(), encoding="utf-8")
    with opener(tmp_path / f"4242.txt{suffix}", "wb") as f:
        f.write(gutenberg().encode("utf-8"))
    books, _ = read(tmp_path)
    packed, plain = books[f"4242.txt{suffix}"], books["plain/4242"]
    assert packed.paragraphs == plain.paragraphs and packed.title == plain.title == "A Test Book"


def test_truncated_gzip_is_skipped(tmp_path):
    data = gzip.compress(gutenberg().encode() * 20)
    (tmp_path / "cut.txt.gz").write_bytes(data[:len(data) // 2])
    _, skips = read(tmp_path)
    assert skips["cut.txt.gz"].status == "skipped" and skips["cut.txt.gz"].reason.startswith("corrupt archive")


def test_other_files_are_listed_as_not_read(tmp_path):
    (tmp_path / "book.txt").write_text(STORY)
    (tmp_path / "notes.md").write_text("# notes")
    (tmp_path / "data.csv").write_text("text\nx\n")
    (tmp_path / "dump.tar.gz").write_bytes(gzip.compress(b"tar"))
    (tmp_path / ".hidden.txt").write_text(STORY)
    _, skips = read(tmp_path)
    assert skips["notes.md"].reason == "not a book file (.md)"
    assert skips["data.csv"].reason.startswith("table file inside a folder")
    assert skips["dump.tar.gz"].reason.startswith("tar archive")
    assert ".hidden.txt" not in skips


# ------------------------------------------------------------------ encodings ------------

def test_declared_latin1_gives_the_same_book_as_utf8(tmp_path):
    body = STORY.replace("village", "caf\u00e9 of Z\u00f6e")
    (tmp_path / "u").mkdir()
    (tmp_path / "l").mkdir()
    (tmp_path / "u" / "b.txt").write_text(gutenberg(body, encoding_line="UTF-8"), encoding="utf-8")
    (tmp_path / "l" / "b.txt").write_bytes(gutenberg(body, encoding_line="ISO-8859-1").encode("latin-1"))
    books, _ = read(tmp_path)
    assert books["l/b"].paragraphs == books["u/b"].paragraphs
    assert (books["l/b"].encoding, books["l/b"].encoding_source) == ("iso8859-1", "declared")
    assert (books["u/b"].encoding, books["u/b"].encoding_source) == ("utf-8", "declared")


@pytest.mark.parametrize("written,name", [
    ("ISO-8859-1", "iso-8859-1"), ("ISO Latin-1", "iso-8859-1"), ("Unicode UTF-8", "utf-8"),
    ("US-ASCII", "ascii"), ("ISO-646-US (US-ASCII)", "ascii"), ("CP-1252", "cp1252"), ("Windows-1252", "cp1252"),
    ("ISO-8859-15", "iso-8859-15"), ("MARC-8", ""), ("EBCDIC-XYZ", ""),
])
def test_declaration_spellings(written, name):
    assert encoding_name(written) == name


def test_unknown_declaration_skips_the_book(tmp_path):
    (tmp_path / "x.txt").write_bytes(gutenberg(encoding_line="MARC-8").encode())
    _, skips = read(tmp_path)
    assert skips["x.txt"].reason == "unknown encoding declared: 'MARC-8'"


def test_utf8_labelled_latin1_is_read_as_utf8():
    text, enc, source = decode(gutenberg("Na\u00f1a and Zo\u00eb met.", encoding_line="ISO-8859-1").encode("utf-8"))
    assert "Na\u00f1a" in text and enc == "utf-8" and source.startswith("default; declared ISO-8859-1 does not fit")


def test_undeclared_8bit_text_is_detected():
    french = ("Le caf\u00e9 \u00e9tait tr\u00e8s bon, et la fa\u00e7ade na\u00efve de l'\u00e9glise "
              "\u00e9tait d\u00e9j\u00e0 \u00e9clair\u00e9e. ") * 40
    text, enc, source = decode(french.encode("cp1252"))
    assert source == "detected" and enc != "utf-8"
    assert text.count("\u00e9") >= french.count("\u00e9") * 0.9


def test_utf16_with_bom_and_nul_anywhere(tmp_path):
    text, enc, source = decode(STORY.encode("utf-16"))
    assert text == STORY and (enc, source) == ("utf-16", "bom")
    late_nul = STORY.encode() * 400 + b"\x00" + STORY.encode()
    (tmp_path / "nul.txt").write_bytes(late_nul)
    _, skips = read(tmp_path)
    assert skips["nul.txt"].reason == f"binary: NUL byte at offset {len(STORY.encode()) * 400}"


# ------------------------------------------------------------------ Gutenberg copies -----

def _copies(folder: Path, names: list[str]) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        stem = name.rsplit(".", 1)[0]
        if name.endswith(".zip"):
            with zipfile.ZipFile(folder / name, "w") as z:
                z.writestr(f"{stem}.txt", gutenberg(f"Copy {stem} of the story."))
        else:
            (folder / name).write_text(gutenberg(f"Copy {stem} of the story."), encoding="utf-8")


def test_one_copy_of_a_gutenberg_ebook_is_read(tmp_path):
    _copies(tmp_path / "1" / "2" / "12", ["12.txt", "12-0.txt", "12-8.txt", "12.zip", "12-0.zip", "12-8.zip"])
    books, skips = read(tmp_path)
    assert list(books) == ["1/2/12/12-0"]
    assert books["1/2/12/12-0"].paragraphs == ["Copy 12-0 of the story."]
    dups = {p: s for p, s in skips.items() if s.status == "duplicate"}
    assert set(dups) == {"1/2/12/12.txt", "1/2/12/12-8.txt", "1/2/12/12.zip/12.txt", "1/2/12/12-0.zip/12-0.txt",
                         "1/2/12/12-8.zip/12-8.txt"}
    assert "1/2/12/12-0.txt is read" in dups["1/2/12/12.txt"].reason
    kept, _ = read(tmp_path, keep_duplicates=True)
    assert len(kept) == 6 and "1/2/12/12-0.zip/12-0" in kept


def test_next_copy_is_read_when_the_best_one_cannot_be(tmp_path):
    folder = tmp_path / "77"
    _copies(folder, ["77.txt", "77-8.txt"])
    (folder / "77-0.txt").write_bytes(b"broken\x00copy")
    (folder / "77-0.zip").write_bytes(b"not a zip")
    books, skips = read(tmp_path)
    assert list(books) == ["77/77-8"]
    assert skips["77/77-0.txt"].status == "skipped" and skips["77/77-0.txt"].reason.startswith("binary")
    assert skips["77/77-0.zip"].status == "not-read"
    assert skips["77/77.txt"].status == "duplicate"


def test_a_lone_copy_and_other_numbers_are_not_grouped(tmp_path):
    _copies(tmp_path, ["5-0.txt", "6.txt", "6-8.zip"])
    books, skips = read(tmp_path)
    assert set(books) == {"5-0", "6-8.zip/6-8"} and skips["6.txt"].status == "duplicate"


# ------------------------------------------------------------------ folders --------------

def test_symlinked_folder_loop_dangling_link_and_fifo(tmp_path):
    root = tmp_path / "corpus"
    (root / "real").mkdir(parents=True)
    (root / "real" / "a.txt").write_text(STORY)
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "b.txt").write_text(STORY)
    os.symlink(outside, root / "linked")                 # followed, under the link's name
    os.symlink(root, root / "real" / "back")             # a loop
    os.symlink(root / "real", root / "zz-again")         # second way into a folder already walked
    os.symlink(root / "nowhere.txt", root / "dangling.txt")
    os.link(root / "real" / "a.txt", root / "hard.txt")
    os.mkfifo(root / "pipe.txt")
    books, skips = read(root)
    assert set(books) == {"hard", "linked/b"}              # path order: hard.txt is met first
    assert skips["real/back"].reason.startswith("symlink loop")
    assert skips["zz-again"].reason.startswith("same folder as real")
    assert skips["dangling.txt"].reason.startswith("dangling symlink ->")
    assert skips["pipe.txt"].reason == "FIFO (named pipe): not opened"
    assert skips["real/a.txt"].status == "duplicate" and "same file as hard.txt" in skips["real/a.txt"].reason


def test_corpus_of_nothing_readable_is_an_error(tmp_path):
    (tmp_path / "notes.md").write_text("x")
    with pytest.raises(InputError, match="no books found"):
        B.plan_corpus(spec(tmp_path))
    with pytest.raises(InputError, match="does not exist"):
        B.plan_corpus(spec(tmp_path / "nope"))


# ------------------------------------------------------------------ tables ---------------

BOOKS = [{"id": f"b{i}", "title": f"Title {i}", "text": f"Book {i}. " + STORY} for i in range(5)]


def _parquet(path: Path, rows: list[dict], row_group_size: int = 2) -> Path:
    pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=row_group_size)
    return path


def _jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_parquet_by_row_groups_ids_titles_and_bad_rows(tmp_path):
    rows = BOOKS + [{"id": "nulltext", "title": "", "text": None}, {"id": None, "title": "x", "text": STORY}]
    path = _parquet(tmp_path / "c.parquet", rows)
    plan = B.plan_corpus(spec(path))
    assert [(u.start, u.stop) for u in plan.units] == [(0, 2), (2, 4), (4, 6), (6, 7)]
    books, skips = read(path)
    assert list(books) == [f"b{i}" for i in range(5)]
    assert books["b3"].title == "Title 3" and books["b3"].row == 4 and books["b3"].path == "c.parquet"
    assert books["b3"].paragraphs[0].startswith("Book 3.")
    assert skips[("c.parquet", 6)].reason == "null text: column 'text'"
    assert skips[("c.parquet", 7)].reason == "null id: column 'id'"


def test_jsonl_in_several_ranges_with_bad_lines(tmp_path, monkeypatch):
    monkeypatch.setattr(tables, "UNIT_BYTES", 200)
    rows = BOOKS[:2] + ["{not json", "[1, 2]", {"id": "nt"}, "", {"id": "n", "text": 7}] + BOOKS[2:]
    path = _jsonl(tmp_path / "c.jsonl", rows)
    plan = B.plan_corpus(spec(path))
    assert len(plan.units) > 2
    books, skips = read(path)
    assert list(books) == [f"b{i}" for i in range(5)]
    assert books["b2"].row == 8
    assert skips[("c.jsonl", 3)].reason.startswith("not JSON")
    assert skips[("c.jsonl", 4)].reason == "not a JSON object (list)"
    assert skips[("c.jsonl", 5)].reason == "no 'text' field"
    assert skips[("c.jsonl", 7)].reason == "text is not a string: int"


def test_csv_with_multiline_fields_and_a_bad_record(tmp_path, monkeypatch):
    import csv as csv_mod

    monkeypatch.setattr(tables, "UNIT_BYTES", 100)
    path = tmp_path / "c.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv_mod.writer(f)
        w.writerow(["book_id", "title", "text"])
        for r in BOOKS[:3]:
            w.writerow([r["id"], r["title"], r["text"].replace("\n\n", '\n\n"Quoted," she said.\n\n')])
        f.write("short,row\n")
        for r in BOOKS[3:]:
            w.writerow([r["id"], r["title"], r["text"]])
    books, skips = read(path)
    assert list(books) == [f"b{i}" for i in range(5)]
    assert '"Quoted," she said.' in books["b1"].paragraphs
    assert skips[("c.csv", 4)].reason == "2 fields, the header has 3"
    assert books["b4"].row == 6


def test_hugging_face_dataset_folder(tmp_path):
    datasets = pytest.importorskip("datasets")
    folder = tmp_path / "hf"
    datasets.Dataset.from_list(BOOKS).save_to_disk(str(folder))
    assert (folder / "state.json").exists() and (folder / "dataset_info.json").exists()
    books, _ = read(folder)
    assert list(books) == [f"b{i}" for i in range(5)] and books["b4"].row == 5
    assert books["b0"].title == "Title 0"
    dd = tmp_path / "dd"
    datasets.DatasetDict({"train": datasets.Dataset.from_list(BOOKS)}).save_to_disk(str(dd))
    with pytest.raises(InputError, match="DatasetDict"):
        B.plan_corpus(spec(dd))
    assert list(read(dd / "train")[0]) == [f"b{i}" for i in range(5)]


@pytest.mark.parametrize("kind", ["parquet", "jsonl", "csv"])
def test_table_without_the_text_column_is_an_error(tmp_path, kind):
    rows = [{"id": "a", "body": STORY}]
    path = tmp_path / f"c.{kind}"
    if kind == "parquet":
        _parquet(path, rows)
    elif kind == "jsonl":
        _jsonl(path, rows)
    else:
        path.write_text("id,body\na,x\n")
    with pytest.raises(InputError, match="no text column 'text'") as exc:
        B.plan_corpus(spec(path))
    assert str(path) in str(exc.value) and "body" in str(exc.value)
    assert len(read(path, text_column="body")[0]) == 1
    with pytest.raises(InputError, match="no id column 'ident'"):
        B.plan_corpus(spec(path, text_column="body", id_column="ident"))


def test_table_ids_without_id_column_and_repeated_ids(tmp_path):
    path = _jsonl(tmp_path / "c.jsonl", [{"text": STORY}, {"text": STORY}])
    assert list(read(path)[0]) == ["row-1", "row-2"]
    path = _jsonl(tmp_path / "d.jsonl", [{"id": 7, "text": STORY}, {"id": 7, "text": STORY}])
    books, skips = read(path)
    assert list(books) == ["7"] and skips[("d.jsonl", 2)].status == "duplicate"
    assert "first at d.jsonl, row 1" in skips[("d.jsonl", 2)].reason


def test_limit_books_cuts_a_table_range(tmp_path):
    path = _parquet(tmp_path / "c.parquet", BOOKS, row_group_size=3)
    assert list(read(path, limit_books=4)[0]) == ["b0", "b1", "b2", "b3"]


# ------------------------------------------------------------------ sentences ------------

def test_rebuilt_paragraphs_follow_dialogue_turns():
    lines = ["Mary came in.", "She sat down.", '"Where is John?" she asked.', "Nobody answered.",
             'Peter said, "Gone."', "The clock struck."]
    assert rebuild_paragraphs(lines) == ["Mary came in. She sat down.",
                                         '"Where is John?" she asked. Nobody answered. Peter said, "Gone."',
                                         "The clock struck."]


def test_sentences_blank_lines_end_books(tmp_path):
    (tmp_path / "bc.txt").write_text("One a.\nOne b.\n\nTwo a.\n\n\nThree a.\nThree b.\n", encoding="utf-8")
    books, _ = read(tmp_path, layout="sentences")
    assert list(books) == ["bc#1", "bc#2", "bc#3"]
    assert books["bc#3"].paragraphs == ["Three a. Three b."] and books["bc#3"].row == 7
    assert books["bc#1"].format == "sentences"


def test_sentences_without_boundaries_make_pseudo_books(tmp_path):
    lines = "".join(f"Sentence {i}.\n" for i in range(25))
    with gzip.open(tmp_path / "all.txt.gz", "wt", encoding="utf-8") as f:
        f.write(lines)
    (tmp_path / "plain.txt").write_text(lines, encoding="utf-8")
    books, _ = read(tmp_path, layout="sentences", book_sentences=10)
    assert [b for b in books] == ["all.txt.gz#1", "all.txt.gz#2", "all.txt.gz#3", "plain#1", "plain#2", "plain#3"]
    assert books["plain#3"].paragraphs == [" ".join(f"Sentence {i}." for i in range(20, 25))]
    assert books["all.txt.gz#2"].paragraphs == books["plain#2"].paragraphs


def test_sentences_of_a_table_one_per_row(tmp_path):
    path = _parquet(tmp_path / "s.parquet", [{"text": f"Sentence {i}."} for i in range(7)], row_group_size=3)
    books, _ = read(path, layout="sentences", book_sentences=3)
    assert list(books) == ["s.parquet#1", "s.parquet#2", "s.parquet#3"]
    assert books["s.parquet#2"].paragraphs == ["Sentence 3. Sentence 4. Sentence 5."]
    assert list(read(path, layout="sentences", book_sentences=3, limit_books=2)[0]) == ["s.parquet#1", "s.parquet#2"]


# ------------------------------------------------------------------ selection ------------

def test_language_header_and_unknown_language(tmp_path):
    (tmp_path / "en.txt").write_text(gutenberg(language="English"))
    (tmp_path / "fr.txt").write_text(gutenberg(language="French"))
    (tmp_path / "plain.txt").write_text(STORY)
    books, skips = read(tmp_path, language="en")
    assert set(books) == {"en", "plain"}
    assert skips["fr.txt"].status == "excluded" and skips["fr.txt"].reason == "language French (--language en)"


def test_min_words(tmp_path):
    (tmp_path / "short.txt").write_text("Too short.")
    (tmp_path / "long.txt").write_text(STORY)
    books, skips = read(tmp_path, min_words=10)
    assert set(books) == {"long"} and skips["short.txt"].reason == "2 words, fewer than --min-words 10"


def test_metadata_where_keeps_fiction(tmp_path):
    corpus = tmp_path / "c"
    corpus.mkdir()
    for n in (11, 12, 13):
        (corpus / f"{n}.txt").write_text(gutenberg(number=n, title=f"Header title {n}"))
    meta = tmp_path / "pg_catalog.csv"
    meta.write_text("Text#,Title,Authors,Subjects,Language\n"
                    "11,Catalogue Eleven,\"Smith, Jo\",England -- Fiction; Love stories,en\n"
                    "12,Twelve,Doe,Nonfiction; Essays,en\n", encoding="utf-8")
    books, skips = read(corpus, metadata=str(meta), where=(r"subjects~\bfiction\b",))
    assert list(books) == ["11"] and books["11"].title == "Catalogue Eleven" and books["11"].author == "Smith, Jo"
    assert skips["12.txt"].reason == r"not subjects~\bfiction\b (--where)"
    assert skips["13.txt"].reason == "no metadata row (--where)"
    books, _ = read(corpus, metadata=str(meta), where=("subjects!~fiction", "language=EN"))
    assert list(books) == []
    with pytest.raises(InputError, match="no column 'genre'"):
        B.plan_corpus(spec(corpus, metadata=str(meta), where=("genre~x",)))
    with pytest.raises(InputError, match="COLUMN~REGEX"):
        B.plan_corpus(spec(corpus, metadata=str(meta), where=("subjects",)))
    with pytest.raises(InputError, match="give --metadata"):
        B.plan_corpus(spec(corpus, where=("subjects~x",)))


def test_metadata_parquet_and_table_ids(tmp_path):
    path = _parquet(tmp_path / "c.parquet", BOOKS)
    meta = _parquet(tmp_path / "m.parquet", [{"book_id": "b1", "subjects": ["Fiction", "Sea stories"]},
                                             {"book_id": "b2", "subjects": ["History"]}])
    books, _ = read(path, metadata=str(meta), where=("subjects~fiction",))
    assert list(books) == ["b1"]


# ------------------------------------------------------------------ options --------------

def test_corpus_arguments_and_settings(tmp_path):
    from pipeline import options as opt
    from pipeline.commands import corpus_spec

    command = opt.command("read", "the corpus options alone", opt.corpus_options())
    parse = lambda argv: command.main(argv, standalone_mode=False)      # noqa: E731
    args = parse(["--corpus", str(tmp_path), "--layout", "sentences", "--min-words", "5",
                  "--where", "subjects~x", "--where", "title~y", "--limit-books", "3"])
    assert args.corpus == tmp_path and args._paths == {"corpus": [str(tmp_path)]}
    s = corpus_spec(args)
    assert (s.layout, s.min_words, s.where, s.limit_books) == ("sentences", 5, ("subjects~x", "title~y"), 3)
    assert "limit_books" not in s.settings() and s.settings()["min_words"] == 5
    with pytest.raises(InputError):
        corpus_spec(parse(["--corpus", "x", "--min-words", "-1"]))


@pytest.mark.parametrize("bad, message", [
    ({"book_sentences": 0}, "--book-sentences must be at least 1"),
    ({"min_words": -1}, "--min-words must not be negative"),
    ({"limit_books": -2}, "--limit-books must not be negative"),
])
def test_a_corpus_spec_built_from_python_is_checked(tmp_path, bad, message):
    """The corpus settings are checked when built, without a Namespace (issue 47 item 2): the
    command's messages, and a Path or a list given where a str and a tuple are kept."""
    with pytest.raises(InputError, match=message):
        B.CorpusSpec(path=str(tmp_path), **bad)
    s = B.CorpusSpec(path=tmp_path, where=["title~x"], metadata="m.csv")
    assert s.path == str(tmp_path) and s.where == ("title~x",)
