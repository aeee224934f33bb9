"""Issue 45's probe categories as cases of :mod:`tests.chaos.malformed` (a helper module, not a
test module): hostile archives and tables, malformed GAP TSV / CoNLL-2012 / word lists / cast
files / system outputs / results / name spans, HTML in every text field, read-only and full
disks. Each case is a :class:`~tests.chaos.malformed.Case` with its expected verdict (handled
correctly: ``ok``; a clean one-line error naming the file: ``error``; left out with the
reason: ``skip``) and runs through ``test_chaos.py::test_malformed_input`` like the others.

A corpus probe reads its corpus through the readers extract uses (``iter_corpus``, no spaCy:
the listing of books and of what was not read, with the reasons); a few go through ``extract``
itself. Big inputs are bounded: a zip bomb of 8 MB under a cap lowered to 1 MB, and one of
260 MB under the real cap (256 MB) run in a child process whose peak RSS is measured.
"""

from __future__ import annotations

import bz2
import contextlib
import errno
import gzip
import io
import json
import lzma
import os
import stat
import tarfile
import warnings
import zipfile
from pathlib import Path

from tests.chaos.malformed import (CONLL, GAP_HEADER, GAP_ROW, Case, _failing_writes, _generate, _import,
                                   _mturk_csv, _w, gap_dataset_rows)

STORY = ("Mary walked to the village with her brother John.\n\n"
         "Later that day Anne met Peter at the gate, and she smiled.\n")


# ----------------------------------------------------------------------- corpus readers ----

def _listing(path: Path, **kw) -> str:
    from tests.formats.test_corpus_readers import read

    books, skips = read(path, **kw)
    return ("books: " + ", ".join(sorted(map(repr, books))) + "\n"
            + "".join(f"skip {k!r}: {s.status}: {s.reason}\n" for k, s in skips.items()))


def _corpus(make, **kw):
    """A corpus folder ``c`` holding a good book and what ``make(c)`` adds (``make`` may return
    the path to read instead: a table file), read as extract reads it."""
    def build(inputs, d):
        c = d / "c"
        c.mkdir(parents=True, exist_ok=True)
        _w(c / "good.txt", STORY)
        path = make(c) or c
        return lambda: _listing(path, **kw)
    return build


def _table(make, **kw):
    """A table corpus ``make(d)`` (a file path) read as extract reads ``--corpus FILE``."""
    def build(inputs, d):
        path = make(d)
        return lambda: _listing(path, **kw)
    return build


def _zip(path: Path, members, compression=zipfile.ZIP_DEFLATED) -> Path:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                     # duplicate names
        with zipfile.ZipFile(path, "w", compression=compression) as z:
            for name, data in members:
                z.writestr(name, data)
    return path


def _symlink_member(name: str, target: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFLNK | 0o777) << 16
    info.create_system = 3
    return info


