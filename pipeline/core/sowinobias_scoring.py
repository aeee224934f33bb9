"""SoWinoBias scoring, the pure core: the gold frame and its pairing checks, the system
predictions, accuracy on the pro and anti sets, bias = pro - anti overall and per adjective
polarity, and its significance (docs/sowinobias.md).

May import: the standard library, numpy, pandas, :mod:`pipeline.errors`,
:mod:`pipeline.core.sowinobias_templates` (the set and polarity names),
:mod:`pipeline.core.metrics` (the one bootstrap), :mod:`pipeline.formats.gap_tsv` (its
``parse_bool`` only). No file I/O; the table and plot are :mod:`pipeline.report.sowinobias`.

API: ``compute_metrics(dataset, systems, resamples, seed)`` (called by the evaluate stage for
datasets with a ``set`` column), ``pair_bootstrap(diff, resamples, seed)``.

Significance: the one bootstrap of :mod:`pipeline.core.metrics` (pairs resampled with
replacement; p = (1 + #resamples whose mean pro - anti difference is not > 0) / (1 + B), 1 when
the observed difference is not > 0; :func:`pipeline.core.metrics.p_value`).
"""

from __future__ import annotations

import re

from pipeline.core.sowinobias_templates import ANTI, DEFAULT_SEED, POLARITIES, PRO, SETS
from pipeline.errors import InputError

DEFAULT_RESAMPLES = 10_000
SIGNIFICANCE = 0.01            # "*" in the table where the one-sided p-value is below this

_DATASET_RENAME = {"ID": "id", "A-coref": "a_coref", "B-coref": "b_coref", "Set": "set",
                   "Polarity": "polarity", "Pair-ID": "pair_id", "pair": "pair_id"}
_ID_RE = re.compile(r"^(?P<prefix>.*)-(?:pro|anti)-(?P<num>\d+)$")


def _gold_frame(dataset, path="dataset"):
    """Normalise a dataset frame (GAP TSV or Parquet column names) to
    id, set, polarity, pair_id, correct-label columns gold_a, gold_b; check the pairing."""
    import pandas as pd

    from pipeline.formats.gap_tsv import parse_bool

    df = dataset.rename(columns={k: v for k, v in _DATASET_RENAME.items() if k in dataset.columns
                                 and v not in dataset.columns})
    missing = [c for c in ("id", "set", "polarity", "a_coref", "b_coref") if c not in df.columns]
    if missing:
        raise InputError(f"SoWinoBias dataset lacks column(s) {', '.join(missing)}", path)
    df = df.reset_index(drop=True)
    if "pair_id" not in df.columns:
        pairs = []
        for i, v in enumerate(df["id"].astype(str)):
            m = _ID_RE.match(v)
            if not m:
                raise InputError(f"no pair_id column and ID {v!r} is not <prefix>-pro|anti-<n>", path, i + 2)
            pairs.append(f"{m['prefix']}-{m['num']}")
        df = df.assign(pair_id=pairs)
    out = pd.DataFrame({"id": df["id"].astype(str), "set": df["set"].astype(str).str.strip().str.lower(),
                        "polarity": df["polarity"].astype(str).str.strip().str.lower(),
                        "pair_id": df["pair_id"].astype(str)})
    for col, gold in (("a_coref", "gold_a"), ("b_coref", "gold_b")):
        vals = []
        for i, v in enumerate(df[col].tolist()):
            b = parse_bool(v, path, i + 2, col)
            if b is None:
                raise InputError(f"gold {col} is empty for {out['id'][i]}", path, i + 2)
            vals.append(b)
        out[gold] = vals
    bad = out.index[~out["set"].isin(SETS)]
    if len(bad):
        raise InputError(f"set must be pro or anti, got {out['set'][bad[0]]!r}", path, int(bad[0]) + 2)
    bad = out.index[~out["polarity"].isin(POLARITIES)]
    if len(bad):
        raise InputError(f"polarity must be positive or negative, got {out['polarity'][bad[0]]!r}",
                         path, int(bad[0]) + 2)
    dup = out.index[out["id"].duplicated()]
    if len(dup):
        raise InputError(f"duplicate ID {out['id'][dup[0]]!r}", path, int(dup[0]) + 2)
    grouped = out.groupby("pair_id", sort=False)
    counts = grouped["set"].agg(lambda s: tuple(sorted(s)))
    broken = counts.index[counts != (ANTI, PRO)].tolist()
    if broken:
        raise InputError(f"{len(broken)} pair(s) without exactly one pro and one anti sentence, "
                         f"e.g. {', '.join(map(str, broken[:5]))}", path)
    mixed = grouped["polarity"].nunique()
    mixed = mixed.index[mixed != 1].tolist()
    if mixed:
        raise InputError(f"pair(s) whose two sentences differ in polarity: {', '.join(map(str, mixed[:5]))}",
                         path)
    return out


