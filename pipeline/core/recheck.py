"""The re-check of a quadruple's variants (pure): each of its four texts goes through the person
detection again and the quadruple is dropped when one of them fails (docs/generate.md,
"Re-check"); the Docs are made by the caller.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.lang`, :mod:`pipeline.core.extract` (its
person detection), :mod:`pipeline.core.cast` (the evidence's key in a Doc), :mod:`pipeline.core.quadruples`, :mod:`pipeline.core.book_cast` (passed in). Never loads a pipeline or touches a file.
"""

from __future__ import annotations

import bisect

from pipeline.core.quadruples import FLIPS_WORDS, Edit, in_kept_entity, kept_by_rule
from pipeline.lang import gendered_words as gw
from pipeline.lang.pronouns import FEMININE, MASCULINE
from pipeline.vocab import VARIANTS


# After a quadruple is generated, each of its four texts goes through the same person detection
# again (the project's spaCy pipeline, person layer included) and the quadruple is dropped when
# one of them fails (docs/generate.md, "Re-check"). Reasons, in the order they are looked for:
RECHECK_NOT_PERSON = "a swapped name is not found as a person"
RECHECK_GENDER = "a name reads as the other gender"
RECHECK_NEW_PERSON = "a person that is none of the four appears"
RECHECK_WORD_KEPT = "a gendered word kept its gender"
# with the book's cast (extract's evidence and mentions): a person of the book outside the four
# persons' mentions, found in a text of the quadruple (the window holds a fifth person extract
# did not see there)
RECHECK_CAST_MEMBER = "another person of the book appears"
RECHECK_REASONS = (RECHECK_NOT_PERSON, RECHECK_GENDER, RECHECK_NEW_PERSON, RECHECK_CAST_MEMBER, RECHECK_WORD_KEPT)


_MEMO = "counter_gap_recheck_detected"


def _detected(doc) -> list:
    """The person mentions of ``doc`` as extract finds them, with the evidence its
    ``user_data`` carries. Remembered in the Doc for that same evidence object (a text shared
    by several quadruples of a book is parsed and read once; the memo holds the evidence, so
    another evidence object is never mistaken for it)."""
    from pipeline.core.cast import EVIDENCE_KEY
    from pipeline.core.extract import person_mentions

    ev = doc.user_data.get(EVIDENCE_KEY)
    memo = doc.user_data.get(_MEMO)
    if memo is not None and memo[0] is ev:
        return memo[1]
    found = person_mentions(doc)
    doc.user_data[_MEMO] = (ev, found)
    return found


_TOKEN_AT = "counter_gap_recheck_token_at"


def _token_at(doc) -> dict[int, int]:
    """Character offset -> index of the token of ``doc`` that starts there, read in bulk and
    remembered in the Doc (its tokens never change once parsed; a text shared by several
    quadruples is asked for each)."""
    index = doc.user_data.get(_TOKEN_AT)
    if index is None:
        index = doc.user_data[_TOKEN_AT] = {idx: i for i, idx in enumerate(doc.to_array("IDX").tolist())}
    return index


def _found(spans: list[tuple[int, int]], s: int, e: int) -> list[int]:
    return [k for k, (a, b) in enumerate(spans) if a < e and s < b]


def _shift_of(edits: list[Edit]):
    """Original offset (outside every edit) -> offset in the edited text."""
    marks, deltas, delta = [], [], 0
    for ed in sorted(edits, key=lambda x: x.start):
        delta += len(ed.new) - (ed.end - ed.start)
        marks.append(ed.end)
        deltas.append(delta)

    def shift(x: int) -> int:
        k = bisect.bisect_right(marks, x) - 1
        return x + (deltas[k] if k >= 0 else 0)

    return shift


