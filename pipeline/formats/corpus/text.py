"""Bytes -> text -> a book of paragraphs: Project Gutenberg plain text, other .txt books,
.epub books.

A book becomes a list of paragraphs (each one line of text); the book text that every
``book_*`` offset refers to is ``"\\n\\n".join(paragraphs)``.

Encoding (:func:`decode`), in this order; the result is reported per book (``encoding``,
``encoding_source`` in books.parquet):

1. a byte-order mark (UTF-8, UTF-16, UTF-32): that encoding (``bom``);
2. a NUL byte anywhere (outside UTF-16/32 with a BOM): not text, the book is skipped
   (``binary: NUL byte at offset N``);
3. the encoding the Gutenberg header declares (``Character set encoding: ISO-8859-1`` in the
   first 20,000 bytes; spellings such as ``ISO Latin-1``, ``Unicode UTF-8``, ``US-ASCII``,
   ``CP-1252`` are understood) when the bytes decode with it (``declared``). One exception: an
   8-bit declaration (ISO-8859-x, windows-125x) on bytes that are valid UTF-8 *with* non-ASCII
   characters is a mislabelled UTF-8 file (Latin-1 text is practically never valid UTF-8), and
   it is read as UTF-8 (``default; declared … does not fit``). A declaration naming no text
   encoding Python knows (``base64`` and ``rot-13`` are codecs, not text encodings) skips the
   book (``unknown encoding declared: …``): any reading would be a guess;
4. UTF-8 (``default``);
5. the encoding charset-normalizer detects (``detected``); none -> skipped (``undecodable``).

Texts that arrive decoded (epub, table cells) have ``encoding_source`` ``container``.

* Gutenberg files: only the text between the ``*** START OF`` and ``*** END OF`` lines is
  kept; ebook number, title, author and language come from the header; CRLF is handled;
  hard-wrapped lines are unwrapped into paragraphs (blank lines separate paragraphs);
  ``_italics_`` are kept as written.
* Other ``.txt`` books (BookCorpus style): paragraphs separated by blank lines, or one
  paragraph per line. The file is taken as hard-wrapped (blank lines separate paragraphs)
  when it has blank lines, its blocks average at least 1.5 lines and 95 % of its lines are
  at most ``WRAP_WIDTH`` characters long; otherwise one line = one paragraph.
* ``.epub`` books via EbookLib: the documents of the spine in reading order, one paragraph per
  ``<p>`` (or heading) element, title and author from the Dublin Core metadata.

May import: the standard library, charset-normalizer, EbookLib and lxml (inside functions),
:mod:`.base`.
"""

from __future__ import annotations

import codecs
import re

from pipeline.formats.corpus.base import Book, BookSkipped

_START = re.compile(r"^\*\*\*\s*START OF", re.IGNORECASE)
_END = re.compile(r"^\*\*\*\s*END OF", re.IGNORECASE)
_EBOOK_NO = re.compile(r"\[\s*(?:e-?book|etext)\s*#\s*(\d+)\s*\]", re.IGNORECASE)
_EBOOK_NO_LOOSE = re.compile(r"(?:e-?book|etext)\s*#\s*(\d+)", re.IGNORECASE)
_ENCODING = re.compile(r"^Character set encoding:[ \t]*([^\r\n]*)", re.IGNORECASE | re.MULTILINE)
_WS = re.compile(r"\s+")
WRAP_WIDTH = 100
DECLARATION_BYTES = 20_000
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF8, "utf-8-sig"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


# ------------------------------------------------------------------ encodings ------------

def declared_encoding(data: bytes) -> tuple[str, str] | None:
    """(declaration as written, Python codec name or "" when unknown) of a Gutenberg
    ``Character set encoding:`` line in the first bytes; None without one."""
    m = _ENCODING.search(data[:DECLARATION_BYTES].decode("ascii", errors="replace"))
    if not m or not m.group(1).strip():
        return None
    written = m.group(1).strip()
    return written, encoding_name(written)