def _bomb_zip(path: Path, mb: int) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as z:
        with z.open("bomb.txt", "w", force_zip64=True) as f:
            block = b"Mary smiled. " * (1 << 16)
            for _ in range(mb * (1 << 20) // len(block) + 1):
                f.write(block)
    return path


def _bomb_stream(path: Path, opener, mb: int) -> Path:
    with opener(path, "wb") as f:
        block = b"He waved. " * (1 << 16)
        for _ in range(mb * (1 << 20) // len(block) + 1):
            f.write(block)
    return path


@contextlib.contextmanager
def _small_cap():
    """The book size cap lowered to 1 MB (what the real cap does to a 260 MB bomb, 1/256th the size)."""
    from pipeline.formats.corpus import archives

    saved = archives.MAX_BOOK_BYTES, archives.read_limited.__defaults__
    archives.MAX_BOOK_BYTES, archives.read_limited.__defaults__ = 1 << 20, (1 << 20,)
    try:
        yield
    finally:
        archives.MAX_BOOK_BYTES, archives.read_limited.__defaults__ = saved


def _patch_attr(module: str, name: str, value):
    @contextlib.contextmanager
    def patch():
        import importlib

        mod = importlib.import_module(module)
        saved = getattr(mod, name)
        setattr(mod, name, value)
        try:
            yield
        finally:
            setattr(mod, name, saved)
    return patch


def _truncated(data: bytes) -> bytes:
    return data[: len(data) // 2]


def _long_story(n: int = 200) -> str:
    return "".join(f"Chapter {k}. Mary walked with John, and she smiled at him. " for k in range(n))


def _tar(path: Path, members) -> Path:
    mode = "w:gz" if path.name.endswith((".tgz", ".gz")) else "w"
    with tarfile.open(path, mode) as t:
        for name, data, kind in members:
            info = tarfile.TarInfo(name)
            if kind == "symlink":
                info.type, info.linkname = tarfile.SYMTYPE, data
                t.addfile(info)
            else:
                raw = data.encode()
                info.size = len(raw)
                t.addfile(info, io.BytesIO(raw))
    return path


def _no_escape(d: Path, text: str) -> str | None:
    """Nothing was written outside the case directory's corpus and output (``../`` members)."""
    for p in (d.parent / "evil.txt", d / "evil.txt", Path("/tmp/evil.txt"), d.parent / "abs.txt"):
        if p.exists():
            return f"{p} was written"
    return None


A = "hostile archives"
ARCHIVES = [
    Case("zip bomb: 8 MB member under a 1 MB cap", _corpus(lambda c: _bomb_zip(c / "x.zip", 8) and None),
         expect="skip", says="too large: more than 1 MB of text", patch=_small_cap, category=A),
    Case("gz bomb: 8 MB .txt.gz under a 1 MB cap", _corpus(lambda c: _bomb_stream(c / "b.txt.gz", gzip.open, 8) and None),
         expect="skip", says="too large", patch=_small_cap, category=A),
    Case("bz2 bomb: 8 MB .txt.bz2 under a 1 MB cap", _corpus(lambda c: _bomb_stream(c / "b.txt.bz2", bz2.open, 8) and None),
         expect="skip", says="too large", patch=_small_cap, category=A),
    Case("xz bomb: 8 MB .txt.xz under a 1 MB cap", _corpus(lambda c: _bomb_stream(c / "b.txt.xz", lzma.open, 8) and None),
         expect="skip", says="too large", patch=_small_cap, category=A),
    Case("zip bomb: 260 MB member under the real cap, peak RSS measured",
         _corpus(lambda c: _bomb_zip(c / "x.zip", 260) and None),
         expect="skip", says="too large: more than 256 MB of text", isolated=True, timeout=240, category=A),
    Case("zip: ../ and absolute member names read in place, nothing written outside",
         _corpus(lambda c: _zip(c / "x.zip", [("../evil.txt", STORY), ("/abs.txt", STORY),
                                               ("a/../../b.txt", STORY)]) and None),
         expect="ok", says="'x.zip/../evil'", check=_no_escape, category=A),
    Case("zip: a symlink member is not read as a book",
         _corpus(lambda c: _zip(c / "x.zip", [(_symlink_member("link.txt", "/etc/passwd"), "/etc/passwd"),
                                               ("ok.txt", STORY)]) and None),
         expect="skip", says="symbolic link", category=A),
    Case("zip: a symlink member pointing outside, named like a book",
         _corpus(lambda c: _zip(c / "x.zip", [(_symlink_member("../../etc/passwd.txt", "/etc/passwd"),
                                                "/etc/passwd")]) and None),
         expect="skip", says="symbolic link", category=A),
    Case("zip: two members of one name", _corpus(lambda c: _zip(c / "x.zip", [("b.txt", STORY), ("b.txt", "other")]) and None),
         expect="skip", says="duplicate member name", category=A),
    Case("zip: no member at all", _corpus(lambda c: _zip(c / "x.zip", []) and None),
         expect="skip", says="empty zip", category=A),
    Case("zip: zero bytes", _corpus(lambda c: _w(c / "x.zip", b"") and None),
         expect="skip", says="corrupt zip", category=A),
    Case("zip: truncated to half", _corpus(lambda c: _w(c / "x.zip", _truncated(_zip(c / "x.zip", [(
        "a.txt", _long_story())]).read_bytes())) and None), expect="skip", says="corrupt zip", category=A),
    Case("zip: only folders", _corpus(lambda c: _zip(c / "x.zip", [("a/", ""), ("a/b/", "")]) and None),
         expect="skip", says="empty zip", category=A),
    Case("zip: an empty text member", _corpus(lambda c: _zip(c / "x.zip", [("e.txt", ""), ("ok.txt", STORY)]) and None),
         expect="skip", says="empty", category=A),
    Case("zip: a member with the encrypted flag", _corpus(lambda c: _w(c / "x.zip", _flag_encrypted(
        _zip(c / "x.zip", [("a.txt", STORY)]).read_bytes())) and None),
         expect="skip", says="unreadable zip member", category=A),
    Case("zip: an unsupported compression method (deflate64)", _corpus(lambda c: _w(c / "x.zip", _method(
        _zip(c / "x.zip", [("a.txt", STORY)]).read_bytes(), 9)) and None),
         expect="skip", says="compression method is not supported", category=A),
    Case("zip: a CRC error", _corpus(lambda c: _w(c / "x.zip", _zip(c / "x.zip", [("a.txt", STORY)],
                                                                     zipfile.ZIP_STORED).read_bytes()
                                                   .replace(b"Mary", b"Xary", 1)) and None),
         expect="skip", says="Bad CRC-32", category=A),
    Case("zip: a zip inside the zip", _corpus(lambda c: _zip(c / "x.zip", [("inner.zip", _zip(
        c / "inner.zip", [("a.txt", STORY)]).read_bytes())]) and os.remove(c / "inner.zip")),
         expect="skip", says="zip member is not a text file (.zip)", category=A),
    Case("zip: a 5,000-character member name", _corpus(lambda c: _zip(c / "x.zip", [("n" * 5000 + ".txt", STORY)]) and None),
         expect="ok", says="'x.zip/nnnn", category=A),
    Case("zip: a member name with a line break and a control character",
         _corpus(lambda c: _zip(c / "x.zip", [("a\nb\x01.txt", STORY)]) and None),
         expect="skip", says="control character", category=A),
    Case("zip: a binary member named .txt", _corpus(lambda c: _zip(c / "x.zip", [("img.txt", b"\x89PNG\r\n\x1a\n\x00\x00")]) and None),
         expect="skip", says="binary", category=A),
    Case("wrong extension: a zip named .txt", _corpus(lambda c: _w(c / "z.txt", _zip(c / "x.zip", [("a.txt", STORY)])
                                                                  .read_bytes()) and os.remove(c / "x.zip")),
         expect="skip", says="binary", category=A),
    Case("wrong extension: a gzip named .txt", _corpus(lambda c: _w(c / "z.txt", gzip.compress(STORY.encode())) and None),
         expect="skip", says="binary", category=A),
    Case("wrong extension: text named .zip", _corpus(lambda c: _w(c / "t.zip", STORY) and None),
         expect="skip", says="corrupt zip", category=A),
    Case("wrong extension: text named .txt.gz", _corpus(lambda c: _w(c / "t.txt.gz", STORY) and None),
         expect="skip", says="corrupt archive", category=A),
    Case("wrong extension: text named .txt.bz2", _corpus(lambda c: _w(c / "t.txt.bz2", STORY) and None),
         expect="skip", says="corrupt archive", category=A),
    Case("wrong extension: text named .txt.xz", _corpus(lambda c: _w(c / "t.txt.xz", STORY) and None),
         expect="skip", says="corrupt archive", category=A),
    Case("wrong extension: a PNG named .txt", _corpus(lambda c: _w(c / "p.txt", b"\x89PNG\r\n\x1a\n" + bytes(range(256))) and None),
         expect="skip", says="binary", category=A),
    Case("wrong extension: a bad .epub", _corpus(lambda c: _w(c / "b.epub", b"not an epub") and None),
         expect="skip", says="unreadable epub", category=A),
    Case("gz: truncated to half", _corpus(lambda c: _w(c / "t.txt.gz", _truncated(gzip.compress(
        os.urandom(4096).hex().encode()))) and None), expect="skip", says="corrupt archive", category=A),
    Case("bz2: truncated to half", _corpus(lambda c: _w(c / "t.txt.bz2", _truncated(bz2.compress(
        os.urandom(4096).hex().encode()))) and None), expect="skip", says="corrupt archive", category=A),
    Case("xz: truncated to half", _corpus(lambda c: _w(c / "t.txt.xz", _truncated(lzma.compress(
        os.urandom(4096).hex().encode()))) and None), expect="skip", says="corrupt archive", category=A),
    Case("gz: zero bytes", _corpus(lambda c: _w(c / "t.txt.gz", b"") and None), expect="skip", says="empty", category=A),
    Case("gz: two gzip streams concatenated (read whole)", _corpus(lambda c: _w(
        c / "t.txt.gz", gzip.compress(b"Tom smiled at Ann. ") + gzip.compress(b"Then she waved at the Zebedee.")) and None),
         expect="ok", says="'t.txt.gz'", check=lambda d, t: None, category=A),
    Case("tar with a ../ member: not unpacked, listed", _corpus(lambda c: _tar(c / "x.tar", [("../evil.txt", STORY, "file")]) and None),
         expect="skip", says="tar archive: not read", check=_no_escape, category=A),
    Case("tar.gz with a symlink member: listed", _corpus(lambda c: _tar(c / "x.tar.gz", [("l.txt", "/etc/passwd", "symlink")]) and None),
         expect="skip", says="tar archive: not read", category=A),
    Case(".tgz: listed", _corpus(lambda c: _tar(c / "x.tgz", [("a.txt", STORY, "file")]) and None),
         expect="skip", says="tar archive: not read", category=A),
    Case("folder: a FIFO named .txt is never opened", _corpus(lambda c: os.mkfifo(c / "f.txt")),
         expect="skip", says="FIFO (named pipe): not opened", timeout=30, category=A),
    Case("folder: a dangling symlink", _corpus(lambda c: os.symlink("/nonexistent/x.txt", c / "d.txt")),
         expect="skip", says="dangling symlink", category=A),
    Case("folder: a symlink loop", _corpus(lambda c: os.symlink(".", c / "self")),
         expect="skip", says="symlink loop", timeout=30, category=A),
    Case("folder: a symlink to /dev/zero named .txt", _corpus(lambda c: os.symlink("/dev/zero", c / "z.txt")),
         expect="skip", says="device: not opened", timeout=30, category=A),
    Case("folder: an empty .txt", _corpus(lambda c: _w(c / "e.txt", b"") and None), expect="skip", says="empty", category=A),
    Case("folder: a .txt of NUL bytes", _corpus(lambda c: _w(c / "n.txt", b"\x00" * 1000) and None),
         expect="skip", says="binary", category=A),
    Case("folder: nothing but a corrupt zip", lambda i, d: (lambda: _listing(_w(d / "c" / "x.zip", b"PK\x03\x04junk").parent)),
         names="c", says="corrupt zip", category=A),
]


def _flag_encrypted(data: bytes) -> bytes:
    b = bytearray(data)
    b[6] |= 1
    i = b.find(b"PK\x01\x02")
    b[i + 8] |= 1
    return bytes(b)


def _method(data: bytes, method: int) -> bytes:
    b = bytearray(data)
    b[8] = method
    i = b.find(b"PK\x01\x02")
    b[i + 10] = method
    return bytes(b)


# ----------------------------------------------------------------------- tables -----------

def _parquet(rows: list[dict] | None = None, schema=None, table=None):
    def make(d):
        import pyarrow as pa
        import pyarrow.parquet as pq

        t = table(pa) if table else pa.Table.from_pylist(rows, schema=schema(pa) if schema else None)
        path = d / "c.parquet"
        pq.write_table(t, path)
        return path
    return make


GOOD_ROWS = [{"id": "b1", "title": "One", "text": STORY}, {"id": "b2", "title": "Two", "text": STORY.replace("Mary", "Emma")}]

T = "hostile tables"
TABLES = [
    Case("Parquet: no text column", _table(_parquet([{"id": "b1", "body": STORY}])), names="c.parquet",
         says="no text column 'text'", category=T),
    Case("Parquet: --text-column naming no column", _table(_parquet(GOOD_ROWS), text_column="body"), names="c.parquet",
         says="no text column 'body'", category=T),
    Case("Parquet: --id-column naming no column", _table(_parquet(GOOD_ROWS), id_column="book"), names="c.parquet",
         says="no id column", category=T),
    Case("Parquet: the text column of integers", _table(_parquet(table=lambda pa: pa.table(
        {"id": ["b1", "b2"], "text": pa.array([1, 2], pa.int64())}))), expect="skip", says="text is not a string",
         category=T),
    Case("Parquet: the text column of lists", _table(_parquet(table=lambda pa: pa.table(
        {"id": ["b1"], "text": pa.array([["a", "b"]])}))), expect="skip", says="text is not a string", category=T),
    Case("Parquet: the text column of structs", _table(_parquet(table=lambda pa: pa.table(
        {"id": ["b1"], "text": pa.array([{"a": "Mary smiled."}])}))), expect="skip", says="text is not a string",
         category=T),
    Case("Parquet: the text column binary, UTF-8", _table(_parquet(table=lambda pa: pa.table(
        {"id": ["b1"], "text": pa.array([STORY.encode()], pa.binary())}))), expect="skip", says="text is not a string: bytes",
         category=T),
    Case("Parquet: a null text", _table(_parquet([GOOD_ROWS[0], {"id": "b2", "title": "T", "text": None}])),
         expect="skip", says="null text", category=T),
    Case("Parquet: a null id", _table(_parquet([GOOD_ROWS[0], {"id": None, "title": "T", "text": STORY}])),
         expect="skip", says="null id", category=T),
    Case("Parquet: an empty text", _table(_parquet([GOOD_ROWS[0], {"id": "b2", "title": "T", "text": ""}])),
         expect="skip", says="empty", category=T),
    Case("Parquet: a NUL in a text", _table(_parquet([GOOD_ROWS[0], {"id": "b2", "title": "T", "text": "a\x00b"}])),
         expect="skip", says="binary", category=T),
    Case("Parquet: two rows of one id", _table(_parquet([GOOD_ROWS[0], GOOD_ROWS[0]])),
         expect="skip", says="duplicate", category=T),
    Case("Parquet: ids of integers", _table(_parquet(table=lambda pa: pa.table(
        {"id": pa.array([7, 8]), "text": [STORY, STORY]}))), expect="ok", says="'7'", category=T),
    Case("Parquet: zero rows", _table(_parquet(table=lambda pa: pa.table({"id": pa.array([], pa.string()),
                                                                           "text": pa.array([], pa.string())}))),
         names="c.parquet", says="no books", category=T),
    Case("Parquet: no columns", _table(_parquet(table=lambda pa: pa.table({}))), names="c.parquet", category=T),
    Case("Parquet: random bytes", _table(lambda d: _w(d / "c.parquet", os.urandom(4096))), names="c.parquet",
         says="not a readable Parquet file", category=T),
    Case("Parquet: zero bytes", _table(lambda d: _w(d / "c.parquet", b"")), names="c.parquet", category=T),
    Case("Parquet: truncated to half", _table(lambda d: _w(d / "c.parquet", _truncated(
        _parquet(GOOD_ROWS * 50)(d).read_bytes()))), names="c.parquet", category=T),
    Case("Parquet: the footer's magic only", _table(lambda d: _w(d / "c.parquet", b"PAR1" + b"\x00" * 8 + b"PAR1")),
         names="c.parquet", category=T),
    Case("Parquet: a cell over a 64 KiB cap", _table(_parquet([GOOD_ROWS[0], {"id": "big", "title": "B", "text": "z " * (64 << 10)}])),
         expect="skip", says="too large: a text cell", patch=_patch_attr("pipeline.formats.corpus.tables", "MAX_FIELD", 64 << 10),
         category=T),
    Case("Parquet: a 40 MB cell under a 4 MB cap, peak RSS measured",
         _table(_parquet([GOOD_ROWS[0], {"id": "big", "title": "B", "text": "y" * (40 << 20)}, GOOD_ROWS[1]])),
         expect="skip", says="too large: a text cell", isolated=True, timeout=240,
         patch=_patch_attr("pipeline.formats.corpus.tables", "MAX_FIELD", 4 << 20), category=T),
    Case("JSON lines: zero bytes", _table(lambda d: _w(d / "c.jsonl", b"")), names="c.jsonl", category=T),
    Case("JSON lines: blank lines only", _table(lambda d: _w(d / "c.jsonl", "\n\n  \n")), names="c.jsonl", category=T),
    Case("JSON lines: a line that is not JSON", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n{oops\n"
                                                                    + json.dumps(GOOD_ROWS[1]) + "\n")),
         expect="skip", says="JSON", category=T),
    Case("JSON lines: a line that is a list", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n[1, 2]\n")),
         expect="skip", says="not a JSON object", category=T),
    Case("JSON lines: the text a number", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n"
                                                              + json.dumps({"id": "n", "text": 5}) + "\n")),
         expect="skip", says="text is not a string", category=T),
    Case("JSON lines: the text missing", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n"
                                                             + json.dumps({"id": "n", "body": STORY}) + "\n")),
         expect="skip", says="text", category=T),
    Case("JSON lines: a byte-order mark", _table(lambda d: _w(d / "c.jsonl", "\ufeff" + json.dumps(GOOD_ROWS[0]) + "\n")),
         expect="ok", says="'b1'", category=T),
    Case("JSON lines: a NUL escaped in a text", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n"
                                                                    + json.dumps({"id": "n", "text": "a\x00b"}) + "\n")),
         expect="skip", says="binary", category=T),
    Case("JSON lines: a line nested 100,000 deep", _table(lambda d: _w(d / "c.jsonl", json.dumps(GOOD_ROWS[0]) + "\n"
                                                                      + '{"id": "deep", "text": ' + "[" * 100_000
                                                                      + "]" * 100_000 + "}\n")),
         expect="skip", says="not JSON (nested too deep)", category=T),
    Case("JSON lines: NaN and Infinity as ids", _table(lambda d: _w(d / "c.jsonl", '{"id": NaN, "text": "Mary smiled."}\n'
                                                                    + json.dumps(GOOD_ROWS[1]) + "\n")),
         expect="skip", says="not JSON (NaN is not JSON", category=T),
    Case("JSON lines: ids true and [1]", _table(lambda d: _w(d / "c.jsonl", '{"id": true, "text": "Mary smiled."}\n'
                                                            '{"id": [1], "text": "Mary smiled."}\n'
                                                            + json.dumps(GOOD_ROWS[1]) + "\n")),
         expect="skip", says="id is not a string or a number", category=T),
    Case("CSV: no text column", _table(lambda d: _w(d / "c.csv", "id,body\nb1,Mary smiled.\n")), names="c.csv",
         says="no text column", category=T),
    Case("CSV: zero bytes", _table(lambda d: _w(d / "c.csv", b"")), names="c.csv", says="no CSV header", category=T),
    Case("CSV: a header not UTF-8", _table(lambda d: _w(d / "c.csv", b"id,t\xe9xt\nb1,x\n")), names="c.csv", category=T),
    Case("CSV: a row with fewer fields", _table(lambda d: _w(d / "c.csv", "id,title,text\nb1,One,\"" + STORY.replace("\n", " ") + "\""
                                                             + "\nb2,Two\n")),
         expect="skip", says="2 fields, the header has 3", category=T),
    Case("CSV: an unclosed quote", _table(lambda d: _w(d / "c.csv", "id,text\nb1,Mary smiled.\nb2,\"never closed\n")),
         expect="skip", says="a quoted field never closed", category=T),
    Case("CSV: a byte-order mark before the header", _table(lambda d: _w(d / "c.csv", "\ufeffid,text\nb1,Mary smiled at John.\n")),
         expect="ok", says="'b1'", category=T),
    Case("CSV: CRLF and quoted line breaks", _table(lambda d: _w(d / "c.csv", 'id,text\r\nb1,"Mary smiled.\r\nJohn waved."\r\n')),
         expect="ok", says="'b1'", category=T),
    Case("CSV: a cell over a 64 KiB cap", _table(lambda d: _w(d / "c.csv", "id,text\nb1,Mary smiled.\nbig," + "y" * (80 << 10)
                                                             + "\nb3,John waved.\n")),
         expect="skip", says="too large", patch=_patch_attr("pipeline.formats.corpus.tables", "MAX_FIELD", 64 << 10),
         category=T),
    Case("Arrow: random bytes", _table(lambda d: _w(d / "c.arrow", os.urandom(2048))), names="c.arrow", category=T),
    Case("a table inside a corpus folder is listed, not read", _corpus(lambda c: _parquet(GOOD_ROWS)(c) and None),
         expect="skip", says="table file inside a folder", category=T),
]


