"""LitBank's own entity layout (Bamman et al.): ``<id>_brat.txt`` + ``<id>_brat.ann``.

* ``<id>_brat.txt``: the annotated opening, tokenised, one sentence a line, tokens separated by
  one space.
* ``<id>_brat.ann``: one line per mention, ``MENTION<TAB>T<n><TAB>start sentence<TAB>start
  token<TAB>end sentence<TAB>end token (inclusive)<TAB>text<TAB>type<TAB>category`` (types PER,
  LOC, GPE, FAC, ORG, VEH; categories PROP = a name, NOM = a description, PRON = a pronoun);
  ``COREF<TAB>T<n><TAB>entity id`` gives a mention's cluster; ``COP`` / ``APPOS`` relation
  lines are read past.

LitBank's coreference of the same openings (``reference/litbank-coref``, CoNLL-2012 layout, no
types or categories) reads into the same record through :func:`read_litbank_coref`: each
mention with an empty type and category and its cluster's number as entity.

May import: :mod:`pipeline.errors`, :mod:`pipeline.formats.conll`, the standard library.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError

TYPES = {"PER", "LOC", "GPE", "FAC", "ORG", "VEH"}
CATEGORIES = {"PROP", "NOM", "PRON"}


@dataclass(frozen=True)
class GoldMention:
    mention_id: str
    start: tuple[int, int]        # (sentence, token)
    end: tuple[int, int]          # (sentence, token), inclusive
    text: str
    type: str
    category: str
    entity: str = ""


@dataclass
class LitBankDocument:
    doc_id: str
    sentences: list[list[str]]
    mentions: list[GoldMention]


def read_litbank_entities(ann: Path) -> LitBankDocument:
    """One opening: the ``.ann`` file and the ``.txt`` beside it (same stem)."""
    txt = ann.with_suffix(".txt")
    try:
        sentences = [line.split(" ") if line else [] for line in
                     txt.read_text(encoding="utf-8").split("\n")]
        lines = ann.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read: {exc}", txt if not txt.exists() else ann) from exc
    while sentences and not sentences[-1]:
        sentences.pop()
    raw, coref = [], {}
    for row, line in enumerate(lines, 1):
        f = line.split("\t")
        if f[0] == "MENTION":
            if len(f) != 9 or f[7] not in TYPES or f[8] not in CATEGORIES:
                raise InputError("a MENTION line has 9 fields: id, start sentence/token, end "
                                 "sentence/token, text, type, category", ann, row)
            try:
                s0, t0, s1, t1 = (int(x) for x in f[2:6])
            except ValueError as exc:
                raise InputError("sentence and token numbers must be integers", ann, row) from exc
            if not (0 <= s0 < len(sentences) and 0 <= s1 < len(sentences)
                    and 0 <= t0 < len(sentences[s0]) and 0 <= t1 < len(sentences[s1])):
                raise InputError("mention outside the text", ann, row)
            raw.append((f[1], (s0, t0), (s1, t1), f[6], f[7], f[8]))
        elif f[0] == "COREF" and len(f) >= 3:
            coref[f[1]] = f[2]
    mentions = [GoldMention(mid, s, e, text, typ, cat, coref.get(mid, "")) for mid, s, e, text, typ, cat in raw]
    return LitBankDocument(ann.name.removesuffix("_brat.ann").removesuffix(".ann"), sentences, mentions)


def read_litbank_coref(path: Path) -> LitBankDocument:
    """One opening of LitBank's coreference in CoNLL-2012 layout (one document a file): its
    sentences and its mentions, with no type or category (the layout has none), the cluster's
    number as ``entity``."""
    from pipeline.formats.conll import document_clusters, read_documents

    docs = list(read_documents(path))
    if len(docs) != 1:
        raise InputError(f"expected one document, found {len(docs)}", path)
    doc = docs[0]
    starts = list(doc.sentence_starts) + [doc.n_tokens]
    where = {}
    sentences = []
    for s, (a, b) in enumerate(zip(starts, starts[1:])):
        sentences.append(doc.words[a:b])
        for i in range(a, b):
            where[i] = (s, i - a)
    mentions = []
    for c, spans in enumerate(document_clusters(doc)):
        for k, (i, j) in enumerate(spans):
            mentions.append(GoldMention(f"C{c}.{k}", where[i], where[j], " ".join(doc.words[i:j + 1]), "", "", str(c)))
    return LitBankDocument(doc.doc_id.removesuffix("_brat"), sentences, mentions)


def litbank_documents(directory: Path) -> list[Path]:
    """The ``.ann`` files of a LitBank entities directory, sorted."""
    return sorted(directory.glob("*.ann"))
