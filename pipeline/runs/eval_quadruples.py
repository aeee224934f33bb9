"""Evaluation of Counter-GAP and GAP datasets: the quadruple kind of :mod:`pipeline.runs.evaluate`.

Gold: quadruples Parquet, GAP TSV (ours, GAP's or Counter-GAP's published files, csv-quoted or
not), or a gold-label TSV (:func:`pipeline.core.gold.normalise_dataset`). Systems: recognised by
content (:func:`pipeline.formats.system_outputs.detect_system_format`): GAP TSV predictions (ID,
A-coref, B-coref, optional A-prob/B-prob/AB-prob); JSON lines with clusters (c2f-coref and
descendants); CoNLL-2012 response files. Cluster outputs are turned into A-coref/B-coref by
aligning the system's tokens with the dataset's text (:mod:`pipeline.core.alignment`; the rule
is in docs/evaluate.md); rows that cannot be aligned are counted, reported and scored as wrong.
Scoring: :mod:`pipeline.core.metrics` (datasets whose IDs carry no ``-control``/``-swap-1``/
``-swap-2`` suffix, plain GAP, get the GAP-style view only). Quadruples without any gold label
(``generate``'s output before annotation) get the figures that need no gold
(:func:`compute_unlabelled`: I_within, I_across, Delta-I with its bootstrap, the answer
distributions), and the outputs say which figures need labels. Writing: ``metrics.json``,
``metrics.md``, ``metrics.png`` (:mod:`pipeline.report.evaluation`), ``answers.parquet``, and with
``report`` ``report.md``/``report.html``.

May import: the standard library, numpy, pandas, :mod:`pipeline.errors`, :mod:`pipeline.core`,
:mod:`pipeline.formats`, :mod:`pipeline.report`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.core.gold import Gold, normalise_dataset, row_spans  # noqa: F401 (re-exported)
from pipeline.errors import InputError
from pipeline.formats.dataset_files import read_dataset_frame  # noqa: F401 (re-exported)
from pipeline.formats.files import jsonable
from pipeline.formats.system_outputs import rows_list as _rows_list

MAX_LISTED = 5
MIN_COVERAGE = 0.8     # a cluster document must spell at least this share of the row's text


# ------------------------------------------------------------------------------ dataset

def write_dataset_conll(gold: Gold, target: Path) -> int:
    """The dataset as a CoNLL-2012 key file; returns the number of documents."""
    from pipeline.core.alignment import Unaligned, gold_clusters, simple_tokens
    from pipeline.formats.conll import write_conll

    from pipeline.core.answers import is_labelled

    if not is_labelled(gold):
        raise InputError("--write-conll writes the gold clusters, and the dataset has no labels (label it "
                         "first, docs/label.md)", gold.path)
    if gold.spans is None:
        raise InputError("--write-conll needs a dataset with texts and offsets (GAP TSV or quadruples "
                         "Parquet)", gold.path)
    docs = []
    for i, (rid, sp) in enumerate(zip(gold.frame["ID"], gold.spans.itertuples(index=False))):
        tokens, tspans = simple_tokens(sp.text)
        try:
            clusters = gold_clusters(tspans, *row_spans(sp), bool(gold.frame["A-coref"].iat[i]),
                                     bool(gold.frame["B-coref"].iat[i]))
        except Unaligned as exc:
            raise InputError(f"row {rid!r}: {exc}", gold.path) from None
        docs.append(_Doc(str(rid), tokens, clusters))
    write_conll(docs, target)
    return len(docs)


@dataclass
class _Doc:
    key: str
    tokens: list[str]
    clusters: list


# ------------------------------------------------------------------------------ systems

@dataclass
class SystemOutput:
    path: Path
    correct: np.ndarray            # per dataset row, expected correctness in [0, 1]
    frame: pd.DataFrame            # aligned to the dataset: ID, A-coref, B-coref (+ A-prob, B-prob)
    n_missing: int = 0
    probabilistic: bool = False
    format: str = "gap-tsv"
    matched_by: str = "ID"
    n_unaligned: int = 0
    unaligned_ids: list[str] = field(default_factory=list)
    n_extra: int = 0
    present: np.ndarray | None = None      # per dataset row: the system answered it
    failed: dict[str, str] = field(default_factory=dict)   # id -> the system's error

    @property
    def n_failed(self) -> int:
        return len(self.failed)

    def why_unanswered(self) -> dict[str, str]:
        """id -> why the row has no answer (for answers.parquet)."""
        out = {i: "could not be aligned with the system's tokens" for i in self.unaligned_ids}
        out.update(self.failed)
        if self.present is not None:
            for i, p in zip(self.frame["ID"], self.present):
                if not p and i not in out:
                    out[i] = "missing from the system output"
        return out


def read_system(path: str | Path, gold: Gold, allow_missing: bool = False,
                allow_extra: bool = False) -> SystemOutput:
    """Read a system output (format detected by content), validated against the dataset, and
    score every dataset row."""
    from pipeline.formats import system_outputs as so

    path = Path(path)
    fmt = so.detect_system_format(path)
    ids = gold.frame["ID"].to_numpy(dtype=object)
    if fmt == "gap-tsv":
        pred = so.read_gap_predictions(path, ids, allow_missing, allow_extra)
    else:
        docs = so.read_cluster_jsonl(path) if fmt == "jsonl-clusters" else so.read_cluster_conll(path)
        pred = predictions_from_clusters(docs, gold, path, fmt, allow_missing, allow_extra)
    return score_rows(pred, gold)


def score_rows(pred, gold: Gold) -> SystemOutput:
    """Expected correctness per dataset row; a row the system did not answer is wrong."""
    from pipeline.core.metrics import expected_correct

    ga = gold.frame["A-coref"].to_numpy()
    gb = gold.frame["B-coref"].to_numpy()
    present = pred.present
    ids = gold.frame["ID"].to_numpy(dtype=object)
    if pred.probabilistic:
        probs = pred.probs
        # a missing row must be wrong with certainty: all mass on an answer other than gold's
        pa = np.where(present, probs["A-prob"], np.where(ga & ~gb, 0.0, 1.0))
        pb = np.where(present, probs["B-prob"], np.where(ga & ~gb, 1.0, 0.0))
        pab = np.where(present, probs.get("AB-prob", np.zeros(len(ids))), 0.0)
        correct = expected_correct(ga, gb, a_prob=pa, b_prob=pb, ab_prob=pab)
        sa = np.where(present, pred.a, pa > 0)
        sb = np.where(present, pred.b, pb > 0)
        frame = pd.DataFrame({"ID": ids, "A-coref": sa, "B-coref": sb, "A-prob": pa, "B-prob": pb})
        if "AB-prob" in probs:
            frame["AB-prob"] = pab
    else:
        sa = np.where(present, pred.a, ~ga)   # missing: the opposite of gold
        sb = np.where(present, pred.b, ~gb)
        correct = expected_correct(ga, gb, sa, sb)
        frame = pd.DataFrame({"ID": ids, "A-coref": sa, "B-coref": sb})
    return SystemOutput(pred.path, correct, frame, pred.n_missing, pred.probabilistic, pred.format,
                        pred.matched_by, pred.n_unaligned, list(pred.unaligned_ids), pred.n_extra,
                        np.asarray(present, dtype=bool), dict(getattr(pred, "failed", None) or {}))


_GENRE = re.compile(r"^[a-z]{2}[/_:]")


def match_rows_to_documents(docs, ids: np.ndarray, path: Path, allow_missing: bool,
                    allow_extra: bool = False) -> tuple[np.ndarray, str, int]:
    """Dataset row -> document index (-1: none), how rows were matched ("ID" or "order"), and
    the number of documents ignored because their id is not in the dataset (``allow_extra``).

    Documents with an id (``doc_key``/``ID``/``id``, or the CoNLL document id) are matched to
    the dataset's IDs: exactly, else without a leading two-letter genre prefix ("nw/", "bc_":
    c2f-coref reads the genre from the key). Without ids, documents are matched by order and
    must be as many as the dataset's rows.
    """
    keys = [d.key for d in docs]
    n = len(ids)
    if all(k is None for k in keys):
        if len(docs) != n:
            raise InputError(f"{len(docs)} documents without doc_key/ID/id, but the dataset has {n} rows: "
                             "cannot match them by order", path)
        return np.arange(n), "order", 0
    index = {str(i): r for r, i in enumerate(ids)}
    pos = np.full(n, -1, dtype=np.int64)
    unknown, dup = [], []
    for j, (d, k) in enumerate(zip(docs, keys)):
        if k is None:
            raise InputError("document without an id while others have one", path, d.line)
        r = index.get(k)
        if r is None:
            r = index.get(_GENRE.sub("", k, count=1))
        if r is None:
            unknown.append((d.line, k))
        elif pos[r] >= 0:
            dup.append((d.line, k))
        else:
            pos[r] = j
    if unknown and len(unknown) == len(docs):
        raise InputError(f"no document id is an ID of the dataset (first: {unknown[0][1]!r}, dataset's first: "
                         f"{ids[0]!r}): a prediction file for another dataset?", path, unknown[0][0])
    problems = [] if allow_extra else [(ln, f"unknown ID {k!r} (not in the dataset)") for ln, k in unknown]
    problems += [(ln, f"duplicate ID {k!r}") for ln, k in dup]
    if problems:
        problems.sort()
        raise InputError(f"bad system output: {_rows_list(problems)}", path, problems[0][0])
    n_missing = int((pos < 0).sum())
    if n_missing and not allow_missing:
        first = ", ".join(repr(i) for i in ids[pos < 0][:MAX_LISTED])
        raise InputError(f"{n_missing} dataset ID(s) missing from the system output (first: {first}); "
                         "--allow-missing counts them as wrong", path)
    return pos, "ID", len(unknown)


def predictions_from_clusters(docs, gold: Gold, path: Path, fmt: str, allow_missing: bool = False,
                              allow_extra: bool = False):
    """GAP answers of a cluster output: per matched row, align the document's tokens with the
    row's text and apply :func:`pipeline.core.alignment.is_coreferent` to A and B."""
    from pipeline.core.alignment import Unaligned, align, is_coreferent
    from pipeline.formats.system_outputs import Predictions

    if gold.spans is None:
        raise InputError("cluster outputs need a dataset with texts and offsets (GAP TSV or quadruples "
                         "Parquet), not gold labels alone", gold.path)
    ids = gold.frame["ID"].to_numpy(dtype=object)
    pos, how, n_extra = match_rows_to_documents(docs, ids, path, allow_missing, allow_extra)
    n = len(ids)
    a = np.zeros(n, dtype=bool)
    b = np.zeros(n, dtype=bool)
    present = pos >= 0
    unaligned, failed = [], {}
    for r in np.flatnonzero(present):
        d = docs[pos[r]]
        if d.error:
            present[r] = False
            failed[str(ids[r])] = d.error
            continue
        sp = gold.spans.iloc[r]
        token_spans, coverage = align(sp.text, d.tokens)
        p_span, a_span, b_span = row_spans(sp)
        try:
            if coverage < MIN_COVERAGE:
                raise Unaligned(f"the tokens spell only {coverage:.0%} of the text")
            a[r] = is_coreferent(token_spans, d.clusters, p_span, a_span)
            b[r] = is_coreferent(token_spans, d.clusters, p_span, b_span)
        except Unaligned:
            present[r] = False
            unaligned.append(str(ids[r]))
    pred = Predictions(path, ids, a, b, present, None, fmt, how, int((pos < 0).sum()),
                       len(unaligned), unaligned, n_extra)
    pred.failed = failed
    return pred


