"""LP test-set weights (The Gap on GAP) and the weighted bias scores."""

from __future__ import annotations

import itertools
import json

import pandas as pd
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pipeline.core import weights as W
from pipeline.errors import InputError
from pipeline.formats.weights import read_weights
from tests.stages.gap_fixtures import gap_test_features, toy_spans, write_toy_gap

M, F = "masculine", "feminine"


class Feat:
    def __init__(self, id, gender, n_names, rank, correct="A"):
        self.id, self.gender, self.n_names, self.rank, self.correct = id, gender, n_names, rank, correct


def items_of(spec):
    """[(group, {labels}), ...] -> Items with ids 0.."""
    return [W.Item(str(i), g, frozenset(s)) for i, (g, s) in enumerate(spec)]


def brute_objective(items, weights):
    return sum(max(weights[a.id], weights[b.id])
               for a, b in itertools.combinations(items, 2) if a.group == b.group)


def check_constraints(items, weights, n_total):
    total = sum(weights[it.id] for it in items)
    assert total == pytest.approx(n_total, abs=1e-6)
    side = {M: 0.0, F: 0.0}
    for it in items:
        side[it.group] += weights[it.id]
    assert side[M] == pytest.approx(side[F], abs=1e-6)
    for lab in {s for it in items for s in it.sets}:
        sm = sum(weights[it.id] for it in items if lab in it.sets and it.group == M)
        sf = sum(weights[it.id] for it in items if lab in it.sets and it.group == F)
        assert sm == pytest.approx(sf, abs=1e-6), lab
    assert min(weights.values()) >= -1e-9


# ------------------------------------------------------------------------------ the LP --------


def test_objective_matches_the_pairwise_sum():
    items = items_of([(M, ()), (M, ()), (M, ()), (F, ()), (F, ())])
    w = {"0": 1.0, "1": 3.0, "2": 2.0, "3": 0.5, "4": 4.0}
    # masculine pairs: max(1,3)+max(1,2)+max(3,2) = 8; feminine: 4
    assert W.objective(items, w) == brute_objective(items, w) == 12.0


def test_balanced_instance_gets_uniform_weights():
    items = items_of([(M, {"N2"}), (M, {"N3"}), (F, {"N2"}), (F, {"N3"})])
    sol = W.solve_classes(items)
    assert sol.status == "optimal"
    assert all(v == pytest.approx(1.0) for v in sol.weights.values())
    assert sol.objective == pytest.approx(2.0)       # one pair per group, max = 1


def test_imbalanced_instance_reweights_the_sets():
    # masculine: three N2, one N3; feminine: one N2, one N3 -> sum_M N2 = sum_F N2, etc.
    items = items_of([(M, {"N2"}), (M, {"N2"}), (M, {"N2"}), (M, {"N3"}), (F, {"N2"}), (F, {"N3"})])
    sol = W.solve_classes(items)
    check_constraints(items, sol.weights, 6)
    assert sol.weights["0"] == pytest.approx(sol.weights["1"]) == pytest.approx(sol.weights["2"])
    assert 3 * sol.weights["0"] == pytest.approx(sol.weights["4"])
    assert sol.objective == pytest.approx(brute_objective(items, sol.weights))


label_sets = st.tuples(st.sampled_from([M, F]), st.integers(1, 4), st.integers(1, 3))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(label_sets, min_size=2, max_size=16), st.sampled_from(["all", "num", "dist"]))
def test_class_lp_equals_the_full_pairwise_lp(spec, variant):
    feats = [Feat(str(i), g, n, r) for i, (g, n, r) in enumerate(spec)]
    sel = W.select_examples(feats, variant)
    forced, _ = W.forced_zeros(sel.items)
    sel.items = [it for it in sel.items if it.id not in forced]
    assume(sel.items)
    assert not W.one_gender_sets(sel.items)
    by_class = W.solve_classes(sel.items)
    pairwise = W.solve_pairwise(sel.items)
    assert by_class.status == pairwise.status == "optimal"
    assert by_class.objective == pytest.approx(pairwise.objective, rel=1e-7, abs=1e-7)
    assert by_class.n_variables <= pairwise.n_variables
    # the class solution is feasible for the full program and has the claimed objective
    check_constraints(sel.items, by_class.weights, len(sel.items))
    assert brute_objective(sel.items, by_class.weights) == pytest.approx(by_class.objective, rel=1e-7, abs=1e-7)
    assert W.objective(sel.items, by_class.weights) == pytest.approx(by_class.objective, rel=1e-7, abs=1e-7)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(label_sets, min_size=2, max_size=14), st.sampled_from(["all", "num", "dist", "trimmed"]))