PROBES: list[Case] = ARCHIVES + TABLES


# ----------------------------------------------------------------------- GAP TSV ----------

def _gap(body: str, header: str = GAP_HEADER, raw: bytes | None = None):
    """generate --gap-tsv on a GAP TSV of ``header`` + ``body`` (or of ``raw`` bytes)."""
    def build(inputs, d):
        path = _w(d / "g.tsv", raw if raw is not None else header + body)
        return ["generate", "--gap-tsv", str(path), "--out", str(d / "out")]
    return build


ROW = GAP_ROW.format(id="1")
ROW2 = GAP_ROW.format(id="2")
G = "GAP TSV"


def _gap_error(name, body, says="", header=GAP_HEADER, raw=None):
    return Case(f"GAP TSV: {name}", _gap(body, header, raw), names="g.tsv", says=says, out="out", category=G)


GAP_CASES = [
    _gap_error("a negative Pronoun-offset", ROW.replace("\t31\t", "\t-1\t")),
    _gap_error("a Pronoun-offset past the end of the text", ROW.replace("\t31\t", "\t999\t")),
    _gap_error("an offset of 10^30", ROW.replace("\t31\t", "\t" + "1" + "0" * 30 + "\t")),
    _gap_error("an A-offset not at A", ROW.replace("\tAnn\t0\t", "\tAnn\t4\t")),
    _gap_error("a B-offset inside another word", ROW.replace("\tCleo\t8\t", "\tCleo\t9\t")),
    _gap_error("the Pronoun not the text at its offset", ROW.replace("\tshe\t31\t", "\the\t31\t")),
    _gap_error("a Pronoun that is no pronoun", ROW.replace("\tshe\t31\t", "\ttown\t17\t")),
    _gap_error("A-coref 'yes'", ROW.replace("\t0\tTRUE\t", "\t0\tyes\t")),
    _gap_error("B-coref '2'", ROW.replace("\t8\tFALSE\t", "\t8\t2\t")),
    _gap_error("an empty ID", GAP_ROW.format(id="")),
    _gap_error("an empty text", ROW.replace("Ann met Cleo in town, and then she smiled at Bob and Tom.", "")),
    _gap_error("a row of fewer fields", "1\tAnn met Cleo.\tshe\n"),
    _gap_error("a row of more fields", ROW.replace("\t\n", "\t\textra\n")),
    _gap_error("the B-offset column missing", "".join(
        "\t".join(f for k, f in enumerate(line.split("\t")) if k != 8) + ("" if line.endswith("\n") else "")
        for line in [ROW]), header=GAP_HEADER.replace("\tB-offset", "")),
    _gap_error("a misspelled header (Pronoun_offset)", ROW, header=GAP_HEADER.replace("Pronoun-offset", "Pronoun_offset")),
    _gap_error("zero bytes", "", header="", raw=b""),
    _gap_error("not UTF-8 (Latin-1)", "", raw=(GAP_HEADER + ROW.replace("Cleo", "Cl\u00e9o")).encode("latin-1"),
               says="UTF-8"),
    _gap_error("a second header in the middle (two files concatenated)", ROW + GAP_HEADER + ROW2),
    Case("GAP TSV: a CR alone inside a text (read, written back quoted)", _gap(ROW.replace("in town", "in\rtown")),
         expect="ok", says="quadruples", category=G),
    _gap_error("a tab count off by one inside a text", ROW.replace("in town", "in\ttown")),
    Case("GAP TSV: CRLF line endings (read)", _gap("", raw=(GAP_HEADER + ROW + ROW2).replace("\n", "\r\n").encode()),
         expect="ok", says="quadruples", category=G),
    Case("GAP TSV: a byte-order mark (read)", _gap("", raw=("\ufeff" + GAP_HEADER + ROW).encode()),
         expect="ok", says="quadruples", category=G),
    Case("GAP TSV: a double quote inside a text (read literally)",
         _gap(ROW.replace("in town,", 'in "town",').replace("\t31\t", "\t33\t")), expect="ok", says="quadruples",
         check=lambda d, t: None if '"town"' in (d / "out" / "quadruples.tsv").read_text(encoding="utf-8")
         else "the quote was lost", category=G),
    Case("GAP TSV: no trailing newline (read)", _gap(ROW.rstrip("\n")), expect="ok", says="quadruples", category=G),
]


