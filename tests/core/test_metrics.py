"""The pure metric core (pipeline.core.metrics): hand-computed fixtures and property tests."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import metrics as M

# Three quadruples, columns x_o, x_c, x~_o, x~_c. q1 and q3 have a masculine original.
CORRECT = np.array([[1, 0, 1, 1],
                    [1, 1, 0, 1],
                    [0, 0, 1, 1]], dtype=float)
ORIG = np.array([1, -1, 1])


def genders(orig):
    orig = np.asarray(orig)
    return np.column_stack([orig, orig, -orig, -orig])


def point(correct, orig):
    return M.evaluate_quadruples({"s": correct}, genders(orig), resamples=0)["s"]


def test_hand_computed_quadruple_metrics():
    m = point(CORRECT, ORIG)
    # masculine instances: q1 (x_o, x_c) = 1, 0; q2 (x~_o, x~_c) = 0, 1; q3 (x_o, x_c) = 0, 0
    assert m["acc_m"] == pytest.approx(2 / 6)
    assert m["acc_f"] == pytest.approx(6 / 6)
    assert m["acc_diff"] == pytest.approx(2 / 6 - 1)
    # within pairs: q1 |1-0| + |1-1|; q2 |1-1| + |0-1|; q3 0 + 0  -> 2 / (2 * 3)
    assert m["i_within"] == pytest.approx(2 / 6)
    assert m["i_within_m"] == pytest.approx(2 / 3)     # q1 (x_o,x_c), q2 (x~_o,x~_c)
    assert m["i_within_f"] == pytest.approx(0.0)
    # across: q1 (0 + 1 + 0 + 1)/4, q2 (1 + 0 + 0 + 1)/4, q3 (1 + 1 + 1 + 1)/4
    assert m["i_across"] == pytest.approx((0.5 + 0.5 + 1.0) / 3)
    assert m["i_across_m2f"] == pytest.approx((0.5 + 1.0) / 2)
    assert m["i_across_f2m"] == pytest.approx(0.5)
    assert m["delta_i"] == pytest.approx(2 / 3 - 1 / 3)
    assert m["acc_overall"] == pytest.approx(8 / 12)
    assert m["acc_original"] == pytest.approx(3 / 6)
    assert m["acc_counterfactual"] == pytest.approx(5 / 6)
    assert m["original_counterfactual_diff"] == pytest.approx(-2 / 6)
    # our-GAP: x_o alone, q1 and q3 masculine (1, 0), q2 feminine (1)
    assert m["gap_acc_m"] == pytest.approx(0.5)
    assert m["gap_acc_f"] == pytest.approx(1.0)
    assert m["gap_acc_overall"] == pytest.approx(2 / 3)
    # Spearman of across (0.5, 0.5, 1) with gender (+1, -1, +1): ranks (1.5, 1.5, 3), (2.5, 1, 2.5)
    assert m["spearman_rho"] == pytest.approx(0.75 / 1.5)
    assert m["n_quadruples"] == 3 and m["n_instances"] == 12


def test_expected_correct_deterministic_and_probabilistic():
    ga = np.array([True, False, False, True])
    gb = np.array([False, True, False, True])
    pred_a = np.array([True, True, False, True])
    pred_b = np.array([False, True, False, True])
    assert M.expected_correct(ga, gb, pred_a, pred_b).tolist() == [1, 0, 1, 1]
    pa = np.array([0.3, 0.1, 0.2, 0.5])
    pb = np.array([0.4, 0.6, 0.5, 0.5])
    got = M.expected_correct(ga, gb, a_prob=pa, b_prob=pb)
    assert got == pytest.approx([0.3, 0.6, 1 - 0.2 - 0.5, 0.0])


def test_expected_abs_diff():
    assert M.expected_abs_diff(np.array(0.3), np.array(0.6)) == pytest.approx(0.3 * 0.4 + 0.6 * 0.7)
    for p, q in itertools.product([0.0, 1.0], repeat=2):
        assert M.expected_abs_diff(np.array(p), np.array(q)) == abs(p - q)


def test_gap_view_hand_computed():
    correct = np.array([1, 0, 1, 1, 0])
    gender = np.array([1, 1, -1, -1, -1])
    m = M.evaluate_gap({"s": correct}, gender, resamples=0)["s"]
    assert m["acc_m"] == pytest.approx(0.5)
    assert m["acc_f"] == pytest.approx(2 / 3)
    assert m["acc_diff"] == pytest.approx(0.5 - 2 / 3)
    assert m["acc_overall"] == pytest.approx(3 / 5)
    assert m["acc_bias"] == pytest.approx((2 / 3) / 0.5)


def test_p_value_rules():
    res = np.array([0.5, -0.1, 0.0, 0.2])
    assert M.p_value(0.3, res, "observed") == pytest.approx((1 + 2) / 5)   # -0.1 and 0.0 against
    assert M.p_value(-0.3, res, "observed") == pytest.approx((1 + 3) / 5)  # 0.5, 0.0, 0.2 against
    assert M.p_value(0.3, res, "greater") == pytest.approx(3 / 5)
    assert M.p_value(-0.3, res, "greater") == 1.0      # observed on the wrong side
    assert M.p_value(0.0, res, "observed") == 1.0
    assert M.p_value(0.3, np.full(99, 0.1), "greater") == pytest.approx(1 / 100)


def test_resample_counts_shape_and_determinism():
    k = M.resample_counts(7, 50, seed=3)
    assert k.shape == (50, 7)
    assert (k.sum(axis=1) == 7).all()
    assert np.array_equal(k, M.resample_counts(7, 50, seed=3))
    assert not np.array_equal(k, M.resample_counts(7, 50, seed=4))


def test_interval_is_percentile():
    vals = np.arange(1001, dtype=float)
    lo, hi = M.interval(vals, 0.99)
    assert lo == pytest.approx(5.0) and hi == pytest.approx(995.0)


def _naive_resampled(correct, orig, counts):
    """Statistics of each resample by literally rebuilding the resampled dataset."""
    out = {"acc_diff": [], "delta_i": [], "original_counterfactual_diff": []}
    for row in counts:
        idx = np.repeat(np.arange(len(orig)), row.astype(int))
        m = point(correct[idx], orig[idx])
        for k in out:
            out[k].append(m[k])
    return {k: np.array(v) for k, v in out.items()}


@pytest.mark.slow
def test_vectorised_bootstrap_matches_naive_loop():
    rng = np.random.default_rng(11)
    q = 25
    correct = (rng.random((q, 4)) < 0.6).astype(float)
    orig = rng.choice([1, -1], size=q)
    counts = M.resample_counts(q, 300, seed=5)
    got = M.evaluate_quadruples({"s": correct}, genders(orig), counts=counts)["s"]
    naive = _naive_resampled(correct, orig, counts)
    for stat, key in (("acc_diff", "acc_diff"), ("delta_i", "delta_i"),
                      ("original_counterfactual", "original_counterfactual_diff")):
        expected_p = M.p_value(got[key], naive[key], M.ALTERNATIVES[stat])
        assert got[f"p_{stat}"] == pytest.approx(expected_p)
        assert got[f"ci99_{stat}"] == pytest.approx(M.interval(naive[key]))


def test_systems_do_not_influence_each_other():
    rng = np.random.default_rng(2)
    a = (rng.random((30, 4)) < 0.5).astype(float)
    b = (rng.random((30, 4)) < 0.7).astype(float)
    g = genders(rng.choice([1, -1], size=30))
    alone = M.evaluate_quadruples({"a": a}, g, resamples=500, seed=1)["a"]
    both = M.evaluate_quadruples({"a": a, "b": b}, g, resamples=500, seed=1)["a"]
    assert alone == both


# ------------------------------------------------------------------------ properties

quads = st.integers(min_value=2, max_value=12).flatmap(lambda q: st.tuples(
    st.lists(st.lists(st.sampled_from([0.0, 1.0]), min_size=4, max_size=4), min_size=q, max_size=q),
    st.lists(st.sampled_from([1, -1]), min_size=q, max_size=q)))
prob_quads = st.integers(min_value=1, max_value=8).flatmap(lambda q: st.tuples(
    st.lists(st.lists(st.floats(0, 1), min_size=4, max_size=4), min_size=q, max_size=q),
    st.lists(st.sampled_from([1, -1]), min_size=q, max_size=q)))

POINT_KEYS = ["acc_m", "acc_f", "acc_diff", "i_within", "i_within_m", "i_within_f", "i_across",
              "i_across_m2f", "i_across_f2m", "delta_i", "acc_overall", "acc_original",
              "acc_counterfactual", "spearman_rho", "gap_acc_m", "gap_acc_f", "gap_acc_overall"]


def _close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return a == pytest.approx(b, abs=1e-12)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(quads, st.randoms(use_true_random=False))
def test_invariant_under_permuting_quadruples(data, rnd):
    correct, orig = np.array(data[0]), np.array(data[1])
    perm = list(range(len(orig)))
    rnd.shuffle(perm)
    a, b = point(correct, orig), point(correct[perm], orig[perm])
    for k in POINT_KEYS:
        assert _close(a[k], b[k]), k


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(prob_quads)
def test_decompositions(data):
    correct, orig = np.array(data[0]), np.array(data[1])
    m = point(correct, orig)
    q = len(orig)
    assert m["i_within"] == pytest.approx((m["i_within_m"] + m["i_within_f"]) / 2)
    n_m2f = int((orig == 1).sum())
    parts = (n_m2f * (m["i_across_m2f"] or 0) + (q - n_m2f) * (m["i_across_f2m"] or 0)) / q
    assert m["i_across"] == pytest.approx(parts)
    assert m["delta_i"] == pytest.approx(m["i_across"] - m["i_within"])
    assert m["acc_overall"] == pytest.approx((m["acc_original"] + m["acc_counterfactual"]) / 2)
    assert m["acc_overall"] == pytest.approx((m["acc_m"] + m["acc_f"]) / 2)   # 2 M + 2 F each
    for k in POINT_KEYS:
        if k != "spearman_rho" and m[k] is not None:
            assert -1 - 1e-12 <= m[k] <= 1 + 1e-12


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=2, max_size=10), st.lists(st.sampled_from([1, -1]), min_size=10,
                                                                      max_size=10))
def test_gender_blind_system_has_no_inconsistency(per_quad, orig):
    """Same correctness on all four variants (deterministic) -> zero inconsistency, rho undefined."""
    correct = np.repeat(np.round(np.array(per_quad))[:, None], 4, axis=1)
    m = point(correct, np.array(orig[:len(per_quad)]))
    assert m["i_within"] == 0 and m["i_across"] == 0 and m["delta_i"] == 0
    assert m["acc_diff"] == pytest.approx(0.0)
    assert m["spearman_rho"] is None


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(quads)
def test_flipping_every_gender_mirrors_the_metrics(data):
    correct, orig = np.array(data[0]), np.array(data[1])
    a, b = point(correct, orig), point(correct, -orig)
    for x, y in (("acc_m", "acc_f"), ("i_within_m", "i_within_f"), ("i_across_m2f", "i_across_f2m"),
                 ("gap_acc_m", "gap_acc_f")):
        assert _close(a[x], b[y]) and _close(a[y], b[x])
    for k in ("i_within", "i_across", "delta_i", "acc_overall", "acc_original"):
        assert _close(a[k], b[k]), k
    assert _close(a["acc_diff"], None if b["acc_diff"] is None else -b["acc_diff"])
    assert _close(a["spearman_rho"], None if b["spearman_rho"] is None else -b["spearman_rho"])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(quads)
def test_taking_the_swap_as_original(data):
    """Reading each quadruple from its counterfactual side keeps every instance's gender."""
    correct, orig = np.array(data[0]), np.array(data[1])
    a, b = point(correct, orig), point(correct[:, [2, 3, 0, 1]], -orig)
    for k in ("acc_m", "acc_f", "acc_diff", "i_within", "i_within_m", "i_within_f", "i_across",
              "delta_i", "acc_overall"):
        assert _close(a[k], b[k]), k
    for x, y in (("i_across_m2f", "i_across_f2m"), ("acc_original", "acc_counterfactual")):
        assert _close(a[x], b[y]) and _close(a[y], b[x])


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.lists(st.floats(0, 1), min_size=4, max_size=4), st.sampled_from([1, -1]))
def test_expected_scores_equal_the_average_over_all_draws(probs, orig):
    """Metric of expected correctness == exact mean of the metric over every joint outcome."""
    p = np.array(probs)
    expected = point(p[None, :], np.array([orig]))
    keys = ["acc_m", "acc_f", "i_within", "i_within_m", "i_within_f", "i_across", "delta_i",
            "acc_overall", "acc_original", "acc_counterfactual"]
    total = dict.fromkeys(keys, 0.0)
    for outcome in itertools.product([0.0, 1.0], repeat=4):
        o = np.array(outcome)
        weight = float(np.prod(np.where(o == 1, p, 1 - p)))
        m = point(o[None, :], np.array([orig]))
        for k in keys:
            total[k] += weight * m[k]
    for k in keys:
        assert expected[k] == pytest.approx(total[k], abs=1e-9), k


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(quads)
def test_probabilities_of_zero_and_one_reduce_to_deterministic(data):
    correct = np.array(data[0])
    ga = np.ones(correct.size, dtype=bool)
    gb = np.zeros(correct.size, dtype=bool)
    flat = correct.ravel().astype(bool)
    det = M.expected_correct(ga, gb, flat, ~flat)
    prob = M.expected_correct(ga, gb, a_prob=flat.astype(float), b_prob=(~flat).astype(float))
    assert np.array_equal(det, prob)
    assert np.array_equal(det.reshape(correct.shape), correct)