def test_compute_weights_is_optimal_for_the_literal_program(spec, variant):
    """With one-gender sets left in (their weights forced to 0) and the max-min second stage,
    the weights are feasible for the per-example program and their objective is its optimum."""
    feats = [Feat(str(i), g, n, r) for i, (g, n, r) in enumerate(spec)]
    sel = W.select_examples(feats, variant)
    forced, _ = W.forced_zeros(sel.items)
    assume(len(forced) < len(sel.items))
    weights, sol, sel = W.compute_weights(feats, variant)
    literal = W.solve_pairwise(sel.items)
    assert literal.status == "optimal"
    check_constraints(sel.items, {it.id: weights[it.id] for it in sel.items}, len(sel.items))
    value = brute_objective(sel.items, weights)
    assert value == pytest.approx(literal.objective, rel=1e-6, abs=1e-6)
    assert all(weights[i] == 0.0 for i in forced)


# ------------------------------------------------------------------------------ selection -----


def test_select_variants_and_trimming():
    feats = [Feat("a", M, 3, 1), Feat("b", F, 3, 1), Feat("c", M, 16, 1), Feat("d", F, 4, 5),
             Feat("e", M, 2, None, None), Feat("f", F, 2, 3, "A")]
    feats[5].rank_from_own_span = True          # f's correct candidate overlaps no name span
    sel = W.select_examples(feats, "all")
    assert {it.id: set(it.sets) for it in sel.items} == {
        "a": {"N3", "D1"}, "b": {"N3", "D1"}, "c": {"N16", "D1"}, "d": {"N4", "D5"}, "f": {"N2", "D3"}}
    assert sel.dropped == {"e": "no correct candidate"}
    old = W.select_examples(feats, "all", unnamed="leave-out")
    assert "f" not in {it.id for it in old.items} and old.dropped["f"] == "correct candidate not a name"
    assert {it.id: set(it.sets) for it in W.select_examples(feats, "num", unnamed="leave-out").items}["f"] == {"N2"}
    assert {it.id: set(it.sets) for it in W.select_examples(feats, "dist").items}["d"] == {"D5"}
    trimmed = W.select_examples(feats, "trimmed")
    assert [it.id for it in trimmed.items] == ["a", "b", "f"]
    assert trimmed.dropped["c"] == trimmed.dropped["d"] == "trimmed"


def test_one_gender_sets_force_zeros_until_none_is_left():
    # N9 is masculine only; zeroing its member leaves D2 masculine-only as well
    feats = [Feat("a", M, 9, 2), Feat("b", F, 3, 1), Feat("c", M, 3, 1), Feat("d", F, 9, 1),
             Feat("e", M, 9, 1)]
    sel = W.select_examples(feats, "all")
    assert W.one_gender_sets(sel.items) == [("D2", M, 1)]
    feats.append(Feat("g", F, 5, 2))      # D2 now both; N5 feminine only -> g zero -> D2 masc only
    forced, found = W.forced_zeros(W.select_examples(feats, "all").items)
    assert found == [("N5", F, 1), ("D2", M, 1)]
    assert forced == {"g": "one-gender set N5", "a": "one-gender set D2"}
    weights, sol, sel = W.compute_weights(feats, "all")
    # the zeros stay in the program (n = 6) and the LP itself gives them weight 0
    assert len(sel.items) == 6 and weights["a"] == weights["g"] == 0.0
    check_constraints(sel.items, weights, 6)
    assert sol.objective == pytest.approx(brute_objective(sel.items, weights), rel=1e-8)