# ----------------------------------------------------------------------- CoNLL-2012 --------

def _cda(conll: str | bytes, *more):
    def build(inputs, d):
        path = _w(d / "c.conll", conll)
        return ["cda", "--conll", str(path), "--mode", "acda", "--out", str(d / "out.conll"), "--no-progress", *more]
    return build


C = "CoNLL-2012"
END = "#end document\n"


def _conll_error(name, text, says=""):
    return Case(f"CoNLL: {name}", _cda(text), names="c.conll", says=says, category=C)


CONLL_CASES = [
    _conll_error("no #end document", CONLL.replace(END, "")),
    _conll_error("#end document without a begin", CONLL.split("\n", 1)[1]),
    _conll_error("a #begin inside a document", CONLL.replace("tiny\t0\t2", "#begin document (x); part 000\ntiny\t0\t2")),
    _conll_error("a token line of three columns", CONLL.replace("tiny\t0\t2\tto\tIN\t*\t-\t-\t-\t-\t*\t-", "tiny\t0\tto")),
    _conll_error("a mention opened and never closed", CONLL.replace("*\t(1)", "*\t(1")),
    _conll_error("a mention closed that never opened", CONLL.replace("*\t(1)", "*\t1)")),
    _conll_error("a cluster id that is no number", CONLL.replace("*\t(1)", "*\t(x)")),
    _conll_error("not UTF-8 (Latin-1)", CONLL.replace("father", "p\u00e8re").encode("latin-1"), says="UTF-8"),
    _conll_error("comments only", "# a comment\n# another\n"),
    _conll_error("zero bytes", b""),
    _conll_error("a document id empty", CONLL.replace("(tiny)", "()")),
    Case("CoNLL: a cluster id of 10^20 (read)", _cda(CONLL.replace("*\t(1)", "*\t(100000000000000000000)")),
         expect="ok", says="", category=C),
    Case("CoNLL: CRLF line endings (read)", _cda(CONLL.replace("\n", "\r\n")), expect="ok", says="", category=C,
         check=lambda d, t: None if (d / "out.conll").exists() else "no output"),
    Case("CoNLL: a byte-order mark (read)", _cda("\ufeff" + CONLL), expect="ok", says="", category=C,
         check=lambda d, t: None if (d / "out.conll").exists() else "no output"),
    Case("CoNLL: a document with no token (read or refused, never a traceback)",
         _cda(CONLL + "#begin document (empty); part 000\n\n#end document\n"), expect="ok", says="", category=C),
]


