"""GAP TSV rows -> annotation records: the persons of each text, with A and B among them (pure).

Annotation (``annotate-export``, ``annotate-serve``, ``annotate-import``) needs, for every row,
the persons of the text and their name mentions, so that annotators can highlight any name and
the answer can be mapped to A, B or neither (:mod:`pipeline.annotation.core.questions`). A GAP TSV row
(GAP's files, Counter-GAP's releases) gives only Text, Pronoun, A, B and their offsets; the
rest is found here, on a spaCy Doc of the text that the caller made with the project's pipeline
(:func:`pipeline.nlp.load.load`, person layer included):

1. the name mentions are the PERSON entities as :func:`pipeline.lang.names.mention_from_span`
   reads them (title attached, possessive trimmed), except one that holds the pronoun;
2. A and B are names by the file's word: each candidate's span (its offset and length, trimmed
   of a possessive and punctuation as the answer checks trim a highlight:
   :func:`pipeline.core.spans.trim_span`; Counter-GAP writes "John Abdy's") is read with
   :func:`~pipeline.lang.names.mention_from_span` too. When a found mention already covers it,
   nothing changes ("Carter" inside "Captain Carter"); otherwise the found mentions that overlap
   it are dropped and the candidate's mention is used. When the offsets do not fall on token
   boundaries, or the span is not a usable name (no capitalised word: "the baker"; or, as the
   tagger reads it, no proper noun, or a determiner or pronoun in it: "The baker" opening a
   sentence), the row is rejected: the candidate is not a name the pipeline can find, and
   nothing is guessed;
3. the mentions are grouped into persons by :func:`pipeline.lang.names.group_persons`; an
   ambiguous grouping ("Weston" beside "Mr. Weston" and "Mrs. Weston") rejects the row, and so
   do A and B falling to one person (the answer could not tell them apart);
4. roles: the persons of the pronoun's gender and those of A and B are C1, C2, ... in order of
   first mention, all others O1, O2, ... (GAP rows may hold any number of persons).

:func:`gap_records` converts a whole file: rows form quadruples by their IDs
(:func:`pipeline.vocab.split_id`: ``N``, ``N-control``, ``N-swap-1``, ``N-swap-2``; a plain GAP
ID is a quadruple of one row), and a quadruple with a rejected row is left out entirely: the
import keeps only quadruples whose four instances were all voted, so its other rows could never
reach the final dataset. The records follow schema QUADRUPLES (``pipeline.formats.schemas``);
A, B and their offsets are the file's, and A-coref/B-coref are kept.

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.lang`,
:mod:`pipeline.core.gap_rows` (the GAP conversion's shared pieces), :mod:`pipeline.core.cast`,
:mod:`pipeline.core.spans`, :mod:`pipeline.annotation.core.questions`. Works on spaCy Docs passed
in; never loads a pipeline or touches a file.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pipeline.core.gap_rows import REJECT_AMBIGUOUS, positional_pattern
from pipeline.core.spans import trim_span
from pipeline.core.cast import doc_mentions
from pipeline.lang.names import group_persons, mention_from_span
from pipeline.lang.pronouns import PRONOUNS
from pipeline.vocab import CONTROL, ORIGINAL, opposite, split_id

REJECT_PRONOUN = "the pronoun is not a gendered pronoun"
REJECT_NOT_NAME = "{} is not a name the pipeline can find"
REJECT_PRONOUN_IN_NAME = "{} overlaps the pronoun"
REJECT_OVERLAP = "A and B overlap"
REJECT_SAME_PERSON = "A and B are the same person"
PROPER_NOUN_TAGS = {"NNP", "NNPS"}
NOT_NAME_TAGS = {"DT", "PDT", "PRP", "PRP$", "WDT", "WP", "WP$", "EX"}


@dataclass
class Conversion:
    """What :func:`gap_records` made: the records, and what it left out and why."""
    records: list[dict]
    rejected: list[tuple[str, str]] = field(default_factory=list)  # (row id, reason)
    dropped_with_quadruple: list[str] = field(default_factory=list)  # good rows left out
    rows: int = 0
    quadruples: int = 0
    quadruples_kept: int = 0

    def reasons(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, reason in self.rejected:
            out[reason] = out.get(reason, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))


def _inside(start: int, end: int, m) -> bool:
    return m.start <= start and end <= m.end


def _overlaps(start: int, end: int, m) -> bool:
    return start < m.end and m.start < end


def _proper_name(doc, mention) -> bool:
    """A candidate span NER did not find is a name only when the tagger reads a proper noun in
    it and no determiner or pronoun ("The baker" at a sentence start is capitalised, not a
    name)."""
    tokens = [t for t in doc[mention.token_start:mention.token_end]
              if t.idx >= mention.end - len(mention.name) and not t.is_punct]
    return (any(t.tag_ in PROPER_NOUN_TAGS for t in tokens)
            and not any(t.tag_ in NOT_NAME_TAGS for t in tokens))


def gap_persons(row: dict, doc) -> tuple[list[dict] | None, str | None]:
    """The persons of one GAP TSV row (validated, typed: :func:`pipeline.formats.gap_tsv.
    read_gap_tsv`) as NAME records, or (None, reason). ``doc``: the row's Text through the
    project's spaCy pipeline. The steps are the module docstring's."""
    p_off, p_end = row["Pronoun-offset"], row["Pronoun-offset"] + len(row["Pronoun"])
    gender = PRONOUNS.get(row["Pronoun"].lower(), (None,))[0]
    if gender is None:
        return None, REJECT_PRONOUN
    found = [m for m in doc_mentions(doc) if not _overlaps(p_off, p_end, m)]
    spans = {}
    for key in ("A", "B"):
        start, end = trim_span(row["Text"], row[f"{key}-offset"], row[f"{key}-offset"] + len(row[key]))
        if end <= start:
            return None, REJECT_NOT_NAME.format(key)
        if start < p_end and p_off < end:
            return None, REJECT_PRONOUN_IN_NAME.format(key)
        spans[key] = (start, end)
        if any(_inside(start, end, m) for m in found):
            continue
        span = doc.char_span(start, end)
        mention = mention_from_span(span) if span is not None else None
        if mention is None or not _inside(start, end, mention) or _overlaps(p_off, p_end, mention) \
                or not _proper_name(doc, mention):
            return None, REJECT_NOT_NAME.format(key)
        found = [m for m in found if not _overlaps(mention.start, mention.end, m)] + [mention]
    (a_s, a_e), (b_s, b_e) = spans["A"], spans["B"]
    if a_s < b_e and b_s < a_e:
        return None, REJECT_OVERLAP
    persons, ok = group_persons(found)
    if not ok:
        return None, REJECT_AMBIGUOUS

    def owner(start: int, end: int) -> int:
        return next(i for i, p in enumerate(persons) if any(_inside(start, end, m) for m in p.mentions))

    a_person, b_person = owner(a_s, a_e), owner(b_s, b_e)
    if a_person == b_person:
        return None, REJECT_SAME_PERSON
    names, counts = [], {"C": 0, "O": 0}
    for i, p in enumerate(persons):                 # persons come in order of first mention
        prefix = "C" if p.gender == gender or i in (a_person, b_person) else "O"
        counts[prefix] += 1
        names.append({"role": f"{prefix}{counts[prefix]}", "name": p.name, "gender": p.gender,
                      "mentions": [{"start": m.start, "end": m.end, "text": m.text, "title": m.title}
                                   for m in p.mentions]})
    return names, None


def gap_record(row: dict, names: list[dict], source: str = "gap-tsv") -> dict:
    """A QUADRUPLES record of a GAP TSV row and its persons (:func:`gap_persons`)."""
    quadruple_id, variant = split_id(str(row["ID"]))
    gender = PRONOUNS[row["Pronoun"].lower()][0]
    return {
        "id": str(row["ID"]), "quadruple_id": quadruple_id, "variant": variant, "instance_id": "",
        "pronoun_gender": gender,
        "original_gender": gender if variant in (ORIGINAL, CONTROL) else opposite(gender),
        "pattern": positional_pattern(row["Pronoun-offset"], row["A-offset"], row["B-offset"]),
        "book_id": "", "book": row.get("Book") or "", "text": row["Text"],
        "pronoun": row["Pronoun"], "pronoun_offset": row["Pronoun-offset"],
        "a": row["A"], "a_offset": row["A-offset"], "b": row["B"], "b_offset": row["B-offset"],
        "a_coref": row.get("A-coref"), "b_coref": row.get("B-coref"), "names": names,
        "source": source, "url": row.get("URL") or "",
    }


def gap_records(rows: list[dict], docs, source: str = "gap-tsv") -> Conversion:
    """Convert the rows of a GAP TSV file (``docs``: their Texts' Docs, in order) into
    QUADRUPLES records, leaving out every quadruple with a rejected row (module docstring)."""
    converted: list[tuple[str, dict | None]] = []
    rejected = []
    for row, doc in zip(rows, docs, strict=True):
        names, reason = gap_persons(row, doc)
        if names is None:
            rejected.append((str(row["ID"]), reason))
            converted.append((split_id(str(row["ID"]))[0], None))
        else:
            converted.append((split_id(str(row["ID"]))[0], gap_record(row, names, source)))
    bad_quads = {q for q, rec in converted if rec is None}
    records = [rec for q, rec in converted if rec is not None and q not in bad_quads]
    dropped = [rec["id"] for q, rec in converted if rec is not None and q in bad_quads]
    quads = {q for q, _ in converted}
    return Conversion(records, rejected, dropped, len(rows), len(quads), len(quads - bad_quads))
