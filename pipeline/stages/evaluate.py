"""``python -m pipeline evaluate``: Counter-GAP bias metrics of system outputs, with report.

Thin layer: reads and validates the dataset (quadruples Parquet, GAP TSV -- ours, GAP's or
Counter-GAP's published files, csv-quoted or not --, or a gold-label TSV) and the system
outputs, computes the metrics (:mod:`pipeline.core.metrics`), and writes into ``--out``
together (all or nothing):

- ``metrics.json``: an object keyed by system name (fractions, p-values, 99 % intervals);
- ``metrics.md``: the Markdown table, laid out like the Counter-GAP paper's table;
- ``metrics.png``: Acc_Diff and Delta-I per system with bootstrap 99 % intervals
  (:mod:`pipeline.report.evaluation`).

System outputs are recognised by content (:func:`pipeline.formats.system_outputs.detect_system_format`):
GAP TSV predictions (ID, A-coref, B-coref, optional A-prob/B-prob/AB-prob); JSON lines with
clusters (c2f-coref and descendants); CoNLL-2012 response files. Cluster outputs are turned
into A-coref/B-coref by aligning the system's tokens with the dataset's text
(:mod:`pipeline.core.alignment`; the rule is in docs/evaluate.md); rows that cannot be aligned
are counted, reported and scored as wrong.

Datasets whose IDs carry no ``-control``/``-swap-1``/``-swap-2`` suffix (plain GAP) get the
GAP-style view only. A dataset with a ``set`` column of pro/anti values (SoWinoBias) is scored
by :mod:`pipeline.core.sowinobias` and reported by :mod:`pipeline.report.sowinobias`.

``--write-conll FILE`` writes the dataset as a CoNLL-2012 key file (one document per row,
regex tokens, the gold labels as clusters) that coreference systems and CoNLL scorers read.

May import: the standard library, numpy, pandas, :mod:`pipeline.errors`, :mod:`pipeline.vocab`,
:mod:`pipeline.core`, :mod:`pipeline.formats`, :mod:`pipeline.lang`, :mod:`pipeline.report`.
"""

from __future__ import annotations

COMMAND = "evaluate"
HELP = "bias metrics with bootstrap significance"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from pipeline.errors import InputError
from pipeline.formats.files import jsonable
from pipeline.formats.system_outputs import rows_list as _rows_list
from pipeline.vocab import ID_SUFFIX_RE as SUFFIX_RE, VARIANTS

MAX_LISTED = 5
MIN_COVERAGE = 0.8     # a cluster document must spell at least this share of the row's text


# ------------------------------------------------------------------------------ CLI

def _name_file(text: str, option: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"{option} expects NAME=FILE, got {text!r}")
    return name, path


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--dataset", required=True, type=Path,
                   help="gold dataset: quadruples Parquet, GAP TSV (ours, GAP's, Counter-GAP's), or TSV "
                        "with ID, Pronoun, A-coref, B-coref")
    p.add_argument("--system", action="append", default=[], metavar="NAME=FILE",
                   type=lambda s: _name_file(s, "--system"),
                   help="a system output, format detected by content: GAP TSV predictions (ID, A-coref, "
                        "B-coref; optional A-prob, B-prob), JSON lines with clusters, or a CoNLL-2012 "
                        "response file; repeatable")
    p.add_argument("--out", type=Path, help="output directory (required with --system)")
    p.add_argument("--resamples", type=int, default=10_000,
                   help="bootstrap resamples (default 10000; 0 disables the tests)")
    p.add_argument("--seed", type=int, default=0, help="bootstrap seed (default 0)")
    p.add_argument("--allow-missing", action="store_true",
                   help="count dataset IDs missing from a system output as wrong (and say how many)")
    p.add_argument("--ignore-extra", action="store_true",
                   help="ignore system rows whose ID is not in the dataset (score a subset, e.g. Counter-GAP's "
                        "development quadruples, with predictions for the whole set); say how many")
    p.add_argument("--weights", action="append", default=[], metavar="NAME=W.json",
                   type=lambda s: _name_file(s, "--weights"),
                   help="test-set weights (JSON: ID -> weight) for weighted scores; repeatable")
    p.add_argument("--write-conll", type=Path, default=None, metavar="FILE",
                   help="write the dataset as a CoNLL-2012 key file (one document per row, gold clusters)")