# ----------------------------------------------------------------------- word lists, cast --

W = "word lists and cast files"


def _words(name, text, expect="error", says=""):
    def build(inputs, d):
        return _generate(inputs, d, "--gendered-words", str(_w(d / "words.tsv", text)))
    return Case(f"word list: {name}", build, expect=expect, says=says, names="words.tsv" if expect == "error" else "",
                category=W)


def _cast(name, text, expect="error", says=""):
    def build(inputs, d):
        path = _w(d / "cast.tsv", text)
        return ["cda", "--conll", str(inputs.conll), "--mode", "acda", "--out", str(d / "out.conll"),
                "--no-progress", "--cast", str(path)]
    return Case(f"cast file: {name}", build, expect=expect, says=says,
                names="cast.tsv" if expect == "error" else "", category=W)


WORD_CASES = [
    _words("one column", "actor\nwaiter\n"),
    _words("a word given two partners (the first decides, as documented)", "actor\tactress\nactor\tactrice\n",
           expect="ok", says="quadruples"),
    _words("a pair given twice, reversed", "actor\tactress\nactress\tactor\n", expect="ok", says="quadruples"),
    _words("not UTF-8 (Latin-1)", "ac\u00e9tor\tactress\n".encode("latin-1")),
    _words("a word holding a space (skipped with a warning)", "police man\tpolice woman\nactor\tactress\n",
           expect="skip", says="cannot match a token"),
    _words("an empty partner", "actor\t\n"),
    _words("a byte-order mark (read)", "\ufeffactor\tactress\n", expect="ok", says="quadruples"),
    _words("CRLF line endings (read)", "actor\tactress\r\nwaiter\twaitress\r\n", expect="ok", says="quadruples"),
    _cast("an unknown gender", "tiny\tMary\tmale-ish\n"),
    _cast("two columns", "tiny\tMary\n"),
    _cast("four columns", "tiny\tMary\tfeminine\textra\n"),
    _cast("an empty name", "tiny\t\tfeminine\n"),
    _cast("not UTF-8 (Latin-1)", "tiny\tRen\u00e9e\tfeminine\n".encode("latin-1")),
    _cast("a book the corpus does not have", "nosuchbook\tMary\tfeminine\n"),
    _cast("comments and a byte-order mark (read)", "\ufeff# my cast\ntiny\tMary\tfeminine\n", expect="ok"),
    _cast("zero bytes", ""),
]


