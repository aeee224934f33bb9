"""The one-sided 99 % bound matches the one-sided test: a star never sits beside a bound that
includes zero (issue 46, item 5)."""

from __future__ import annotations

import numpy as np
import pytest

from pipeline.core.metrics import SIGNIFICANCE, evaluate_quadruples, interval, one_sided_bound, p_value


def bound_excludes_zero(bound: dict | None) -> bool:
    """The one-sided bound of :func:`one_sided_bound` lies strictly on H1's side of zero."""
    if not bound or bound.get("bound") is None:
        return False
    return bound["bound"] > 0 if bound["side"] == "lower" else bound["bound"] < 0


@pytest.mark.parametrize("resamples", [99, 100, 999, 1000, 9999, 10_000])
@pytest.mark.parametrize("alternative", ["observed", "greater"])
def test_bound_excludes_zero_exactly_when_p_below_001(resamples, alternative):
    rng = np.random.default_rng(resamples)
    for trial in range(300):
        shift = rng.uniform(-0.5, 3.5)
        vals = rng.normal(shift, 1.0, resamples)
        vals[rng.random(resamples) < 0.002] = np.nan          # undefined resamples count against H1
        if trial % 7 == 0:
            vals = np.round(vals)                               # ties at zero
        observed = float(np.nanmean(vals)) * (1 if trial % 5 else -1)
        p = p_value(observed, vals, alternative)
        b = one_sided_bound(observed, vals, alternative)
        on_side = observed > 0 or (alternative == "observed" and observed < 0)
        if on_side:
            assert bound_excludes_zero(b) == (p < SIGNIFICANCE), (trial, p, b)
        else:
            assert p == 1.0


def test_bound_side_and_the_k_th_resample():
    vals = np.arange(1, 10_001, dtype=float) - 50.5     # 50 values below zero
    b = one_sided_bound(1.0, vals, "greater")
    # k = ceil(0.01 * 10001) - 1 = 100th smallest (1-based)
    assert b == {"side": "lower", "bound": 49.5}
    assert p_value(1.0, vals, "greater") == pytest.approx(51 / 10_001)
    down = one_sided_bound(-1.0, -vals, "observed")
    assert down == {"side": "upper", "bound": -49.5}
    assert one_sided_bound(0.0, vals, "observed") == {"side": None, "bound": None}
    assert one_sided_bound(1.0, vals[:50], "greater")["bound"] is None     # too few resamples


def test_the_issue_case_star_with_two_sided_interval_crossing_zero():
    # a one-sided p of ~0.007 with a two-sided 99 % interval reaching below zero: the one-sided
    # bound (1st percentile) is above zero, the two-sided one (0.5th) is not
    rng = np.random.default_rng(1)
    vals = rng.normal(2.3, 0.94, 10_000)
    p = p_value(2.3, vals, "observed")
    lo, hi = interval(vals)
    b = one_sided_bound(2.3, vals, "observed")
    assert p < 0.01 and lo < 0 < hi
    assert b["side"] == "lower" and b["bound"] > 0 and bound_excludes_zero(b)


def test_evaluate_quadruples_reports_the_bounds():
    rng = np.random.default_rng(0)
    q = 40
    gender = np.tile([1, 1, -1, -1], (q, 1)) * np.where(np.arange(q) % 2, 1, -1)[:, None]
    correct = (rng.random((q, 4)) < 0.7).astype(float)
    res = evaluate_quadruples({"s": correct}, gender, 2000, 0)["s"]
    for stat in ("acc_diff", "delta_i", "original_counterfactual"):
        b = res[f"bound99_{stat}"]
        assert b["side"] in ("lower", "upper", None)
        if res[f"p_{stat}"] < 0.01:
            assert bound_excludes_zero(b)
        elif b["side"] is not None:
            assert not bound_excludes_zero(b)
