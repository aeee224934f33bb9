"""Scripted annotators through the pure aggregation (pipeline.annotation.core.votes): every filter and count."""

from __future__ import annotations

import pytest

from pipeline.annotation.core.votes import Answer, aggregate, real_people_in
from tests.annotation.helpers import make_quadruple, scenario, shipped_checks, shipped_real_people

def expected_agreement_all():
    # per instance: % agreeing with the most frequent label, over the 35 voted instances
    full = 100.0
    two_thirds = 200.0 / 3
    values = ([full] * 4 + [two_thirds] * 4 + [full] * 3 + [two_thirds] + [full] * 3
              + [100.0 / 3] + [full] * 4 + [full] * 3 + [full] * 4 + [full] * 4
              + [two_thirds] + [full] * 3)
    assert len(values) == 35
    return sum(values) / len(values)


def test_funnel_counts_and_labels_with_real_people_filter():
    quads, rows, ans = scenario()
    res = aggregate(rows, ans, assignments=3, seed=0, real_people=load_real_people_default())
    assert res.funnel == {"originals": 9, "annotated": 8, "consistent": 6, "no_flags": 5,
                          "no_real_people": 4, "balanced": 2}
    kept = sorted({r["quadruple_id"] for r in res.dataset})
    assert len(kept) == 2 and "2" in kept                   # the only feminine survivor
    assert len(set(kept) & {"1", "7", "9"}) == 1
    assert len(res.dataset) == 8
    assert [r["variant"] for r in res.dataset[:4]] == ["original", "control", "swap-1", "swap-2"]
    s = res.stats
    assert s["duplicates"] == 1
    assert s["invalid"] == {"tick-and-highlight": 1}
    assert s["too_few_answers"] == ["6-control"]
    assert s["no_majority"] == ["4-control"]
    assert s["flagged_instances"] == ["5-swap-2"]
    assert s["real_people"] == {"8": ["Jane Austen"]}
    assert s["gender_before_balancing"] == {"masculine": 3, "feminine": 1}
    assert s["agreement_all"] == pytest.approx(expected_agreement_all())
    status = {v["quadruple_id"]: v["quadruple_status"] for v in res.votes}
    assert status["3"] == status["4"] == "inconsistent"
    assert status["5"] == "flagged" and status["6"] == "not-annotated"
    assert status["8"] == "real-person" and status["2"] == "kept"
    assert sorted(status.values()).count("balancing") == 2


def load_real_people_default():
    return shipped_real_people()


def test_without_real_people_filter_and_labels():
    quads, rows, ans = scenario()
    res = aggregate(rows, ans, assignments=3, seed=0)
    assert res.funnel == {"originals": 9, "annotated": 8, "consistent": 6, "no_flags": 5,
                          "no_real_people": None, "balanced": 4}
    by_q = {}
    for r in res.dataset:
        by_q.setdefault(r["quadruple_id"], []).append((r["a_coref"], r["b_coref"]))
    assert by_q["2"] == [(False, True)] * 4 and by_q["8"] == [(True, False)] * 4
    for q in ("1", "7", "9"):
        if q in by_q:
            assert by_q[q] == ([(False, False)] * 4 if q == "7" else [(True, False)] * 4)
    votes = {v["id"]: v for v in res.votes}
    assert (votes["2"]["n_a"], votes["2"]["n_b"], votes["2"]["majority"]) == (1, 2, "B")
    assert votes["9"]["n_neither"] == 1 and votes["9"]["majority"] == "A"
    assert votes["4-control"]["agreement"] == pytest.approx(100 / 3)
    assert votes["6-control"]["majority"] is None and votes["6-control"]["n_answers"] == 2


def test_balancing_is_seeded_and_balanced():
    quads, rows, ans = scenario()
    picks = set()
    for seed in range(12):
        res = aggregate(rows, ans, assignments=3, seed=seed)
        originals = [r for r in res.dataset if r["variant"] == "original"]
        genders = [r["original_gender"] for r in originals]
        assert genders.count("masculine") == genders.count("feminine") == 2
        again = aggregate(rows, ans, assignments=3, seed=seed)
        assert [r["id"] for r in again.dataset] == [r["id"] for r in res.dataset]
        picks.add(tuple(r["quadruple_id"] for r in originals))
    assert len(picks) > 1                                   # the seed matters


def test_assignments_threshold():
    quads, rows, ans = scenario()
    res = aggregate(rows, ans, assignments=2, seed=0)
    assert res.stats["too_few_answers"] == []
    assert res.funnel["annotated"] == 9                     # q6 control has 2 answers
    res4 = aggregate(rows, ans, assignments=4, seed=0)
    assert res4.funnel["annotated"] == 0 and res4.funnel["balanced"] == 0
    assert len(res4.stats["too_few_answers"]) == 36


def test_check_scores_and_exclusion():
    quads, rows, ans = scenario()
    checks = shipped_checks()
    good = checks[0]                                        # gold is a person
    gold_span = good.persons[good.person_names.index(good.gold)][0]
    other = next(p for p in good.persons if p[0] != gold_span)[0]
    ans += [Answer("w1", good.id, [gold_span], False), Answer("w2", good.id, [gold_span], False),
            Answer("w3", good.id, [other], False), Answer("w3", good.id, [other], False)]
    res = aggregate(rows, ans, assignments=3, checks=checks)
    assert res.stats["check_scores"]["w3"] == {"correct": 0, "total": 2}
    assert res.stats["check_scores"]["w1"] == {"correct": 1, "total": 1}
    assert res.funnel["annotated"] == 8
    cut = aggregate(rows, ans, assignments=3, checks=checks, min_check_accuracy=0.5)
    assert cut.stats["excluded_annotators"] == ["w3"]
    assert cut.funnel["annotated"] == 0                    # only two answers left everywhere


def test_unknown_instance_is_an_error():
    quads, rows, ans = scenario()
    ans.append(Answer("w1", "999-control", [], True, "", "row 5"))
    with pytest.raises(ValueError, match="unknown instance"):
        aggregate(rows, ans)


def test_real_people_matching():
    rows = make_quadruple("1", c1=("Napoleon Bonaparte", "Bonaparte"))
    assert real_people_in(rows, {"napoleon bonaparte", "bonaparte"}) == ["Bonaparte", "Napoleon Bonaparte"]
    assert real_people_in(make_quadruple("2"), load_real_people_default()) == []
    # whole names only: "John" does not match "john smith" and vice versa
    assert real_people_in(make_quadruple("3"), {"john"}) == ["John"]
    assert real_people_in(make_quadruple("3"), {"john smithson"}) == []