def run(args) -> int:
    t0 = time.perf_counter()
    if args.resamples < 0:
        raise InputError(f"--resamples must be >= 0, got {args.resamples}")
    if not args.system and args.write_conll is None:
        raise InputError("nothing to do: give --system NAME=FILE (and --out), or --write-conll FILE")
    if args.system and args.out is None:
        raise InputError("--out is required with --system")
    names = [n for n, _ in args.system]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise InputError(f"system name(s) given more than once: {', '.join(dupes)}")
    from pipeline.formats.benchmarks import is_benchmark_file

    if args.system and is_benchmark_file(args.dataset):   # pro/anti benchmark (issue 15)
        from pipeline.report.benchmark import evaluate_benchmark, markdown

        bench = evaluate_benchmark(args.dataset, dict(args.system), args.out, args.resamples,
                                   args.seed, args.allow_missing)
        print(markdown(bench))
        print(f"benchmark: {len(bench)} system(s) -> {args.out}/metrics.json, per_item.parquet, "
              f"benchmark.md, benchmark.png")
        return 0

    raw = read_dataset_frame(args.dataset)
    if args.system and is_sowinobias(raw):
        return _run_sowinobias(raw, args)

    gold = normalise_dataset(raw, args.dataset)
    if args.write_conll is not None:
        n_docs = write_dataset_conll(gold, args.write_conll)
        print(f"wrote {args.write_conll}: {n_docs} documents (one per dataset row, gold labels as clusters)")
        if not args.system:
            return 0
    systems = {name: read_system(path, gold, args.allow_missing, args.ignore_extra)
               for name, path in args.system}
    from pipeline.formats.weights import read_weights

    weights = {name: read_weights(path) for name, path in args.weights}
    metrics = compute(gold, systems, args.resamples, args.seed)
    if weights:
        add_weighted(metrics, gold, systems, weights)

    from pipeline.report.evaluation import render_markdown, render_plot

    markdown = render_markdown(metrics, gold)
    png = render_plot(metrics, gold)
    from pipeline.formats.files import staged_outputs, write_json, write_text

    with staged_outputs(args.out) as stage:
        write_json(stage / "metrics.json", metrics)
        write_text(stage / "metrics.md", markdown)
        (stage / "metrics.png").write_bytes(png)

    print(markdown)
    for name, s in systems.items():
        what = {"gap-tsv": "GAP TSV predictions", "jsonl-clusters": "JSON-lines clusters",
                "conll": "CoNLL-2012 response"}[s.format]
        line = f"{name}: {what} from {s.path}, rows matched by {s.matched_by}"
        if s.n_missing:
            line += f"; {s.n_missing} dataset row(s) missing, counted as wrong"
        if s.n_extra:
            line += f"; {s.n_extra} row(s) for IDs not in the dataset ignored (--ignore-extra)"
        if s.n_unaligned:
            first = ", ".join(s.unaligned_ids[:MAX_LISTED])
            line += (f"; {s.n_unaligned} row(s) could not be aligned with the system's tokens "
                     f"(first: {first}), counted as wrong")
        print(line)
    print(f"{gold.describe()}; {len(systems)} system(s); {args.resamples} resamples, seed {args.seed}; "
          f"{time.perf_counter() - t0:.2f} s -> {args.out}/metrics.json, metrics.md, metrics.png")
    return 0


def _run_sowinobias(raw: pd.DataFrame, args) -> int:
    """SoWinoBias datasets: metrics by :mod:`pipeline.core.sowinobias`, report (sowinobias.md,
    sowinobias.png) by :mod:`pipeline.report.sowinobias`, written together with metrics.json."""
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.gap_tsv import read_tsv
    from pipeline.report.sowinobias import evaluate_sowinobias

    systems = {n: read_tsv(f, ["ID", "A-coref", "B-coref"]) for n, f in args.system}
    extra = {"allow_missing": True} if args.allow_missing else {}
    with staged_outputs(args.out) as stage:
        result = evaluate_sowinobias(raw, systems, stage, args.resamples, args.seed, **extra)
        write_json(stage / "metrics.json", result)
    print(f"SoWinoBias dataset: metrics for {len(systems)} system(s) -> {args.out / 'metrics.json'}, "
          "sowinobias.md, sowinobias.png")
    return 0