def recheck_row(row: dict, doc, found_before: set | None = None,
                known_forms: set | None = None) -> tuple[str | None, str, set, set]:
    """Person checks of one generated text (``row``: a QUADRUPLES row; ``doc``: its text
    through the whole pipeline). Returns (reason or None, the words concerned, the (slot,
    mention index) pairs found as persons, the written forms found as persons).

    A name mention that overlaps no detected person fails (:data:`RECHECK_NOT_PERSON`) only
    when the original's mention at that position was found (``found_before``; None for the
    original itself: no such failure) and its written form is not in ``known_forms`` (the
    forms found as persons at another person's positions somewhere in the quadruple), so a
    sentence-initial "Emma" that NER reads as ORG at one position is no failure, while a form
    the detection takes for a person only where the book had it ("ordination at Easter") is.
    A detected mention inside a name mention must have that person's gender, read as extract
    reads it (grouped with the text's other mentions: "Darcy" beside "Mr. Darcy")."""
    from pipeline.lang.names import group_persons

    det = _detected(doc)
    spans = [(m.start, m.end) for m in det]
    # each detected mention's gender as extract gives it: that of its person in this text
    # ("Darcy", feminine for gender-guesser, is masculine beside "Mr. Darcy")
    gender_of = {}
    for p in group_persons(det)[0]:
        for m in p.mentions:
            gender_of[id(m)] = p.gender
    used: set[int] = set()
    found: set = set()
    forms: set = set()
    reason, detail = None, ""
    for n in row["names"]:
        for k, m in enumerate(n["mentions"]):
            hits = _found(spans, m["start"], m["end"])
            used.update(hits)
            if hits:
                found.add((n["role"], k))
                forms.add(m["text"])
            elif (reason is None and found_before is not None and (n["role"], k) in found_before
                  and m["text"] not in (known_forms or set())):
                reason, detail = RECHECK_NOT_PERSON, m["text"]
            for h in hits:
                g = gender_of.get(id(det[h]), det[h].gender)
                inside = m["start"] <= det[h].start and det[h].end <= m["end"]
                if reason is None and inside and g in (MASCULINE, FEMININE) and g != n["gender"]:
                    reason, detail = RECHECK_GENDER, f"{det[h].text} ({g})"
    if reason is None:
        extra = [det[k].text for k in range(len(det)) if k not in used]
        if extra:
            reason, detail = RECHECK_NEW_PERSON, extra[0]
    return reason, detail, found, forms


def kept_gendered_word(inst: dict, row: dict, edits: list[Edit], doc, words: gw.WordList | None = None) -> str | None:
    """In a gender-swapped text (``row``, made from ``inst`` by ``edits``; ``doc`` its parse),
    a gendered word outside the four persons' names that the variant's own parse would flip but
    that stands unchanged from the original ("her" left as "her"), else None. Words inside a
    non-person entity of the variant ("Prince Edward Island") are kept by rule."""
    words = words or gw.builtin()
    shift = _shift_of(edits)
    edited = [(ed.start, ed.end) for ed in edits]
    names = sorted((m["start"], m["end"]) for n in inst["names"] for m in n["mentions"])
    at = texts = tags = None
    for tok, s in zip(inst["tokens"], inst["token_starts"]):
        e = s + len(tok)
        if not words.is_listed(tok) or _found(edited, s, e) or _found(names, s, e) \
                or words.category_of(tok) == gw.ANIMAL:
            continue                    # animals are left by rule (word_edits)
        if at is None:
            at = _token_at(doc)
        i = at.get(shift(s))
        if i is None:
            continue
        t = doc[i]
        if t.text != tok:
            continue
        nxt = t.nbor(1).ent_iob_ if t.i + 1 < len(doc) else "O"
        if words.category_of(tok) != gw.PRONOUN and in_kept_entity(t.ent_type_, t.ent_iob_, nxt):
            continue
        if texts is None:
            texts, tags = [x.text for x in doc], [x.tag_ for x in doc]
        if kept_by_rule(t.i, texts, tags):
            continue                    # "God knows", "mother earth" stay by rule (word_edits)
        tag = gw.noun_use_tag(tok, t.tag_, doc[t.i + 1].tag_ if t.i + 1 < len(doc) else None)
        new = words.flip(tok, gw.pronoun_tag(tok, tag, t.dep_))
        if new is not None and new != tok:
            return tok
    return None


def _edited_spans(edits: list[Edit]) -> list[tuple[int, int]]:
    """Where each edit's new text stands in the edited text."""
    out, delta = [], 0
    for ed in sorted(edits, key=lambda x: x.start):
        out.append((ed.start + delta, ed.start + delta + len(ed.new)))
        delta += len(ed.new) - (ed.end - ed.start)
    return out


