"""GAP rows -> instances (pure): the conversion of ``generate --gap-tsv``.

A GAP TSV row (validated, typed) and its spaCy Doc become an instance
(:func:`pipeline.core.instances.build_instance`, the same record extract makes) or a rejection
reason: the persons are found by the cast's sentence rules (:func:`pipeline.core.cast.doc_mentions`)
and must be exactly two of each gender, A and B the two of the pronoun's.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.lang`, :mod:`pipeline.core.instances`,
:mod:`pipeline.core.cast`, :mod:`pipeline.core.spans`. Works on spaCy Docs passed in;
never loads a pipeline or touches a file.
"""

from __future__ import annotations

from pipeline.core.instances import GenerateError, build_instance, check_instance, complete_mentions
from pipeline.lang.pronouns import PRONOUNS, UNGENDERED
from pipeline.vocab import ROLES


REJECT_PRONOUN = "pronoun is not a gendered pronoun token"
REJECT_AMBIGUOUS = "a name form fits two persons (ambiguous)"
REJECT_UNGENDERED = "a name of unknown gender"
REJECT_UNGENDERED_EXTRA = "a name of unknown gender beside two names of each gender"
REJECT_FEWER = "fewer than four persons"
REJECT_MORE = "more than four persons"
REJECT_SPLIT = "four persons, not two of each gender"
REJECT_AB_MISSING = "A or B is not a name found by NER"
REJECT_INCONSISTENT = "the converted instance is inconsistent (overlapping mentions)"
REJECT_AB_PERSONS = "A and B are not the two names of the pronoun's gender"


def persons_found(doc) -> str:
    """The persons the sentence rules find in a row's Doc, for the list of refused rows:
    "Mrs. Dixon (feminine); Charlie Dixon (masculine); Taken (ungendered)"."""
    from pipeline.core.cast import doc_mentions
    from pipeline.lang.names import group_persons

    persons, _ = group_persons(doc_mentions(doc))
    return "; ".join(f"{' / '.join(dict.fromkeys(m.text for m in p.mentions))} ({p.gender})" for p in persons)


def positional_pattern(p_off: int, a_off: int, b_off: int) -> str:
    """FINALPRO / MEDIALPRO / INITIALPRO from the order of the pronoun and A, B."""
    before = sum(1 for o in (a_off, b_off) if o < p_off)
    return {2: "FINALPRO", 1: "MEDIALPRO", 0: "INITIALPRO"}[before]


def gap_instance(row: dict, doc) -> tuple[dict | None, str | None, int]:
    """A GAP TSV row (validated, typed) and its spaCy Doc -> (instance, None, added) or
    (None, rejection reason, 0). ``added``: mentions found by :func:`complete_mentions`."""
    from pipeline.core.spans import trim_span
    from pipeline.core.cast import doc_mentions
    from pipeline.lang.names import group_persons

    text = row["Text"]
    p_off, p_text = row["Pronoun-offset"], row["Pronoun"]
    span = doc.char_span(p_off, p_off + len(p_text))
    if span is None or len(span) != 1 or span[0].text.lower() not in PRONOUNS:
        return None, REJECT_PRONOUN, 0
    ptok = span[0]
    g = PRONOUNS[ptok.text.lower()][0]
    mentions = doc_mentions(doc)        # the cast's sentence rules, as extract and gap_persons
    mentions = [m for m in mentions if not (m.start <= p_off < m.end)]
    persons, ok = group_persons(mentions)
    if not ok:
        return None, REJECT_AMBIGUOUS, 0
    if any(p.gender == UNGENDERED for p in persons):
        gendered = [p.gender for p in persons if p.gender != UNGENDERED]
        if gendered.count(g) == 2 and len(gendered) == 4:
            return None, REJECT_UNGENDERED_EXTRA, 0
        return None, REJECT_UNGENDERED, 0
    if len(persons) < 4:
        return None, REJECT_FEWER, 0
    if len(persons) > 4:
        return None, REJECT_MORE, 0
    if sum(p.gender == g for p in persons) != 2:
        return None, REJECT_SPLIT, 0
    cands = [p for p in persons if p.gender == g]
    others = [p for p in persons if p.gender != g]
    names = [{"role": role, "name": p.name, "gender": p.gender,
              "mentions": [{"start": m.start, "end": m.end, "text": m.text, "title": m.title} for m in p.mentions]}
             for role, p in zip(ROLES, cands + others)]
    toks = [t for t in doc if t.text.strip()]    # spaCy keeps runs of spaces as tokens
    inst = build_instance(text=text, toks=toks, start_of=lambda t: t.idx, pron=ptok, pronoun_gender=g, names=names)
    inst, added = complete_mentions(inst)

    def find(off: int, s: str):
        # the file's span trimmed of punctuation and a possessive, as the annotation's answer
        # checks trim a highlight (Counter-GAP writes "John Abdy's", "Colonel Brandon's")
        start, end = trim_span(text, off, off + len(s))
        if end <= start:
            return None, None
        for n in inst["names"]:
            for m in n["mentions"]:
                if m["start"] <= start and end <= m["end"]:
                    return n["role"], m
        return None, None

    ra, ma = find(row["A-offset"], row["A"])
    rb, mb = find(row["B-offset"], row["B"])
    if ra is None or rb is None:
        return None, REJECT_AB_MISSING, 0
    if ra == rb or ra not in ("C1", "C2") or rb not in ("C1", "C2"):
        return None, REJECT_AB_PERSONS, 0
    inst.update(pattern=positional_pattern(p_off, ma["start"], mb["start"]),
                a_name=ra, a=ma["text"], a_offset=ma["start"], b_name=rb, b=mb["text"], b_offset=mb["start"])
    return inst, None, added



def qualified_gap_instance(row: dict, doc) -> tuple[dict | None, str | None, int]:
    """:func:`gap_instance`, and the instance checked (:func:`check_instance`): what
    ``generate --gap-tsv`` keeps of a row. (instance, None, added) or (None, reason, 0)."""
    inst, reason, added = gap_instance(row, doc)
    if inst is None:
        return None, reason, 0
    try:
        check_instance(inst)
    except GenerateError:
        return None, REJECT_INCONSISTENT, 0
    return inst, None, added
