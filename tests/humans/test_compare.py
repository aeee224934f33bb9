"""Delta_QA with ignored answers and a participant list; the IQR rule and the quantile curves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.humans.core import compare as humans
from pipeline.errors import InputError
from tests.humans.fixtures import MAZE_ROWS, QA_ROWS


def rows_with_lines(rows):
    return [{**r, "_line": i + 2} for i, r in enumerate(rows)]


def test_delta_qa_by_hand_with_participant_list():
    res = humans.analyse_qa(rows_with_lines(QA_ROWS), participants={"W1", "W2"})
    a = res["alphas"]["0.5"]
    # pro counted: rows 1 (right), 3 (wrong), 10 (right), 11 BUG (right) -> 3/4
    assert a["pro"] == pytest.approx(75.0) and a["n_pro"] == 4
    # anti counted: rows 4 (right), 5 (wrong), 7 BUG (wrong) -> 1/3
    assert a["anti"] == pytest.approx(100 / 3) and a["n_anti"] == 3
    assert a["delta"] == pytest.approx(75.0 - 100 / 3)
    # ignorable WinoBias/Winogender pro/anti answers: 1 2 3 4 5 6 10, ignored 2 and 6
    assert a["ignored"] == pytest.approx(200 / 7) and a["n_ignored"] == 2
    assert a["filler"] == pytest.approx(50.0)
    assert res["excluded"]["not_in_list"] == 1
    syn, nat = a["by_kind"]["synthetic"], a["by_kind"]["natural"]
    assert (syn["pro"], syn["anti"], syn["n_pro"], syn["n_anti"]) == (pytest.approx(200 / 3), 50.0, 3, 2)
    assert (nat["pro"], nat["anti"], nat["ignored"]) == (100.0, 0.0, None)
    b = res["alphas"]["0.75"]
    assert (b["pro"], b["anti"], b["delta"], b["neutral"]) == (100.0, 100.0, 0.0, 0.0)
    assert list(res["alphas"]) == ["0.75", "0.5"]
    w2 = [p for p in res["participants"] if p["mturk_id"] == "W2" and p["alpha"] == "0.5"][0]
    assert w2["pro"] == 100.0 and w2["anti"] is None


def test_delta_qa_without_list_counts_everyone():
    a = humans.analyse_qa(rows_with_lines(QA_ROWS))["alphas"]["0.5"]
    assert a["pro"] == pytest.approx(60.0)      # + row 12 (wrong): 3/5
    assert a["anti"] == pytest.approx(50.0)     # + row 13 (right): 2/4
    assert a["delta"] == pytest.approx(10.0)


def test_min_filler_accuracy_drops_participants():
    res = humans.analyse_qa(rows_with_lines(QA_ROWS), min_filler_accuracy=60.0)
    assert res["excluded"]["low_filler_accuracy"] == 1          # W1: fillers 1/2
    assert {p["mturk_id"] for p in res["participants"]} == {"W2", "W3"}


def test_unknown_category_names_the_row():
    rows = rows_with_lines(QA_ROWS)
    rows[3] = {**rows[3], "question_category": "pro.x|y.sideways"}
    with pytest.raises(InputError, match="unknown question_category") as exc:
        humans.analyse_qa(rows, path="qa.csv")
    assert exc.value.row == 5


def test_iqr_rule_by_hand():
    t = np.array([400, 410, 420, 430, 2000.0])
    # Q1 410, Q3 430, IQR 20: kept in [380, 460]
    assert humans.iqr_keep(t).tolist() == [True, True, True, True, False]
    # Q1 22.5, Q3 47.5 (linear), IQR 25: kept in [-15, 85]
    assert humans.iqr_keep(np.array([10, 20, 30, 40, 50, 100.0])).tolist() == [True] * 5 + [False]
    # IQR 0: only the values at the quartiles survive
    assert humans.iqr_keep(np.array([0, 10, 10, 10, 25.0])).tolist() == [False, True, True, True, False]


def test_maze_curves_by_hand():
    res = humans.analyse_maze(MAZE_ROWS, {"m": {"pro": 0.5, "anti": 0.9}})
    q = res["quantiles"]
    assert len(q) == 51 and q[0] == 0.5 and q[-1] == 1.0 and q[10] == 0.6
    assert res["success_rate"] == {"anti": 0.8, "pro": 5 / 6}
    assert res["n_outliers"] == {"anti": 0, "pro": 1}
    assert res["pro"][0] == pytest.approx(415.0) and res["pro"][-1] == pytest.approx(430.0)
    assert res["anti"][0] == pytest.approx(530.0) and res["anti"][-1] == pytest.approx(560.0)
    assert res["delta"][0] == pytest.approx(115.0) and res["delta"][-1] == pytest.approx(130.0)
    assert res["delta_positive_from"] == 0.5
    # pro accuracy at q: kept correct times <= threshold over 6 trials; 0.5 needs 3 of them,
    # i.e. a threshold >= 420: 3q >= 2 on the 4 kept times -> q = 0.67
    assert res["human_accuracy"]["pro"][0] == pytest.approx(2 / 6)
    assert res["human_accuracy"]["pro"][-1] == pytest.approx(4 / 6)
    assert res["models"]["m"]["pro"]["quantile"] == 0.67
    assert res["models"]["m"]["anti"]["quantile"] is None       # humans top out at 0.8


@settings(max_examples=50, deadline=None)
@given(st.lists(st.floats(min_value=1, max_value=1e5, allow_nan=False), min_size=1, max_size=60))
def test_quantile_curve_is_monotone_and_ends_at_the_max(times):
    curve = humans.quantile_curve(np.array(times))
    assert all(a <= b + 1e-9 for a, b in zip(curve, curve[1:]))
    assert curve[-1] == pytest.approx(max(times))
    kept = humans.iqr_keep(np.array(times))
    assert kept.any()            # the median always survives the IQR rule


def test_maze_by_sentence_kind():
    assert humans.sentence_kind("winobias-pro-type2-dev-0001") == "synthetic"
    assert humans.sentence_kind("bug-wikipedia-11") == "natural"
    assert humans.sentence_kind("s17") is None
    assert humans.sentence_kind("s17", source="bug") == "natural"
    kinds = ["synthetic" if r["relation_to_main"] == "pro" else "natural" for r in MAZE_ROWS]
    kinds[0] = None
    res = humans.analyse_maze_by_kind(MAZE_ROWS, kinds)
    assert res["n_without_kind"] == 1 and set(res["by_kind"]) == {"synthetic", "natural"}
    assert res["by_kind"]["natural"]["anti"] == res["anti"]          # all anti trials are natural
    assert res["by_kind"]["synthetic"]["n_trials"] == {"pro": 5}     # the first pro trial has no kind
    assert res["by_kind"]["synthetic"]["pro"][0] == pytest.approx(420.0)


def test_answers_grouped_per_worker_and_batch():
    # W1 answers in two batches: its batch 2 has only wrong fillers, batch 1 the rows above
    rows = rows_with_lines(QA_ROWS) + [
        {**QA_ROWS[7], "batch_number": 2, "user_answer": "male", "is_correct": False, "_line": 30},
        {**QA_ROWS[0], "batch_number": 2, "_line": 31}]
    res = humans.analyse_qa(rows, participants={"W1", "W2"})
    assert (res["n_participants"], res["n_batches"]) == (2, 3)
    w1 = [(p["batch_number"], p["filler"]) for p in res["participants"]
          if p["mturk_id"] == "W1" and p["alpha"] == "0.5"]
    assert w1 == [(1, 50.0), (2, 0.0)]
    # a filler threshold leaves out W1's batch 2 only (W1 stays, its batch 1 fillers are 1/2)
    res = humans.analyse_qa(rows, participants={"W1", "W2"}, min_filler_accuracy=40.0)
    assert res["excluded"]["low_filler_accuracy_batches"] == 1
    assert res["excluded"]["low_filler_accuracy"] == 0 and res["n_batches"] == 2
    assert res["alphas"]["0.5"]["n_pro"] == 4


def test_answers_of_a_batch_the_enrollment_does_not_list_are_counted():
    enrollment = [{"mturk_id": "W1", "batch_number": 1, "hash_id": "x"},
                  {"mturk_id": "W2", "batch_number": 7, "hash_id": "h10"},     # W2 matched by hash_id (row 10)
                  {"mturk_id": "W3", "batch_number": None, "hash_id": None}]   # a plain list: any batch
    res = humans.analyse_qa(rows_with_lines(QA_ROWS), enrollment=enrollment)
    assert res["n_answers_unenrolled_batch"] == 1                 # W2's row 11 (batch 1, hash h11)
    assert res["n_answers"] == len(QA_ROWS)                        # kept: the worker is enrolled


def test_maze_trial_kind_and_table2_deltas():
    assert humans.trial_kind({"_layout": "released BUG", "sentence_id": "winobias-x"}) == "natural"
    assert humans.trial_kind({"_layout": "released Wino", "sentence_id": "17"}) == "synthetic"
    assert humans.trial_kind({"_layout": "project", "sentence_id": "bug-wiki-3"}) == "natural"
    assert humans.trial_kind({"_layout": "project", "sentence_id": "17"}) is None
    kinds = ["synthetic"] * len(MAZE_ROWS)
    kinds[-1] = None
    t2 = humans.maze_table2(MAZE_ROWS, kinds)
    assert list(t2) == ["synthetic"]
    s = t2["synthetic"]
    assert s["n_trials"] == len(MAZE_ROWS) - 1 and list(s["delta"]) == ["0.50", "0.60", "0.70", "0.80", "0.90", "1.00"]
    # by hand (test_maze_curves_by_hand): 530 - 415 at 0.50, 560 - 430 at 1.00
    assert s["delta"]["0.50"] == pytest.approx(115.0) and s["delta"]["1.00"] == pytest.approx(130.0)
    assert s["positive_from"] == 0.5
