"""Running coreference systems on a dataset: the work of ``python -m pipeline predict`` (and of
``evaluate --system NAME=ADAPTER:MODEL``).

* :func:`read_rows` -- every instance of a dataset as a row (id, text, pronoun / A / B
  character spans, gold (None before annotation: ``generate``'s quadruples), quadruple,
  variant, gender): Counter-GAP quadruples Parquet (labelled or not), a GAP
  TSV (ours, GAP's, Counter-GAP's releases), a pro/anti benchmark Parquet (A = the main entity,
  B = the other one), SoWinoBias (Parquet or TSV; quadruple = pair, variant = pro/anti);
* :func:`run_system` -- one system over the rows' texts: batches, a tqdm progress bar, a
  resumable cache (``OUT/cache/NAME.jsonl``: one line per finished document, keyed by id and a
  hash of the text, appended and fsynced batch by batch; a rerun with the same system spec
  skips what is there), and a crash isolated to its document: a failing batch is retried one
  document at a time, and a document that still fails is recorded as unanswered with the error;
* :func:`write_outputs` -- ``NAME.jsonl`` (cluster JSON lines: ``doc_key``, ``text``,
  ``clusters`` in character offsets end exclusive, ``error``), ``NAME.tsv`` (the GAP answers,
  no header line: GAP's scorer layout; unanswered rows left out), ``answers.parquet`` and
  ``predict.json``, all together.

May import: the standard library, numpy, pandas, tqdm, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.formats`, :mod:`pipeline.core`, :mod:`pipeline.systems`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError

log = logging.getLogger(__name__)
CACHE_DIR = "cache"
MAX_LISTED = 5


# ------------------------------------------------------------------------------ dataset rows

def read_rows(path: str | Path, data=None) -> tuple[str, list[dict]]:
    """(kind, rows) of a dataset; kind is ``quadruples``, ``gap``, ``benchmark`` or ``sowinobias``
    (``data``: the dataset already read, a :class:`pipeline.formats.dataset_files.DatasetFile`)."""
    from pipeline.core.gold import is_sowinobias, normalise_dataset
    from pipeline.formats.dataset_files import load_dataset

    path = Path(path)
    data = load_dataset(path) if data is None else data
    if data.is_benchmark:
        rows = []
        for it in data.benchmark_items():
            other = it.get("other_entity") is not None
            rows.append({"id": str(it["id"]), "text": it["text"],
                         "pronoun": (it["pronoun_start"], it["pronoun_end"]),
                         "a": (it["main_start"], it["main_end"]),
                         "b": (it["other_start"], it["other_end"]) if other else None,
                         "gold_a": True, "gold_b": False,
                         "quadruple_id": str(it["id"]), "variant": it["stereotype"],
                         "gender": it["pronoun_gender"]})
        return "benchmark", rows
    raw = data.frame()
    if is_sowinobias(raw):
        from pipeline.core.gold import SPAN_COLUMNS

        pick = 0 if "text" in raw.columns else 1
        col = {k: v[pick] for k, v in SPAN_COLUMNS.items()}
        idc, ac, bc = ("id", "a_coref", "b_coref") if pick == 0 else ("ID", "A-coref", "B-coref")
        from pipeline.formats.gap_tsv import parse_bool

        has_text = all(c in raw.columns for c in col.values())
        rows = []
        for _, r in raw.iterrows():
            rid = str(r[idc])
            row = {"id": rid, "text": None, "pronoun": None, "a": None, "b": None,
                   "gold_a": parse_bool(r.get(ac)), "gold_b": parse_bool(r.get(bc)),
                   "quadruple_id": str(r["pair_id"]) if "pair_id" in raw.columns else rid,
                   "variant": str(r["set"]).strip().lower(), "gender": "neutral"}
            if has_text:
                po, ao, bo = int(r[col["pronoun_offset"]]), int(r[col["a_offset"]]), int(r[col["b_offset"]])
                row.update(text=r[col["text"]], pronoun=(po, po + len(r[col["pronoun"]])),
                           a=(ao, ao + len(r[col["a"]])), b=(bo, bo + len(r[col["b"]])))
            rows.append(row)
        return "sowinobias", rows
    from pipeline.core.answers import has_no_labels, unlabelled_gold

    gold = unlabelled_gold(raw, path) if has_no_labels(raw) else normalise_dataset(raw, path)
    if gold.spans is None:
        raise InputError("predict needs a dataset with texts and offsets (quadruples Parquet, GAP TSV, "
                         "benchmark Parquet or SoWinoBias), not gold labels alone", path)
    return ("quadruples" if gold.quadruples else "gap"), gold_rows(gold)


def gold_rows(gold) -> list[dict]:
    """Rows of a validated :class:`pipeline.core.gold.Gold` that has texts."""
    from pipeline.core.answers import gold_answer_rows

    rows = gold_answer_rows(gold)
    for r, s in zip(rows, gold.spans.itertuples(index=False)):
        r.update(text=s.text, pronoun=(int(s.pronoun_offset), int(s.pronoun_offset) + len(s.pronoun)),
                 a=(int(s.a_offset), int(s.a_offset) + len(s.a)), b=(int(s.b_offset), int(s.b_offset) + len(s.b)))
    return rows


# ------------------------------------------------------------------------------ running

@dataclass
class SystemRun:
    spec: object                                   # SystemSpec
    clusters: dict[str, list | None] = field(default_factory=dict)   # id -> char clusters (None: failed)
    errors: dict[str, str] = field(default_factory=dict)
    n_cached: int = 0
    seconds: float = 0.0


def _text_hash(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _read_cache(path: Path, spec: str) -> dict[str, dict]:
    if not path.exists():
        return {}
    entries = {}
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
        try:
            head = json.loads(first)
        except json.JSONDecodeError:
            head = {}
        if head.get("system") != spec:
            log.warning("cache %s was made by %r, not %r: starting afresh", path, head.get("system"), spec)
            return {}
        for line in fh:
            try:
                e = json.loads(line)
            except json.JSONDecodeError:        # a line cut by a crash: ignored
                continue
            entries[e["doc_key"]] = e
    return entries


def run_system(spec, rows: list[dict], out_dir: str | Path, device: str = "cpu", batch_size: int = 8,
               progress: bool = True, retry_failed: bool = False, adapter=None) -> SystemRun:
    """Run one system (``spec``: :class:`pipeline.systems.base.SystemSpec`) on the rows' texts,
    resuming from ``out_dir/cache/NAME.jsonl``. ``adapter``: an already loaded adapter (tests)."""
    from tqdm import tqdm

    if any(r["text"] is None for r in rows):
        raise InputError("running a system needs a dataset with texts and offsets, not gold labels alone")

    from pipeline.systems.base import clean_clusters

    t0 = time.perf_counter()
    cache_path = Path(out_dir) / CACHE_DIR / f"{spec.name}.jsonl"
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    cached = _read_cache(cache_path, str(spec))
    run = SystemRun(spec)
    todo = []
    for r in rows:
        e = cached.get(r["id"])
        if e is not None and e.get("sha") == _text_hash(r["text"]) and not (retry_failed and e.get("error")):
            run.clusters[r["id"]] = None if e.get("error") else [[tuple(m) for m in c] for c in e["clusters"]]
            if e.get("error"):
                run.errors[r["id"]] = e["error"]
            run.n_cached += 1
        else:
            todo.append(r)
    if todo:
        if adapter is None:
            from pipeline.systems.registry import make_adapter

            adapter = make_adapter(spec, device=device, batch_size=batch_size)
        fresh = not cache_path.exists() or not cached
        with open(cache_path, "w" if fresh else "a", encoding="utf-8") as fh:
            if fresh:
                fh.write(json.dumps({"system": str(spec)}) + "\n")
            bar = tqdm(total=len(todo), desc=spec.name, unit="doc", disable=not progress)
            for lo in range(0, len(todo), max(1, batch_size)):
                batch = todo[lo:lo + max(1, batch_size)]
                results = _predict_isolated(adapter, batch)
                for r, res in zip(batch, results):
                    entry = {"doc_key": r["id"], "sha": _text_hash(r["text"])}
                    if isinstance(res, BaseException):
                        msg = f"{type(res).__name__}: {res}".strip()
                        run.clusters[r["id"]], run.errors[r["id"]] = None, msg
                        entry.update(clusters=None, error=msg)
                    else:
                        try:
                            cl = clean_clusters(r["text"], res)
                            run.clusters[r["id"]] = cl
                            entry.update(clusters=[[list(m) for m in c] for c in cl], error=None)
                        except (ValueError, TypeError, IndexError) as exc:
                            msg = f"bad clusters from the system: {exc}"
                            run.clusters[r["id"]], run.errors[r["id"]] = None, msg
                            entry.update(clusters=None, error=msg)
                    fh.write(json.dumps(entry, ensure_ascii=False) + "\n")
                fh.flush()
                os.fsync(fh.fileno())
                bar.update(len(batch))
            bar.close()
    run.seconds = time.perf_counter() - t0
    return run


def _predict_isolated(adapter, batch: list[dict]) -> list:
    """The adapter's results for a batch; when the batch fails as a whole, each document on
    its own, so that one bad document costs only itself."""
    texts = [r["text"] for r in batch]
    try:
        results = list(adapter.predict(texts))
        if len(results) != len(texts):
            raise RuntimeError(f"the adapter returned {len(results)} results for {len(texts)} texts")
        return results
    except (KeyboardInterrupt, MemoryError):
        raise
    except BaseException as exc:  # noqa: BLE001 -- SystemExit of a library included
        if len(batch) == 1:
            return [exc]
    out = []
    for t in texts:
        try:
            res = list(adapter.predict([t]))
            out.append(res[0] if len(res) == 1 else RuntimeError(f"{len(res)} results for one text"))
        except (KeyboardInterrupt, MemoryError):
            raise
        except BaseException as exc:  # noqa: BLE001
            out.append(exc)
    return out


# ------------------------------------------------------------------------------ outputs

def answers_of(run: SystemRun, rows: list[dict]) -> dict[str, tuple[bool, bool] | None]:
    from pipeline.core.answers import answer_from_char_clusters

    out = {}
    for r in rows:
        cl = run.clusters.get(r["id"])
        out[r["id"]] = None if cl is None else answer_from_char_clusters(cl, r["pronoun"], r["a"], r["b"])
    return out


def write_outputs(out_dir: str | Path, kind: str, dataset: Path, rows: list[dict], runs: list[SystemRun]) -> dict:
    """Write every system's outputs and ``answers.parquet`` into ``out_dir`` together; returns
    the summary written as ``predict.json``."""
    from pipeline.core.answers import answer_records
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.gap_tsv import write_system_tsv
    from pipeline.formats.schemas import ANSWERS
    from pipeline.formats.tables import write_records

    labelled = not rows or any(r.get("gold_a") is not None for r in rows)
    records, summary = [], {"dataset": str(dataset), "kind": kind, "n_rows": len(rows), "labelled": labelled,
                            "systems": {}}
    with staged_outputs(out_dir) as stage:
        for run in runs:
            name = run.spec.name
            answers = answers_of(run, rows)
            with open(stage / f"{name}.jsonl", "w", encoding="utf-8") as fh:
                for r in rows:
                    cl = run.clusters.get(r["id"])
                    fh.write(json.dumps({"doc_key": r["id"], "text": r["text"],
                                         "clusters": None if cl is None else [[list(m) for m in c] for c in cl],
                                         "error": run.errors.get(r["id"]) if cl is None else None,
                                         "system": str(run.spec)}, ensure_ascii=False) + "\n")
            write_system_tsv([{"ID": r["id"], "A-coref": answers[r["id"]][0], "B-coref": answers[r["id"]][1]}
                              for r in rows if answers[r["id"]] is not None], stage / f"{name}.tsv")
            records += answer_records(rows, name, answers, run.errors)
            failed = [r["id"] for r in rows if answers[r["id"]] is None]
            summary["systems"][name] = {
                "system": str(run.spec), "n_answered": len(rows) - len(failed), "n_failed": len(failed),
                "failed_first": [{"id": i, "error": run.errors.get(i)} for i in failed[:MAX_LISTED]],
                "n_cached": run.n_cached, "seconds": round(run.seconds, 2),
                "files": [f"{name}.jsonl", f"{name}.tsv"]}
        write_records(records, stage / "answers.parquet", ANSWERS)
        write_json(stage / "predict.json", summary)
    return summary


def answers_from_output(rows: list[dict], path: str | Path) -> tuple[dict, dict]:
    """(id -> (A-coref, B-coref) or None, id -> why unanswered) of a system output file of
    any accepted layout, for ``answers.parquet`` of the datasets ``evaluate`` scores by their
    own rules (benchmarks, SoWinoBias). Cluster documents are matched by id (a genre prefix
    dropped) or by order, and aligned with the row's text (:mod:`pipeline.core.alignment`)."""
    import re

    from pipeline.core.alignment import Unaligned, align_tokens, is_coreferent
    from pipeline.formats import system_outputs as so

    ids = [r["id"] for r in rows]
    fmt = so.detect_system_format(path)
    answers, why = {}, {}
    if fmt == "gap-tsv":
        pred = so.read_gap_predictions(path, ids, allow_missing=True, allow_extra=True)
        for i, a, b, p in zip(ids, pred.a, pred.b, pred.present):
            answers[i] = (bool(a), bool(b)) if p else None
            if not p:
                why[i] = "missing from the system output"
        return answers, why
    docs = so.read_cluster_jsonl(path) if fmt == "jsonl-clusters" else so.read_cluster_conll(path)
    if all(d.key is None for d in docs) and len(docs) == len(rows):
        by_id = dict(zip(ids, docs))
    else:
        by_id = {}
        for d in docs:
            if d.key is not None:
                by_id.setdefault(d.key if d.key in set(ids) else re.sub(r"^[a-z]{2}[/_:]", "", d.key), d)
    if any(r["text"] is None for r in rows):
        raise InputError("cluster outputs need a dataset with texts and offsets", path)
    for r in rows:
        d = by_id.get(r["id"])
        if d is None or d.error:
            answers[r["id"]] = None
            why[r["id"]] = d.error if d is not None else "missing from the system output"
            continue
        spans = align_tokens(r["text"], d.tokens)
        try:
            a = is_coreferent(spans, d.clusters, r["pronoun"], r["a"])
            b = is_coreferent(spans, d.clusters, r["pronoun"], r["b"]) if r["b"] is not None else False
            answers[r["id"]] = (a, b)
        except Unaligned as exc:
            answers[r["id"]], why[r["id"]] = None, f"could not be aligned: {exc}"
    return answers, why


def write_answers(out_dir: str | Path, dataset: str | Path, systems: dict[str, str | Path], data=None) -> int:
    """``out_dir/answers.parquet`` of system output files on ``dataset`` (any kind; ``data``: it
    already read, :func:`pipeline.formats.dataset_files.load_dataset`)."""
    from pipeline.core.answers import answer_records
    from pipeline.formats.files import atomic_path
    from pipeline.formats.schemas import ANSWERS
    from pipeline.formats.tables import write_records

    _, rows = read_rows(dataset, data)
    records = []
    for name, path in systems.items():
        answers, why = answers_from_output(rows, path)
        records += answer_records(rows, name, answers, why)
    target = Path(out_dir) / "answers.parquet"
    with atomic_path(target) as tmp:
        write_records(records, tmp, ANSWERS)
    return len(records)
