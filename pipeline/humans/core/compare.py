"""Analysis of human experiment results: QA accuracy per alpha and Maze response times.

The method of "Comparing Humans and Models on a Similar Scale" (Lior & Stanovsky).

**QA** (:func:`analyse_qa`): rows as read by :func:`pipeline.humans.formats.results.read_qa_results`.

* optional participant filter: only the ``mturk_id`` values of the list (those who passed the
  qualification) are analysed;
* fillers (``question_category`` = filler) give the filler accuracy; a filler is right when
  its answer matches the filler answer (:func:`filler_correct`: free text, "The patient" =
  "patient"), whatever ``is_correct`` recorded (the differences are counted);
* every other answer is pro, anti or neutral by its category
  (:func:`pipeline.humans.core.stereotypes.parse_question_category`); a question on the other entity
  (the released ``...other`` categories) counts in none of them unless ``questions="all"``
  (its accuracy is ``other``);
* on WinoBias/Winogender pro and anti questions (``STEREOTYPE...TYPE`` categories), an answer
  that is none of ``unknown``, ``neutral`` or the main entity's gender is not a coreference
  decision: it is *ignored* (not counted); every other answer counts as recorded in
  ``is_correct``. BUG questions count as recorded;
* per alpha (``time_fraction``): pro and anti accuracy pooled over participants, Delta_QA =
  pro - anti, the share of ignored answers among the pro/anti WinoBias/Winogender answers,
  the filler accuracy, all in percent; the same per participant and batch (a worker who did
  several batches of the study has one row per batch, as the study grouped them); ``by_kind``: pro, anti,
  delta of the WinoBias/Winogender (``synthetic``) and BUG (``natural``) questions apart
  (the paper's Table 2; :func:`models_by_dataset` gives the models' rows from a benchmark
  ``metrics.json``).

**Maze** (:func:`analyse_maze`): rows of :func:`pipeline.humans.formats.results.read_maze_trials`.

* success rate per condition (``relation_to_main``): correct trials / trials;
* response times of correct trials only; outliers removed per condition by the 1.5 x IQR
  rule (kept: Q1 - 1.5 IQR <= t <= Q3 + 1.5 IQR, quartiles by linear interpolation);
* quantile curves at 0.50, 0.51, ..., 1.00 (``numpy.quantile``, linear) of the pro and anti
  times; Delta_MAZE = anti - pro at each quantile (ms);
* human accuracy at quantile q of a condition = (correct trials kept with time <= the
  condition's q-quantile) / (all trials of the condition): the share of trials a reader gets
  right within that time budget. :func:`meeting_quantile` gives the smallest q at which it
  reaches a model's accuracy (None when it never does on 0.50..1.00).

Pure: may import the standard library, numpy, :mod:`pipeline.humans.core.stereotypes`,
:mod:`pipeline.errors`.
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterable

import numpy as np

from pipeline.humans.core.stereotypes import ANTI, PRO, parse_question_category
from pipeline.errors import InputError

QUANTILES = np.round(np.arange(50, 101) / 100.0, 2)       # 0.50 ... 1.00, 51 points
COUNTED_ANSWERS = ("unknown", "neutral")
IQR_FACTOR = 1.5


def alpha_key(alpha: float) -> str:
    """0.75 -> "0.75", 0.5 -> "0.5" (the JSON keys)."""
    return repr(float(alpha))


def _pct(num: float, den: float) -> float | None:
    return 100.0 * num / den if den else None


# ------------------------------------------------------------------------------ QA

_DETERMINERS = ("the", "a", "an")


def answer_key(text: str) -> str:
    """A free-text answer as compared: lower case, accents and punctuation dropped, hyphenated
    words joined however they were tokenised ("50-year - old" = "50-year-old"), a leading
    determiner dropped ("The patient" = "the patient" = "patient")."""
    import unicodedata

    t = unicodedata.normalize("NFKD", str(text or "")).lower()
    t = "".join(c for c in t if not unicodedata.combining(c))
    t = re.sub(r"\s*-\s*", "-", t)
    words = re.findall(r"[\w-]+", t)
    while words and words[0] in _DETERMINERS:
        words = words[1:]
    return " ".join(w.strip("-") for w in words if w.strip("-"))


def filler_correct(user_answer: str, correct_answer: str) -> bool:
    """A filler question is answered correctly when the answer matches the filler answer."""
    key = answer_key(user_answer)
    return bool(key) and key == answer_key(correct_answer)


def classify_answers(rows: list[dict], path=None, questions: str = "main") -> list[dict]:
    """Each row with ``kind`` (filler / synthetic / natural), ``coarse`` (pro / anti / neutral
    or None), ``entity`` (main / other / None), ``ignored`` (bool) and ``rescored`` (a filler
    whose matched answer disagrees with the recorded ``is_correct``) added (new dicts).

    Fillers are scored by :func:`filler_correct`. With ``questions`` = ``main``, a synthetic
    question about the other entity (the released ``...other`` categories) counts in none of
    pro / anti / neutral (its accuracy is reported as ``other``); ``all`` counts it by its
    category like a main-entity question."""
    if questions not in ("main", "all"):
        raise ValueError(f"questions must be main or all, got {questions!r}")
    out = []
    for r in rows:
        qc = parse_question_category(r["question_category"], r.get("_file", path), r.get("_line"))
        ignored, rescored, extra = False, False, {}
        coarse_ = qc.coarse
        if qc.kind == "filler":
            ok = filler_correct(r["user_answer"], r["correct_answer"])
            rescored = ok != bool(r["is_correct"])
            extra["is_correct"] = ok
        elif qc.kind == "synthetic" and qc.entity == "other" and questions == "main":
            coarse_ = None
        elif qc.kind == "synthetic" and coarse_ in (PRO, ANTI):
            main = (r.get("main_entity_gender") or "").strip().lower()
            ignored = r["user_answer"] not in COUNTED_ANSWERS and r["user_answer"] != main
        out.append({**r, **extra, "kind": qc.kind, "coarse": coarse_, "entity": qc.entity,
                    "ignored": ignored, "rescored": rescored, "layout": qc.layout})
    return out


def qa_layout(classified: list[dict]) -> str:
    """Which QA results these rows are: ``released Wino``, ``released BUG``, ``released Wino +
    BUG`` (the study's spellings), or ``project``."""
    kinds = {r["kind"] for r in classified if r["kind"] != "filler"}
    released = any(r.get("layout") == "released" for r in classified)
    names = [n for k, n in (("synthetic", "Wino"), ("natural", "BUG")) if k in kinds]
    return ("released " if released else "project ") + (" + ".join(names) or "fillers only")


def _summary(rows: list[dict]) -> dict:
    pro = [r for r in rows if r["coarse"] == PRO and not r["ignored"]]
    anti = [r for r in rows if r["coarse"] == ANTI and not r["ignored"]]
    neutral = [r for r in rows if r["kind"] != "filler" and r["coarse"] not in (PRO, ANTI)
               and not (r.get("entity") == "other" and r["coarse"] is None)]
    other = [r for r in rows if r.get("entity") == "other" and r["coarse"] is None]
    ignorable = [r for r in rows if r["kind"] == "synthetic" and r["coarse"] in (PRO, ANTI)]
    fillers = [r for r in rows if r["kind"] == "filler"]
    a_pro = _pct(sum(r["is_correct"] for r in pro), len(pro))
    a_anti = _pct(sum(r["is_correct"] for r in anti), len(anti))
    return {
        "pro": a_pro, "anti": a_anti,
        "delta": None if a_pro is None or a_anti is None else a_pro - a_anti,
        "ignored": _pct(sum(r["ignored"] for r in ignorable), len(ignorable)),
        "filler": _pct(sum(r["is_correct"] for r in fillers), len(fillers)),
        "neutral": _pct(sum(r["is_correct"] for r in neutral), len(neutral)),
        "other": _pct(sum(r["is_correct"] for r in other), len(other)),
        "n_pro": len(pro), "n_anti": len(anti), "n_ignored": sum(r["ignored"] for r in ignorable),
        "n_filler": len(fillers), "n_neutral": len(neutral), "n_other": len(other),
        "n_filler_rescored": sum(r.get("rescored", False) for r in fillers),
        "n_participants": len({r["mturk_id"] for r in rows}),
    }


def unit_key(row: dict) -> tuple[str, int | None]:
    """The unit the study grouped answers by: (worker, batch). A worker who did several batches
    is one participant with several units."""
    return (row["mturk_id"], row.get("batch_number"))


def analyse_qa(rows: list[dict], participants: Iterable[str] | None = None,
               min_filler_accuracy: float | None = None, path=None, questions: str = "main",
               enrollment: list[dict] | None = None) -> dict:
    """QA results per alpha (see the module doc). Returns ``{"alphas": {key: summary},
    "participants": [per worker, batch and alpha rows], "excluded": {...}}``; percentages.

    ``participants``: the workers kept (``mturk_id``). ``enrollment``: the enrollment rows
    (``mturk_id``, ``batch_number``, ``hash_id``) the list came from; the answers of a kept
    worker in a batch no row enrolls (neither by (worker, batch) nor by ``hash_id``) are kept
    and counted (``n_answers_unenrolled_batch``). ``min_filler_accuracy`` (percent): a
    (worker, batch) whose filler accuracy over all its answers is lower is left out too.
    """
    rows = classify_answers(rows, path, questions)
    layout = qa_layout(rows)
    n_all = len({r["mturk_id"] for r in rows})
    excluded = {"not_in_list": 0, "low_filler_accuracy": 0, "low_filler_accuracy_batches": 0}
    if participants is not None:
        keep = set(participants)
        kept = [r for r in rows if r["mturk_id"] in keep]
        excluded["not_in_list"] = n_all - len({r["mturk_id"] for r in kept})
        rows = kept
    n_unenrolled = 0
    if enrollment is not None:
        units = {(e["mturk_id"], e.get("batch_number")) for e in enrollment}
        hashes = {e["hash_id"] for e in enrollment if e.get("hash_id")}
        workers_only = {e["mturk_id"] for e in enrollment if e.get("batch_number") is None}
        n_unenrolled = sum(1 for r in rows
                           if r["mturk_id"] not in workers_only and unit_key(r) not in units
                           and str(r.get("hash_id") or "").strip() not in hashes)
    if min_filler_accuracy is not None:
        by_u: dict[tuple, list[dict]] = defaultdict(list)
        for r in rows:
            by_u[unit_key(r)].append(r)
        low = {u for u, rs in by_u.items()
               if (_summary(rs)["filler"] is not None and _summary(rs)["filler"] < min_filler_accuracy)}
        before = {r["mturk_id"] for r in rows}
        rows = [r for r in rows if unit_key(r) not in low]
        excluded["low_filler_accuracy"] = len(before - {r["mturk_id"] for r in rows})
        excluded["low_filler_accuracy_batches"] = len(low)
    if not rows:
        raise InputError("no answers left after the participant filter", path)
    by_alpha: dict[float, list[dict]] = defaultdict(list)
    for r in rows:
        by_alpha[float(r["time_fraction"])].append(r)
    alphas = {}
    for a in sorted(by_alpha, reverse=True):
        alphas[alpha_key(a)] = summary = _summary(by_alpha[a])
        # WinoBias/Winogender (synthetic) and BUG (natural) questions apart, as the paper does
        summary["by_kind"] = {}
        for kind in ("synthetic", "natural"):
            sub = [r for r in by_alpha[a] if r["kind"] == kind]
            if sub:
                k = _summary(sub)
                summary["by_kind"][kind] = {f: k[f] for f in ("pro", "anti", "delta", "ignored", "other",
                                                               "n_pro", "n_anti", "n_ignored", "n_other")}
    table = []
    for a in sorted(by_alpha, reverse=True):
        by_u = defaultdict(list)
        for r in by_alpha[a]:
            by_u[unit_key(r)].append(r)
        for (p, batch) in sorted(by_u, key=lambda u: (u[0], -1 if u[1] is None else u[1])):
            s = _summary(by_u[(p, batch)])
            s.pop("n_participants")
            table.append({"mturk_id": p, "batch_number": batch, "alpha": alpha_key(a), **s})
    return {"alphas": alphas, "participants": table, "excluded": excluded, "layout": layout,
            "questions": questions, "n_answers": len(rows),
            "n_participants": len({r["mturk_id"] for r in rows}),
            "n_batches": len({unit_key(r) for r in rows}),
            "n_answers_unenrolled_batch": n_unenrolled}


WINO_SOURCES = ("winobias", "winogender", "cog-wino")
BUG_SOURCES = ("bug", "cog-bug")


def models_by_dataset(metrics: dict) -> dict:
    """Per system of a benchmark ``metrics.json``: pro, anti, Delta (percent) on the Wino
    sources (WinoBias, Winogender, the study's Wino list) and the BUG ones, pooled over the
    sources of each by their item counts; a dataset without items is left out."""
    out = {}
    for system, m in metrics.items():
        per = m.get("per_source") or {}
        row = {}
        for name, sources in (("wino", WINO_SOURCES), ("bug", BUG_SOURCES)):
            blocks = [per[s] for s in sources if s in per]
            n_pro = sum(b["n_pro"] for b in blocks)
            n_anti = sum(b["n_anti"] for b in blocks)
            if not n_pro and not n_anti:
                continue
            pro = _pct(sum((b["pro"] or 0) * b["n_pro"] for b in blocks), n_pro)
            anti = _pct(sum((b["anti"] or 0) * b["n_anti"] for b in blocks), n_anti)
            row[name] = {"pro": pro, "anti": anti,
                         "delta": None if pro is None or anti is None else pro - anti,
                         "n_pro": n_pro, "n_anti": n_anti}
        out[system] = row
    return out


def models_on_items(per_item: list[dict], item_ids: set[str], stereotype: dict[str, str]) -> dict:
    """Per system: pro and anti accuracy (percent) and Delta on ``item_ids``.

    ``per_item``: rows with ``id``, ``system``, ``correct``; ``stereotype``: item id -> coarse.
    """
    by_sys: dict[str, dict[str, list[bool]]] = defaultdict(lambda: {PRO: [], ANTI: []})
    for r in per_item:
        if r["id"] in item_ids and stereotype.get(r["id"]) in (PRO, ANTI):
            by_sys[r["system"]][stereotype[r["id"]]].append(bool(r["correct"]))
    out = {}
    for s, d in by_sys.items():
        pro, anti = _pct(sum(d[PRO]), len(d[PRO])), _pct(sum(d[ANTI]), len(d[ANTI]))
        out[s] = {"pro": pro, "anti": anti,
                  "delta": None if pro is None or anti is None else pro - anti,
                  "n_pro": len(d[PRO]), "n_anti": len(d[ANTI])}
    return out


# ------------------------------------------------------------------------------ Maze

def iqr_keep(times: np.ndarray, factor: float = IQR_FACTOR) -> np.ndarray:
    """Boolean mask of the times inside [Q1 - factor IQR, Q3 + factor IQR]."""
    t = np.asarray(times, dtype=float)
    if t.size == 0:
        return np.zeros(0, dtype=bool)
    q1, q3 = np.quantile(t, [0.25, 0.75])
    iqr = q3 - q1
    return (t >= q1 - factor * iqr) & (t <= q3 + factor * iqr)


def quantile_curve(times: np.ndarray, quantiles: np.ndarray = QUANTILES) -> list[float | None]:
    t = np.asarray(times, dtype=float)
    if t.size == 0:
        return [None] * len(quantiles)
    return [float(x) for x in np.quantile(t, quantiles)]


def accuracy_curve(kept_times: np.ndarray, n_trials: int,
                   quantiles: np.ndarray = QUANTILES) -> list[float | None]:
    """Human accuracy (fraction) at each quantile's time threshold (see the module doc)."""
    t = np.sort(np.asarray(kept_times, dtype=float))
    if t.size == 0 or n_trials == 0:
        return [None] * len(quantiles)
    thresholds = np.quantile(t, quantiles)
    return [float(np.searchsorted(t, x, side="right") / n_trials) for x in thresholds]


def meeting_quantile(curve: list[float | None], accuracy: float,
                     quantiles: np.ndarray = QUANTILES) -> float | None:
    """The smallest quantile whose human accuracy reaches ``accuracy`` (fraction)."""
    for q, a in zip(quantiles, curve):
        if a is not None and a >= accuracy - 1e-12:
            return float(q)
    return None


def analyse_maze(rows: list[dict], model_accuracy: dict[str, dict[str, float]] | None = None,
                 factor: float = IQR_FACTOR) -> dict:
    """Maze trials (see the module doc). ``model_accuracy``: system -> {"pro": fraction,
    "anti": fraction}. Times in ms."""
    conditions = sorted({r["relation_to_main"] for r in rows})
    success, kept_times, n_trials, removed = {}, {}, {}, {}
    for c in conditions:
        trials = [r for r in rows if r["relation_to_main"] == c]
        times = np.array([r["time_to_answer"] for r in trials if r["correct"]], dtype=float)
        keep = iqr_keep(times, factor)
        n_trials[c] = len(trials)
        success[c] = len(times) / len(trials) if trials else None
        kept_times[c] = times[keep]
        removed[c] = int((~keep).sum())
    curves = {c: quantile_curve(kept_times.get(c, np.zeros(0))) for c in (PRO, ANTI)}
    delta = [None if a is None or p is None else a - p for p, a in zip(curves[PRO], curves[ANTI])]
    acc = {c: accuracy_curve(kept_times.get(c, np.zeros(0)), n_trials.get(c, 0)) for c in (PRO, ANTI)}
    positive_from = next((float(q) for q, d in zip(QUANTILES, delta)
                          if d is not None and d > 0 and all(x is not None and x > 0
                                                             for x in delta[list(QUANTILES).index(q):])),
                         None)
    out = {
        "quantiles": [float(q) for q in QUANTILES],
        "pro": curves[PRO], "anti": curves[ANTI], "delta": delta,
        "delta_positive_from": positive_from,
        "success_rate": success,
        "n_trials": n_trials,
        "n_correct_kept": {c: int(kept_times[c].size) for c in conditions},
        "n_outliers": removed,
        "human_accuracy": {PRO: acc[PRO], ANTI: acc[ANTI]},
        "n_participants": len({r["user_ip"] for r in rows}),
    }
    if model_accuracy:
        out["models"] = {
            s: {c: {"accuracy": m.get(c),
                    "quantile": None if m.get(c) is None else meeting_quantile(acc[c], m[c]),
                    # already reached at 0.50: the meeting point lies at or below the range
                    "at_start": bool(m.get(c) is not None and acc[c][0] is not None
                                     and acc[c][0] >= m[c] - 1e-12)}
                for c in (PRO, ANTI)}
            for s, m in model_accuracy.items()}
    return out


SYNTHETIC_SOURCES = ("winobias", "winogender", "sowinobias", "sowino", "cog-wino")
NATURAL_SOURCES = ("bug", "cog-bug")


def sentence_kind(sentence_id: str | None, source: str | None = None) -> str | None:
    """``synthetic`` (WinoBias, Winogender, SoWinoBias) or ``natural`` (BUG), from a benchmark
    source or else the prefix of a benchmark item id; None when neither tells."""
    sid = str(sentence_id or "").strip().lower()
    prefix = next((p for p in ("cog-wino", "cog-bug") if sid.startswith(p + "-")), sid.split("-", 1)[0])
    key = (source or prefix).strip().lower()
    if key in SYNTHETIC_SOURCES:
        return "synthetic"
    if key in NATURAL_SOURCES:
        return "natural"
    return None


LAYOUT_KINDS = {"released Wino": "synthetic", "released BUG": "natural"}
TABLE2_QUANTILES = (0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def trial_kind(row: dict, source: str | None = None) -> str | None:
    """The kind of a Maze trial: the study's processed files are one per dataset (their layout
    says: Wino synthetic, BUG natural); otherwise :func:`sentence_kind` of its sentence."""
    return LAYOUT_KINDS.get(row.get("_layout")) or sentence_kind(row.get("sentence_id"), source)


def delta_at(result: dict, quantiles=TABLE2_QUANTILES) -> dict[str, float | None]:
    """Delta_MAZE (ms) of an :func:`analyse_maze` result at ``quantiles`` ({"0.50": ms})."""
    qs = [round(q, 2) for q in result["quantiles"]]
    return {f"{q:.2f}": result["delta"][qs.index(round(q, 2))] for q in quantiles}


def maze_table2(rows: list[dict], kinds: list[str | None]) -> dict:
    """Delta_MAZE per dataset for Table 2: {kind: {"n_trials" (pro + anti), "delta" (ms at
    :data:`TABLE2_QUANTILES`), "positive_from"}} from the trials of each kind (synthetic = Wino,
    natural = BUG; trials of no kind left out)."""
    groups: dict[str, list[dict]] = defaultdict(list)
    for r, k in zip(rows, kinds):
        if k is not None:
            groups[k].append(r)
    out = {}
    for k in sorted(groups):
        res = analyse_maze(groups[k])
        out[k] = {"n_trials": sum(res["n_trials"].get(c, 0) for c in (PRO, ANTI)),
                  "delta": delta_at(res), "positive_from": res["delta_positive_from"]}
    return out


def analyse_maze_by_kind(rows: list[dict], kinds: list[str | None],
                         model_accuracy: dict[str, dict[str, float]] | None = None) -> dict:
    """:func:`analyse_maze` of all trials, plus ``by_kind`` (synthetic / natural sentences,
    as the paper compares them) when some trials have a kind."""
    out = analyse_maze(rows, model_accuracy)
    groups: dict[str, list[dict]] = defaultdict(list)
    for r, k in zip(rows, kinds):
        if k is not None:
            groups[k].append(r)
    if groups:
        out["by_kind"] = {k: analyse_maze(groups[k], model_accuracy) for k in sorted(groups)}
        out["n_without_kind"] = sum(k is None for k in kinds)
    return out
