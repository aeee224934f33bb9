"""Counter-GAP bias metrics and paired bootstrap significance: the pure, vectorised core.

No I/O here. Inputs are numpy arrays aligned on the dataset's instances; outputs are plain
dicts of floats (fractions, not percent).

Correctness may be *expected* correctness: a value in [0, 1] per instance, the probability
that a (random) system gets the instance right. For a deterministic system it is 0 or 1 and
every formula below reduces to the ordinary one. For two independent draws the expected
inconsistency E|f(x) - f(y)| is p(1 - q) + q(1 - p) (:func:`expected_abs_diff`).

Quadruple layout: arrays of shape (Q, 4), columns in :data:`pipeline.vocab.VARIANTS`
(x_o = original, x_c = control, x~_o = swap-1, x~_c = swap-2). Gender is +1 (masculine) or
-1 (feminine), per instance (the pronoun's gender).

Bootstrap: the project's ONE bootstrap, used by every metric (Counter-GAP and GAP views here,
SoWinoBias in :mod:`pipeline.core.sowinobias_scoring`, the weighted scores in
:mod:`pipeline.core.weights`). Units (quadruples, instances, SoWinoBias pairs, examples) are
drawn with replacement, ``n`` per resample, from ``numpy.random.default_rng(seed)``
(:func:`resample_counts`; :func:`resampled_sums` draws the same resamples in chunks when the
full count matrix would be large). One resample matrix of counts ``K`` (B x units; K[b, u] =
how often unit u was drawn in resample b) is built once; every resampled statistic is then a
ratio of matrix products ``K @ v`` of per-unit contributions ``v``: one BLAS call for all
statistics of all systems. Paired: the same ``K`` for every statistic and every system.

The p-value convention (:func:`p_value`), the same everywhere: one-sided, H1 in the direction
given per statistic (the observed sign, or a fixed "greater"); p = (1 + #resamples NOT
strictly on the H1 side of zero) / (1 + B), and p = 1 when the observed value itself is not
on the H1 side (or is zero). Intervals: percentile, two-sided 99 % (:func:`interval`,
``ci99_*``), and the one-sided 99 % bound that matches the one-sided test
(:func:`one_sided_bound`, ``bound99_*``: it excludes zero exactly when p < 0.01).

May import: the standard library, numpy, scipy, :mod:`pipeline.vocab` (the variant names).
"""

from __future__ import annotations

import warnings

import numpy as np

MASC, FEM = 1, -1

# Bootstrap-tested statistics: name -> H1 direction. "observed": one-sided in the direction of
# the observed sign (H1 Acc_M > Acc_F when Acc_Diff > 0, Acc_M < Acc_F when < 0); "greater":
# H1 statistic > 0 whatever is observed (I_across > I_within: a negative Delta-I never counts
# as bias).
ALTERNATIVES = {
    "acc_diff": "observed",
    "delta_i": "greater",
    "original_counterfactual": "observed",
}
INTERVAL = 0.99
SIGNIFICANCE = 0.01


def smallest_exact_p(n_units: int) -> float:
    """The smallest one-sided p-value an exact paired test (sign flips of the ``n_units``
    units) can give: 0.5 ** n. The bootstrap knows no such floor -- one quadruple drawn n
    times always gives the observed sign, p = 1 / (1 + B) -- so with fewer than 7 units
    (0.5 ** 6 = 0.016) a bootstrap p below 0.01 is an artefact and no result is marked."""
    return 0.5 ** max(0, int(n_units))


def can_be_significant(n_units: int, level: float = SIGNIFICANCE) -> bool:
    return smallest_exact_p(n_units) < level


# ------------------------------------------------------------------------------ primitives