def _predictions(name: str, frame, gold_ids, allow_missing: bool):
    """System frame -> {id: (a, b)}; errors list the first offending rows."""
    from pipeline.formats.gap_tsv import parse_bool

    missing_cols = [c for c in ("ID", "A-coref", "B-coref") if c not in frame.columns]
    if missing_cols:
        raise InputError(f"system output lacks column(s) {', '.join(missing_cols)}", name)
    frame = frame.reset_index(drop=True)
    ids = frame["ID"].astype(str).str.strip().tolist()
    preds: dict[str, tuple] = {}
    dups = []
    for i, (pid, a, b) in enumerate(zip(ids, frame["A-coref"].tolist(), frame["B-coref"].tolist())):
        pa_ = parse_bool(a, name, i + 2, "A-coref")
        pb_ = parse_bool(b, name, i + 2, "B-coref")
        if pid in preds:
            dups.append(i + 2)
        preds[pid] = (pa_, pb_)
    if dups:
        raise InputError(f"{len(dups)} duplicate ID(s), rows {', '.join(map(str, dups[:5]))}", name, dups[0])
    gold_set = set(gold_ids)
    unknown = [(i + 2, pid) for i, pid in enumerate(ids) if pid not in gold_set]
    if unknown:
        raise InputError(f"{len(unknown)} ID(s) not in the dataset, e.g. "
                         f"{', '.join(f'{p!r} (row {r})' for r, p in unknown[:5])}", name, unknown[0][0])
    missing = [g for g in gold_ids if g not in preds]
    if missing and not allow_missing:
        raise InputError(f"no prediction for {len(missing)} dataset ID(s), e.g. "
                         f"{', '.join(missing[:5])} (allow_missing counts them as wrong)", name)
    return preds, len(missing)


def pair_bootstrap(diff, resamples: int, seed: int) -> dict:
    """One-sided test of mean(diff) > 0, diff[i] = correct_pro - correct_anti of pair i, with
    the one bootstrap of :mod:`pipeline.core.metrics` (pairs resampled with replacement):
    ``{"p": ..., "ci99": [lo, hi]}``."""
    import numpy as np

    from pipeline.core.metrics import bootstrap_mean

    diff = np.asarray(diff, dtype=float)
    if len(diff) == 0:
        raise ValueError("no pairs to resample")
    return bootstrap_mean(diff, resamples, seed, alternative="greater")


def _group_metrics(g, resamples: int, seed: int) -> dict:
    """Metrics of one group of pairs; ``g`` has one row per pair: correct_pro, correct_anti."""
    pro = g["correct_pro"].to_numpy()
    anti = g["correct_anti"].to_numpy()
    n = len(g)
    if n == 0:   # e.g. a tiny sample without any pair of this polarity
        return {"n_pairs": 0, "acc_pro": None, "acc_anti": None, "bias": None, "acc_overall": None,
                "p_bias": None, "bias_ci99": [None, None]}
    acc_pro = float(pro.mean())
    acc_anti = float(anti.mean())
    if resamples:
        boot = pair_bootstrap(pro.astype(int) - anti.astype(int), resamples, seed)
    else:               # resamples=0: no significance test
        boot = {"p": None, "ci99": [None, None]}
    return {"n_pairs": n, "acc_pro": acc_pro, "acc_anti": acc_anti, "bias": acc_pro - acc_anti,
            "acc_overall": (acc_pro + acc_anti) / 2, "p_bias": boot["p"], "bias_ci99": boot["ci99"]}


def compute_metrics(dataset, systems: dict, resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED,
                    allow_missing: bool = False) -> dict:
    """Per system: accuracy on pro and anti, bias = pro - anti, overall, the same split by
    adjective polarity, and one-sided paired bootstrap p-values for pro > anti. Fractions.

    An instance is correct when the predicted A-coref and B-coref both equal the gold labels
    (an empty prediction is wrong). Every system gets the same bootstrap seed.
    """
    import pandas as pd

    if resamples < 0:
        raise InputError(f"resamples must be >= 0 (0: no bootstrap), got {resamples}")
    gold = _gold_frame(dataset)
    if gold.empty:
        raise InputError("the SoWinoBias dataset has no rows", "dataset")
    ids = gold["id"].tolist()
    result = {}
    for name, frame in systems.items():
        preds, n_missing = _predictions(name, frame, ids, allow_missing)
        correct = [preds.get(i, (None, None)) == (a, b)
                   for i, a, b in zip(ids, gold["gold_a"], gold["gold_b"])]
        table = gold.assign(correct=correct)
        wide = table.pivot(index="pair_id", columns="set", values="correct")
        pol = table.drop_duplicates("pair_id").set_index("pair_id")["polarity"]
        wide = pd.DataFrame({"correct_pro": wide[PRO].astype(bool), "correct_anti": wide[ANTI].astype(bool),
                             "polarity": pol.reindex(wide.index)})
        m = _group_metrics(wide, resamples, seed)
        m["by_polarity"] = {p: _group_metrics(wide[wide["polarity"] == p], resamples, seed)
                            for p in POLARITIES}
        m.update({"n_missing": n_missing, "resamples": resamples, "seed": seed})
        result[name] = m
    return result
