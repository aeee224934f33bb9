"""The nearest-candidate baseline of SoWinoBias (the trivial system), the pure core: for GAP
rows, answer the candidate nearest to the pronoun (docs/sowinobias.md).

May import: the standard library.
"""

from __future__ import annotations

import re
from typing import Iterable

_TOKEN = re.compile(r"\w+(?:[-']\w+)*|[^\w\s]")


def _token_index(starts: list[int], ends: list[int], offset: int, length: int) -> tuple[int, int]:
    """First and last token overlapping the character span [offset, offset + length)."""
    hit = [i for i, (s, e) in enumerate(zip(starts, ends)) if s < offset + max(length, 1) and e > offset]
    if not hit:
        raise ValueError(f"no token at offset {offset}")
    return hit[0], hit[-1]


def nearest_prediction(text: str, pronoun_offset: int, pronoun: str, a_offset: int, a: str,
                       b_offset: int, b: str) -> tuple[bool, bool]:
    """(A-coref, B-coref) of the system that picks the candidate nearest to the pronoun.

    Distance is counted in tokens (words and single punctuation marks, a regular expression,
    no spaCy) between the pronoun and the closest token of the candidate. A tie goes to the
    candidate before the pronoun, then to B.
    """
    toks = list(_TOKEN.finditer(text))
    starts = [t.start() for t in toks]
    ends = [t.end() for t in toks]
    p_first, _ = _token_index(starts, ends, pronoun_offset, len(pronoun))

    def dist(offset: int, mention: str) -> tuple[int, int]:
        first, last = _token_index(starts, ends, offset, len(mention))
        d = p_first - last if last < p_first else first - p_first
        return d, 0 if last < p_first else 1

    da, db = dist(a_offset, a), dist(b_offset, b)
    pick_a = da < db
    return pick_a, not pick_a


def nearest_baseline(rows: Iterable[dict]) -> list[dict]:
    """System output rows (ID, A-coref, B-coref) of the nearest-candidate baseline for GAP rows
    (keys ID, Text, Pronoun, Pronoun-offset, A, A-offset, B, B-offset)."""
    out = []
    for r in rows:
        a_ref, b_ref = nearest_prediction(r["Text"], int(r["Pronoun-offset"]), r["Pronoun"],
                                          int(r["A-offset"]), r["A"], int(r["B-offset"]), r["B"])
        out.append({"ID": r["ID"], "A-coref": a_ref, "B-coref": b_ref})
    return out