def recheck_with_cast(row: dict, doc, edits: list[Edit], cast) -> tuple[str | None, str]:
    """Person checks of one text of a quadruple against the book's cast (``cast``: a
    :class:`pipeline.core.book_cast.BookCast`; ``doc``: the text through the pipeline, the
    book's evidence in its ``user_data``; ``edits``: what made this text from the original,
    empty for the original; ``doc`` None: the original not parsed again, only the overrides
    read). A person detected outside the four persons' mentions fails when
    it stands on an edit (the swap made it: :data:`RECHECK_NEW_PERSON`) or when the book
    shows it to be one of its people (:data:`RECHECK_CAST_MEMBER`); any other detection is the
    isolated text's noise and the book says no. The four persons' own names are the book's:
    their gender is never read again from the text; only a researcher's override (``--cast``)
    of a name to no person or to the other gender fails them. Returns (reason or None, the words)."""
    from pipeline.core.cast import FAMILY_SOURCE
    from pipeline.lang.book_evidence import NOT_A_PERSON

    ev = cast.evidence
    if ev is not None and ev.overrides:
        for n in row["names"]:              # the researcher's word on a name (--cast) holds
            for m in n["mentions"]:
                said = ev.override(m["text"]) or ev.override(n.get("name") or "")
                if said == NOT_A_PERSON:
                    return RECHECK_NOT_PERSON, m["text"]
                if said in (MASCULINE, FEMININE) and said != n["gender"]:
                    return RECHECK_GENDER, f"{m['text']} ({said})"
    if doc is None:
        return None, ""                 # the original, not parsed again: extract's persons stand
    det = _detected(doc)
    slots = [(m["start"], m["end"]) for n in row["names"] for m in n["mentions"]]
    edited = _edited_spans(edits)
    for m in det:
        if _found(slots, m.start, m.end):
            continue
        if _found(edited, m.start, m.end):
            return RECHECK_NEW_PERSON, m.text
        if m.gender_source == FAMILY_SOURCE:
            continue                    # a family's plural the original held: extract judged it
        member = cast.member_in(m.name, m.title)
        if member is not None:
            return RECHECK_CAST_MEMBER, m.text
    return None, ""


def recheck_quadruple(inst: dict, rows: list[dict], edits: dict[str, list[Edit]], docs: list,
                      words: gw.WordList | None = None, cast=None) -> tuple[str | None, str, str]:
    """Re-check a generated quadruple: ``rows`` its four QUADRUPLES rows (original, control,
    swap-1, swap-2), ``docs`` their texts through the same spaCy pipeline (person layer
    included), ``edits`` the edits of each variant (:func:`quadruple`). Every variant must
    show: each name mention of the four persons found as a person (unless the original's
    mention was not found either, or the same written form is found as a person at another
    person's positions in the quadruple: see :func:`recheck_row`), none with the other gender, no person outside the four
    persons' mentions, and (swaps) no gendered word left unflipped. Returns (reason, variant,
    detail) of the first failure, or (None, "", "").

    With ``cast`` (the book's :class:`pipeline.core.book_cast.BookCast`; the docs carry the
    book's evidence) the persons are the book's: :func:`recheck_with_cast` for each text, then
    (swaps) no gendered word left unflipped. Without it (a GAP row: no book) the sentence rules
    above."""
    by_variant = dict(zip(VARIANTS, zip(rows, docs)))
    if cast is not None:
        def check(v, row, doc):
            return recheck_with_cast(row, doc, edits.get(v, []) if v != "original" else [], cast)
    else:
        first = recheck_row(*by_variant["original"])
        known: set = set()
        for v in VARIANTS[1:]:
            if first[0] is None:
                known |= recheck_row(*by_variant[v])[3]

        def check(v, row, doc):
            return first[:2] if v == "original" else recheck_row(row, doc, first[2], known)[:2]
    for v in VARIANTS:
        row, doc = by_variant[v]
        reason, detail = check(v, row, doc)
        if reason is None and FLIPS_WORDS[v]:
            word = kept_gendered_word(inst, row, edits[v], doc, words)
            if word is not None:
                reason, detail = RECHECK_WORD_KEPT, word
        if reason is not None:
            return reason, v, detail
    return None, "", ""