PROBES += GAP_CASES + CONLL_CASES + WORD_CASES


# ----------------------------------------------------------------------- evaluate results ---

def _system(name, content, expect="error", says="", fname="s.tsv", extra=()):
    """evaluate --system s=FILE on the tiny dataset, FILE holding ``content`` (text, bytes, or a
    callable of the dataset's rows)."""
    def build(inputs, d):
        data = content(gap_dataset_rows()) if callable(content) else content
        path = _w(d / fname, data)
        return ["evaluate", "--dataset", str(inputs.dataset), "--out", str(d / "out"), "--resamples", "10",
                "--system", f"s={path}", *extra]
    return Case(f"evaluate --system: {name}", build, expect=expect, says=says,
                names=fname if expect == "error" else "", category="evaluate results")


def _sys_rows(rows, a="TRUE", b="FALSE", ids=None, header="ID\tA-coref\tB-coref\n"):
    return header + "".join(f"{i}\t{a}\t{b}\n" for i in (ids or [r["ID"] for r in rows]))


def _gold(name, content, says="", fname="gold.tsv"):
    def build(inputs, d):
        path = _w(d / fname, content)
        system = _w(d / "s.tsv", _sys_rows(gap_dataset_rows()))
        return ["evaluate", "--dataset", str(path), "--out", str(d / "out"), "--resamples", "10",
                "--system", f"s={system}"]
    return Case(f"evaluate --dataset: {name}", build, names=fname, says=says, category="evaluate results")


EVAL_CASES = [
    _system("zero bytes", b""),
    _system("a header only", "ID\tA-coref\tB-coref\n"),
    _system("IDs the dataset lacks", lambda rows: _sys_rows(rows, ids=["x1", "x2", "x3", "x4"])),
    _system("an ID given twice", lambda rows: _sys_rows(rows) + f"{rows[0]['ID']}\tFALSE\tTRUE\n"),
    _system("A-coref 'maybe'", lambda rows: _sys_rows(rows, a="maybe")),
    _system("no B-coref column", lambda rows: "ID\tA-coref\n" + "".join(f"{r['ID']}\tTRUE\n" for r in rows)),
    _system("a row of one field", lambda rows: _sys_rows(rows) + "lonely\n"),
    _system("not UTF-8 (UTF-16 without BOM)", lambda rows: _sys_rows(rows).encode("utf-16-le")),
    _system("an A-prob of NaN", lambda rows: "ID\tA-coref\tB-coref\tA-prob\tB-prob\n" + "".join(
        f"{r['ID']}\tTRUE\tFALSE\tnan\t0.1\n" for r in rows)),
    _system("an A-prob of 7", lambda rows: "ID\tA-coref\tB-coref\tA-prob\tB-prob\n" + "".join(
        f"{r['ID']}\tTRUE\tFALSE\t7\t0.1\n" for r in rows)),
    _system("JSON lines of a JSON array", "[1, 2, 3]\n", fname="s.jsonl"),
    _system("JSON lines without doc_key", '{"clusters": []}\n', fname="s.jsonl"),
    _system("JSON lines, a line not JSON", '{"doc_key": "0", "document": ["a"], "clusters": []}\n{oops\n',
            fname="s.jsonl"),
    _system("JSON lines, clusters not a list", '{"doc_key": "0", "document": ["a"], "clusters": 5}\n', fname="s.jsonl"),
    _system("a CoNLL file of no document", "# nothing\n", fname="s.conll"),
    Case("evaluate --system: a file that does not exist", lambda i, d: [
        "evaluate", "--dataset", str(i.dataset), "--out", str(d / "out"), "--system", f"s={d / 'missing.tsv'}"],
         names="missing.tsv", category="evaluate results"),
    Case("evaluate --system: one name given twice", lambda i, d: [
        "evaluate", "--dataset", str(i.dataset), "--out", str(d / "out"), "--resamples", "10",
        "--system", f"s={_w(d / 'a.tsv', _sys_rows(gap_dataset_rows()))}",
        "--system", f"s={_w(d / 'b.tsv', _sys_rows(gap_dataset_rows()))}"], category="evaluate results"),
    _system("CRLF line endings (read)", lambda rows: _sys_rows(rows).replace("\n", "\r\n"), expect="ok",
            says="Acc"),
    _system("a byte-order mark (read)", lambda rows: "\ufeff" + _sys_rows(rows), expect="ok", says="Acc"),
    _system("no header (the scorer's own form, read)", lambda rows: _sys_rows(rows, header=""), expect="ok", says="Acc"),
    _gold("zero bytes", b""),
    _gold("a header only", GAP_HEADER),
    _gold("a Parquet of random bytes", os.urandom(512), fname="gold.parquet"),
    _gold("a suffix no reader knows", "ID\tA-coref\n", fname="gold.xlsx"),
]


# ----------------------------------------------------------------------- MTurk results ------

def _results(name, change, expect="error", says="", fname="results.csv"):
    """annotate-import --results on the tiny MTurk CSV changed by ``change(text, inputs)``."""
    def build(inputs, d):
        data = change(_mturk_csv(inputs), inputs)
        path = _w(d / fname, data)
        return ["annotate-import", "--results", str(path), "--quadruples", str(inputs.quadruples), "--out",
                str(d / "out")]
    return Case(f"annotate-import: {name}", build, expect=expect, says=says,
                names=fname if expect == "error" else "", out=None, category="annotation results")


def _csv_edit(fn):
    """``fn(rows)`` on the CSV's rows (a list of lists, the header first), written back."""
    def change(text, inputs):
        import csv

        rows = list(csv.reader(io.StringIO(text)))
        fn(rows)
        buf = io.StringIO()
        csv.writer(buf).writerows(rows)
        return buf.getvalue()
    return change


def _col(rows, name):
    return rows[0].index(name)


