"""Experiment plans: balance, seeding, each item once per participant, alpha balance, Maze."""

from collections import Counter, defaultdict

import pytest

from pipeline.humans.core.plan import PlanError, maze_plan, qa_plan, question_category
from pipeline.formats.schemas import EXPERIMENT_PLAN
from pipeline.formats.tables import records_to_table
from tests.humans.experiment_helpers import make_items


def fillers_for(items):
    """One hand-made filler per item (the parse-based ones are tested with spaCy elsewhere)."""
    return {it["id"]: [{"question": f"What is the gender of the person who did {i}?",
                        "answer": "unknown", "template": "subject", "argument": it["other_entity"]}]
            for i, it in enumerate(items)}


def plan(items=None, participants=6, seed=3, targets=6, calibration=3):
    items = items or make_items(60)
    return qa_plan(items, fillers_for(items), participants, seed, targets=targets,
                   calibration=calibration)


def by_participant(rows):
    out = defaultdict(list)
    for r in rows:
        out[r["participant"]].append(r)
    return out


def test_qa_plan_is_half_fillers_and_balanced_over_categories():
    rows = plan()
    items = {it["id"]: it for it in make_items(60)}
    for pid, trials in by_participant(rows).items():
        kinds = Counter(r["kind"] for r in trials)
        assert kinds == {"calibration": 3, "target": 6, "filler": 6}
        cats = Counter(items[r["item_id"]]["stereotype"] for r in trials if r["kind"] == "target")
        assert cats == {"pro": 2, "anti": 2, "neutral": 2}
        assert [r["position"] for r in trials] == list(range(15))
        assert all(r["kind"] == "calibration" for r in trials[:3])
        assert all(r["alpha"] is None for r in trials[:3])
        assert all(r["alpha"] in (0.75, 0.5, 0.25) for r in trials[3:])


def test_each_item_at_most_once_per_participant():
    for trials in by_participant(plan(targets=10)).values():
        ids = [r["item_id"] for r in trials]
        assert len(ids) == len(set(ids))


def test_calibration_items_are_never_trials():
    rows = plan()
    calib = {r["item_id"] for r in rows if r["kind"] == "calibration"}
    assert len(calib) == 3
    assert not calib & {r["item_id"] for r in rows if r["kind"] != "calibration"}


def test_each_item_gets_each_alpha_by_as_many_participants_within_one():
    items = make_items(60)
    rows = plan(items, participants=12, targets=9)
    per_item = defaultdict(Counter)
    for r in rows:
        if r["alpha"] is not None:
            per_item[r["item_id"]][r["alpha"]] += 1
    for counts in per_item.values():
        values = [counts.get(a, 0) for a in (0.75, 0.5, 0.25)]
        assert max(values) - min(values) <= 1
    totals = Counter(r["alpha"] for r in rows if r["alpha"] is not None)
    assert max(totals.values()) - min(totals.values()) <= len(per_item)


def test_items_are_covered_evenly_across_participants():
    items = {it["id"]: it for it in make_items(60)}
    rows = plan(participants=9, targets=6)
    seen = Counter(r["item_id"] for r in rows if r["kind"] == "target")
    for category in ("pro", "anti"):
        counts = [n for iid, n in seen.items() if items[iid]["stereotype"] == category]
        assert max(counts) - min(counts) <= 1


def test_same_seed_same_plan_other_seed_other_plan():
    assert plan(seed=5) == plan(seed=5)
    assert plan(seed=5) != plan(seed=6)


def test_target_questions_ask_the_main_occupation_and_answer_the_pronoun_gender():
    rows = plan()
    items = {it["id"]: it for it in make_items(60)}
    for r in rows:
        if r["kind"] != "target":
            continue
        it = items[r["item_id"]]
        assert r["question"] == f"What is the gender of the {it['main_occupation']}?"
        assert r["correct_answer"] == {"masculine": "male", "feminine": "female"}[it["pronoun_gender"]]
        assert r["question_category"] == f"{it['main_stereotype']}.{it['category']}"
        assert r["answers"] == ["male", "female", "neutral", "unknown"]


def test_bug_question_category():
    item = {"source": "bug", "stereotype": "anti", "pronoun_gender": "feminine"}
    assert question_category(item) == "anti-stereotype_Female"


def test_plan_rows_fit_the_schema():
    records_to_table(plan(), EXPERIMENT_PLAN)


def test_too_small_a_benchmark_is_refused():
    with pytest.raises(PlanError, match="need"):
        plan(make_items(12), targets=6, calibration=3)


def test_maze_plan_sides_distractors_and_pronoun_index():
    items = make_items(20)
    ds = {it["id"]: [None] + [f"x{k}" for k in range(1, len(it["tokens"]))] for it in items}
    rows = maze_plan(items, ds, 4, seed=2, per_participant=5)
    assert len(rows) == 20
    for trials in by_participant(rows).values():
        assert len({r["item_id"] for r in trials}) == 5
    sides = Counter(s for r in rows for s in r["sides"][1:])
    assert set(sides) == {"left", "right"}
    for r in rows:
        assert r["sides"][0] is None and r["distractors"][0] is None
        assert r["tokens"][r["pronoun_index"]] == r["pronoun"]
        assert r["relation_to_main"] in ("pro", "anti", "neutral")
    records_to_table(rows, EXPERIMENT_PLAN)
    assert maze_plan(items, ds, 4, seed=2, per_participant=5) == rows


def test_maze_plan_without_eligible_items_is_refused():
    items = make_items(10, maze=False)
    with pytest.raises(PlanError, match="no Maze-eligible items"):
        maze_plan(items, {}, 2, seed=0)