# ------------------------------------------------------------------ the one bootstrap, chunked

def test_resampled_sums_are_the_count_matrix_resamples_in_chunks():
    cols = np.random.default_rng(1).random((37, 3))
    full = M.resample_counts(37, 120, 5) @ cols
    for chunk in (37, 100, 37 * 7, 10**9):          # one row, a few rows, everything at once
        assert np.allclose(M.resampled_sums(cols, 120, 5, chunk_elements=chunk), full)


def test_bootstrap_mean_follows_the_p_value_convention():
    # every value positive: no resample is on the wrong side -> p = 1 / (B + 1)
    assert M.bootstrap_mean(np.ones(8), 99, 0)["p"] == pytest.approx(1 / 100)
    # observed mean 0 or negative under H1 "greater": p = 1
    assert M.bootstrap_mean(np.array([1, -1, 0, 0]), 99, 0)["p"] == 1.0
    assert M.bootstrap_mean(-np.ones(5), 99, 0)["p"] == 1.0
    # the count of resamples not > 0, by hand from the same draws
    values = np.array([1.0, -1.0, 1.0, 0.0, 1.0, -1.0, 1.0])
    sums = M.resample_counts(len(values), 300, 3) @ values
    expected = (1 + np.count_nonzero(~(sums > 0))) / 301
    assert M.bootstrap_mean(values, 300, 3)["p"] == pytest.approx(expected)