def encoding_name(declared: str) -> str:
    """A declared encoding -> Python codec name ("" when unknown)."""
    low = declared.lower()
    if re.search(r"utf-?8", low):
        return "utf-8"
    m = re.search(r"8859-?(\d+)", low)
    if m:
        return f"iso-8859-{m.group(1)}" if _known(f"iso-8859-{m.group(1)}") else ""
    if re.search(r"latin-?1\b", low):
        return "iso-8859-1"
    m = re.search(r"(?:windows|win|cp)[- ]?(125\d)", low)
    if m:
        return f"cp{m.group(1)}"
    if "ascii" in low or "646" in low:
        return "ascii"
    token = re.split(r"[\s(]", low.strip())[0]
    if not token:
        return ""
    try:
        info = codecs.lookup(token)
    except LookupError:
        return ""
    # base64, rot-13, zlib...: codecs Python knows that are not text encodings (bytes.decode
    # refuses them): as unknown as a name Python never heard of
    return info.name if getattr(info, "_is_text_encoding", True) else ""


def _known(name: str) -> bool:
    try:
        codecs.lookup(name)
        return True
    except LookupError:
        return False


def _is_8bit(name: str) -> bool:
    return name.startswith(("iso-8859", "iso8859", "cp125", "latin"))


def decode(data: bytes) -> tuple[str, str, str]:
    """Bytes -> (text, encoding, encoding source); raises :class:`BookSkipped`. See the module
    docstring for the order."""
    if not data.strip():
        raise BookSkipped("empty")
    for bom, name in _BOMS:
        if data.startswith(bom):
            try:
                text = data.decode(name)
            except UnicodeDecodeError as exc:
                raise BookSkipped("undecodable", f"{name} BOM but {exc.reason} at byte {exc.start}") from None
            if "\x00" in text:
                raise BookSkipped("binary", f"NUL character at offset {text.index(chr(0))}")
            return text, "utf-8" if name == "utf-8-sig" else name, "bom"
    nul = data.find(b"\x00")
    if nul >= 0:
        raise BookSkipped("binary", f"NUL byte at offset {nul}")
    declared = declared_encoding(data)
    note = ""
    if declared is not None:
        written, name = declared
        if not name:
            raise BookSkipped("unknown encoding declared", repr(written))
        try:
            text = data.decode(name)
        except LookupError:                # not a text encoding after all
            raise BookSkipped("unknown encoding declared", repr(written)) from None
        except UnicodeDecodeError:
            note = f"; declared {written} does not fit"
        else:
            if _is_8bit(name) and not data.isascii():
                try:
                    return data.decode("utf-8"), "utf-8", f"default; declared {written} does not fit"
                except UnicodeDecodeError:
                    pass
            return text, codecs.lookup(name).name, "declared"
    try:
        return data.decode("utf-8"), "utf-8", "default" + note
    except UnicodeDecodeError as exc:
        utf8_error = f"not UTF-8 ({exc.reason} at byte {exc.start})"
    from charset_normalizer import from_bytes

    best = from_bytes(data).best()
    if best is None or best.encoding is None:
        raise BookSkipped("undecodable", utf8_error + ", no encoding detected")
    return str(best), codecs.lookup(best.encoding).name, "detected" + note


# ------------------------------------------------------------------ paragraphs -----------

def _lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


# a heading standing on a line of its own inside a block of text, with no blank line around it:
# a chapter's number set in the middle of the line ("                    V" before the
# chapter's first line), or a line led by a heading word in capitals ("CHAPTER XI")
_HEADING_LINE = re.compile(r"^(?:[ \t]{2,}[IVXLCDM]{1,8}\.?|[ \t]*(?:CHAPTER|BOOK|PART|VOLUME|STAVE|CANTO)"
                           r"(?:[ \t]+[A-Z0-9][\w.,:;'’\-]*){1,8})[ \t]*$")


def unwrap(lines: list[str]) -> list[str]:
    """Hard-wrapped lines -> paragraphs (blank lines separate paragraphs; spaces collapsed). A
    heading line inside a block (:data:`_HEADING_LINE`) is a paragraph of its own: glued to
    the text after it, a window would start with "V" or read across the chapter's end."""
    paragraphs, current = [], []
    for line in lines:
        if line.strip() and _HEADING_LINE.match(line):
            if current:
                paragraphs.append(_WS.sub(" ", " ".join(current)))
                current = []
            paragraphs.append(line.strip())
        elif line.strip():
            current.append(line.strip())
        elif current:
            paragraphs.append(_WS.sub(" ", " ".join(current)))
            current = []
    if current:
        paragraphs.append(_WS.sub(" ", " ".join(current)))
    return paragraphs


