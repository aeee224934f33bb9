"""Per-row answers: a system's A/B answer on every dataset row, beside gold (``answers.parquet``
of ``predict`` and ``evaluate``), and the GAP decision rule on character clusters.

Pure: records in, records out.

* :func:`answer_from_char_clusters` -- the rule of docs/evaluate.md on character offsets of the
  row's own text: the pronoun's mention is the shortest predicted mention covering the
  pronoun's characters (ties: the first cluster); a candidate is coreferent when it overlaps
  another mention of that mention's cluster; a pronoun in no mention is coreferent with
  nothing.
* :func:`ab_label` -- ``A``, ``B``, ``both`` or ``neither`` from two booleans (None: unanswered);
* :func:`answer_records` -- the rows of ``answers.parquet`` (typed
  :class:`pipeline.formats.records.SystemAnswer`, schema :data:`pipeline.formats.schemas.ANSWERS`);
* :func:`has_no_labels` / :func:`unlabelled_gold` -- a dataset before annotation (``generate``'s
  quadruples: no A/B labels) validated for running and scoring systems without gold.

May import: the standard library, :mod:`pipeline.formats.records` (the typed answer; a
:class:`pipeline.core.gold.Gold` is passed in), :mod:`pipeline.core.gold` (inside
:func:`unlabelled_gold`).
"""

from __future__ import annotations

from typing import Iterable, Sequence

from pipeline.formats.records import SystemAnswer

Span = tuple[int, int]


def _overlaps(a: Span, b: Span) -> bool:
    return a[0] < b[1] and b[0] < a[1]


def answer_from_char_clusters(clusters: Sequence[Sequence[Span]], pronoun: Span, a: Span,
                              b: Span | None) -> tuple[bool, bool]:
    """(A-coref, B-coref) of character clusters (end exclusive) on the row's own text."""
    best = None
    for ci, cluster in enumerate(clusters):
        for m in cluster:
            m = (int(m[0]), int(m[1]))
            if m[0] <= pronoun[0] and pronoun[1] <= m[1]:
                if best is None or m[1] - m[0] < best[0]:
                    best = (m[1] - m[0], ci, m)
    if best is None:
        return False, False
    _, ci, own = best
    others = [(int(m[0]), int(m[1])) for m in clusters[ci] if (int(m[0]), int(m[1])) != own]

    def hit(span):
        return span is not None and any(_overlaps(span, m) for m in others)

    return hit(a), hit(b)


def ab_label(a: bool | None, b: bool | None) -> str | None:
    """``A``, ``B``, ``both``, ``neither``; None when either is unknown."""
    if a is None or b is None:
        return None
    return "both" if a and b else "A" if a else "B" if b else "neither"


def answer_records(rows: Iterable[dict], system: str, answers: dict[str, tuple[bool, bool] | None],
                   errors: dict[str, str] | None = None) -> list[dict]:
    """One record per dataset row for ``system``.

    ``rows``: dicts with ``id``, ``quadruple_id``, ``variant``, ``gender``, ``gold_a``,
    ``gold_b`` (None: no gold label); ``answers``: id -> (A-coref, B-coref), None or absent
    when the system gave no answer; ``errors``: id -> why not. ``correct`` is True when the
    answer equals gold, False otherwise (an unanswered row is wrong, as evaluate counts it),
    None when the row has no gold label.
    """
    errors = errors or {}
    out = []
    for r in rows:
        ans = answers.get(r["id"])
        sys_a, sys_b = ans if ans is not None else (None, None)
        gold = ab_label(r.get("gold_a"), r.get("gold_b"))
        given = ab_label(sys_a, sys_b)
        correct = None if gold is None else (given == gold)
        out.append(SystemAnswer(id=r["id"], system=system, quadruple_id=r.get("quadruple_id"),
                                variant=r.get("variant"), gender=r.get("gender"), answer=given,
                                a_coref=sys_a, b_coref=sys_b, gold=gold, correct=correct,
                                answered=ans is not None, error=errors.get(r["id"])).as_dict())
    return out


LABEL_COLUMNS = (("a_coref", "b_coref"), ("A-coref", "B-coref"))   # Parquet, GAP TSV


def has_no_labels(raw) -> bool:
    """True when a dataset frame carries no gold label at all: its A/B label columns are
    empty on every row (``generate``'s ``quadruples.parquet`` before annotation).
    A frame labelled on some rows only is not unlabelled (the gold check names the rows)."""
    for a, b in LABEL_COLUMNS:
        if a in raw.columns or b in raw.columns:
            cols = [c for c in (a, b) if c in raw.columns]
            return all(bool(raw[c].map(_blank).all()) for c in cols)
    return False


def _blank(v) -> bool:
    return v is None or (isinstance(v, float) and v != v) or (isinstance(v, str) and not v.strip())


def unlabelled_gold(raw, path):
    """A :class:`pipeline.core.gold.Gold` of a dataset without labels (:func:`has_no_labels`):
    validated as a labelled one (IDs, pronoun genders, quadruples, texts) with the labels
    set to FALSE as placeholders, and ``gold.labelled = False`` so that nothing scores them."""
    from pipeline.core.gold import normalise_dataset

    raw = raw.copy()
    parquet = "id" in raw.columns and "ID" not in raw.columns
    for c in LABEL_COLUMNS[0 if parquet else 1]:
        raw[c] = False
    gold = normalise_dataset(raw, path)
    gold.labelled = False
    return gold


def is_labelled(gold) -> bool:
    return getattr(gold, "labelled", True)


def gold_answer_rows(gold) -> list[dict]:
    """The rows of a validated :class:`pipeline.core.gold.Gold` for :func:`answer_records`
    (``gold_a``/``gold_b`` None when the dataset has no labels, :func:`unlabelled_gold`)."""
    labelled = is_labelled(gold)
    f = gold.frame
    gender = {1: "masculine", -1: "feminine"}
    ids = [str(i) for i in f["ID"]]
    bases = [str(b) for b in gold.bases] if gold.bases is not None else ids
    variants = [str(v) for v in gold.variants] if gold.variants is not None else ["original"] * len(ids)
    return [{"id": i, "quadruple_id": q, "variant": v, "gender": gender.get(int(g), "neutral"),
             "gold_a": bool(a) if labelled else None, "gold_b": bool(b) if labelled else None}
            for i, q, v, g, a, b in zip(ids, bases, variants, f["gender"], f["A-coref"], f["B-coref"])]