def expected_correct(gold_a: np.ndarray, gold_b: np.ndarray, pred_a: np.ndarray | None = None,
                     pred_b: np.ndarray | None = None, a_prob: np.ndarray | None = None,
                     b_prob: np.ndarray | None = None,
                     ab_prob: np.ndarray | None = None) -> np.ndarray:
    """Per-instance (expected) correctness.

    Deterministic: 1.0 where both predicted labels equal the gold labels. Probabilistic
    (``a_prob``/``b_prob`` given): a_prob = P(A-coref TRUE), b_prob = P(B-coref TRUE),
    ab_prob = P(both TRUE) (default 0: picking A and picking B are mutually exclusive). The
    expected correctness is P(the predicted pair equals gold): a_prob - ab_prob for gold
    (TRUE, FALSE), b_prob - ab_prob for (FALSE, TRUE), 1 - a_prob - b_prob + ab_prob for
    (FALSE, FALSE) and ab_prob for (TRUE, TRUE).
    """
    gold_a = np.asarray(gold_a, dtype=bool)
    gold_b = np.asarray(gold_b, dtype=bool)
    if a_prob is not None or b_prob is not None:
        pa = np.asarray(a_prob, dtype=float)
        pb = np.asarray(b_prob, dtype=float)
        pab = np.zeros_like(pa) if ab_prob is None else np.asarray(ab_prob, dtype=float)
        return np.select([gold_a & ~gold_b, ~gold_a & gold_b, ~gold_a & ~gold_b],
                         [pa - pab, pb - pab, 1.0 - pa - pb + pab], pab)
    return ((np.asarray(pred_a, dtype=bool) == gold_a)
            & (np.asarray(pred_b, dtype=bool) == gold_b)).astype(float)


