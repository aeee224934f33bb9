"""How many instances the extraction rules could take from coreference-annotated text at best.

``label`` measures the precision of what extract found; this measures the room it had. It runs
the extraction's own window and pattern rules (:func:`pipeline.core.extract.candidate_windows`,
:func:`pipeline.lang.patterns.match_pattern`) on *gold* persons instead of NER's, so person
detection and gender guessing are perfect by construction, and counts the gendered pronouns
that would give an instance. With LitBank's 100 annotated openings this is the most labelled
instances any person detector could give ``label`` there.

Gold persons (generous on purpose, so the count is an upper bound):

* a **named mention** is a gold mention whose words are all capitalised (a possessive "'s",
  hyphens and periods may stand between them) and whose first word is not a pronoun, an
  article or another function word ("He", "The Lady" are not names; "Mr. Hilbery",
  "Katharine", "Lady Elliot" are);
* a cluster's **gender** is the majority of its gendered pronoun mentions (he, him, his,
  himself / she, her, hers, herself); a cluster without such pronouns takes the gender its
  gendered named mentions give (title, else gender-guesser:
  :func:`pipeline.lang.names.name_gender`; an unknown "Hilbery" beside "Mr. Hilbery" neither
  helps nor hurts) when they agree; a tie or nothing leaves it ungendered;
* a **person** of a window is a gendered cluster with a named mention in it. Clusters without
  a gender (places, ships, a name never taken up by a pronoun) are ignored rather than
  spoiling the window, which the extraction would do if NER called them persons.

A pronoun (a gendered non-reflexive pronoun by spelling: he, him, his, she, her, hers) counts
when some window of at most five gold sentences (``pipeline.vocab.MAX_SENTENCES``) around it
holds exactly two masculine and two feminine persons and the two of the pronoun's gender match a GAP pattern
with their named mentions. INITIALPRO and MEDIALPRO need to know whether the pronoun stands in
an initial subordinate clause or prepositional phrase: the caller passes those pronouns
(``initial``, e.g. from a parse of the gold sentences); ``None`` counts every pronoun as
initial, the loosest bound.

Pure: may import the standard library, :mod:`pipeline.core.extract` (its window order),
:mod:`pipeline.lang` and :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Iterable, Sequence

from pipeline.core.extract import candidate_windows
from pipeline.lang.names import name_gender, title_gender
from pipeline.lang.patterns import match_pattern
from pipeline.lang.pronouns import FEMININE, MASCULINE, REFLEXIVES, target_pronoun_gender
# First words that make a capitalised mention a description, not a name.
FUNCTION_WORDS = frozenset("""
a an the this that these those my your his her its our their i me you he she it we they him them
one some any every each no who which what whose whom there here all both such
""".split())
JOINERS = {"'s", "’s", "'", "’", "-", "--", ".", "of", "de", "la", "le", "van", "von", "du", "da"}


@dataclass
class GoldDocument:
    """One annotated document: words, the token index where each sentence starts, and its
    gold clusters (inclusive token spans)."""

    doc_id: str
    words: list[str]
    sentence_starts: list[int]
    clusters: list[list[tuple[int, int]]]


@dataclass
class Ceiling:
    pronouns: int = 0        # gendered non-reflexive pronouns in the documents
    two_and_two: int = 0     # ... with a window of exactly 2 masculine + 2 feminine gold persons
    instances: int = 0       # ... whose candidates match a GAP pattern in such a window
    patterns: Counter | None = None
    found: list[tuple[str, int]] | None = None   # (document id, pronoun token) of each instance

    def as_dict(self) -> dict:
        return {"pronouns": self.pronouns, "two_and_two": self.two_and_two, "instances": self.instances,
                "patterns": dict(self.patterns or {})}


def is_named(words: Sequence[str]) -> bool:
    """A gold mention's words form a personal-name-like mention (see the module doc)."""
    words = [w for w in words if w]
    if not words or words[0].lower().rstrip(".") in FUNCTION_WORDS and not title_gender(words[0]):
        return False
    return words[0][:1].isupper() and all(w[:1].isupper() or w.lower() in JOINERS for w in words)


def cluster_gender(words: Sequence[str], spans: Iterable[tuple[int, int]]) -> str | None:
    """The gender of one gold cluster (see the module doc), or None."""
    spans = list(spans)
    votes: Counter = Counter()
    for s, e in spans:
        if s == e:
            w = words[s]
            g = target_pronoun_gender(w) or REFLEXIVES.get(w.lower())
            if g:
                votes[g] += 1
    if votes:
        (g1, n1), *rest = votes.most_common()
        return g1 if not rest or rest[0][1] < n1 else None
    names = set()
    for s, e in spans:
        toks = list(words[s:e + 1])
        if not is_named(toks):
            continue
        title = toks[0] if title_gender(toks[0]) and len(toks) > 1 else ""
        g, _ = name_gender(" ".join(toks[1:] if title else toks), title)
        if g in (MASCULINE, FEMININE):
            names.add(g)
    return next(iter(names)) if len(names) == 1 else None


def document_ceiling(doc: GoldDocument, initial: set[int] | None = None) -> Ceiling:
    """:class:`Ceiling` of one document; ``initial``: token indices of the pronouns in an
    initial subordinate clause or PP (None: all of them)."""
    words = doc.words
    starts = sorted(set(doc.sentence_starts) | {0}) if words else []
    sent_of = [0] * len(words)
    for k, s in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(words)
        for i in range(s, end):
            sent_of[i] = k
    persons: list[tuple[str, list[tuple[int, int]]]] = []   # (gender, [(sentence, token)])
    for spans in doc.clusters:
        g = cluster_gender(words, spans)
        if g is None:
            continue
        named = sorted((sent_of[s], s) for s, e in spans if is_named(words[s:e + 1]))
        if named:
            persons.append((g, named))
    out = Ceiling(patterns=Counter(), found=[])
    for i, w in enumerate(words):
        gender = target_pronoun_gender(w)
        if not gender:
            continue
        out.pronouns += 1
        sp = sent_of[i]
        fitted = False
        for lo, hi in candidate_windows(sp, len(starts)):
            inside = [(g, [(k - lo, t) for k, t in named if lo <= k <= hi]) for g, named in persons]
            inside = [(g, ms) for g, ms in inside if ms]
            counts = Counter(g for g, _ in inside)
            if counts[MASCULINE] != 2 or counts[FEMININE] != 2:
                continue
            fitted = True
            cands = [ms for g, ms in inside if g == gender]
            match = match_pattern(i, sp - lo, initial is None or i in initial, {"C1": cands[0], "C2": cands[1]})
            if match is not None:
                out.instances += 1
                out.patterns[match.pattern] += 1
                out.found.append((doc.doc_id, i))
                break
        out.two_and_two += fitted
    return out


def ceiling(documents: Iterable[GoldDocument], initial: dict[str, set[int]] | None = None) -> Ceiling:
    """The summed :class:`Ceiling` of the documents; ``initial``: document id -> the token
    indices of its pronouns in initial clauses (None: every pronoun counts as initial)."""
    total = Ceiling(patterns=Counter(), found=[])
    for doc in documents:
        c = document_ceiling(doc, None if initial is None else initial.get(doc.doc_id, set()))
        total.pronouns += c.pronouns
        total.two_and_two += c.two_and_two
        total.instances += c.instances
        total.patterns.update(c.patterns)
        total.found.extend(c.found)
    return total