def _header_field(header: list[str], name: str) -> str:
    for i, line in enumerate(header):
        if line.lower().startswith(name.lower() + ":"):
            value = line.split(":", 1)[1].strip()
            # continuation lines are indented
            for nxt in header[i + 1:]:
                if nxt.startswith((" ", "\t")) and nxt.strip():
                    value += " " + nxt.strip()
                else:
                    break
            return value
    return ""


def is_gutenberg(text: str) -> bool:
    return any(_START.match(line) for line in _lines(text[:60000]))


def parse_gutenberg(text: str, book_id: str, rel: str, stem: str) -> Book:
    lines = _lines(text)
    start = next((i for i, l in enumerate(lines) if _START.match(l)), None)
    if start is None:
        raise BookSkipped("no text", "no '*** START OF' line")
    end = next((i for i, l in enumerate(lines) if i > start and _END.match(l)), len(lines))
    header = lines[:start]
    header_text = "\n".join(header + [lines[start]])
    m = _EBOOK_NO.search(header_text) or _EBOOK_NO_LOOSE.search(header_text)
    paragraphs = unwrap(lines[start + 1:end])
    # Drop the volunteer credit that Gutenberg puts right after the START line.
    while paragraphs and re.match(r"^(produced by|e-?text prepared by|transcribed from)", paragraphs[0], re.I):
        paragraphs.pop(0)
    # ... and the "End of the Project Gutenberg EBook of ..." line right before the END line.
    while paragraphs and re.match(r"^end of (the )?project gutenberg", paragraphs[-1], re.I):
        paragraphs.pop()
    return Book(book_id, _header_field(header, "Title") or stem, _header_field(header, "Author"),
                rel, "gutenberg", paragraphs, ebook=m.group(1) if m else "",
                language=_header_field(header, "Language"))


def parse_plain(text: str, book_id: str, rel: str, stem: str) -> Book:
    lines = _lines(text)
    lengths = sorted(len(l.rstrip()) for l in lines if l.strip())
    blocks = unwrap(lines)
    p95 = lengths[int(0.95 * (len(lengths) - 1))] if lengths else 0
    if len(blocks) > 1 and len(lengths) / len(blocks) >= 1.5 and p95 <= WRAP_WIDTH:
        fmt, paragraphs = "txt-paragraphs", blocks
    else:
        fmt, paragraphs = "txt-lines", [_WS.sub(" ", l.strip()) for l in lines if l.strip()]
    return Book(book_id, stem, "", rel, fmt, paragraphs)


def parse_text(text: str, book_id: str, rel: str, stem: str) -> Book:
    """Decoded text -> a book (Gutenberg when it has a ``*** START OF`` line, else plain)."""
    return parse_gutenberg(text, book_id, rel, stem) if is_gutenberg(text) else parse_plain(text, book_id, rel, stem)


def book_from_bytes(data: bytes, book_id: str, rel: str, stem: str) -> Book:
    text, encoding, source = decode(data)
    book = parse_text(text, book_id, rel, stem)
    book.encoding, book.encoding_source = encoding, source
    return book


def parse_epub(path: str, book_id: str, rel: str, stem: str) -> Book:
    import ebooklib
    import lxml.html
    from ebooklib import epub

    try:
        book = epub.read_epub(str(path), options={"ignore_ncx": True})
    except Exception as exc:  # EbookLib raises a zoo of exceptions for broken files
        raise BookSkipped("unreadable epub", str(exc)) from None

    def meta(name: str) -> str:
        values = book.get_metadata("DC", name)
        return values[0][0].strip() if values and values[0][0] else ""

    paragraphs = []
    for item_id, _linear in book.spine:
        item = book.get_item_with_id(item_id)
        if item is None or item.get_type() != ebooklib.ITEM_DOCUMENT:
            continue
        content = item.get_content()
        if not content.strip():
            continue
        try:
            tree = lxml.html.fromstring(content)
        except Exception:
            continue
        for el in tree.iter("p", "h1", "h2", "h3", "h4", "h5", "h6", "div"):
            if el.tag == "div" and el.find(".//p") is not None:
                continue
            if el.tag == "div" and any(c.tag == "div" for c in el):
                continue
            para = _WS.sub(" ", el.text_content()).strip()
            if para:
                paragraphs.append(para)
    return Book(book_id, meta("title") or stem, meta("creator"), rel, "epub", paragraphs,
                encoding="utf-8", encoding_source="container", language=meta("language"))