def expected_abs_diff(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """E|f(x) - f(y)| for independent Bernoulli f(x) ~ p, f(y) ~ q; equals |p - q| for 0/1."""
    return p * (1.0 - q) + q * (1.0 - p)


def resample_counts(n_units: int, resamples: int, seed: int) -> np.ndarray:
    """B x n matrix of how often each unit is drawn in each bootstrap resample (float64).

    Equivalent to drawing n unit indices with replacement per resample; depends only on
    (n_units, resamples, seed), so every system sees the same resamples.
    """
    rng = np.random.default_rng(seed)
    dtype = np.int32 if resamples * n_units < 2**31 else np.int64    # halves the memory traffic
    idx = rng.integers(0, n_units, size=(resamples, n_units), dtype=dtype)
    idx += (np.arange(resamples, dtype=dtype) * dtype(n_units))[:, None]
    counts = np.bincount(idx.ravel(), minlength=resamples * n_units)
    return counts.reshape(resamples, n_units).astype(np.float64)


def resampled_sums(columns: np.ndarray, resamples: int, seed: int,
                   chunk_elements: int = 5_000_000) -> np.ndarray:
    """(B, k) resampled column sums of ``columns`` (n x k per-unit contributions).

    The same resamples as ``resample_counts(n, resamples, seed) @ columns`` (the draws are
    taken row by row from the same generator), computed ``chunk_elements`` draws at a time so
    that memory stays bounded for large n and B.
    """
    columns = np.asarray(columns, dtype=float)
    if columns.ndim == 1:
        columns = columns[:, None]
    n = columns.shape[0]
    if n == 0:
        raise ValueError("no units to resample")
    rng = np.random.default_rng(seed)
    dtype = np.int32 if resamples * n < 2**31 else np.int64
    step = max(1, chunk_elements // n)
    out = np.empty((resamples, columns.shape[1]))
    for lo in range(0, resamples, step):
        b = min(step, resamples - lo)
        idx = rng.integers(0, n, size=(b, n), dtype=dtype)
        idx += (np.arange(b, dtype=dtype) * dtype(n))[:, None]
        counts = np.bincount(idx.ravel(), minlength=b * n).reshape(b, n).astype(np.float64)
        out[lo:lo + b] = counts @ columns
    return out


def bootstrap_ratio_differences(columns: dict[str, tuple], resamples: int, seed: int,
                                alternative: str = "observed") -> dict:
    """Paired bootstrap of differences of two ratios, num1/den1 - num2/den2, all over the same
    resamples of the units.

    ``columns``: statistic name -> (num1, den1, num2, den2), per-unit vectors of one length
    (e.g. accuracy of the masculine minus that of the feminine examples, or their weighted
    versions). Returns ``p_<name>`` (:func:`p_value`) and ``ci99_<name>`` (:func:`interval`).
    """
    names = list(columns)
    stacked = np.column_stack([np.asarray(v, dtype=float) for name in names for v in columns[name]])
    sums = resampled_sums(stacked, resamples, seed)
    totals = stacked.sum(axis=0)
    out: dict = {}
    for i, name in enumerate(names):
        a, b, c, d = (4 * i + j for j in range(4))
        observed = _ratio(totals[a], totals[b]) - _ratio(totals[c], totals[d])
        resampled = _ratio(sums[:, a], sums[:, b]) - _ratio(sums[:, c], sums[:, d])
        observed = float(observed) if np.isfinite(observed) else 0.0
        out[f"p_{name}"] = p_value(observed, resampled, alternative)
        out[f"ci99_{name}"] = interval(resampled)
        out[f"bound99_{name}"] = one_sided_bound(observed, resampled, alternative)
    return out


def bootstrap_mean(values: np.ndarray, resamples: int, seed: int,
                   alternative: str = "greater") -> dict:
    """Bootstrap of the mean of per-unit values (e.g. the pro - anti correctness difference of
    each SoWinoBias pair): ``{"p": p_value, "ci99": interval}`` under the one convention."""
    values = np.asarray(values, dtype=float)
    resampled = resampled_sums(values, resamples, seed)[:, 0] / len(values)
    observed = float(values.mean())
    return {"p": p_value(observed, resampled, alternative), "ci99": interval(resampled),
            "bound99": one_sided_bound(observed, resampled, alternative)}


def p_value(observed: float, resampled: np.ndarray, alternative: str = "observed") -> float:
    """One-sided paired bootstrap p-value: the share of resamples on the wrong side of zero.

    ``alternative`` "greater": H1 statistic > 0; "less": H1 < 0; "observed": the direction of
    the observed sign. Resamples exactly at zero (or undefined) count against H1; the estimate
    is (1 + #against) / (1 + B). An observed value on the wrong side (or zero) gives p = 1.
    """
    if alternative == "observed":
        alternative = "greater" if observed > 0 else "less" if observed < 0 else "none"
    if alternative == "greater" and observed > 0:
        against = ~(resampled > 0)
    elif alternative == "less" and observed < 0:
        against = ~(resampled < 0)
    else:
        return 1.0
    return float((1 + np.count_nonzero(against)) / (1 + resampled.size))


def one_sided_bound(observed: float, resampled: np.ndarray, alternative: str = "observed",
                    level: float = SIGNIFICANCE) -> dict:
    """The one-sided 99 % bootstrap bound that matches :func:`p_value`'s test.

    For H1 "greater" the lower bound L: the k-th smallest resample with k = ceil(level * (1 + B))
    - 1 (1-based), a resample that is NaN counting as -inf (against H1, as in :func:`p_value`);
    for "less" the upper bound, mirrored. By construction L > 0 exactly when p < ``level``
    (and the upper bound < 0 exactly when p < ``level``) whenever the observed value lies on
    H1's side (otherwise p = 1), so a result marked significant never sits beside a bound that
    includes zero. Returns ``{"side": "lower" | "upper", "bound": x}``
    (``bound`` None: too few resamples for the level, or no direction: observed zero with
    ``alternative`` "observed")."""
    if alternative == "observed":
        alternative = "greater" if observed > 0 else "less" if observed < 0 else "none"
    if alternative not in ("greater", "less"):
        return {"side": None, "bound": None}
    side = "lower" if alternative == "greater" else "upper"
    vals = np.asarray(resampled, dtype=float)
    k = int(np.ceil(round(level * (1 + vals.size), 9))) - 2        # 0-based index
    if vals.size == 0 or k < 0:
        return {"side": side, "bound": None}
    if alternative == "greater":
        b = np.sort(np.where(np.isfinite(vals), vals, -np.inf))[k]
    else:
        b = np.sort(np.where(np.isfinite(vals), vals, np.inf))[::-1][k]
    return {"side": side, "bound": float(b) if np.isfinite(b) else None}


def interval(resampled: np.ndarray, level: float = INTERVAL) -> list[float | None]:
    """Percentile bootstrap interval [lo, hi] (NaN resamples ignored)."""
    vals = resampled[np.isfinite(resampled)]
    if vals.size == 0:
        return [None, None]
    tail = (1.0 - level) / 2.0 * 100.0
    lo, hi = np.percentile(vals, [tail, 100.0 - tail])
    return [float(lo), float(hi)]


def _ratio(num, den):
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.divide(num, den)


def _f(x) -> float | None:
    x = float(x)
    return x if np.isfinite(x) else None


def spearman(x: np.ndarray, y: np.ndarray) -> float | None:
    """scipy.stats.spearmanr; None when undefined (a constant input)."""
    from scipy.stats import spearmanr

    if len(x) < 2 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _f(spearmanr(x, y).statistic)


# ------------------------------------------------------------------------- quadruple view

def quadruple_contributions(correct: np.ndarray, gender: np.ndarray) -> dict[str, np.ndarray]:
    """Per-quadruple contributions (length-Q vectors) whose sums/means give every metric.

    ``correct`` and ``gender`` are (Q, 4) in :data:`pipeline.vocab.VARIANTS`. The within pair of the
    original gender is (x_o, x_c), of the other gender (x~_o, x~_c); a quadruple is M2F when
    its original x_o is masculine.
    """
    c = np.asarray(correct, dtype=float)
    g = np.asarray(gender)
    xo, xc, to, tc = c[:, 0], c[:, 1], c[:, 2], c[:, 3]
    d = expected_abs_diff
    within_orig = d(xo, xc)
    within_cf = d(to, tc)
    across = (d(xo, to) + d(xc, tc) + d(xo, tc) + d(xc, to)) / 4.0
    within = (within_orig + within_cf) / 2.0
    orig_m = g[:, 0] == MASC
    is_m = g == MASC
    is_f = g == FEM
    return {
        "correct_m": (c * is_m).sum(axis=1), "n_m": is_m.sum(axis=1).astype(float),
        "correct_f": (c * is_f).sum(axis=1), "n_f": is_f.sum(axis=1).astype(float),
        "correct": c.sum(axis=1),
        "within": within,
        "within_m": np.where(orig_m, within_orig, within_cf),
        "within_f": np.where(orig_m, within_cf, within_orig),
        "across": across,
        "m2f": orig_m.astype(float), "f2m": (~orig_m).astype(float),
        "across_m2f": across * orig_m, "across_f2m": across * ~orig_m,
        "delta_i": across - within,
        "original": (xo + xc) / 2.0, "counterfactual": (to + tc) / 2.0,
        "gap_m": xo * orig_m, "gap_f": xo * ~orig_m,
        "gap_correct": xo,
    }


def quadruple_point(contrib: dict[str, np.ndarray], original_gender: np.ndarray) -> dict:
    """Point estimates (fractions) from :func:`quadruple_contributions`."""
    s = {k: float(v.sum()) for k, v in contrib.items()}
    q = len(contrib["within"])
    acc_m = _ratio(s["correct_m"], s["n_m"])
    acc_f = _ratio(s["correct_f"], s["n_f"])
    i_within = s["within"] / q
    i_across = s["across"] / q
    acc_original = s["original"] / q
    acc_counterfactual = s["counterfactual"] / q
    gap_m = _ratio(s["gap_m"], s["m2f"])
    gap_f = _ratio(s["gap_f"], s["f2m"])
    return {
        "n_quadruples": q,
        "n_instances": 4 * q,
        "acc_m": _f(acc_m), "acc_f": _f(acc_f), "acc_diff": _f(acc_m - acc_f),
        "i_within": _f(i_within),
        "i_within_m": _f(s["within_m"] / q), "i_within_f": _f(s["within_f"] / q),
        "i_across": _f(i_across),
        "i_across_m2f": _f(_ratio(s["across_m2f"], s["m2f"])),
        "i_across_f2m": _f(_ratio(s["across_f2m"], s["f2m"])),
        "delta_i": _f(i_across - i_within),
        "acc_overall": _f(s["correct"] / (4 * q)),
        "acc_original": _f(acc_original), "acc_counterfactual": _f(acc_counterfactual),
        "original_counterfactual_diff": _f(acc_original - acc_counterfactual),
        "spearman_rho": spearman(contrib["across"], np.asarray(original_gender, dtype=float)),
        "gap_acc_m": _f(gap_m), "gap_acc_f": _f(gap_f), "gap_acc_diff": _f(gap_m - gap_f),
        "gap_acc_overall": _f(s["gap_correct"] / q),
        "gap_acc_bias": _f(_ratio(gap_f, gap_m)),
    }


# columns each tested statistic needs, and how to compute it from resampled column sums
def _stat_acc_diff(S: dict[str, np.ndarray], n: int) -> np.ndarray:
    return _ratio(S["correct_m"], S["n_m"]) - _ratio(S["correct_f"], S["n_f"])


def _stat_mean(key: str):
    return lambda S, n: S[key] / n


# tested statistic -> (contribution columns, resampled statistic, key of its point estimate);
# reported as p_<statistic> and ci99_<statistic>
_QUAD_STATS = {
    "acc_diff": (("correct_m", "n_m", "correct_f", "n_f"), _stat_acc_diff, "acc_diff"),
    "delta_i": (("delta_i",), _stat_mean("delta_i"), "delta_i"),
    "original_counterfactual": (("orig_minus_cf",), _stat_mean("orig_minus_cf"),
                                "original_counterfactual_diff"),
}
_GAP_STATS = {
    "acc_diff": (("correct_m", "n_m", "correct_f", "n_f"), _stat_acc_diff, "acc_diff"),
}


def _bootstrap(contribs: dict[str, dict[str, np.ndarray]], points: dict[str, dict],
               stats: dict, counts: np.ndarray) -> dict[str, dict]:
    """Resampled statistics for every system in one matrix product; p-values and intervals."""
    columns, where = [], {}
    for system, contrib in contribs.items():
        for stat, (keys, _, _) in stats.items():
            for key in keys:
                if (system, key) not in where:
                    where[(system, key)] = len(columns)
                    columns.append(contrib[key])
    if not columns:
        return {s: {} for s in contribs}
    sums = counts @ np.column_stack(columns)          # (B, k): every resampled column sum
    n_units = counts.shape[1]
    out: dict[str, dict] = {}
    for system in contribs:
        res: dict = {}
        for stat, (keys, fn, point_key) in stats.items():
            S = {key: sums[:, where[(system, key)]] for key in keys}
            resampled = fn(S, n_units)
            observed = points[system][point_key]
            observed = 0.0 if observed is None else observed
            res[f"p_{stat}"] = p_value(observed, resampled, ALTERNATIVES[stat])
            res[f"ci99_{stat}"] = interval(resampled)
            res[f"bound99_{stat}"] = one_sided_bound(observed, resampled, ALTERNATIVES[stat])
        out[system] = res
    return out


def evaluate_quadruples(correct_by_system: dict[str, np.ndarray], gender: np.ndarray,
                        resamples: int = 10_000, seed: int = 0,
                        counts: np.ndarray | None = None) -> dict[str, dict]:
    """All Counter-GAP metrics for several systems on one quadruple dataset.

    ``correct_by_system[name]`` and ``gender`` are (Q, 4) arrays (see module doc). Returns
    {system: metrics} with fractions, p-values (one-sided paired bootstrap over quadruples)
    and 99 % percentile intervals of the tested statistics.
    """
    gender = np.asarray(gender)
    q = gender.shape[0]
    if q == 0:
        raise ValueError("no quadruples")
    if counts is None and resamples > 0:
        counts = resample_counts(q, resamples, seed)
    contribs, points = {}, {}
    for system, correct in correct_by_system.items():
        contrib = quadruple_contributions(correct, gender)
        contrib["orig_minus_cf"] = contrib["original"] - contrib["counterfactual"]
        contribs[system] = contrib
        points[system] = quadruple_point(contrib, gender[:, 0])
    boot = (_bootstrap(contribs, points, _QUAD_STATS, counts) if counts is not None
            else {s: {} for s in contribs})
    results = {}
    for system in correct_by_system:
        results[system] = {**points[system], **boot[system],
                           "resamples": 0 if counts is None else int(counts.shape[0]),
                           "seed": seed, "testable": can_be_significant(q)}
    return results


# ------------------------------------------------------------------------------ GAP view

def gap_contributions(correct: np.ndarray, gender: np.ndarray) -> dict[str, np.ndarray]:
    c = np.asarray(correct, dtype=float)
    g = np.asarray(gender)
    return {"correct_m": c * (g == MASC), "n_m": (g == MASC).astype(float),
            "correct_f": c * (g == FEM), "n_f": (g == FEM).astype(float), "correct": c}


def gap_point(contrib: dict[str, np.ndarray]) -> dict:
    s = {k: float(v.sum()) for k, v in contrib.items()}
    n = len(contrib["correct"])
    acc_m = _ratio(s["correct_m"], s["n_m"])
    acc_f = _ratio(s["correct_f"], s["n_f"])
    return {"n_instances": n, "acc_m": _f(acc_m), "acc_f": _f(acc_f),
            "acc_diff": _f(acc_m - acc_f), "acc_overall": _f(s["correct"] / n),
            "acc_bias": _f(_ratio(acc_f, acc_m))}


def evaluate_gap(correct_by_system: dict[str, np.ndarray], gender: np.ndarray,
                 resamples: int = 10_000, seed: int = 0,
                 counts: np.ndarray | None = None) -> dict[str, dict]:
    """GAP-style view of a dataset without quadruples: Acc_M, Acc_F, Acc_Diff, overall and
    the GAP bias ratio acc_f / acc_m; Acc_Diff tested by paired bootstrap over instances."""
    gender = np.asarray(gender)
    n = gender.shape[0]
    if n == 0:
        raise ValueError("no instances")
    if counts is None and resamples > 0:
        counts = resample_counts(n, resamples, seed)
    contribs = {s: gap_contributions(c, gender) for s, c in correct_by_system.items()}
    points = {s: gap_point(c) for s, c in contribs.items()}
    boot = (_bootstrap(contribs, points, _GAP_STATS, counts) if counts is not None
            else {s: {} for s in contribs})
    return {s: {**points[s], **boot[s],
                "resamples": 0 if counts is None else int(counts.shape[0]), "seed": seed,
                "testable": can_be_significant(n)}
            for s in correct_by_system}


# ------------------------------------------------------------------ without gold labels

ANSWERS = ("A", "B", "both", "neither")          # answer codes 0..3; -1: unanswered
UNANSWERED = -1
NEED_GOLD = ("Acc_M", "Acc_F", "Acc_Diff", "overall accuracy", "orig / counter accuracy",
             "our-GAP M / F / overall")


def answer_codes(a_coref: np.ndarray, b_coref: np.ndarray, answered: np.ndarray) -> np.ndarray:
    """Answer code per row: 0 A, 1 B, 2 both, 3 neither (:data:`ANSWERS`), -1 unanswered."""
    a = np.asarray(a_coref, dtype=bool)
    b = np.asarray(b_coref, dtype=bool)
    code = np.select([a & b, a, b], [2, 0, 1], 3)
    return np.where(np.asarray(answered, dtype=bool), code, UNANSWERED)


def disagreement_contributions(answers: np.ndarray, gender: np.ndarray) -> dict[str, np.ndarray]:
    """Per-quadruple inconsistency of a system's answers, no gold needed.

    ``answers``: (Q, 4) answer codes in :data:`pipeline.vocab.VARIANTS` order, all answered.
    The inconsistency of two variants is 1 when the system's answers (A, B, both, neither)
    differ, else 0; the pairs are those of :func:`quadruple_contributions` (within: x_o/x_c
    and x~_o/x~_c; across: the four pairs of one original-gender and one swapped variant).
    The four variants of a quadruple share one gold label by construction, so a pair the
    labelled I counts (one right, one wrong) always differs in answer; answer disagreement
    also counts a pair wrong in two different ways, which the labelled figure does not.
    """
    x = np.asarray(answers)
    g = np.asarray(gender)
    d = lambda i, j: (x[:, i] != x[:, j]).astype(float)       # noqa: E731
    within_orig, within_cf = d(0, 1), d(2, 3)
    across = (d(0, 2) + d(1, 3) + d(0, 3) + d(1, 2)) / 4.0
    within = (within_orig + within_cf) / 2.0
    orig_m = g[:, 0] == MASC
    return {"within": within, "within_m": np.where(orig_m, within_orig, within_cf),
            "within_f": np.where(orig_m, within_cf, within_orig), "across": across,
            "m2f": orig_m.astype(float), "f2m": (~orig_m).astype(float),
            "across_m2f": across * orig_m, "across_f2m": across * ~orig_m,
            "delta_i": across - within}


def answer_distribution(codes: np.ndarray) -> dict:
    """Shares of A / B / both / neither among answered rows, the counts, and unanswered rows."""
    codes = np.asarray(codes).ravel()
    answered = codes[codes != UNANSWERED]
    n = answered.size
    return {"n": int(codes.size), "n_answered": int(n), "n_unanswered": int(codes.size - n),
            **{k: (float(np.count_nonzero(answered == i)) / n if n else None) for i, k in enumerate(ANSWERS)}}


def evaluate_unlabelled(answers_by_system: dict[str, np.ndarray], gender: np.ndarray,
                        resamples: int = 10_000, seed: int = 0) -> dict[str, dict]:
    """Counter-GAP figures that need no gold labels, for several systems on one quadruple set.

    ``answers_by_system[name]``: (Q, 4) answer codes (:func:`answer_codes`), ``gender``: (Q, 4)
    +1/-1. Per system: I_within (M / F), I_across (M2F / F2M) and Delta-I on the quadruples
    whose four variants the system answered (a quadruple with an unanswered variant is left
    out and counted, ``n_quadruples_unanswered``), Delta-I tested as in the labelled view
    (one-sided paired bootstrap over those quadruples, H1 I_across > I_within; ``p_delta_i``,
    ``ci99_delta_i``, ``bound99_delta_i``), Spearman's rho of across-inconsistency and the
    original gender, and the answer distributions per variant and per pronoun gender. The
    figures that need labels are named in ``need_gold``.
    """
    from pipeline.vocab import VARIANTS

    gender = np.asarray(gender)
    q_all = gender.shape[0]
    if q_all == 0:
        raise ValueError("no quadruples")
    results = {}
    for system, codes in answers_by_system.items():
        codes = np.asarray(codes)
        full = (codes != UNANSWERED).all(axis=1)
        q = int(full.sum())
        res: dict = {"labelled": False, "n_quadruples": q_all, "n_instances": 4 * q_all,
                     "n_quadruples_scored": q, "n_quadruples_unanswered": q_all - q,
                     "answers_by_variant": {v: answer_distribution(codes[:, i]) for i, v in enumerate(VARIANTS)},
                     "answers_by_gender": {name: answer_distribution(codes[gender == sign])
                                           for name, sign in (("masculine", MASC), ("feminine", FEM))},
                     "need_gold": list(NEED_GOLD), "resamples": 0, "seed": seed,
                     "testable": can_be_significant(q)}
        keys = ("i_within", "i_within_m", "i_within_f", "i_across", "i_across_m2f", "i_across_f2m",
                "delta_i", "spearman_rho")
        if q == 0:
            res.update({k: None for k in keys})
            results[system] = res
            continue
        c = disagreement_contributions(codes[full], gender[full])
        s = {k: float(v.sum()) for k, v in c.items()}
        res.update({
            "i_within": _f(s["within"] / q), "i_within_m": _f(s["within_m"] / q),
            "i_within_f": _f(s["within_f"] / q), "i_across": _f(s["across"] / q),
            "i_across_m2f": _f(_ratio(s["across_m2f"], s["m2f"])),
            "i_across_f2m": _f(_ratio(s["across_f2m"], s["f2m"])),
            "delta_i": _f((s["across"] - s["within"]) / q),
            "spearman_rho": spearman(c["across"], gender[full][:, 0].astype(float))})
        if resamples > 0:
            counts = resample_counts(q, resamples, seed)
            res.update(_bootstrap({system: c}, {system: res},
                                  {"delta_i": _QUAD_STATS["delta_i"]}, counts)[system])
            res["resamples"] = int(resamples)
        results[system] = res
    return results
