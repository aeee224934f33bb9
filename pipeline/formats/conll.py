"""Streaming reader/writer for CoNLL-2012 ``*_gold_conll`` files (OntoNotes), with validation.

Format::

    #begin document (bc/cctv/00/cctv_0001); part 000
    bc/cctv/00/cctv_0001  0  0  Hello  UH  (TOP(INTJ*)  -  -  -  Speaker#1  *  (7)
    ...                                               (blank line between sentences)
    #end document

Token lines hold whitespace-separated columns: 1 document id, 2 part, 3 word number, 4 word,
5 POS, 6 parse bit, 7 predicate lemma, 8 frameset, 9 word sense, 10 speaker, 11 named
entities, 12..N-1 predicate arguments, N coreference (``-`` or ``|``-separated ``(k``,
``(k)``, ``k)``). So a token line has at least 12 columns, and every token of a sentence has
as many columns as the sentence's first token.

The files as distributed vary, and all are read:

* OntoNotes: space-aligned columns, POS in column 5;
* WinoBias (``conll_format/*.v4_auto_conll``): tab-separated, POS and parse ``-``;
* LitBank: 13 tab-separated columns, ``_`` in columns 5-12, and the coreference column
  EMPTY on tokens outside any mention (the line ends with a tab).

A line that holds a tab is split at tabs (so empty fields count); otherwise at runs of
whitespace. In the coreference column ``-``, ``_`` and the empty string mean "no mention".
:attr:`Document.has_pos` says whether the POS column holds tags (not ``-``/``_``/empty).

:func:`read_documents` is a generator: it holds one document at a time, so memory does not
grow with the file. Every line is kept as read (line endings included), so writing a
document's ``prefix + lines + suffix`` reproduces the input byte for byte;
:func:`replace_words` swaps only the word field of token lines.

:func:`ne_spans` gives a document's spans of one label in the named-entity column (column 11,
bracket notation ``(PERSON*`` ... ``*)``, ``(PERSON)``), or None when the column carries no
named entities (LitBank's ``_``; WinoBias's and :func:`write_conll`'s ``*`` everywhere).

:func:`document_clusters` gives a document's mentions as clusters of inclusive token spans;
:func:`write_conll` writes documents (tokens + clusters) as a CoNLL-2012 key file.

Errors (:class:`pipeline.errors.InputError`, with the file and 1-based line number): a token line
with too few columns or a column count differing from its sentence, a malformed or unbalanced
coreference column (a cluster closed that is not open, or still open at ``#end document`` --
reported at the line that opened it), ``#begin document`` inside a document, a document
without ``#end document``, token lines outside a document, a document id (with its part)
given twice. An id holding ``)`` is read whole, up to the last ``)`` before ``; part``.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Iterator

from pipeline.errors import InputError

MIN_COLUMNS = 12
WORD_COL, POS_COL = 3, 4          # 0-based
NE_COL = 10                       # 0-based: named entities, in lines of at least 12 columns
_NE_VALUE = re.compile(r"(?:\((?P<label>[^()*\s]+))?(?P<star>\*)?(?P<close>\))?")
NO_TAG = frozenset({"-", "_", ""})
NO_COREF = frozenset({"-", "_", ""})
BEGIN_RE = re.compile(r"#begin document \((?P<id>.*?)\)(?:;\s*part\s+(?P<part>\S+)|\s*$)")
END_PREFIX = "#end document"
_FIELD = re.compile(r"\S+")
_COREF_PART = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


@dataclass
class Document:
    doc_id: str
    begin: int                       # 1-based line number of "#begin document"
    lines: list[str]                 # raw lines from "#begin document" to "#end document"
    token_rows: list[int] = field(default_factory=list)   # indices into lines
    words: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    corefs: list[str] = field(default_factory=list)               # the last column per token
    nes: list[str] = field(default_factory=list)     # the named-entity column ("" if none)
    sentence_starts: list[int] = field(default_factory=list)      # token index of each sentence
    prefix: list[str] = field(default_factory=list)  # raw lines before "#begin" (blank, comments)
    suffix: list[str] = field(default_factory=list)  # raw lines after the last document (EOF)
    id_span: tuple[int, int] = (0, 0)                # the id inside lines[0]

    @property
    def n_tokens(self) -> int:
        return len(self.token_rows)

    @property
    def has_pos(self) -> bool:
        """True when the POS column holds tags (WinoBias writes ``-``, LitBank ``_``)."""
        return any(t not in NO_TAG for t in self.tags)

    def sentences(self) -> list[tuple[int, int]]:
        """(first token, end token exclusive) of each sentence."""
        ends = self.sentence_starts[1:] + [self.n_tokens]
        return list(zip(self.sentence_starts, ends))

    def raw(self) -> str:
        return "".join(self.prefix) + "".join(self.lines) + "".join(self.suffix)


def split_columns(line: str) -> list[str]:
    """The columns of a token line: at tabs when the line holds one (empty fields kept, as
    LitBank's empty coreference column), else at runs of whitespace."""
    body = line.rstrip("\r\n")
    if "\t" in body:
        return [c.strip(" ") for c in body.split("\t")]
    return body.split()


def _check_coref(value: str, open_: dict[str, list[int]], path, lineno: int) -> None:
    if value in NO_COREF:
        return
    for part in value.split("|"):
        m = _COREF_PART.fullmatch(part)
        if m is None:
            raise InputError(f"malformed coreference column {value!r}", path, lineno)
        single, opening, closing = m.groups()
        if opening is not None:
            open_.setdefault(opening, []).append(lineno)
        elif closing is not None:
            stack = open_.get(closing)
            if not stack:
                raise InputError(f"coreference bracket {closing}) closes cluster {closing}, which is not open",
                                 path, lineno)
            stack.pop()


def _undecodable_line(path) -> int | None:
    """The number of the first line that is not UTF-8: the text reader decodes a block ahead,
    so its own line count (the line before the block) is not where the bad byte is."""
    with open(path, "rb") as fh:
        for lineno, raw in enumerate(fh, start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError:
                return lineno
    return None


def read_documents(path: str | os.PathLike, min_columns: int = MIN_COLUMNS) -> Iterator[Document]:
    """Yield the documents of a CoNLL-2012 file one at a time, validating as it goes.

    A document is yielded once the next ``#begin document`` (or the end of the file) is
    reached, so lines between documents become the next document's ``prefix`` and lines
    after the last one its ``suffix``.
    """
    if not os.path.exists(path):
        raise InputError("file not found", path)
    if os.path.isdir(path):
        raise InputError("a directory, not a CoNLL-2012 file", path)
    doc: Document | None = None      # the document being read
    done: Document | None = None     # the last complete document, not yielded yet
    pending: list[str] = []          # lines outside documents
    open_: dict[str, list[int]] = {}
    sent_cols = 0
    new_sentence = True
    lineno = 0
    seen: dict[tuple[str, str], int] = {}      # (id, part) -> the line that began it
    with open(path, encoding="utf-8", newline="") as fh:
        try:
            for lineno, line in enumerate(fh, start=1):
                if "\0" in line:
                    raise InputError("a NUL byte (binary data, not CoNLL-2012 text)", path, lineno)
                if lineno == 1 and line.startswith("\ufeff"):      # a byte-order mark (Windows editors)
                    line = line[1:]
                stripped = line.strip()
                if doc is None:
                    if stripped.startswith("#begin document"):
                        m = BEGIN_RE.match(stripped)
                        if m is None:
                            raise InputError("malformed '#begin document' line (expected "
                                             "'#begin document (ID); part NNN')", path, lineno)
                        key = (m.group("id"), m.group("part") or "")
                        if not key[0].strip():
                            raise InputError("an empty document id: '#begin document ()'", path, lineno)
                        if key in seen:
                            raise InputError(f"document {key[0]!r}" + (f" part {key[1]}" if key[1] else "")
                                             + f" is given twice (first at line {seen[key]}): every "
                                             "document needs its own id", path, lineno)
                        seen[key] = lineno
                        if done is not None:
                            yield done
                            done = None
                        offset = line.index("(") + 1
                        doc = Document(m.group("id"), lineno, [line], prefix=pending,
                                       id_span=(offset, offset + len(m.group("id"))))
                        pending, open_, sent_cols = [], {}, 0
                        new_sentence = True
                    elif not stripped or stripped.startswith("#"):
                        pending.append(line)
                    else:
                        raise InputError("token line outside a document (no '#begin document' before it)",
                                         path, lineno)
                    continue
                doc.lines.append(line)
                if not stripped:
                    sent_cols = 0
                    new_sentence = True
                    continue
                if stripped.startswith(END_PREFIX):
                    for cluster, stack in open_.items():
                        if stack:
                            raise InputError(f"coreference cluster {cluster} opened here is never closed "
                                             f"before '#end document' (line {lineno})", path, stack[0])
                    done, doc = doc, None
                    continue
                if stripped.startswith("#begin document"):
                    raise InputError(f"'#begin document' inside document {doc.doc_id!r} (begun at line "
                                     f"{doc.begin}): '#end document' is missing", path, lineno)
                if stripped.startswith("#"):
                    continue
                cols = split_columns(line)
                if len(cols) < min_columns:
                    raise InputError(f"too few columns: {len(cols)}, a CoNLL-2012 token line has at "
                                     f"least {min_columns}", path, lineno)
                if sent_cols and len(cols) != sent_cols:
                    raise InputError(f"{len(cols)} columns, but the sentence's first token has {sent_cols}",
                                     path, lineno)
                sent_cols = len(cols)
                _check_coref(cols[-1], open_, path, lineno)
                if new_sentence:
                    doc.sentence_starts.append(len(doc.token_rows))
                    new_sentence = False
                doc.token_rows.append(len(doc.lines) - 1)
                doc.words.append(cols[WORD_COL])
                doc.tags.append(cols[POS_COL] if len(cols) > POS_COL else "")
                doc.corefs.append(cols[-1])
                doc.nes.append(cols[NE_COL] if len(cols) >= MIN_COLUMNS else "")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 ({exc.reason})", path, _undecodable_line(path)) from None
    if doc is not None:
        raise InputError(f"document {doc.doc_id!r} (begun at line {doc.begin}) has no '#end document'",
                         path, lineno)
    if done is not None:
        done.suffix = pending
        yield done
    elif any(line.strip() for line in pending):
        raise InputError("no '#begin document' in the file", path, lineno)


def replace_field(line: str, index: int, new: str) -> str:
    """``line`` with its ``index``-th whitespace-separated field replaced by ``new``; the
    bytes of every other field are kept.

    When the length changes, the following columns keep their positions where possible: the
    difference is taken from (or given to) the run of spaces before the field -- OntoNotes
    right-aligns the word column -- keeping at least one space, then from the run after it.
    A tab-separated line (WinoBias, LitBank) is split at its tabs and only the field
    changes; tabs are never touched.
    """
    body = line.rstrip("\r\n")
    if "\t" in body:
        parts = body.split("\t")
        parts[index] = new
        return "\t".join(parts) + line[len(body):]
    it = _FIELD.finditer(line)
    prev = None
    for _ in range(index):
        prev = next(it)
    m = next(it)
    s, e = m.span()
    if line[s:e] == new:
        return line
    nxt = next(it, None)
    gs = prev.end() if prev is not None else 0
    ge = nxt.start() if nxt is not None else e
    before, after = line[gs:s], line[e:ge]
    delta = len(new) - (e - s)          # > 0: the new word is longer
    if prev is not None and before and set(before) == {" "}:
        if delta < 0:
            before = before + " " * -delta
            delta = 0
        else:
            take = min(delta, len(before) - 1)
            before = before[take:]
            delta -= take
    if delta > 0 and nxt is not None and after and set(after) == {" "}:
        after = after[min(delta, len(after) - 1):]
    return line[:gs] + before + new + after + line[ge:]


def replace_words(doc: Document, new_words: list[str], suffix: str) -> list[str]:
    """The lines of an augmented copy of ``doc``: document id suffixed in the
    ``#begin document`` line, word fields replaced, everything else as read. Always ends with
    a newline."""
    s, e = doc.id_span
    out = [doc.lines[0][:e] + suffix + doc.lines[0][e:]]
    out.extend(doc.lines[1:])
    for row, old, new in zip(doc.token_rows, doc.words, new_words):
        if new != old:
            out[row] = replace_field(out[row], WORD_COL, new)
    if out and not out[-1].endswith("\n"):
        out[-1] += "\n"
    return out


def ne_spans(doc: Document, label: str = "PERSON",
             path: str | os.PathLike | None = None) -> list[tuple[int, int]] | None:
    """Inclusive token spans of the entities labelled ``label`` in ``doc``'s named-entity
    column (OntoNotes' bracket notation: ``(PERSON*`` opens, ``*)`` closes, ``(PERSON)`` and
    ``(PERSON*)`` are one-token entities, ``*`` is any other token).

    None when the document carries no named-entity column: a value that is not bracket
    notation (LitBank's ``_``, ``-``) or no entity of any label in the whole document (WinoBias
    and the files :func:`write_conll` writes hold ``*`` on every token). An entity opened
    inside another or never closed, or a closing bracket with none open, is an
    :class:`InputError` at its line (``path`` names the file)."""
    values = doc.nes
    if not values:
        return None
    parsed = []
    for v in values:
        m = _NE_VALUE.fullmatch(v) if v else None
        if m is None or not (m.group("star") or (m.group("label") and m.group("close"))):
            return None
        parsed.append(m)
    if not any(m.group("label") for m in parsed):
        return None
    spans: list[tuple[int, int]] = []
    open_at: int | None = None
    open_label = ""
    for i, m in enumerate(parsed):
        lineno = doc.begin + doc.token_rows[i]
        if m.group("label"):
            if open_at is not None:
                raise InputError(f"named entity ({m.group('label')} opened inside ({open_label}, which is "
                                 f"not closed", path, lineno)
            open_at, open_label = i, m.group("label")
        if m.group("close"):
            if open_at is None:
                raise InputError("named-entity column closes an entity that is not open", path, lineno)
            if open_label == label:
                spans.append((open_at, i))
            open_at = None
    if open_at is not None:
        raise InputError(f"named entity ({open_label} is never closed", path,
                         doc.begin + doc.token_rows[open_at])
    return spans


PERSON_SOURCES_HEADER = ("document", "person_source", "person_spans", "person_tokens", "names_replaced")


def write_person_sources(rows, target: str | os.PathLike) -> None:
    """``cda``'s per-document record of where the PERSON spans came from: a TSV with the
    header :data:`PERSON_SOURCES_HEADER` (person_source ``ne-column`` or ``detection``),
    written atomically."""
    from pipeline.formats.files import atomic_path

    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        fh.write("\t".join(PERSON_SOURCES_HEADER) + "\n")
        for r in rows:
            fh.write("\t".join(str(r[k]) for k in PERSON_SOURCES_HEADER) + "\n")


def document_clusters(doc: Document) -> list[list[tuple[int, int]]]:
    """The mentions of ``doc``'s coreference column as clusters of inclusive token spans,
    clusters in order of their first mention's start, mentions in order of start (the
    brackets were checked by :func:`read_documents`)."""
    open_: dict[str, list[int]] = {}
    found: dict[str, list[tuple[int, int]]] = {}
    for i, value in enumerate(doc.corefs):
        if value in NO_COREF:
            continue
        for part in value.split("|"):
            m = _COREF_PART.fullmatch(part)
            single, opening, closing = m.groups()
            if single is not None:
                found.setdefault(single, []).append((i, i))
            elif opening is not None:
                open_.setdefault(opening, []).append(i)
            else:
                found.setdefault(closing, []).append((open_[closing].pop(), i))
    clusters = [sorted(spans) for spans in found.values()]
    clusters.sort(key=lambda c: c[0])
    return clusters


def write_conll(docs, target: str | os.PathLike) -> None:
    """A CoNLL-2012 file of ``docs`` (objects with ``key``, ``tokens``, ``clusters`` and an
    optional ``sentence_starts``): 12 tab-separated columns per token (id, part 0, token
    number, word, then ``-`` for POS/parse/lemma/frameset/sense/speaker, ``*`` for named
    entities, and the coreference column). Written atomically."""
    from pipeline.formats.files import atomic_path

    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8", newline="") as fh:
        for d in docs:
            n = len(d.tokens)
            col = [[] for _ in range(n)]
            for k, cluster in enumerate(d.clusters):
                for s, e in sorted(cluster, key=lambda m: (m[0], -m[1])):
                    if s == e:
                        col[s].append(f"({k})")
                    else:
                        col[s].append(f"({k}")
                        col[e].insert(0, f"{k})")
            starts = set(getattr(d, "sentence_starts", None) or [0])
            fh.write(f"#begin document ({d.key}); part 000\n")
            word_no = 0
            for i, tok in enumerate(d.tokens):
                if i in starts and i:
                    fh.write("\n")
                    word_no = 0
                if not tok or any(c.isspace() for c in tok):
                    raise ValueError(f"token {tok!r} of {d.key!r} is empty or holds whitespace")
                fh.write("\t".join([d.key, "0", str(word_no), tok, "-", "-", "-", "-", "-", "-", "*",
                                    "|".join(col[i]) or "-"]) + "\n")
                word_no += 1
            fh.write("\n#end document\n")