# ------------------------------------------------------------------------------ compute

def compute(gold: Gold, systems: dict[str, SystemOutput], resamples: int, seed: int) -> dict:
    from pipeline.core import metrics as M
    from pipeline.core.answers import is_labelled

    if not is_labelled(gold):
        return compute_unlabelled(gold, systems, resamples, seed)
    if gold.quadruples:
        P = gold.positions
        res = M.evaluate_quadruples({n: s.correct[P] for n, s in systems.items()},
                                    gold.frame["gender"].to_numpy()[P], resamples, seed)
    else:
        res = M.evaluate_gap({n: s.correct for n, s in systems.items()},
                             gold.frame["gender"].to_numpy(), resamples, seed)
    for name, s in systems.items():
        res[name]["view"] = "counter-gap" if gold.quadruples else "gap"
        res[name]["n_missing"] = s.n_missing
        res[name]["expected_scores"] = s.probabilistic
        res[name]["format"] = s.format
        res[name]["matched_by"] = s.matched_by
        res[name]["n_unaligned"] = s.n_unaligned
        res[name]["n_failed"] = s.n_failed
    return res


def compute_unlabelled(gold: Gold, systems: dict[str, SystemOutput], resamples: int, seed: int) -> dict:
    """The figures that need no gold (:func:`pipeline.core.metrics.evaluate_unlabelled`) on a
    dataset before annotation: inconsistency is disagreement of the system's answers."""
    from pipeline.core import metrics as M

    P = gold.positions
    codes = {n: M.answer_codes(s.frame["A-coref"].to_numpy(), s.frame["B-coref"].to_numpy(),
                               s.present if s.present is not None else np.ones(len(s.frame), bool))[P]
             for n, s in systems.items()}
    res = M.evaluate_unlabelled(codes, gold.frame["gender"].to_numpy()[P], resamples, seed)
    for name, s in systems.items():
        res[name].update(view="counter-gap-unlabelled", n_missing=s.n_missing, expected_scores=False,
                         format=s.format, matched_by=s.matched_by, n_unaligned=s.n_unaligned,
                         n_failed=s.n_failed)
    return res