RESULT_CASES = [
    _results("no WorkerId column", _csv_edit(lambda rows: [r.pop(2) for r in rows])),
    _results("answer spans that are not JSON", _csv_edit(lambda rows: rows[1].__setitem__(_col(rows, "Answer.q1_spans"), "[[0, 3,"))),
    _results("answer spans past the end of the text", _csv_edit(lambda rows: rows[1].__setitem__(
        _col(rows, "Answer.q1_spans"), "[[100000, 100004, \"Ann\"]]")), says="row 2: "),
    Case("annotate-import: answer spans of fractional offsets (0.9)", _results("", _csv_edit(
        lambda rows: rows[1].__setitem__(_col(rows, "Answer.q1_spans"), "[[0.9, 3.9, \"Ann\"]]"))).build,
         names="results.csv", says="row 2: ", category="annotation results"),
    _results("answer spans of negative offsets", _csv_edit(lambda rows: rows[1].__setitem__(
        _col(rows, "Answer.q1_spans"), "[[-4, -1, \"Ann\"]]"))),
    _results("answer spans of 1e400", _csv_edit(lambda rows: rows[1].__setitem__(
        _col(rows, "Answer.q1_spans"), "[[1e400, 3, \"Ann\"]]"))),
    _results("a question id the quadruples lack", _csv_edit(lambda rows: rows[1].__setitem__(
        _col(rows, "Input.q1_id"), "no-such-question"))),
    _results("an empty WorkerId", _csv_edit(lambda rows: rows[1].__setitem__(2, ""))),
    _results("Answer.q1_none 'perhaps'", _csv_edit(lambda rows: rows[1].__setitem__(_col(rows, "Answer.q1_none"), "perhaps"))),
    _results("a row cut in the middle (truncated download)", lambda text, i: text[: text.index("\n", len(text) // 2) - 20]),
    _results("a row of more fields than the header", _csv_edit(lambda rows: rows[2].append("extra"))),
    _results("tab-separated instead of comma-separated", lambda text, i: text.replace(",", "\t")),
    _results("zero bytes", lambda text, i: b""),
    _results("one assignment twice", _csv_edit(lambda rows: rows.append(list(rows[1])))),
    _results("a byte-order mark (read)", lambda text, i: "\ufeff" + text, expect="ok", says="votes"),
    _results("CRLF line endings (read)", lambda text, i: text.replace("\r\n", "\n").replace("\n", "\r\n"),
             expect="ok", says="votes"),
]


# ----------------------------------------------------------------------- name spans ---------

TEXTS = {"t-1": "Ann met Cleo.", "t-2": "Bob left."}
GOOD_SPANS = {"t-1": [[0, 3, "Ann"], [8, 12, "Cleo"]], "t-2": [[0, 3, "Bob"]]}


def _spans(name, content, expect="error", says=""):
    def build(inputs, d):
        from pipeline.formats.dataset_files import read_name_spans

        data = content if isinstance(content, (str, bytes)) else json.dumps(content)
        path = _w(d / "spans.json", data)
        return lambda: read_name_spans(path, TEXTS)
    return Case(f"--name-spans: {name}", build, expect=expect, says=says,
                names="spans.json" if expect == "error" else "", category="name spans")


SPAN_CASES = [
    _spans("not JSON", '{"t-1": [[0, 3, "Ann"]'),
    _spans("a JSON list", [[0, 3, "Ann"]]),
    _spans("zero bytes", b""),
    _spans("an ID of the dataset missing", {"t-1": GOOD_SPANS["t-1"]}),
    _spans("an offset past the end of the text", {**GOOD_SPANS, "t-2": [[0, 300, "Bob"]]}),
    _spans("a span whose text is not the text at its offsets", {**GOOD_SPANS, "t-2": [[0, 3, "Tom"]]}),
    _spans("an end before its start", {**GOOD_SPANS, "t-2": [[3, 0, "Bob"]]}),
    _spans("NaN as an offset", '{"t-1": [[0, 3, "Ann"], [8, 12, "Cleo"]], "t-2": [[NaN, 3, "Bob"]]}'),
    _spans("a span of two numbers only", {**GOOD_SPANS, "t-2": [[0, 3]]}),
    _spans("a span as an object", {**GOOD_SPANS, "t-2": [{"start": 0, "end": 3}]}),
    _spans("true as an offset", {**GOOD_SPANS, "t-2": [[True, 3, "Bob"]]}),
    _spans("nested 100,000 deep", "[" * 100_000 + "]" * 100_000),
    _spans("not UTF-8", json.dumps(GOOD_SPANS).replace("Ann", "Ann\u00e9").encode("latin-1")),
    _spans("the examples as given (read)", GOOD_SPANS, expect="ok", says="Cleo"),
]

PROBES += EVAL_CASES + RESULT_CASES + SPAN_CASES


# ----------------------------------------------------------------------- HTML in text fields

XSS = '<script>alert("x")</script><img src=x onerror=alert(1)>'
RAW = ("<script>alert", "<img src=x")
H = "HTML in text fields"


def _raw_in(text: str) -> str:
    return next((r for r in RAW if r in text), "")


def _html_quadruples(path: Path, in_names: bool = False) -> list[dict]:
    """The tiny quadruples with HTML appended to every text (offsets unchanged) and, with
    ``in_names``, a book title of HTML."""
    from tests.annotation.helpers import make_quadruple, write_quadruples

    rows = make_quadruple("1") + make_quadruple("2", "feminine")
    for r in rows:
        r["text"] = r["text"] + " " + XSS
        if in_names:
            r["book"] = XSS
    write_quadruples(rows, path)
    return rows


def _annotate_pages(inputs, d):
    """The annotate app with HTML in every text and an annotator name of HTML: no HTML page holds
    it raw, and every answer that holds it is JSON."""
    def run():
        from pipeline.annotation.web.app import create_app
        from tests.web.helpers import page_client

        rows = _html_quadruples(d / "q.parquet", in_names=True)
        client = page_client(create_app(d / "q.parquet", d / "a.sqlite", assignments=2))
        seen = []
        for url in ("/", f"/api/next?annotator={XSS}", "/api/next?annotator=ann", "/static/app.js",
                    "/no-such-page<script>alert(1)</script>"):
            res = client.get(url)
            seen.append((url, res.mimetype, res.get_data(as_text=True)))
        res = client.post("/api/answer", json={"annotator": XSS, "id": rows[0]["id"], "spans": [], "none": True})
        seen.append(("POST /api/answer", res.mimetype, res.get_data(as_text=True)))
        for url, mime, body in seen:
            if mime != "application/json" and _raw_in(body):
                return f"UNESCAPED in {url} ({mime})"
        return "escaped"
    return run


def _experiment_pages(inputs, d):
    def run():
        from pipeline.humans.web.app import create_app
        from tests.humans.experiment_helpers import qa_plan_file
        from tests.web.helpers import page_client

        qa_plan_file(d / "plan.parquet")
        client = page_client(create_app(d / "plan.parquet", d / "e.sqlite"))
        seen = []
        for method, url, body in (("post", "/api/start", {"key": XSS, "consent": True}),
                                  ("get", f"/api/state?key={XSS}", None), ("get", "/", None),
                                  ("get", f"/?key={XSS}", None), ("get", "/static/experiment.js", None)):
            res = getattr(client, method)(url, json=body) if body else getattr(client, method)(url)
            seen.append((url, res.mimetype, res.get_data(as_text=True)))
        for url, mime, text in seen:
            if mime != "application/json" and _raw_in(text):
                return f"UNESCAPED in {url} ({mime})"
        return "escaped"
    return run


def _scripts_never_parse_html(inputs, d):
    """The pages' scripts put data into the page as text: no innerHTML / outerHTML /
    insertAdjacentHTML / document.write but clearing an element (``= ""``)."""
    def run():
        import re

        root = Path(__file__).resolve().parents[2] / "pipeline" / "web"
        for js in sorted(root.rglob("*.js")):
            for n, line in enumerate(js.read_text(encoding="utf-8").splitlines(), 1):
                if re.search(r"\.(innerHTML|outerHTML)\s*=(?!\s*\"\"\s*;)|insertAdjacentHTML|document\.write", line):
                    return f"UNESCAPED: {js.name}:{n}: {line.strip()}"
        return "escaped"
    return run


def _export_html(inputs, d):
    """annotate-export of quadruples holding HTML: the preview page and the MTurk template carry
    it escaped (the MTurk CSV holds it HTML-escaped, as MTurk substitutes it raw)."""
    def build():
        _html_quadruples(d / "q.parquet", in_names=True)
        return ["annotate-export", "--quadruples", str(d / "q.parquet"), "--out", str(d / "export"),
                "--checks", "0"]
    return build()


def _export_check(d, text):
    for p in sorted((d / "export").rglob("*")):
        if p.is_file() and p.suffix in (".html", ".csv") and _raw_in(p.read_text(encoding="utf-8", errors="replace")):
            return f"UNESCAPED in {p.name}"
    if "&lt;script&gt;" not in (d / "export" / "preview.html").read_text(encoding="utf-8"):
        return "the texts are not in preview.html: the probe shows nothing"
    return None


def _report_html(inputs, d):
    """evaluate --report with HTML in the dataset's IDs and texts and in a system's name."""
    from pipeline.formats.gap_tsv import write_gap_tsv

    rows = gap_dataset_rows()
    for r in rows:
        r["ID"] = r["ID"].replace("0", "<b>0</b>", 1)
        r["URL"] = XSS
    write_gap_tsv(rows, d / "gold.tsv")
    system = _w(d / "s.tsv", "ID\tA-coref\tB-coref\n" + "".join(
        f"{r['ID']}\t{'TRUE' if k % 2 else 'FALSE'}\tFALSE\n" for k, r in enumerate(rows)))
    return ["evaluate", "--dataset", str(d / "gold.tsv"), "--out", str(d / "out"), "--resamples", "10",
            "--system", f"<script>alert(1)</script>{system.name}={system}", "--report"]


def _report_check(d, text):
    page = d / "out" / "report.html"
    if not page.exists():
        return "no report.html"
    body = page.read_text(encoding="utf-8")
    if _raw_in(body) or "<b>0</b>" in body:
        return "UNESCAPED in report.html"
    if "&lt;script&gt;alert(1)" not in body:
        return "the system's name is not in report.html: the probe shows nothing"
    return None


def _votes_html(inputs, d):
    """annotate-import of votes whose WorkerIds and contradiction notes hold HTML: published as
    pseudonyms, the notes nowhere raw in an HTML-rendered file (README.md of the card)."""
    text = _mturk_csv(inputs).replace("W2", "<img src=x onerror=alert(1)>")
    path = _w(d / "results.csv", text)
    return ["annotate-import", "--results", str(path), "--quadruples", str(inputs.quadruples), "--out", str(d / "out")]


def _card_check(d, text):
    for p in sorted((d / "out").rglob("*")):
        if p.is_file() and p.suffix in (".md", ".json", ".tsv") and _raw_in(p.read_text(encoding="utf-8", errors="replace")):
            return f"UNESCAPED in {p.name}"
    return None


HTML_CASES = [
    Case("HTML in texts, book titles and annotator names: the annotate app's pages", _annotate_pages,
         expect="ok", says="escaped", category=H),
    Case("HTML in a participant key: the experiment app's pages", _experiment_pages, expect="ok", says="escaped",
         category=H),
    Case("HTML in any data: the web apps' scripts never parse it as HTML", _scripts_never_parse_html,
         expect="ok", says="escaped", category=H),
    Case("HTML in texts and book titles: annotate-export's task pages", _export_html, expect="ok", says="",
         check=_export_check, category=H),
    Case("HTML in IDs, URLs and a system's name: evaluate's report.html", _report_html, expect="ok", says="",
         check=_report_check, category=H),
    Case("HTML in WorkerIds: annotate-import's published files", _votes_html, expect="ok", says="",
         check=_card_check, category=H),
]


# ----------------------------------------------------------------------- read-only, full disk

D = "read-only and full disks"


def _conll_cmd(inputs, d):
    return ["cda", "--conll", str(inputs.conll), "--mode", "acda", "--out", str(d / "out" / "out.conll"),
            "--no-progress"]


def _weights_cmd(inputs, d):
    return ["weights", "--dataset", str(inputs.dataset), "--out", str(d / "out" / "w.json")]


def _export_cmd(inputs, d):
    return ["annotate-export", "--quadruples", str(inputs.quadruples), "--out", str(d / "out"), "--checks", "0"]


def _evaluate_cmd(inputs, d):
    system = _w(d / "s.tsv", "ID\tA-coref\tB-coref\n" + "".join(f"{r['ID']}\tTRUE\tFALSE\n" for r in gap_dataset_rows()))
    return ["evaluate", "--dataset", str(inputs.dataset), "--out", str(d / "out"), "--resamples", "10",
            "--system", f"s={system}", "--report"]


def _label_cmd(inputs, d):
    return ["label", "--instances", str(inputs.instances), "--coref", str(inputs.conll), "--out", str(d / "out")]


def _generate_gap_cmd(inputs, d):
    return ["generate", "--gap-tsv", str(_w(d / "g.tsv", GAP_HEADER + ROW)), "--out", str(d / "out")]


def _write_failure(err: int, where: str):
    """Every write of a file's bytes fails with ``err`` (``os.write`` and the buffered file
    objects' flush do not go through one function: the atomic writers' ``fsync`` is hit
    instead, before any rename), naming nothing: the error line must name the file."""
    @contextlib.contextmanager
    def patch():
        real = os.fsync

        def fsync(fd):
            raise OSError(err, os.strerror(err))
        os.fsync = fsync
        try:
            yield
        finally:
            os.fsync = real
    return patch


DISK_CASES = []
for _name, _cmd in (("cda", _conll_cmd), ("weights", _weights_cmd), ("annotate-export", _export_cmd),
                    ("evaluate --report", _evaluate_cmd), ("label", _label_cmd), ("generate --gap-tsv", _generate_gap_cmd)):
    for _err, _what in ((errno.EROFS, "a read-only file system"), (errno.ENOSPC, "a full disk (rename)")):
        DISK_CASES.append(Case(f"{_name} onto {_what}", _cmd, patch=_failing_writes(_err), category=D,
                               says=os.strerror(_err)))
DISK_CASES.append(Case("cda onto a disk that reports ENOSPC at fsync (NFS, delayed allocation)", _conll_cmd,
                       patch=_write_failure(errno.ENOSPC, ""), category=D, says="No space left on device",
                       names="out.conll"))

PROBES += HTML_CASES + DISK_CASES