def test_max_min_stage_keeps_the_optimum_and_avoids_needless_zeros():
    # masculine: N1 x1, N2 x1; feminine: N1 x1, N2 x3. Any split of the feminine N2 weight
    # (total = the masculine N2 weight) is feasible; the objective favours equal weights.
    items = items_of([(M, {"N1"}), (M, {"N2"}), (F, {"N1"}), (F, {"N2"}), (F, {"N2"}), (F, {"N2"})])
    plain = W.solve_classes(items)
    spread = W.solve_classes(items, forced={})
    assert spread.objective == pytest.approx(plain.optimum, rel=1e-8)
    assert spread.min_free_weight > 0 and min(spread.weights.values()) > 0
    check_constraints(items, spread.weights, 6)


def test_compute_weights_strict_and_warning():
    feats = [Feat("a", M, 3, 1), Feat("b", F, 3, 1), Feat("c", M, 7, 1), Feat("n", F, 2, None, None)]
    with pytest.raises(InputError, match=r"only one gender .*N7 \(only masculine, 1\)"):
        W.compute_weights(feats, "all", strict=True)
    weights, sol, sel = W.compute_weights(feats, "all")
    assert sel.one_gender_sets == [("N7", M, 1)] and sel.forced_zero == {"c": "one-gender set N7"}
    # a + b + c = 3, a = b (balance), c = 0
    assert weights == pytest.approx({"a": 1.5, "b": 1.5, "c": 0.0, "n": 0.0})
    with pytest.raises(InputError, match="no example left"):
        W.compute_weights([Feat("n", F, 2, None, None)], "all")


# ------------------------------------------------------------------------------ scores --------


def gold_frame():
    return pd.DataFrame({"ID": ["m1", "m2", "f1", "f2", "f3", "n1"],
                         "Pronoun": ["he", "His", "she", "her", "hers", "he"],
                         "A-coref": [True, False, True, False, True, False],
                         "B-coref": [False, True, False, True, False, False]})


def test_weighted_bias_scores_hand_computed():
    gold = gold_frame()
    system = pd.DataFrame({"ID": ["n1", "m1", "m2", "f1", "f2", "f3"],
                           "A-coref": ["FALSE", "TRUE", "TRUE", "TRUE", "FALSE", "FALSE"],
                           "B-coref": ["TRUE", "FALSE", "TRUE", "TRUE", "FALSE", "FALSE"]})
    # m1 right, m2 right (B TRUE, A also TRUE: the positive candidate is picked), f1 right,
    # f2 wrong, f3 wrong; n1 has no correct candidate and does not count
    s = W.weighted_bias_scores(gold, system)
    assert (s["n_m"], s["n_f"]) == (2, 3)
    assert s["acc_m"] == 1.0 and s["acc_f"] == pytest.approx(1 / 3)
    assert s["acc"] == pytest.approx(3 / 5) and s["acc_bias"] == pytest.approx(1 / 3)
    assert "w_bias" not in s
    s = W.weighted_bias_scores(gold, system, {"m1": 1.0, "m2": 3.0, "f1": 2.0, "f2": 1.0, "n1": 5.0})
    assert s["weight_m"] == 4.0 and s["weight_f"] == 3.0         # f3 absent -> 0; n1 ignored
    assert s["w_acc_m"] == 1.0 and s["w_acc_f"] == pytest.approx(2 / 3)
    assert s["w_bias"] == pytest.approx(2 / 3) and s["w_acc"] == pytest.approx(6 / 7)