def test_bootstrap_ratio_differences_hand_case():
    # 3 masculine right, 3 feminine wrong: acc_m - acc_f = 1 where defined
    right = np.array([1.0, 1, 1, 0, 0, 0])
    male = np.array([1.0, 1, 1, 0, 0, 0])
    out = M.bootstrap_ratio_differences({"d": (right * male, male, right * (1 - male), 1 - male)}, 500, 2)
    counts = M.resample_counts(6, 500, 2)
    undefined = np.count_nonzero((counts @ male == 0) | (counts @ (1 - male) == 0))
    assert out["p_d"] == pytest.approx((1 + undefined) / 501)
    assert out["ci99_d"] == [1.0, 1.0]


def test_no_test_can_reach_one_percent_below_seven_units():
    """A one-quadruple dataset got p = 1/(B+1) from the bootstrap; an exact paired test over n
    units cannot go below 0.5^n, so fewer than 7 units are never 'significant'."""
    from pipeline.core.metrics import can_be_significant, evaluate_quadruples, smallest_exact_p

    assert smallest_exact_p(6) > 0.01 > smallest_exact_p(7)
    assert not can_be_significant(1) and can_be_significant(7)
    correct = np.array([[1.0, 1.0, 0.0, 0.0]])
    gender = np.array([[1, 1, -1, -1]])
    res = evaluate_quadruples({"s": correct}, gender, resamples=200, seed=0)["s"]
    assert res["p_acc_diff"] < 0.01 and res["testable"] is False      # the artefact, flagged
    from pipeline.report.evaluation import _mark, untestable_note

    assert _mark(res, "acc_diff") == "" and "0.5^1" in untestable_note(res)


