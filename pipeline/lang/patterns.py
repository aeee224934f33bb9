"""GAP patterns (Webster et al., 2018) over a dependency parse: the pure rules of extract.

The two names of the pronoun's gender are its candidates. ``sp`` below is the index of the
pronoun's sentence inside the context window.

* INITIALPRO: both candidates have a mention in sentence ``sp`` and the pronoun is in an
  initial subordinate clause, or is a possessive in an initial prepositional phrase.
* MEDIALPRO: one candidate has a mention in sentence ``sp - 1``, the other in sentence
  ``sp``; the pronoun is placed as for INITIALPRO.
* FINALPRO: both candidates have a mention in one sentence S, S = ``sp`` or ``sp - 1``, and
  the pronoun comes after both mentions (in S or in the sentence right after it).

A pronoun that matches several patterns keeps the first of INITIALPRO, MEDIALPRO, FINALPRO
(most specific first).

"Initial subordinate clause" / "initial prepositional phrase", exactly: climb from the
pronoun through its heads to the token H whose head is the sentence root. The pronoun is in
an initial subordinate clause when H's dependency label is ``advcl`` (adverbial clause:
"Although she ...", "When his ...", "Turning to her ...") and H's subtree is initial; it is a
possessive in an initial prepositional phrase when the pronoun is tagged ``PRP$`` and H's label
is ``prep`` with an initial subtree ("In her letter, ..."). A subtree is initial when it
starts the sentence (only punctuation, quotes, coordinating conjunctions and interjections
may stand before it) and ends before the root.

Mentions chosen as A and B (the two candidate mentions that satisfied the pattern; A is the
earlier): in the pronoun's sentence, a candidate's mention closest to the pronoun; in the
sentence before it (MEDIALPRO), its last mention; for FINALPRO, each candidate's last mention
before the pronoun in S.

May import: the standard library, :mod:`pipeline.vocab` (the pattern names, re-exported here).
The parse (a spaCy Doc or its arrays) is handed in by the caller.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.vocab import FINALPRO, INITIALPRO, MEDIALPRO, PATTERNS  # noqa: F401 (re-exported)

_LEADING_TAGS = {"CC", "UH", "``", "''", '"', ",", ":", "-LRB-", "NFP", "HYPH"}


def _is_leading_filler(tok) -> bool:
    return tok.is_punct or tok.is_space or tok.tag_ in _LEADING_TAGS or tok.dep_ in ("cc", "intj")


def root_child(tok, sent):
    """The token on the path from ``tok`` to the root whose head is the root (or None)."""
    root = sent.root
    if tok == root:
        return None
    t = tok
    steps = 0
    while t.head != root and t.head != t and steps < 200:
        t = t.head
        steps += 1
    return t if t.head == root else None


def subtree_is_initial(head, sent) -> bool:
    root = sent.root
    left, right = head.left_edge.i, head.right_edge.i
    if right >= root.i:
        return False
    return all(_is_leading_filler(t) for t in sent.doc[sent.start:left])


def initial_clause_kind(tok, sent) -> str | None:
    """'subordinate-clause' / 'prepositional-phrase' when the pronoun ``tok`` stands in an
    initial subordinate clause / is a possessive in an initial PP of ``sent``; else None."""
    h = root_child(tok, sent)
    if h is None or not subtree_is_initial(h, sent):
        return None
    if h.dep_ == "advcl":
        return "subordinate-clause"
    if h.dep_ == "prep" and tok.tag_ == "PRP$":
        return "prepositional-phrase"
    return None


@dataclass
class Match:
    pattern: str
    a_role: str         # C1 | C2
    a_index: int        # index into that person's mention list
    b_role: str
    b_index: int


def match_pattern(pron_start: int, sp: int, initial: bool,
                  cands: dict[str, list[tuple[int, int]]]) -> Match | None:
    """Decide the pattern of one pronoun.

    ``pron_start``: the pronoun's character offset; ``sp``: its sentence index; ``initial``:
    whether it is in an initial subordinate clause / initial PP (see module doc);
    ``cands``: role (C1, C2) -> [(sentence index, character start) of each mention].
    """
    def in_sent(role, s):
        return [i for i, (si, _) in enumerate(cands[role]) if si == s]

    def closest(role, idxs):
        return min(idxs, key=lambda i: (abs(cands[role][i][1] - pron_start), cands[role][i][1]))

    def last(role, idxs):
        return max(idxs, key=lambda i: cands[role][i][1])

    def ordered(r1, i1, r2, i2, pattern):
        if cands[r1][i1][1] <= cands[r2][i2][1]:
            return Match(pattern, r1, i1, r2, i2)
        return Match(pattern, r2, i2, r1, i1)

    c1_here, c2_here = in_sent("C1", sp), in_sent("C2", sp)
    if initial and c1_here and c2_here:
        return ordered("C1", closest("C1", c1_here), "C2", closest("C2", c2_here), INITIALPRO)
    if initial:
        for prev_role, here_role, here in (("C1", "C2", c2_here), ("C2", "C1", c1_here)):
            prev = in_sent(prev_role, sp - 1)
            if prev and here:
                return ordered(prev_role, last(prev_role, prev), here_role, closest(here_role, here), MEDIALPRO)
    for s in (sp, sp - 1):
        before1 = [i for i in in_sent("C1", s) if cands["C1"][i][1] < pron_start]
        before2 = [i for i in in_sent("C2", s) if cands["C2"][i][1] < pron_start]
        if before1 and before2:
            return ordered("C1", last("C1", before1), "C2", last("C2", before2), FINALPRO)
    return None