def test_weighted_bias_scores_use_probabilities():
    gold = gold_frame()
    system = pd.DataFrame({"ID": list(gold["ID"]), "A-coref": [False] * 6, "B-coref": [False] * 6,
                           "A-prob": [0.5, 0.25, 0.2, 0.0, 1.0, 0.3],
                           "B-prob": [0.25, 0.5, 0.2, 0.1, 0.0, 0.3]})
    s = W.weighted_bias_scores(gold, system, {i: 1.0 for i in gold["ID"]})
    assert s["acc_m"] == pytest.approx((0.5 + 0.5) / 2)
    assert s["acc_f"] == pytest.approx((0.2 + 0.1 + 1.0) / 3)
    assert s["w_bias"] == pytest.approx(s["acc_bias"])


def test_weighted_bias_scores_errors():
    gold = gold_frame()
    system = pd.DataFrame({"ID": ["m1"], "A-coref": [True], "B-coref": [False]})
    with pytest.raises(InputError, match="lacks 5 gold ID"):
        W.weighted_bias_scores(gold, system)
    system = pd.DataFrame({"ID": list(gold["ID"]), "A-coref": [True] * 6, "B-coref": [False] * 6})
    with pytest.raises(InputError, match="not in the gold labels, first: zz"):
        W.weighted_bias_scores(gold, system, {"zz": 1.0})
    with pytest.raises(InputError, match="lack column 'Pronoun'"):
        W.weighted_bias_scores(gold.drop(columns=["Pronoun"]), system)


def test_read_weights(tmp_path):
    (tmp_path / "w.json").write_text('{"a": 1, "b": 0.5}')
    assert read_weights(tmp_path / "w.json") == {"a": 1.0, "b": 0.5}
    (tmp_path / "bad.json").write_text('{"a": -1}')
    with pytest.raises(InputError, match="row a: weight must be"):
        read_weights(tmp_path / "bad.json")


# ------------------------------------------------------------------------------ command -------