# ------------------------------------------------------------------ without gold labels

def test_unlabelled_inconsistency_equals_labelled_when_no_pair_is_wrong_two_ways():
    """Gold A everywhere and answers A or B only: a pair differs in answer exactly when one is
    right and one wrong, so the unlabelled figures equal the labelled ones; with a third answer
    (neither) the unlabelled ones can only be larger."""
    from pipeline.core.metrics import answer_codes, evaluate_quadruples, evaluate_unlabelled

    rng = np.random.default_rng(5)
    q = 50
    gender = np.tile([1, 1, -1, -1], (q, 1)) * np.where(np.arange(q) % 3, 1, -1)[:, None]
    says_a = rng.random((q, 4)) < 0.6
    codes = answer_codes(says_a, ~says_a, np.ones((q, 4), bool))
    lab = evaluate_quadruples({"s": says_a.astype(float)}, gender, 500, 0)["s"]
    unl = evaluate_unlabelled({"s": codes}, gender, 500, 0)["s"]
    for k in ("i_within", "i_within_m", "i_within_f", "i_across", "i_across_m2f", "i_across_f2m", "delta_i"):
        assert unl[k] == pytest.approx(lab[k]), k
    assert unl["p_delta_i"] == pytest.approx(lab["p_delta_i"])     # same resamples, same statistic
    neither = np.where(~says_a & (rng.random((q, 4)) < 0.5), 3, codes)
    more = evaluate_unlabelled({"s": neither}, gender, 0, 0)["s"]
    assert more["i_within"] >= lab["i_within"] and more["i_across"] >= lab["i_across"]
    assert more["resamples"] == 0 and "p_delta_i" not in more


def test_unlabelled_leaves_out_quadruples_with_an_unanswered_variant():
    from pipeline.core.metrics import UNANSWERED, evaluate_unlabelled

    gender = np.array([[1, 1, -1, -1], [-1, -1, 1, 1]])
    codes = np.array([[0, 0, 1, 1], [0, UNANSWERED, 0, 0]])
    m = evaluate_unlabelled({"s": codes}, gender, 0, 0)["s"]
    assert (m["n_quadruples_scored"], m["n_quadruples_unanswered"]) == (1, 1)
    assert (m["i_within"], m["i_across"], m["delta_i"]) == (0.0, 1.0, 1.0)
    assert m["answers_by_variant"]["control"]["n_unanswered"] == 1
    none = evaluate_unlabelled({"s": np.full((2, 4), UNANSWERED)}, gender, 100, 0)["s"]
    assert none["n_quadruples_scored"] == 0 and none["delta_i"] is None
