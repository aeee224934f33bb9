"""Extract's pure core: parsed text of one book -> GAP-pattern instances and mention records.

Follow one book: :mod:`pipeline.formats.books` reads it into paragraphs;
:func:`chunk_paragraphs` (here) cuts them into chunks; :func:`pipeline.nlp.prune.parsed_docs`
runs spaCy over them; :func:`extract_chunks` (here) turns the parsed Docs into records;
:mod:`pipeline.stages.extract` writes them.

Chunks. Whole paragraphs are grouped into chunks of at most ``CHUNK_CHARS`` characters. A
paragraph longer than that (a book without line breaks is one paragraph) is cut into pieces
of at most ``CHUNK_CHARS`` by :func:`split_paragraph`, preferably after a sentence end, else
at a space, else anywhere; each piece is a chunk of its own. So no Doc is ever longer than
``CHUNK_CHARS`` (far below spaCy's ``max_length``), and memory per Doc is bounded.

Context windows. For every gendered non-reflexive pronoun (he, him, his, she, her, hers)
the candidate windows are the runs of at most five whole sentences that contain the
pronoun's sentence, tried from the shortest to the longest and, among equally long ones,
from the one that starts earliest (most preceding context) to the latest. A window fits
when its personal names form exactly two masculine and two feminine persons, with no
ungendered person and no ambiguous name variant (see :func:`pipeline.lang.names.group_persons`).
The first fitting window whose names let the pronoun match a GAP pattern
(:mod:`pipeline.lang.patterns`) gives the instance; a pronoun yields at most one instance.
Windows never cross a chunk.

Takes spaCy Doc/Token objects as input, but reads and writes no files.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.lang`, :mod:`pipeline.core.cast`, the standard library.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.core.cast import doc_mentions
from pipeline.lang.names import NameMention, group_persons
from pipeline.lang.patterns import initial_clause_kind, match_pattern
from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED, target_pronoun_gender
from pipeline.vocab import MAX_SENTENCES

CHUNK_CHARS = 10_000
PRONOUN_TAGS = {"PRP", "PRP$"}
# A sentence end inside a long paragraph: end punctuation, closing quotes/brackets, spaces.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]_]*\s+")
_SPACE = re.compile(r"\s+")


@dataclass
class BookMeta:
    book_id: str
    title: str
    author: str
    model: str = ""
    model_version: str = ""
    spacy_version: str = ""


@dataclass
class BookResult:
    """Everything extract keeps of one book: its ``BOOKS`` row and its mention and instance
    records (schemas ``MENTIONS`` and ``INSTANCES``)."""
    book: dict
    mentions: list[dict] = field(default_factory=list)
    instances: list[dict] = field(default_factory=list)


# ------------------------------------------------------------------ chunks ----------------

def split_paragraph(text: str, max_chars: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """(start, end) pieces of ``text``, each at most ``max_chars`` long, that together are
    exactly ``text``. A piece ends after the last sentence end in its second half, else after
    its last run of spaces, else at ``max_chars``."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    pieces, pos, n = [], 0, len(text)
    while n - pos > max_chars:
        window = text[pos:pos + max_chars]
        cut = 0
        for m in _SENTENCE_END.finditer(window, max_chars // 2):
            cut = m.end()
        if not cut:
            for m in _SPACE.finditer(window, 1):
                cut = m.end()
        if not cut or cut > max_chars:
            cut = max_chars
        pieces.append((pos, pos + cut))
        pos += cut
    pieces.append((pos, n))
    return pieces


def chunk_paragraphs(paragraphs: list[str], max_chars: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """Group whole paragraphs into chunks of at most ``max_chars``; a longer paragraph is cut
    into pieces (:func:`split_paragraph`), each a chunk of its own. Returns (book offset, chunk
    text) pairs; the book text is the paragraphs joined by "\\n\\n", and
    ``book_text[offset:offset + len(chunk)] == chunk`` for every chunk."""
    chunks: list[tuple[int, str]] = []
    current: list[str] = []
    start = offset = size = 0
    for para in paragraphs:
        if current and (size + 2 + len(para) > max_chars):
            chunks.append((start, "\n\n".join(current)))
            current, size = [], 0
        if len(para) > max_chars:
            chunks.extend((offset + s, para[s:e]) for s, e in split_paragraph(para, max_chars))
        elif not current:
            start, size = offset, len(para)
            current.append(para)
        else:
            size += 2 + len(para)
            current.append(para)
        offset += len(para) + 2
    if current:
        chunks.append((start, "\n\n".join(current)))
    return chunks


# ------------------------------------------------------------------ one Doc ---------------

def doc_sentences(doc) -> list:
    """Sentences that hold at least one non-space token."""
    return [s for s in doc.sents if any(not t.is_space for t in s)]


def person_mentions(doc, evidence=None, rejected: Counter | None = None) -> list[NameMention]:
    """The person mentions of a parsed Doc, as every stage sees them
    (:func:`pipeline.core.cast.doc_mentions`: local guards, the book's evidence, overrides)."""
    return doc_mentions(doc, evidence, rejected)


def pronoun_tokens(doc) -> list:
    """Gendered non-reflexive pronouns: by spelling, and by tag (PRP, PRP$) when tagged."""
    return [t for t in doc if target_pronoun_gender(t.text) and (t.tag_ in PRONOUN_TAGS or not t.tag_)]


def _context(doc, sents, lo: int, hi: int):
    """Context text of sentences lo..hi (inclusive) on one line, and token -> context offset."""
    parts, starts, pos = [], {}, 0
    toks = [t for s in sents[lo:hi + 1] for t in s if not t.is_space]
    for k, tok in enumerate(toks):
        starts[tok.i] = pos
        parts.append(tok.text)
        pos += len(tok.text)
        if k + 1 < len(toks) and (tok.whitespace_ or toks[k + 1].i != tok.i + 1):
            parts.append(" ")
            pos += 1
    return "".join(parts), starts, toks


def _instance(doc, chunk_offset, sents, lo, hi, sp, pron, persons, match, meta: BookMeta) -> dict:
    text, starts, toks = _context(doc, sents, lo, hi)
    index = {t.i: k for k, t in enumerate(toks)}

    def ctx(m: NameMention) -> tuple[int, int]:
        first, last = doc[m.token_start], doc[m.token_end - 1]
        while first.is_space:
            first = doc[first.i + 1]
        s = starts[first.i] + max(0, m.start - first.idx)
        e = starts[last.i] + (m.end - last.idx)
        return s, e

    names, mention_pos = [], {}
    for role, person in persons:
        spans = []
        for k, m in enumerate(person.mentions):
            s, e = ctx(m)
            spans.append({"start": s, "end": e, "text": text[s:e], "title": m.title})
            mention_pos[(role, k)] = (s, e)
        names.append({"role": role, "name": person.name, "gender": person.gender, "mentions": spans})
    a_s, a_e = mention_pos[(match.a_role, match.a_index)]
    b_s, b_e = mention_pos[(match.b_role, match.b_index)]
    sent_starts = [starts[next(t for t in s if not t.is_space).i] for s in sents[lo:hi + 1]]
    sent_ends = []
    for s in sents[lo:hi + 1]:
        last = [t for t in s if not t.is_space][-1]
        sent_ends.append(starts[last.i] + len(last.text))
    p_off = starts[pron.i]
    return {
        "instance_id": f"{meta.book_id}-{chunk_offset + pron.idx}",
        "book_id": meta.book_id, "title": meta.title, "author": meta.author,
        "text": text,
        "book_start": chunk_offset + toks[0].idx,
        "sentence_starts": sent_starts, "sentence_ends": sent_ends,
        "tokens": [t.text for t in toks],
        "token_starts": [starts[t.i] for t in toks],
        "token_tags": [t.tag_ for t in toks],
        "token_deps": [t.dep_ for t in toks],
        "token_heads": [index.get(t.head.i, k) for k, t in enumerate(toks)],
        "token_ents": [f"{t.ent_iob_}-{t.ent_type_}" if t.ent_type_ else "O" for t in toks],
        "pronoun": pron.text, "pronoun_offset": p_off, "pronoun_token": index[pron.i],
        "pronoun_tag": pron.tag_, "pronoun_gender": target_pronoun_gender(pron.text),
        "pattern": match.pattern, "names": names,
        "a_name": match.a_role, "a": text[a_s:a_e], "a_offset": a_s,
        "b_name": match.b_role, "b": text[b_s:b_e], "b_offset": b_s,
        "model": meta.model, "model_version": meta.model_version, "spacy_version": meta.spacy_version,
    }


def fit_window(mentions: list[NameMention]):
    """Persons of a window if they are exactly 2 masculine + 2 feminine (nothing else)."""
    persons, ok = group_persons(mentions)
    if not ok:
        return None
    genders = Counter(p.gender for p in persons)
    if genders.get(UNGENDERED) or genders.get(MASCULINE) != 2 or genders.get(FEMININE) != 2 or len(persons) != 4:
        return None
    return persons


def candidate_windows(sp: int, n_sents: int, max_len: int = MAX_SENTENCES):
    """(lo, hi) windows containing sentence ``sp``: shortest first, then earliest start."""
    for length in range(1, max_len + 1):
        for lo in range(max(0, sp - length + 1), min(sp, n_sents - length) + 1):
            yield lo, lo + length - 1


def instances_from_doc(doc, chunk_offset: int, meta: BookMeta,
                       only: set[int] | None = None, evidence=None,
                       rejected: Counter | None = None) -> tuple[list[dict], list[NameMention], list]:
    """Instances of one parsed Doc (``chunk_offset``: where it starts in the book text).
    ``only``: consider only the pronouns at these character offsets of the Doc; ``evidence``:
    the book's :class:`pipeline.lang.book_evidence.BookEvidence` (None: the sentence alone).
    Returns (instance records, name mentions, pronoun tokens)."""
    sents = doc_sentences(doc)
    mentions = person_mentions(doc, evidence, rejected)
    pronouns = pronoun_tokens(doc)
    if only is not None:
        pronouns = [t for t in pronouns if t.idx in only]
    if not sents or len(mentions) < 4 or not pronouns:
        return [], mentions, pronouns
    sent_of_token = {}
    for k, s in enumerate(sents):
        for t in s:
            sent_of_token[t.i] = k
    by_sent: list[list[NameMention]] = [[] for _ in sents]
    for m in mentions:
        k = sent_of_token.get(m.token_start, sent_of_token.get(m.token_end - 1))
        if k is not None:
            by_sent[k].append(m)
    gendered_keys = [({m.key_tokens for m in ms if m.gender == MASCULINE},
                      {m.key_tokens for m in ms if m.gender == FEMININE}) for ms in by_sent]
    out = []
    for pron in pronouns:
        sp = sent_of_token.get(pron.i)
        if sp is None:
            continue
        lo_all, hi_all = max(0, sp - MAX_SENTENCES + 1), min(len(sents) - 1, sp + MAX_SENTENCES - 1)
        m_keys = set().union(*(gendered_keys[k][0] for k in range(lo_all, hi_all + 1)))
        f_keys = set().union(*(gendered_keys[k][1] for k in range(lo_all, hi_all + 1)))
        if len(m_keys) < 2 or len(f_keys) < 2:
            continue
        gender = target_pronoun_gender(pron.text)
        initial = initial_clause_kind(pron, sents[sp]) is not None
        for lo, hi in candidate_windows(sp, len(sents)):
            window = [m for k in range(lo, hi + 1) for m in by_sent[k]]
            persons = fit_window(window)
            if persons is None:
                continue
            cands = [p for p in persons if p.gender == gender]
            others = [p for p in persons if p.gender != gender]
            roles = [("C1", cands[0]), ("C2", cands[1]), ("O1", others[0]), ("O2", others[1])]
            spans = {role: [(sent_of_token[m.token_start] - lo, m.start) for m in p.mentions]
                     for role, p in roles[:2]}
            match = match_pattern(pron.idx, sp - lo, initial, spans)
            if match is None:
                continue
            out.append(_instance(doc, chunk_offset, sents, lo, hi, sp, pron, roles, match, meta))
            break
    return out, mentions, pronouns


def mention_records(book_id: str, chunk_offset: int, mentions: list[NameMention], pronouns: list) -> list[dict]:
    rows = [{"book_id": book_id, "kind": "name", "text": m.text, "book_start": chunk_offset + m.start,
             "book_end": chunk_offset + m.end, "gender": m.gender, "title": m.title,
             "gender_source": m.gender_source, "tag": ""} for m in mentions]
    rows += [{"book_id": book_id, "kind": "pronoun", "text": t.text, "book_start": chunk_offset + t.idx,
              "book_end": chunk_offset + t.idx + len(t.text), "gender": target_pronoun_gender(t.text),
              "title": "", "gender_source": "pronoun", "tag": t.tag_} for t in pronouns]
    return rows


def count_words(doc) -> int:
    return sum(1 for t in doc if not (t.is_punct or t.is_space))


# ------------------------------------------------------------------ one book --------------

def book_row(**values) -> dict:
    """A ``BOOKS`` record with defaults for every column not given."""
    row = {"book_id": "", "title": "", "author": "", "path": "", "format": "", "status": "ok",
           "skip_reason": "", "n_paragraphs": 0, "n_words": 0, "n_name_mentions": 0,
           "n_pronouns": 0, "n_instances": 0, "seconds": 0.0, "model": "", "strategy": "",
           "ebook": "", "encoding": "", "encoding_source": "", "language": "", "row": None}
    row.update(values)
    return row


def skipped_book(path: str, book_id: str, reason: str, status: str = "skipped", **values) -> BookResult:
    """The result of a book that yields nothing: ``status`` (skipped, excluded, duplicate,
    not-read) and its one-line reason."""
    reason = " ".join(str(reason).split()) or status
    return BookResult(book_row(book_id=book_id, path=path, status=status, skip_reason=reason, **values))


def extract_chunks(parsed, meta: BookMeta, evidence=None, progress=None) -> tuple[list[dict], list[dict], dict]:
    """Records of one book from its parsed chunks.

    ``parsed`` yields ``(chunk offset, whole chunk Doc, parts)`` as
    :func:`pipeline.nlp.prune.parsed_docs` does; each part is ``(book offset, processed Doc,
    pronoun offsets to consider or None)``. ``progress(words)``, when given, is called after
    each chunk with its word count. Returns (instances in text order, one per pronoun at most;
    mention records; counts ``words``, ``names``, ``pronouns`` and ``not_persons``, the PERSON
    entities dropped by reason). ``evidence``: the book's evidence (see
    :func:`instances_from_doc`)."""
    rejected: Counter = Counter()
    instances: list[dict] = []
    mentions: list[dict] = []
    words = n_names = n_prons = 0
    for offset, whole, parts in parsed:
        prons = pronoun_tokens(whole)
        mentions.extend(mention_records(meta.book_id, offset, [], prons))
        chunk_words = count_words(whole)
        words += chunk_words
        n_prons += len(prons)
        for part_offset, doc, only in parts:
            insts, names, _ = instances_from_doc(doc, part_offset, meta, only, evidence, rejected)
            instances.extend(insts)
            mentions.extend(mention_records(meta.book_id, part_offset, names, []))
            n_names += len(names)
        if progress is not None:
            progress(chunk_words)
    instances.sort(key=lambda r: r["book_start"] + r["pronoun_offset"])
    seen, unique = set(), []
    for inst in instances:          # a pronoun yields at most one instance
        if inst["instance_id"] not in seen:
            seen.add(inst["instance_id"])
            unique.append(inst)
    return unique, mentions, {"words": words, "names": n_names, "pronouns": n_prons,
                              "not_persons": dict(rejected)}
