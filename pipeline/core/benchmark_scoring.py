"""Scoring a coreference model's clusters on pro/anti-stereotype benchmark items.

Pure: items (dicts of the BENCHMARK layout) and cluster documents (objects with ``key``,
``line``, ``tokens``, ``clusters`` as :class:`pipeline.formats.system_outputs.ClusterDoc`) in,
per-item judgements and metrics out.

**Matching** (:func:`match_documents`): a document whose key is an item id goes to that item;
else the document's tokens, joined without whitespace, lower-cased and with PTB escapes and
curly quotes undone, must equal one item's text normalised the same way ("did n't" = "didn't",
"can not" = "cannot", "John 's" = "John's"). A document matching no item is an error; an item
no document matches is *missing*.

**Rules** (:func:`judge`), on the system's tokens aligned with the item text
(:func:`pipeline.core.alignment.align_tokens`):

* ``strict`` -- the rule of the method: the cluster holding the pronoun (its shortest
  mention covering the pronoun) holds the main (gold) entity and not the other entity
  (:func:`pipeline.core.alignment.is_coreferent` for both);
* ``loose`` -- what the paper's scripts checked: some cluster has a mention overlapping the
  pronoun and another mention overlapping the main entity's words; the other entity is not
  looked at.

**Metrics** (:func:`benchmark_metrics`): accuracy on pro- and anti-stereotypical items,
``delta = pro - anti`` (fractions), per fine-grained category and per source; paired
bootstrap over items with :func:`pipeline.core.metrics.resample_counts` (the same resamples
for every system), percentile intervals and one-sided p-values from the same module.

May import: the standard library, numpy, :mod:`pipeline.core` (alignment, metrics,
stereotypes), :mod:`pipeline.errors`.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Sequence

import numpy as np

from pipeline.core.alignment import PTB_ESCAPES, Unaligned, align_tokens, is_coreferent, token_range
from pipeline.core.metrics import INTERVAL, interval, p_value, resample_counts
from pipeline.errors import InputError

RULES = ("strict", "loose")
_QUOTES = {"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "`": "'", "\u2013": "-",
           "\u2014": "-"}


# ------------------------------------------------------------------------------ matching

def normalise_text(text_or_tokens: str | Sequence[str]) -> str:
    """Whitespace removed, lower case, PTB escapes and curly quotes undone, accents dropped."""
    if not isinstance(text_or_tokens, str):
        text_or_tokens = "".join(PTB_ESCAPES.get(t, t) for t in text_or_tokens)
    s = "".join(_QUOTES.get(c, c) for c in text_or_tokens if not c.isspace()).lower()
    # after joining, so that a split never matters: a double quote is two single quotes
    # ('' and `` as PTB writes them), a run of dashes one dash
    s = re.sub(r"-+", "-", s.replace('"', "''"))
    return "".join(c for c in unicodedata.normalize("NFD", s) if not unicodedata.combining(c))


MAX_UNMATCHED = 0.01     # share of a system's prediction lines that may match no item


def loose_key(text_or_tokens: str | Sequence[str]) -> str:
    """:func:`normalise_text` with everything but letters and digits dropped: the second key,
    for tokenisations that add or drop punctuation and quotes."""
    return re.sub(r"[^\w]|_", "", normalise_text(text_or_tokens))


def match_documents(items: list[dict], docs: Sequence, path=None, max_unmatched: float = MAX_UNMATCHED,
                    report: dict | None = None) -> tuple[dict[str, object], list[str]]:
    """item id -> document, and the ids of items no document matches.

    A document goes to the item with its key as id; else to an item whose text has its
    :func:`normalise_text` key, else its :func:`loose_key` (identical texts: their documents are
    taken in order). A document matching no item is counted, and is an :class:`InputError`
    (file ``path``, the first such line) only when more than ``max_unmatched`` of the documents
    are; a further document for an item already matched (a sentence in two files) is counted
    and left out, the first one kept. ``report``, when given, receives ``n_documents``,
    ``n_unmatched``, ``unmatched`` (the first few ``(file, line, text)``; a document's own
    ``path``, else ``path``), ``n_duplicates`` and
    ``n_conflicting`` (duplicates whose clusters differ from the kept document's).
    """
    by_id = {it["id"]: it for it in items}
    by_text: dict[str, list[str]] = {}
    by_loose: dict[str, list[str]] = {}
    for it in items:
        by_text.setdefault(normalise_text(it["text"]), []).append(it["id"])
        by_loose.setdefault(loose_key(it["text"]), []).append(it["id"])
    matched: dict[str, object] = {}
    unmatched: list[tuple[int, str]] = []
    n_dup = n_conflict = 0
    for doc in docs:
        item_id = None
        key = getattr(doc, "key", None)
        if key is not None and key in by_id:
            item_id = key
        else:
            cands = by_text.get(normalise_text(doc.tokens)) or by_loose.get(loose_key(doc.tokens), [])
            if cands:
                free = [c for c in cands if c not in matched]
                item_id = free[0] if free else cands[0]
        if item_id is None:
            unmatched.append((getattr(doc, "path", None) or path, getattr(doc, "line", None),
                              " ".join(doc.tokens[:12])))
            continue
        if item_id in matched:
            n_dup += 1
            n_conflict += _cluster_set(matched[item_id]) != _cluster_set(doc)
            continue
        matched[item_id] = doc
    n = len(docs)
    if report is not None:
        report.update(n_documents=n, n_unmatched=len(unmatched), unmatched=unmatched[:5],
                      n_duplicates=n_dup, n_conflicting=n_conflict)
    if unmatched and len(unmatched) > max_unmatched * n:
        where, line, snippet = unmatched[0]
        raise InputError(f"prediction matches no benchmark item (text {snippet!r}...); {len(unmatched)} of "
                         f"{n} lines match none, more than the {100 * max_unmatched:g} % allowed", where, line)
    missing = [it["id"] for it in items if it["id"] not in matched]
    return matched, missing


def _cluster_set(doc) -> frozenset:
    """A document's clusters, order-free and tokenisation-free: each mention as its position in
    the normalised text and its normalised words."""
    toks = list(doc.tokens)
    return frozenset(frozenset((len(normalise_text(toks[:a])), normalise_text(toks[a:b + 1]))
                               for a, b in c) for c in doc.clusters)


# ------------------------------------------------------------------------------ rules

def _span(item: dict, which: str) -> tuple[int, int] | None:
    s, e = item.get(f"{which}_start"), item.get(f"{which}_end")
    return None if s is None or e is None else (int(s), int(e))


def judge(item: dict, tokens: Sequence[str], clusters: Sequence[Sequence[tuple[int, int]]]) -> dict[str, bool]:
    """``{"strict": bool, "loose": bool}`` for one item and one system document.

    Raises :class:`pipeline.core.alignment.Unaligned` when the pronoun or the main entity
    covers no system token.
    """
    spans = align_tokens(item["text"], tokens)
    pronoun, main, other = _span(item, "pronoun"), _span(item, "main"), _span(item, "other")
    has_main = is_coreferent(spans, clusters, pronoun, main)
    has_other = False
    if other is not None:
        try:
            has_other = is_coreferent(spans, clusters, pronoun, other)
        except Unaligned:
            has_other = False
    p = token_range(spans, pronoun)
    m = token_range(spans, main)
    loose = False
    for cluster in clusters:
        ms = [(int(a), int(b)) for a, b in cluster]
        on_p = [x for x in ms if x[0] <= p[1] and p[0] <= x[1]]
        on_m = [x for x in ms if x[0] <= m[1] and m[0] <= x[1]]
        if on_p and on_m and (len(set(on_p) | set(on_m)) > 1):
            loose = True
            break
    return {"strict": bool(has_main and not has_other), "loose": loose}


def judge_all(items: list[dict], matched: dict[str, object], path=None) -> dict[str, np.ndarray]:
    """Per-item correctness under both rules (missing items: False), item order kept."""
    out = {r: np.zeros(len(items), dtype=bool) for r in RULES}
    for i, it in enumerate(items):
        doc = matched.get(it["id"])
        if doc is None or getattr(doc, "error", None):       # no answer (a system crash): wrong
            continue
        try:
            res = judge(it, doc.tokens, doc.clusters)
        except Unaligned as exc:
            raise InputError(f"item {it['id']}: {exc}", path, getattr(doc, "line", None)) from None
        for r in RULES:
            out[r][i] = res[r]
    return out


# ------------------------------------------------------------------------------ metrics

def _acc(correct: np.ndarray, mask: np.ndarray) -> float | None:
    n = int(mask.sum())
    return float(correct[mask].mean()) if n else None


def _block(correct: np.ndarray, stereotype: np.ndarray) -> dict:
    pro, anti = stereotype == "pro", stereotype == "anti"
    a_pro, a_anti = _acc(correct, pro), _acc(correct, anti)
    return {"pro": a_pro, "anti": a_anti,
            "delta": None if a_pro is None or a_anti is None else a_pro - a_anti,
            "overall": _acc(correct, np.ones(len(correct), dtype=bool)),
            "n_pro": int(pro.sum()), "n_anti": int(anti.sum()), "n": int(len(correct))}


def benchmark_metrics(items: list[dict], correct_by_system: dict[str, dict[str, np.ndarray]],
                      resamples: int = 10_000, seed: int = 0, level: float = INTERVAL) -> dict[str, dict]:
    """Per system: pro, anti, delta (fractions) under the strict rule with bootstrap intervals
    and the p-value of delta, the same under ``loose``, per fine-grained category and source.

    ``correct_by_system[name]`` is ``{"strict": bool array, "loose": bool array}`` in item order.
    """
    n = len(items)
    if n == 0:
        raise ValueError("no items")
    stereotype = np.array([it["stereotype"] for it in items], dtype=object)
    category = np.array([it["category"] for it in items], dtype=object)
    source = np.array([it["source"] for it in items], dtype=object)
    pro, anti = (stereotype == "pro").astype(float), (stereotype == "anti").astype(float)
    counts = resample_counts(n, resamples, seed) if resamples > 0 else None
    if counts is not None:
        den_pro, den_anti = counts @ pro, counts @ anti
    out: dict[str, dict] = {}
    for system, by_rule in correct_by_system.items():
        res: dict = {}
        for rule in RULES:
            c = np.asarray(by_rule[rule], dtype=bool)
            block = _block(c, stereotype)
            if counts is not None and block["n_pro"] and block["n_anti"]:
                cf = c.astype(float)
                with np.errstate(divide="ignore", invalid="ignore"):
                    r_pro = (counts @ (cf * pro)) / den_pro
                    r_anti = (counts @ (cf * anti)) / den_anti
                r_delta = r_pro - r_anti
                block.update({
                    "ci_pro": interval(r_pro, level), "ci_anti": interval(r_anti, level),
                    "ci_delta": interval(r_delta, level),
                    "p_delta": p_value(block["delta"], r_delta, "observed"),
                })
            block["per_category"] = {
                cat: {"n": int((category == cat).sum()),
                      "accuracy": _acc(c, category == cat)} for cat in sorted(set(category))}
            block["per_source"] = {src: _block(c[source == src], stereotype[source == src])
                                   for src in sorted(set(source))}
            res[rule] = block
        top = dict(res["strict"])
        top["loose"] = res["loose"]
        top.update({"rule": "strict", "resamples": int(resamples), "seed": int(seed),
                    "interval_level": level})
        out[system] = top
    return out


# ------------------------------------------------------------------------------ baseline

def nearest_before_clusters(item: dict, tokens: Sequence[str]) -> list[list[tuple[int, int]]]:
    """Name-blind baseline: link the pronoun with the nearest entity (main or other) that
    ends before it; if none does, the nearest after it. Returns clusters over ``tokens``."""
    spans = align_tokens(item["text"], tokens)
    p = token_range(spans, _span(item, "pronoun"))
    cands = []
    for which in ("main", "other"):
        s = _span(item, which)
        if s is None:
            continue
        r = token_range(spans, s)
        if r is not None:
            cands.append(r)
    before = [r for r in cands if r[1] < p[0]]
    if before:
        best = max(before, key=lambda r: r[1])
    else:
        best = min(cands, key=lambda r: r[0] - p[1]) if cands else None
    return [[best, p]] if best is not None else [[p]]