def add_weighted(metrics: dict, gold: Gold, systems: dict[str, SystemOutput],
                 weights: dict[str, dict[str, float]]) -> None:
    from pipeline.core.weights import weighted_bias_scores

    gold_df = gold.frame[["ID", "Pronoun", "A-coref", "B-coref"]]
    for name, s in systems.items():
        metrics[name]["weighted"] = {
            wname: jsonable(weighted_bias_scores(gold_df, s.frame, w)) for wname, w in weights.items()}


def gold_jsonlines_rows(gold: Gold) -> list[dict]:
    return [{"id": str(i), "text": sp.text, "pronoun": p, "a": a, "b": b,
             "a_coref": bool(ga), "b_coref": bool(gb)}
            for i, sp, ga, gb in zip(gold.frame["ID"], gold.spans.itertuples(index=False),
                                     gold.frame["A-coref"], gold.frame["B-coref"])
            for p, a, b in [row_spans(sp)]]


# ------------------------------------------------------------------------------ the kind

class QuadrupleEvaluation:
    """Counter-GAP quadruples and GAP rows (:class:`pipeline.runs.evaluate.Evaluation`)."""
    name = "quadruples"

    def read_gold(self, s, raw: pd.DataFrame | None = None) -> Gold:
        """The validated dataset; one without any label (``generate``'s quadruples before
        annotation) is read as unlabelled (:func:`pipeline.core.answers.unlabelled_gold`)."""
        from pipeline.core.answers import has_no_labels, unlabelled_gold

        raw = read_dataset_frame(s.dataset) if raw is None else raw
        if has_no_labels(raw):
            gold = unlabelled_gold(raw, s.dataset)
            if not gold.quadruples and s.systems:
                raise InputError("the dataset has no gold labels and no quadruples (no -control/-swap-1/-swap-2 "
                                 "variants): nothing can be measured without labels; label it (docs/label.md) "
                                 "or give generate's quadruples", s.dataset)
            return gold
        return normalise_dataset(raw, s.dataset)

    def read_systems(self, gold: Gold, s) -> dict[str, SystemOutput]:
        return {name: read_system(path, gold, s.allow_missing, s.ignore_extra) for name, path in s.systems}

    def score(self, gold: Gold, systems: dict[str, SystemOutput], s) -> dict:
        from pipeline.formats.weights import read_weights

        from pipeline.core.answers import is_labelled

        if s.weights and not is_labelled(gold):
            raise InputError("--weights: weighted scores need gold labels, and the dataset has none "
                             "(label it first, docs/label.md); drop --weights for the figures without gold",
                             s.dataset)
        weights = {name: read_weights(path, gold.frame["ID"]) for name, path in s.weights}   # IDs checked, file named
        metrics = compute(gold, systems, s.resamples, s.seed)
        if weights:
            add_weighted(metrics, gold, systems, weights)
        return metrics

    def write(self, stage: Path, gold: Gold, systems: dict[str, SystemOutput], metrics: dict, s) -> str:
        from pipeline.core.answers import answer_records, gold_answer_rows
        from pipeline.formats.figures import write_png
        from pipeline.formats.files import write_json, write_text
        from pipeline.formats.schemas import ANSWERS
        from pipeline.formats.tables import write_records
        from pipeline.report.evaluation import render_markdown, render_plot

        markdown = render_markdown(metrics, gold)
        png = render_plot(metrics, gold)
        rows = gold_answer_rows(gold)
        answers = []
        for name, so in systems.items():
            ans = {i: (bool(a), bool(b)) if p else None
                   for i, a, b, p in zip(so.frame["ID"], so.frame["A-coref"], so.frame["B-coref"], so.present)}
            answers += answer_records(rows, name, ans, so.why_unanswered())
        write_json(stage / "metrics.json", metrics)
        write_text(stage / "metrics.md", markdown)
        write_png(stage / "metrics.png", png)
        write_records(answers, stage / "answers.parquet", ANSWERS)
        if s.report:
            from pipeline.report.evaluation_page import write_report

            write_report(stage, metrics, gold, systems, markdown, png)
        return markdown

    def after(self, s) -> None:
        """Nothing is written after the staged outputs are published."""

    def summary(self, gold: Gold, systems: dict[str, SystemOutput], metrics: dict, markdown: str, s,
                seconds: float) -> str:
        from pipeline.core.answers import is_labelled

        fate = "counted as wrong" if is_labelled(gold) else "their quadruples left out"
        lines = [markdown]
        for name, so in systems.items():
            what = {"gap-tsv": "GAP TSV predictions", "jsonl-clusters": "JSON-lines clusters",
                    "conll": "CoNLL-2012 response"}[so.format]
            line = f"{name}: {what} from {so.path}, rows matched by {so.matched_by}"
            if so.n_missing:
                line += f"; {so.n_missing} dataset row(s) missing, {fate}"
            if so.n_extra:
                line += f"; {so.n_extra} row(s) for IDs not in the dataset ignored (--ignore-extra)"
            if so.n_failed:
                fid, why = next(iter(so.failed.items()))
                line += (f"; {so.n_failed} document(s) the system failed on, {fate} (first: {fid}: {why}; "
                         "all in answers.parquet, column error)")
            if so.n_unaligned:
                first = ", ".join(so.unaligned_ids[:MAX_LISTED])
                line += (f"; {so.n_unaligned} row(s) could not be aligned with the system's tokens "
                         f"(first: {first}), {fate}")
            lines.append(line)
        if not is_labelled(gold):
            lines.append("no gold labels: I_within, I_across and ΔI count disagreements between a quadruple's "
                         "answers; accuracy figures (Acc_M, Acc_F, Acc_Diff, overall, orig / counter) need "
                         "labels (docs/evaluate.md, 'Before annotation')")
        lines.append(f"{gold.describe()}; {len(systems)} system(s); {s.resamples} resamples, seed {s.seed}; "
                     f"{seconds:.2f} s -> {s.out}/metrics.json, metrics.md, metrics.png, answers.parquet"
                     + (", report.md, report.html" if s.report else ""))
        return "\n".join(lines)

    def write_inputs(self, gold: Gold, s) -> None:
        """``--write-conll`` and ``--write-jsonlines``: the dataset in a system's input layout."""
        if s.write_conll is not None:
            n_docs = write_dataset_conll(gold, s.write_conll)
            print(f"wrote {s.write_conll}: {n_docs} documents (one per dataset row, gold labels as clusters)")
        if s.write_jsonlines is not None:
            from pipeline.formats.c2f import read_vocab, write_gap_jsonlines

            from pipeline.core.answers import is_labelled

            if gold.spans is None:
                raise InputError("--write-jsonlines needs a dataset with texts and offsets", gold.path)
            if not is_labelled(gold):
                raise InputError("--write-jsonlines writes the gold labels, and the dataset has none (label "
                                 "it first, docs/label.md)", gold.path)
            vocab = read_vocab(s.jsonlines_vocab) if s.jsonlines_vocab else None
            n_docs = write_gap_jsonlines(gold_jsonlines_rows(gold), s.write_jsonlines, vocab)
            print(f"wrote {s.write_jsonlines}: {n_docs} documents in c2f-coref's GAP jsonlines layout")