# ------------------------------------------------------------------------------ dataset

@dataclass
class Gold:
    """A validated dataset. ``frame``: ID, Pronoun, A-coref, B-coref (bools), gender (+1/-1).

    ``positions``: (Q, 4) row indices of each quadruple's variants (VARIANTS order), or None
    for a GAP-style dataset.
    """
    path: Path
    frame: pd.DataFrame
    positions: np.ndarray | None
    quadruple_ids: list[str] = field(default_factory=list)
    spans: pd.DataFrame | None = None   # text, pronoun/a/b and their offsets, when the dataset has texts

    @property
    def quadruples(self) -> bool:
        return self.positions is not None

    def describe(self) -> str:
        if self.quadruples:
            return f"{len(self.quadruple_ids)} quadruples ({len(self.frame)} instances)"
        return f"GAP-style dataset, {len(self.frame)} instances"


def read_dataset_frame(path: Path) -> pd.DataFrame:
    """The dataset as a DataFrame: Parquet (by content or suffix); a GAP TSV with texts (its
    quoting decided by the offsets, :func:`pipeline.formats.gap_tsv.read_gap_file`: GAP's
    files and Counter-GAP's releases alike); else any TSV with a header, as strings."""
    from pipeline.formats.gap_tsv import GAP_REQUIRED, read_gap_file, read_tsv

    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("is a directory, expected a Parquet or TSV dataset", path)
    with open(path, "rb") as fh:
        head = fh.read(4)
    if path.suffix.lower() in (".parquet", ".pq") or head == b"PAR1":
        from pipeline.formats.tables import read_table

        return read_table(path).to_pandas()
    with open(path, encoding="utf-8-sig", errors="replace") as fh:
        header = fh.readline().rstrip("\r\n").split("\t")
    if set(GAP_REQUIRED) <= {h.strip('"') for h in header}:
        got = read_gap_file(path)
        return pd.DataFrame(got.rows, columns=got.header)
    return read_tsv(path, [])


def is_sowinobias(frame: pd.DataFrame) -> bool:
    if "set" not in frame.columns:
        return False
    values = set(frame["set"].astype(str).str.strip().str.lower())
    return bool(values) and values <= {"pro", "anti"}


def _parse_bools(values: pd.Series, column: str, rowno: np.ndarray, path) -> np.ndarray:
    """Vectorised TRUE/FALSE (any case) -> bool; error listing the first offending rows."""
    if values.dtype == bool:
        return values.to_numpy()
    if values.dtype.name == "boolean" or values.dtype == object and values.map(
            lambda v: isinstance(v, bool) or v is None).all():
        bad = values.isna().to_numpy()
        if bad.any():
            rows = [(int(r), f"{column} is empty") for r in rowno[bad]]
            raise InputError(f"{column} must be TRUE or FALSE: {_rows_list(rows)}", path, rows[0][0])
        return values.astype(bool).to_numpy()
    text = values.astype(str).str.strip().str.upper().to_numpy(dtype=object)
    true = text == "TRUE"
    ok = true | (text == "FALSE")
    if not ok.all():
        rows = [(int(r), f"{column}={v!r}") for r, v in zip(rowno[~ok], values[~ok])]
        raise InputError(f"{column} must be TRUE or FALSE: {_rows_list(rows)}", path, rows[0][0])
    return true