def test_weights_command(tmp_path, nlp, capsys):
    from pipeline.cli import main

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    out = tmp_path / "w.json"
    args = ["weights", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"), "--no-progress"]
    assert main(args + ["--variant", "num", "--out", str(out)]) == 0
    w = json.loads(out.read_text())
    # t1 (f, 3 names), t2 (m, 3 names), t4 (m, 3 names) kept; t3 has no correct candidate
    assert set(w) == {"t1", "t2", "t3", "t4"} and w["t3"] == 0
    assert w["t1"] == pytest.approx(w["t2"] + w["t4"]) and sum(w.values()) == pytest.approx(3)
    printed = capsys.readouterr().out
    assert "objective" in printed and "LP time" in printed
    # ranks: t1 1 (f), t2 1 (m), t4 2 (m) -> D2 is masculine only: --strict fails
    assert main(args + ["--variant", "all", "--strict", "--out", str(tmp_path / "s.json")]) == 2
    assert "D2 (only masculine, 1)" in capsys.readouterr().err
    assert not (tmp_path / "s.json").exists()


# ------------------------------------------------------------------------------ reference -----


@pytest.mark.slow
@pytest.mark.shared
def test_gap_test_reference_table(shared_dir):
    """The Gap on GAP, Ground-Truth baselines on GAP test with the manual name spans."""
    from pipeline.diagnostics.core.baselines import system_rows

    exs, feats = gap_test_features(shared_dir)
    gold = pd.DataFrame({"ID": [e.id for e in exs], "Pronoun": [e.pronoun for e in exs],
                         "A-coref": [e.a_coref for e in exs], "B-coref": [e.b_coref for e in exs]})
    variants = ["all", "num", "dist", "trimmed"]
    # the published table comes out with the unnamed correct candidates left out of D_k
    weights = {v: W.compute_weights(feats, v, unnamed="leave-out")[0] for v in variants}
    #            accuracy, acc-Bias, W, W_num, W_dist, W_t
    reference = {"random": (0.224, 0.849, 1.000, 0.995, 0.899, 1.000),
                 "dist1": (0.412, 0.776, 1.000, 0.804, 1.000, 1.000),
                 "dist2": (0.310, 0.882, 1.000, 0.920, 1.000, 1.000),
                 "dist3": (0.156, 1.347, 1.006, 1.266, 1.010, 1.007)}
    for kind, ref in reference.items():
        system = pd.DataFrame(system_rows(kind, [f.id for f in feats], [f.ranked for f in feats]))
        s = W.weighted_bias_scores(gold, system)
        got = [s["acc"], s["acc_bias"]] + [W.weighted_bias_scores(gold, system, weights[v])["w_bias"]
                                           for v in variants]
        for value, expected, column in zip(got, ref, ["acc", "acc-Bias"] + variants):
            if kind == "random" or (expected == 1.0 and column != "acc"):
                assert round(value, 3) == expected, (kind, column, value)     # exact to 3 places
            else:
                assert value == pytest.approx(expected, abs=0.015), (kind, column, value)


@pytest.mark.slow
@pytest.mark.shared
def test_gap_test_published_example_sets(shared_dir):
    """The published W keeps 1,773 examples (885 masculine and 876 feminine with non-zero
    weight), W_t 1,670 (865, 805); the objective is the LP optimum on those sets."""
    _, feats = gap_test_features(shared_dir)
    expected = {"all": (1773, 885, 876), "trimmed": (1670, 865, 805)}
    for variant, (kept, m, f) in expected.items():
        weights, sol, sel = W.compute_weights(feats, variant)
        nonzero = [it.group for it in sel.items if weights[it.id] > 0]
        assert (len(sel.items), nonzero.count(M), nonzero.count(F)) == (kept, m, f), variant
        check_constraints(sel.items, weights, kept)
        assert W.objective(sel.items, weights) == pytest.approx(sol.objective, rel=1e-9)
        assert sol.objective == pytest.approx(sol.optimum, rel=2 * W.OPTIMUM_TOLERANCE)


def test_evaluate_with_weights_end_to_end(tmp_path, nlp):
    """A real ``weights`` run feeding a real ``evaluate --weights`` run (no stubs)."""
    from pipeline.cli import main

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    w = tmp_path / "w.json"
    assert main(["weights", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                 "--variant", "num", "--no-progress", "--out", str(w)]) == 0
    weights = json.loads(w.read_text())
    # a system right on t1 (feminine) and t2 (masculine), wrong on t4 (masculine)
    system = tmp_path / "sys.tsv"
    system.write_text("ID\tA-coref\tB-coref\nt1\tTRUE\tFALSE\nt2\tFALSE\tTRUE\n"
                      "t3\tFALSE\tFALSE\nt4\tFALSE\tTRUE\n")
    out = tmp_path / "eval"
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={system}", "--weights", f"lp={w}",
                 "--resamples", "20", "--out", str(out)]) == 0
    got = json.loads((out / "metrics.json").read_text())["s"]["weighted"]["lp"]
    assert got["acc_m"] == pytest.approx(0.5) and got["acc_f"] == pytest.approx(1.0)
    # weighted: t1 weighs t2 + t4 (balance); masculine accuracy = w(t2) / (w(t2) + w(t4))
    assert got["w_acc_f"] == pytest.approx(1.0)
    assert got["w_acc_m"] == pytest.approx(weights["t2"] / (weights["t2"] + weights["t4"]))
    assert got["w_bias"] == pytest.approx(1.0 / got["w_acc_m"])


def test_weighted_scores_bootstrap_uses_the_one_convention():
    gold = gold_frame()
    system = pd.DataFrame({"ID": list(gold["ID"]), "A-coref": [True, False, False, False, False, False],
                           "B-coref": [False, True, False, False, False, False]})
    s = W.weighted_bias_scores(gold, system, {i: 1.0 for i in gold["ID"]}, resamples=200, seed=1)
    # masculine always right, feminine always wrong: every resample has acc_m - acc_f > 0 or
    # is undefined (no feminine example drawn), so p = (1 + #undefined) / 201
    # (P(a resample lacks a gender) = 0.6^5 + 0.4^5, about 0.09)
    assert 1 / 201 <= s["p_acc_diff"] <= 0.2 and s["p_w_acc_diff"] == s["p_acc_diff"]
    assert s["ci99_acc_diff"] == [1.0, 1.0]
