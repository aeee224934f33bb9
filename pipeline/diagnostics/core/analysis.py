"""Dataset diagnostics ("The Gap on GAP", Kocijan et al. 2021), the pure core: personal names
per example and the rank of the correct candidate among the names ordered by distance to the
pronoun. Shared by the ``analyze``, ``weights`` and ``baseline`` commands.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.lang` (pronouns, names), :mod:`pipeline.core.cast`. No file I/O: records come from
:mod:`pipeline.formats.dataset_files`; a spaCy pipeline is passed in by the caller.

Definitions (chosen so that the published GAP-test figures reproduce with the manual spans):

* A *name* is a personal-name MENTION (a span), not a distinct person: "Dehner ... Dehner's"
  counts twice. Names come from given spans (``--name-spans JSON``), from a dataset's own
  ``names`` column (instances / quadruples Parquet), or from spaCy PERSON entities through
  :func:`pipeline.lang.names.mention_from_span`.
* The *distance* between a name and the pronoun is the number of spaCy tokens strictly between
  them (0 for adjacent or overlapping spans). Names are ordered by distance; at equal distance
  a name BEFORE the pronoun comes first (the antecedent side), then by position.
* A candidate's *name* is the name mention that overlaps the candidate's span the most
  (ties: the leftmost); a name IS A (B) when it is A's (B's) name.
* The *rank* of the correct candidate is the position (1 = closest) of its name in that
  order. A correct candidate that overlaps no name (GAP test with the manual spans: 9, such
  as "Footman", "The Queen") is ranked by its own span, as if it were a name, without being
  counted as one or offered to the baselines (``Features.rank_from_own_span``). Examples
  without a correct candidate (or without gold labels) have no rank.
* An example's gender is its pronoun's gender (:mod:`pipeline.lang.pronouns`).
"""

from __future__ import annotations

import bisect
import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Sequence

from pipeline.errors import InputError
from pipeline.lang.pronouns import target_pronoun_gender
from pipeline.vocab import GENDERS

# ------------------------------------------------------------------------------ records -------


@dataclass(frozen=True)
class NameSpan:
    start: int     # character offsets into the example's text, end exclusive
    end: int
    text: str


@dataclass
class Example:
    id: str
    text: str
    pronoun: str
    pronoun_offset: int
    a: str
    a_offset: int
    b: str
    b_offset: int
    a_coref: bool | None = None
    b_coref: bool | None = None
    names: list[NameSpan] | None = None   # from the dataset itself (names column), if any

    @property
    def gender(self) -> str | None:
        return target_pronoun_gender(self.pronoun)

    @property
    def correct(self) -> str | None:
        """"A", "B" or None (no correct candidate, or labels unknown)."""
        if self.a_coref:
            return "A"
        if self.b_coref:
            return "B"
        return None

    def span(self, which: str) -> tuple[int, int]:
        if which == "A":
            return self.a_offset, self.a_offset + len(self.a)
        if which == "B":
            return self.b_offset, self.b_offset + len(self.b)
        if which == "P":
            return self.pronoun_offset, self.pronoun_offset + len(self.pronoun)
        raise ValueError(which)


@dataclass(frozen=True)
class RankedName:
    name: NameSpan
    distance: int      # spaCy tokens strictly between the name and the pronoun
    before: bool       # the name starts before the pronoun
    is_a: bool         # the name is A's name (see candidate_name)
    is_b: bool


@dataclass
class Features:
    """What the diagnostics, the weights and the baselines need of one example."""

    id: str
    gender: str | None
    n_names: int
    ranked: list[RankedName] = field(default_factory=list)   # closest first
    correct: str | None = None
    rank: int | None = None          # rank of the correct candidate's name (None: no correct
                                     # candidate, or it is not a name)
    rank_a: int | None = None        # rank of A's and of B's name (for unlabelled data too)
    rank_b: int | None = None
    rank_from_own_span: bool = False  # the correct candidate is not a name: ranked by its own span


# ------------------------------------------------------------------------------ pure core -----


def overlaps(s1: int, e1: int, s2: int, e2: int) -> bool:
    return s1 < e2 and s2 < e1


def token_span(token_starts: Sequence[int], start: int, end: int) -> tuple[int, int]:
    """Token indices [first, last + 1) of the tokens that a character span [start, end) touches.

    ``token_starts`` are the character offsets of the tokens, ascending (spaCy ``token.idx``).
    """
    first = max(bisect.bisect_right(token_starts, start) - 1, 0)
    stop = max(bisect.bisect_left(token_starts, end), first + 1)
    return first, stop


