"""Gold labels for extracted instances from coreference-annotated text (CoNLL-2012 clusters).

For each instance (or quadruple original) the context text is looked up in the annotated
documents; when it lies entirely inside one, the gold clusters decide the GAP labels:

* the pronoun's mention is the shortest gold mention covering the pronoun's tokens, and a
  candidate (A or B, the mention in the context at ``a_offset`` / ``b_offset``) is coreferent
  when another mention of that cluster overlaps its tokens
  (:func:`pipeline.core.alignment.is_coreferent`, the same rule the evaluation uses);
* label ``A`` (only A coreferent), ``B`` (only B), ``both``, ``neither``; a pronoun that is
  in no gold mention is ``neither``;
* ``unlabelled`` when the context is not found in an annotated document (LitBank annotates
  only the first ~2,000 words of each book), with null ``a_coref`` / ``b_coref``. A context
  that runs past the end of a document (its first 100 or more key characters end the
  document) is labelled when the pronoun, A and B all lie in the annotated part.

Locating a context: both sides are reduced to a key string — every non-space character,
normalised one to one as in :func:`pipeline.core.alignment.align_tokens` (lower case, no
accents, straight quotes, ``-`` for dashes, PTB escapes undone), with the italics marks ``_``
and ``*`` dropped and runs of ``-`` collapsed — and the context's key must occur in the
document's key (the first occurrence; documents whose name starts with the instance's
Gutenberg number are tried first). Because the match is exact, every context character maps
to one document token, so the character spans of A, B and the pronoun map to gold tokens
without fuzzy alignment.

Quadruples (generate's output): only the original is located; its control and swaps take
the original's labels (the counterfactual variants keep who refers to whom).

Precision (:func:`label_summary`): the share of labelled instances whose pronoun refers to
exactly one of A and B (labels A and B), with a Wilson score interval.

Pure: may import the standard library, :mod:`pipeline.core.alignment`, :mod:`pipeline.core.answers` (the
label of two booleans) and :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from pipeline.core.alignment import _norm_char, is_coreferent, unescape

LABELS = ("A", "B", "both", "neither", "unlabelled")
UNLABELLED = "unlabelled"
_DROP = {"_", "*"}
_LEADING_NUMBER = re.compile(r"^(\d+)")
MIN_OVERLAP = 100       # key characters a context must share with a document's end


@dataclass
class CorefDocument:
    """One annotated document: its tokens and gold clusters (inclusive token spans)."""

    doc_id: str
    words: list[str]
    clusters: list[list[tuple[int, int]]]
    key: str = ""
    key_token: list[int] = field(default_factory=list)   # key character -> token index

    def __post_init__(self) -> None:
        chars, owner = [], []
        for i, word in enumerate(self.words):
            for c in unescape(word):
                _add_key_char(chars, owner, c, i)
        self.key, self.key_token = "".join(chars), owner


def _add_key_char(chars: list[str], owner: list[int], c: str, who: int) -> None:
    if c.isspace() or c in _DROP:
        return
    n = _norm_char(c)
    if n in _DROP:
        return
    if n == "-" and chars and chars[-1] == "-":
        return
    chars.append(n)
    owner.append(who)


def text_key(text: str) -> tuple[str, list[int]]:
    """(key string, text position of each key character)."""
    chars, pos = [], []
    for i, c in enumerate(text):
        _add_key_char(chars, pos, c, i)
    return "".join(chars), pos


def _book_number(name: str) -> str:
    m = _LEADING_NUMBER.match(name or "")
    return m.group(1) if m else ""


@dataclass
class Location:
    document: CorefDocument
    token_spans: list[tuple[int, int] | None]   # per document token: its span in the context


def locate(text: str, documents: Sequence[CorefDocument], book_id: str = "") -> Location | None:
    """Where the context ``text`` lies in the annotated documents, or None."""
    key, pos = text_key(text)
    if not key:
        return None
    number = _book_number(book_id)
    order = sorted(documents, key=lambda d: not (number and _book_number(d.doc_id) == number))
    for doc in order:
        at, length = doc.key.find(key), len(key)
        if at < 0:
            at, length = _tail_overlap(doc.key, key)
            if at < 0:
                continue
        spans: list[tuple[int, int] | None] = [None] * len(doc.words)
        for k in range(length):
            tok, p = doc.key_token[at + k], pos[k]
            s = spans[tok]
            spans[tok] = (p, p + 1) if s is None else (min(s[0], p), max(s[1], p + 1))
        return Location(doc, spans)
    return None


def _tail_overlap(doc_key: str, key: str) -> tuple[int, int]:
    """(position, length) when a prefix of ``key`` of at least ``MIN_OVERLAP`` characters ends
    the document (the annotation stops inside the context), else (-1, 0). Only the part of the
    context inside the document is mapped: a pronoun or candidate after it stays unlabelled."""
    if len(key) <= MIN_OVERLAP:
        return -1, 0
    lo, hi = 0, len(key) - 1            # the longest prefix found anywhere: binary search
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if key[:mid] in doc_key:
            lo = mid
        else:
            hi = mid - 1
    if lo < MIN_OVERLAP:
        return -1, 0
    at = doc_key.rfind(key[:lo])
    return (at, lo) if at + lo == len(doc_key) else (-1, 0)


def gold_labels(record: dict, documents: Sequence[CorefDocument]) -> dict:
    """``{"label", "a_coref", "b_coref", "coref_document"}`` for one instance record (needs
    ``text``, ``pronoun``, ``pronoun_offset``, ``a``, ``a_offset``, ``b``, ``b_offset``)."""
    where = locate(record["text"], documents, record.get("book_id") or "")
    if where is None:
        return {"label": UNLABELLED, "a_coref": None, "b_coref": None, "coref_document": ""}
    p = (record["pronoun_offset"], record["pronoun_offset"] + len(record["pronoun"]))
    a = (record["a_offset"], record["a_offset"] + len(record["a"]))
    b = (record["b_offset"], record["b_offset"] + len(record["b"]))
    try:
        a_coref = is_coreferent(where.token_spans, where.document.clusters, p, a)
        b_coref = is_coreferent(where.token_spans, where.document.clusters, p, b)
    except ValueError:                       # alignment.Unaligned: a span covers no token
        return {"label": UNLABELLED, "a_coref": None, "b_coref": None, "coref_document": ""}
    from pipeline.core.answers import ab_label

    return {"label": ab_label(a_coref, b_coref) or UNLABELLED, "a_coref": a_coref, "b_coref": b_coref,
            "coref_document": where.document.doc_id}


def label_records(records: Iterable[dict], documents: Sequence[CorefDocument]) -> list[dict]:
    """Each record with ``label``, ``a_coref``, ``b_coref`` set. Records with a ``variant``
    column (quadruples): the original is labelled, the other variants copy its labels."""
    records = list(records)
    out = []
    by_quad: dict[str, dict] = {}
    for rec in records:
        if rec.get("variant", "original") == "original":
            got = gold_labels(rec, documents)
            if "quadruple_id" in rec:
                by_quad[rec["quadruple_id"]] = got
            out.append({**rec, **{k: got[k] for k in ("label", "a_coref", "b_coref")}})
        else:
            out.append(rec)
    for k, rec in enumerate(out):
        if rec.get("variant", "original") != "original":
            got = by_quad.get(rec.get("quadruple_id"), {"label": UNLABELLED, "a_coref": None, "b_coref": None})
            out[k] = {**rec, **{x: got[x] for x in ("label", "a_coref", "b_coref")}}
    return out


def wilson_interval(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float] | None:
    """Wilson score interval of a proportion k/n (95 % by default), or None when n == 0."""
    if n <= 0:
        return None
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def label_summary(labels: Iterable[str]) -> dict:
    """Label counts, the number labelled, precision (labels A or B among the labelled) and
    its 95 % Wilson interval."""
    counts = {name: 0 for name in LABELS}
    for x in labels:
        counts[x] = counts.get(x, 0) + 1
    labelled = sum(v for k, v in counts.items() if k != UNLABELLED)
    good = counts["A"] + counts["B"]
    interval = wilson_interval(good, labelled)
    return {"counts": counts, "labelled": labelled, "valid": good,
            "precision": good / labelled if labelled else None,
            "interval_95": list(interval) if interval else None}
