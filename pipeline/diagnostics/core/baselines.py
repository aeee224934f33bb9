"""Name-blind baselines, the pure core: system outputs computed from where the personal names
are, not who (see docs/baselines.md).

May import: the standard library, :mod:`pipeline.diagnostics.core.analysis`.

* ``random``: a uniformly random personal name of the text; A-coref (B-coref) is TRUE when the
  picked name IS A (B), i.e. its span overlaps A's (B's) span. Its scores are reported as
  exact expectations: the output carries ``A-prob`` = P(A-coref TRUE) and ``B-prob`` =
  P(B-coref TRUE) (the A-coref / B-coref columns hold one seeded draw, for tools that need
  plain labels). A name span overlapping both candidates (two such spans in GAP test) makes
  both TRUE; ``AB-prob`` = P(both TRUE) is given too, so that the joint distribution is
  exact: P(TRUE, FALSE) = A-prob - AB-prob, P(FALSE, TRUE) = B-prob - AB-prob, rest
  FALSE/FALSE. AB-prob is 0 unless such a span exists, i.e. A-prob and B-prob are then
  mutually exclusive.
* ``dist1``..``dist3``: the k-th closest name to the pronoun (spaCy tokens between them; at
  equal distance the name before the pronoun first, see :mod:`pipeline.diagnostics.core.analysis`); no answer
  (FALSE, FALSE) when the text has fewer than k names.

Names are given spans (``--name-spans``), the dataset's ``names`` column, or spaCy PERSON
entities (:func:`pipeline.lang.names.mention_from_span`). These definitions reproduce the
published "Ground-Truth" baseline figures on GAP test (see tests/core/test_baselines.py).
"""

from __future__ import annotations

import random as _random
from typing import NamedTuple, Sequence

from pipeline.diagnostics.core.analysis import NameSpan, RankedName, rank_names

KINDS = ("random", "dist1", "dist2", "dist3")


class Prediction(NamedTuple):
    a: bool
    b: bool
    a_prob: float     # P(A-coref TRUE); for deterministic kinds 0.0 or 1.0
    b_prob: float
    ab_prob: float    # P(both TRUE)


def _deterministic(a: bool, b: bool) -> Prediction:
    return Prediction(a, b, float(a), float(b), float(a and b))


def predict_ranked(kind: str, ranked: Sequence[RankedName], draw: int | None = None) -> Prediction:
    """The prediction of baseline ``kind`` from the names ordered closest first.

    For ``random`` the probabilities are exact; ``draw`` (an index into ``ranked``) chooses the
    labels of one realisation (default: no name, FALSE/FALSE).
    """
    if kind == "random":
        n = len(ranked)
        if n == 0:
            return Prediction(False, False, 0.0, 0.0, 0.0)
        pa = sum(r.is_a for r in ranked) / n
        pb = sum(r.is_b for r in ranked) / n
        pab = sum(r.is_a and r.is_b for r in ranked) / n
        picked = ranked[draw] if draw is not None else None
        return Prediction(bool(picked and picked.is_a), bool(picked and picked.is_b), pa, pb, pab)
    if kind in ("dist1", "dist2", "dist3"):
        k = int(kind[-1])
        if len(ranked) < k:
            return _deterministic(False, False)
        r = ranked[k - 1]
        return _deterministic(r.is_a, r.is_b)
    raise ValueError(f"unknown baseline kind {kind!r}")


def baseline_prediction(kind: str, text: str, pronoun_span: tuple[int, int], a_span: tuple[int, int],
            b_span: tuple[int, int], names: Sequence[NameSpan], token_starts: Sequence[int],
            draw: int | None = None) -> Prediction:
    """Pure core: one example's prediction from its spans (character offsets into ``text``),
    its personal-name spans and the character offsets of its spaCy tokens."""
    del text  # the baselines are name-blind: only positions matter
    ranked = rank_names(token_starts, pronoun_span, names, a_span, b_span)
    return predict_ranked(kind, ranked, draw)


def system_rows(kind: str, ids: Sequence[str], ranked_lists: Sequence[Sequence[RankedName]],
                seed: int = 0) -> list[dict]:
    """GAP system rows (ID, A-coref, B-coref [, A-prob, B-prob, AB-prob])."""
    rng = _random.Random(seed)
    rows = []
    for ex_id, ranked in zip(ids, ranked_lists):
        draw = rng.randrange(len(ranked)) if kind == "random" and ranked else None
        p = predict_ranked(kind, ranked, draw)
        row = {"ID": ex_id, "A-coref": "TRUE" if p.a else "FALSE", "B-coref": "TRUE" if p.b else "FALSE"}
        if kind == "random":
            row.update({"A-prob": repr(p.a_prob), "B-prob": repr(p.b_prob), "AB-prob": repr(p.ab_prob)})
        rows.append(row)
    return rows