def normalise_dataset(raw: pd.DataFrame, path: Path) -> Gold:
    """Validate a dataset frame (Parquet columns or GAP TSV columns) into :class:`Gold`."""
    from pipeline.lang.pronouns import FEMININE, MASCULINE, target_pronoun_gender

    parquet = "id" in raw.columns and "ID" not in raw.columns
    first_row = 1 if parquet else 2          # TSV: the header is row 1
    rowno = np.arange(len(raw)) + first_row
    cols = ({"ID": "id", "A-coref": "a_coref", "B-coref": "b_coref", "Pronoun": "pronoun"}
            if parquet else {"ID": "ID", "A-coref": "A-coref", "B-coref": "B-coref", "Pronoun": "Pronoun"})
    need = [cols["ID"], cols["A-coref"], cols["B-coref"]]
    if not (parquet and "pronoun_gender" in raw.columns):
        need.append(cols["Pronoun"])
    missing = [c for c in need if c not in raw.columns]
    if missing:
        raise InputError(f"dataset lacks column(s) {', '.join(missing)}", path)
    if len(raw) == 0:
        raise InputError("dataset has no rows", path)

    ids = raw[cols["ID"]].astype(str).str.strip()
    dup = ids.duplicated(keep="first").to_numpy()
    if dup.any():
        rows = [(int(r), f"ID {i!r} again") for r, i in zip(rowno[dup], ids[dup])]
        raise InputError(f"duplicate ID(s) in the dataset: {_rows_list(rows)}", path, rows[0][0])

    gold_a = _parse_bools(raw[cols["A-coref"]], cols["A-coref"], rowno, path)
    gold_b = _parse_bools(raw[cols["B-coref"]], cols["B-coref"], rowno, path)

    sign = {MASCULINE: 1, FEMININE: -1}
    if parquet and "pronoun_gender" in raw.columns:
        gender_name = raw["pronoun_gender"].astype(str)
        pronoun = (raw["pronoun"].astype(str) if "pronoun" in raw.columns
                   else gender_name.map({MASCULINE: "he", FEMININE: "she"}))
        what = "pronoun_gender"
    else:
        pronoun = raw[cols["Pronoun"]].astype(str).str.strip()
        gender_name = pronoun.map(lambda p: target_pronoun_gender(p) or "")
        what = cols["Pronoun"]
    gender = gender_name.map(sign).fillna(0).astype(int).to_numpy()
    if (gender == 0).any():
        bad = gender == 0
        vals = (raw[what] if what in raw.columns else gender_name)[bad]
        rows = [(int(r), f"{what}={v!r}") for r, v in zip(rowno[bad], vals)]
        raise InputError(f"not a gendered pronoun: {_rows_list(rows)}", path, rows[0][0])

    frame = pd.DataFrame({"ID": ids.to_numpy(), "Pronoun": pronoun.to_numpy(),
                          "A-coref": gold_a, "B-coref": gold_b, "gender": gender})
    spans = _spans(raw, parquet)

    # quadruple structure: explicit Parquet columns, else the ID suffixes
    if parquet and {"quadruple_id", "variant"} <= set(raw.columns):
        base = raw["quadruple_id"].astype(str).to_numpy()
        variant = raw["variant"].astype(str).to_numpy()
    else:
        m = ids.str.extract(SUFFIX_RE)
        has = m["variant"].notna().to_numpy()
        base = np.where(has, m["base"].to_numpy(), ids.to_numpy())
        variant = np.where(has, m["variant"].to_numpy(), "original")
    if (variant == "original").all():
        return Gold(path, frame, None, spans=spans)
    return Gold(path, frame, *_quadruple_positions(base, variant, gender, path), spans=spans)


SPAN_COLUMNS = {   # ours: (Parquet column, TSV column)
    "text": ("text", "Text"), "pronoun": ("pronoun", "Pronoun"),
    "pronoun_offset": ("pronoun_offset", "Pronoun-offset"), "a": ("a", "A"),
    "a_offset": ("a_offset", "A-offset"), "b": ("b", "B"), "b_offset": ("b_offset", "B-offset")}


def _spans(raw: pd.DataFrame, parquet: bool) -> pd.DataFrame | None:
    """The texts and mention offsets (needed to score cluster outputs), or None."""
    pick = 0 if parquet else 1
    cols = {ours: theirs[pick] for ours, theirs in SPAN_COLUMNS.items()}
    if not set(cols.values()) <= set(raw.columns):
        return None
    out = pd.DataFrame({ours: raw[theirs].to_numpy() for ours, theirs in cols.items()})
    if out.isna().to_numpy().any():
        return None
    for c in ("pronoun_offset", "a_offset", "b_offset"):
        out[c] = out[c].astype(int)
    return out