def tokens_between(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Number of tokens strictly between two token spans (0 if adjacent or overlapping)."""
    if a[1] <= b[0]:
        return b[0] - a[1]
    if b[1] <= a[0]:
        return a[0] - b[1]
    return 0


def _order_key(distance: int, before: bool, start: int) -> tuple[int, int, int]:
    # closest first; at equal distance the name before the pronoun first; then by position
    # (before the pronoun: the later one is nearer in characters, so -start)
    return distance, 0 if before else 1, -start if before else start


def candidate_name(names: Iterable[NameSpan], candidate: tuple[int, int] | None) -> NameSpan | None:
    """The name mention that overlaps ``candidate`` the most (ties: the leftmost), or None."""
    if not candidate:
        return None
    best, best_key = None, None
    for n in names:
        ov = min(n.end, candidate[1]) - max(n.start, candidate[0])
        if ov <= 0:
            continue
        key = (-ov, n.start, n.end)
        if best_key is None or key < best_key:
            best, best_key = n, key
    return best


def rank_names(token_starts: Sequence[int], pronoun: tuple[int, int], names: Iterable[NameSpan],
               a: tuple[int, int] | None = None, b: tuple[int, int] | None = None) -> list[RankedName]:
    """The names ordered by distance to the pronoun (closest first), flagged when they are A's
    or B's name (:func:`candidate_name`). Name spans overlapping the pronoun are ignored."""
    p = token_span(token_starts, *pronoun)
    names = [n for n in names if not overlaps(n.start, n.end, *pronoun)]
    name_a, name_b = candidate_name(names, a), candidate_name(names, b)
    out = []
    for n in names:
        t = token_span(token_starts, n.start, n.end)
        before = n.start < pronoun[0]
        out.append(RankedName(n, tokens_between(t, p), before, n == name_a, n == name_b))
    out.sort(key=lambda r: _order_key(r.distance, r.before, r.name.start))
    return out


def example_features(ex: Example, token_starts: Sequence[int], names: Sequence[NameSpan]) -> Features:
    """The per-example quantities, from the token starts of ``ex.text`` and its name spans."""
    pron = ex.span("P")
    names = [n for n in names if not overlaps(n.start, n.end, *pron)]
    ranked = rank_names(token_starts, pron, names, ex.span("A"), ex.span("B"))
    f = Features(ex.id, ex.gender, len(names), ranked, ex.correct)
    f.rank_a = next((i + 1 for i, r in enumerate(ranked) if r.is_a), None)
    f.rank_b = next((i + 1 for i, r in enumerate(ranked) if r.is_b), None)
    if f.correct == "A":
        f.rank = f.rank_a
    elif f.correct == "B":
        f.rank = f.rank_b
    if f.correct is not None and f.rank is None:
        # the correct candidate overlaps no name span: its own span takes the place of its
        # name for the rank (it is not counted as a name, and it is not in ``ranked``)
        f.rank = own_span_rank(token_starts, pron, ranked, ex.span(f.correct))
        f.rank_from_own_span = True
    return f


def own_span_rank(token_starts: Sequence[int], pronoun: tuple[int, int], ranked: Sequence[RankedName],
                  candidate: tuple[int, int]) -> int:
    """The rank a candidate span would have among ``ranked`` (closest first) if it were a name:
    1 + the number of names ordered before it (:func:`rank_names`'s order)."""
    p = token_span(token_starts, *pronoun)
    t = token_span(token_starts, *candidate)
    key = _order_key(tokens_between(t, p), candidate[0] < pronoun[0], candidate[0])
    return 1 + sum(_order_key(r.distance, r.before, r.name.start) < key for r in ranked)


def mean_sd(values: Sequence[float]) -> tuple[float, float]:
    """Mean and population standard deviation (NaN, NaN for no values)."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    m = sum(values) / n
    return m, math.sqrt(sum((v - m) ** 2 for v in values) / n)


def summarize(feats: Sequence[Features]) -> dict:
    """Per gender: counts, mean ± sd of names per example, of the correct candidate's rank, and
    of A's and B's ranks; plus histograms (value -> count)."""
    out: dict = {}
    for g in GENDERS:
        fs = [f for f in feats if f.gender == g]
        names = [f.n_names for f in fs]
        ranks = [f.rank for f in fs if f.rank is not None]
        entry = {"examples": len(fs),
                 "with_correct_candidate": sum(f.correct is not None for f in fs),
                 "correct_candidate_not_a_name": sum(f.rank_from_own_span for f in fs)}
        for key, vals in (("names", names), ("rank", ranks),
                          ("rank_a", [f.rank_a for f in fs if f.rank_a is not None]),
                          ("rank_b", [f.rank_b for f in fs if f.rank_b is not None])):
            m, sd = mean_sd(vals)
            hist: dict[int, int] = {}
            for v in vals:
                hist[v] = hist.get(v, 0) + 1
            entry[key] = {"mean": m, "sd": sd, "n": len(vals), "histogram": dict(sorted(hist.items()))}
        out[g] = entry
    return out


# ------------------------------------------------------------------------------ records in ----


def examples_from_records(records: Sequence[dict], path=None) -> list[Example]:
    """Examples from :func:`pipeline.formats.dataset_files.read_dataset` records; every pronoun must
    be a gendered target pronoun."""
    exs = []
    for r in records:
        names = None if r.get("names") is None else [NameSpan(*n) for n in r["names"]]
        exs.append(Example(r["id"], r["text"], r["pronoun"], int(r["pronoun_offset"]), r["a"],
                           int(r["a_offset"]), r["b"], int(r["b_offset"]), r.get("a_coref"),
                           r.get("b_coref"), names))
    bad = [e.id for e in exs if e.gender is None]
    if bad:
        raise InputError(f"{len(bad)} example(s) without a gendered target pronoun, first: {', '.join(bad[:5])}", path)
    return exs


def names_source(examples: Sequence[Example], given_spans: bool, names_from: str = "auto") -> str:
    """Where the names come from: "spans" (given), "column" (the dataset's names column) or
    "ner" (spaCy PERSON entities); ``names_from`` "auto" takes the column when every example
    has one, else NER."""
    if given_spans:
        return "spans"
    if names_from == "column" or (names_from == "auto" and examples and all(e.names is not None for e in examples)):
        if any(e.names is None for e in examples):
            raise InputError("the dataset has no names column; use --names-from ner or --name-spans")
        return "column"
    if names_from in ("ner", "auto"):
        return "ner"
    raise InputError(f"unknown names source {names_from!r}")


SOURCE_TEXT = {"spans": "given spans", "column": "the dataset's names column", "ner": "spaCy PERSON entities"}


def detect_names(doc) -> list[NameSpan]:
    """Personal-name spans of a parsed Doc: PERSON entities through ``mention_from_span``."""
    from pipeline.core.cast import doc_mentions

    return [NameSpan(m.start, m.end, m.text) for m in doc_mentions(doc)]


def compute_features(examples: Sequence[Example], nlp, source: str,
                     name_spans: dict[str, list] | None = None,
                     progress: Callable[[int], object] | None = None) -> list[Features]:
    """Tokenise every text with the spaCy pipeline ``nlp`` (a full parse only for ``source``
    "ner") and compute :class:`Features`. ``name_spans``: ID -> [(start, end, text), ...] for
    ``source`` "spans". ``progress``: called with 1 after each example (a progress bar's
    ``update``, drawn by the caller: a core draws none); None or False for none."""
    ner = source == "ner"
    texts = (e.text for e in examples)
    docs = nlp.pipe(texts, batch_size=64) if ner else (nlp.make_doc(t) for t in texts)
    feats = []
    for ex, doc in zip(examples, docs):
        starts = [t.idx for t in doc]
        if ner:
            names = detect_names(doc)
        elif source == "spans":
            names = [n if isinstance(n, NameSpan) else NameSpan(*n) for n in name_spans[ex.id]]
        else:
            names = ex.names or []
        feats.append(example_features(ex, starts, names))
        if progress:
            progress(1)
    return feats


def analyse_records(records: Sequence[dict], nlp, name_spans: dict[str, list] | None = None,
                    names_from: str = "auto", progress: Callable[[int], object] | None = None,
                    path=None) -> tuple[list[Example], list[Features], str]:
    """Records (:func:`pipeline.formats.dataset_files.read_dataset`) and optional name spans
    (:func:`pipeline.formats.dataset_files.read_name_spans`) -> (examples, features, a description
    of the name source). The one glue of the ``analyze``, ``weights`` and ``baseline`` commands.
    ``progress``: as in :func:`compute_features` (one call per record)."""
    examples = examples_from_records(records, path)
    if not examples:
        raise InputError("the dataset has no examples", path)
    source = names_source(examples, name_spans is not None, names_from)
    feats = compute_features(examples, nlp, source, name_spans, progress)
    described = SOURCE_TEXT[source]
    if source == "ner":
        meta = getattr(nlp, "meta", {}) or {}
        described += f" ({meta.get('lang', 'xx')}_{meta.get('name', 'pipeline')})"
    return examples, feats, described