def _quadruple_positions(base: np.ndarray, variant: np.ndarray, gender: np.ndarray,
                         path) -> tuple[np.ndarray, list[str]]:
    df = pd.DataFrame({"q": base, "v": variant, "row": np.arange(len(base))})
    unknown = ~df["v"].isin(VARIANTS)
    if unknown.any():
        raise InputError(f"unknown variant(s) {sorted(set(df.v[unknown]))[:MAX_LISTED]}", path)
    order = pd.unique(df["q"])
    table = df.pivot(index="q", columns="v", values="row").reindex(index=order, columns=list(VARIANTS))
    incomplete = table.isna().any(axis=1).to_numpy()
    if incomplete.any():
        names = []
        for q, row in table[incomplete].iterrows():
            lacking = [v for v in VARIANTS if pd.isna(row[v])]
            names.append(f"{q} (no {'/'.join(lacking)})")
        more = f" and {len(names) - MAX_LISTED} more" if len(names) > MAX_LISTED else ""
        raise InputError(f"{len(names)} incomplete quadruple(s): {', '.join(names[:MAX_LISTED])}{more}",
                         path)
    positions = table.to_numpy(dtype=np.int64)
    g = gender[positions]
    bad = ~((g[:, 1] == g[:, 0]) & (g[:, 2] == -g[:, 0]) & (g[:, 3] == -g[:, 0]))
    if bad.any():
        names = list(order[bad])
        raise InputError(f"{len(names)} quadruple(s) whose control does not keep, or whose swaps "
                         f"do not flip, the original's pronoun gender: {', '.join(map(str, names[:MAX_LISTED]))}",
                         path)
    return positions, [str(q) for q in order]



def write_dataset_conll(gold: Gold, target: Path) -> int:
    """The dataset as a CoNLL-2012 key file; returns the number of documents."""
    from pipeline.core.alignment import Unaligned, gold_clusters, simple_tokens
    from pipeline.formats.conll import write_conll

    if gold.spans is None:
        raise InputError("--write-conll needs a dataset with texts and offsets (GAP TSV or quadruples "
                         "Parquet)", gold.path)
    docs = []
    for i, (rid, sp) in enumerate(zip(gold.frame["ID"], gold.spans.itertuples(index=False))):
        tokens, tspans = simple_tokens(sp.text)
        try:
            clusters = gold_clusters(tspans, *_row_spans(sp), bool(gold.frame["A-coref"].iat[i]),
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


def _row_spans(sp) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int]]:
    return ((sp.pronoun_offset, sp.pronoun_offset + len(sp.pronoun)),
            (sp.a_offset, sp.a_offset + len(sp.a)), (sp.b_offset, sp.b_offset + len(sp.b)))


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
    return score(pred, gold)


def score(pred, gold: Gold) -> SystemOutput:
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
                        pred.matched_by, pred.n_unaligned, list(pred.unaligned_ids), pred.n_extra)


_GENRE = re.compile(r"^[a-z]{2}[/_]")


def match_documents(docs, ids: np.ndarray, path: Path, allow_missing: bool,
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
    pos, how, n_extra = match_documents(docs, ids, path, allow_missing, allow_extra)
    n = len(ids)
    a = np.zeros(n, dtype=bool)
    b = np.zeros(n, dtype=bool)
    present = pos >= 0
    unaligned = []
    for r in np.flatnonzero(present):
        d = docs[pos[r]]
        sp = gold.spans.iloc[r]
        token_spans, coverage = align(sp.text, d.tokens)
        p_span, a_span, b_span = _row_spans(sp)
        try:
            if coverage < MIN_COVERAGE:
                raise Unaligned(f"the tokens spell only {coverage:.0%} of the text")
            a[r] = is_coreferent(token_spans, d.clusters, p_span, a_span)
            b[r] = is_coreferent(token_spans, d.clusters, p_span, b_span)
        except Unaligned:
            present[r] = False
            unaligned.append(str(ids[r]))
    return Predictions(path, ids, a, b, present, None, fmt, how, int((pos < 0).sum()),
                       len(unaligned), unaligned, n_extra)


# ------------------------------------------------------------------------------ compute

def compute(gold: Gold, systems: dict[str, SystemOutput], resamples: int, seed: int) -> dict:
    from pipeline.core import metrics as M

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
    return res


def add_weighted(metrics: dict, gold: Gold, systems: dict[str, SystemOutput],
                 weights: dict[str, dict[str, float]]) -> None:
    from pipeline.core.weights import weighted_bias_scores

    gold_df = gold.frame[["ID", "Pronoun", "A-coref", "B-coref"]]
    for name, s in systems.items():
        metrics[name]["weighted"] = {
            wname: jsonable(weighted_bias_scores(gold_df, s.frame, w)) for wname, w in weights.items()}


