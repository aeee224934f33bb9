"""Questions, answer checks, labels, check items and task planning (pipeline.annotation.core.questions)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.annotation.core.questions import (AnswerError, check_answer, check_correct,
                                     label_of, parse_check_line, parse_spans, plan_tasks,
                                     question_from_row)
from pipeline.core.spans import trim_span
from pipeline.errors import InputError
from tests.annotation.helpers import (make_quadruple, mention, quad_rows as _rows, shipped_checks,
                                    spans_for)


@pytest.fixture
def row():
    return make_quadruple("7")[0]


def test_question_persons_and_candidates(row):
    q = question_from_row(row)
    assert q.text[q.pronoun[0]:q.pronoun[1]] == "he"
    assert q.person_names == ["John Smith", "Peter Hale", "Mary Jones", "Anne Lee"]
    assert q.persons[0] == [(0, 10), (106, 110)]          # "John Smith" ... "John"
    assert (q.a_person, q.b_person) == (0, 1)
    assert q.payload()["persons"][0] == [[0, 10], [106, 110]]


def test_candidate_outside_the_listed_mentions_becomes_its_own_person(row):
    row = dict(row, names=[n for n in row["names"] if n["role"] != "C2"])
    q = question_from_row(row)
    assert q.b_person == len(q.persons) - 1
    assert q.persons[q.b_person] == [(row["b_offset"], row["b_offset"] + len(row["b"]))]


@pytest.mark.parametrize("label, expected", [("A", "A"), ("A0", "A"), ("B", "B"),
                                              ("O", "neither"), ("none", "neither")])
def test_labels(row, label, expected):
    q = question_from_row(row)
    spans, none = spans_for(row, label)
    assert label_of(q, check_answer(q, spans, none)) == expected


def test_partial_name_and_possessive_count_for_the_person(row):
    q = question_from_row(row)
    s, e = mention(row, "C1")                            # "John Smith"
    assert label_of(q, check_answer(q, [(s + 5, e)], False)) == "A"   # "Smith"
    assert label_of(q, check_answer(q, [(s, e + 1)], False)) == "A"   # "John Smith " (space)
    assert label_of(q, check_answer(q, [(s, e), (106, 110)], False)) == "A"   # two mentions


@pytest.mark.parametrize("spans, none, kind", [
    ([(0, 10)], True, "tick-and-highlight"),
    ([], False, "no-answer"),
    ([(11, 18)], False, "not-a-name"),                    # "thanked"
    ([(0, 29)], False, "not-a-name"),                     # "John Smith thanked Peter Hale"
    ([(0, 10), (19, 29)], False, "several-people"),       # John Smith + Peter Hale
])
def test_answer_checks(row, spans, none, kind):
    with pytest.raises(AnswerError) as info:
        check_answer(question_from_row(row), spans, none)
    assert info.value.kind == kind


def test_trim_span():
    text = 'said "Mr. Darcy\'s" hat'
    assert trim_span(text, 5, 18) == (6, 15)              # quotes and 's trimmed
    assert text[6:15] == "Mr. Darcy"
    assert trim_span(text, 0, 0) == (0, 0)


def test_parse_spans():
    assert parse_spans('[[1, 4, "John"], [6, 9]]') == [(1, 4), (6, 9)]
    assert parse_spans("") == [] and parse_spans(None) == []
    assert parse_spans([{"start": 2, "end": 5}]) == [(2, 5)]
    for bad in ('{"a": 1}', "[[5, 2]]", "[[true, 3]]", "[[1]]", "[[-1, 2]]"):
        with pytest.raises(ValueError):
            parse_spans(bad)


def test_shipped_check_items_are_well_formed():
    checks = shipped_checks()
    assert len(checks) >= 10
    assert len({q.id for q in checks}) == len(checks)
    for q in checks:
        assert q.id.startswith("check-")
        assert q.text[q.pronoun[0]:q.pronoun[1]].lower() in {"he", "she", "him", "her", "his"}
        assert q.gold == "none" or q.gold in q.person_names
    assert any(q.gold == "none" for q in checks)


def test_check_item_markup_and_scoring():
    q = parse_check_line("x\t[[Ann Bell]] met [[Tom Cole]]; [[Ann|Ann Bell]] said {{she}} was late.\tAnn Bell")
    assert q.text == "Ann Bell met Tom Cole; Ann said she was late."
    assert q.persons == [[(0, 8), (23, 26)], [(13, 21)]]
    assert q.text[slice(*q.pronoun)] == "she"
    assert check_correct(q, check_answer(q, [(23, 26)], False))
    assert not check_correct(q, check_answer(q, [(13, 21)], False))
    assert not check_correct(q, check_answer(q, [], True))
    with pytest.raises(ValueError):
        parse_check_line("y\t[[A]] and [[B]] left.\tA")    # no pronoun
    with pytest.raises(ValueError):
        parse_check_line("y\t[[A]] and [[B]] saw {{him}}.\tC")   # gold not a person


def test_bad_check_file_is_an_input_error(tmp_path):
    bad = tmp_path / "checks.txt"
    bad.write_text("# comment\n1\tno markup here\tNONE\n")
    with pytest.raises(InputError, match="row 2"):
        shipped_checks(bad)


# ----------------------------------------------------------------- planning ----------------

@settings(max_examples=40, deadline=None)
@given(n_quads=st.integers(1, 14), short=st.integers(0, 3), per_task=st.integers(2, 12),
       n_checks=st.integers(0, 3), seed=st.integers(0, 10))
def test_plan_tasks_invariants(n_quads, short, per_task, n_checks, seed):
    n_checks = min(n_checks, per_task - 1)
    rows = _rows(n_quads, min(short, n_quads))
    checks = shipped_checks()
    tasks, info = plan_tasks(rows, per_task, n_checks, checks, seed)
    seen = []
    for task in tasks:
        instance_q = [q for q in task if q.gold is None]
        check_q = [q for q in task if q.gold is not None]
        quads = [q.id.split("-")[0] for q in instance_q]
        assert len(set(quads)) == len(quads), "two variants of one quadruple in one task"
        assert len(check_q) >= n_checks
        assert len({q.id for q in check_q}) == len(check_q)
        assert len(task) == min(per_task, len(instance_q) + len(checks))
        seen += [q.id for q in instance_q]
    assert sorted(seen) == sorted(r["id"] for r in rows)         # every instance exactly once
    again, _ = plan_tasks(rows, per_task, n_checks, checks, seed)
    assert [[q.id for q in t] for t in again] == [[q.id for q in t] for t in tasks]


def test_plan_tasks_full_tasks_and_count():
    rows = _rows(30)
    tasks, info = plan_tasks(rows, 10, 1, shipped_checks(), seed=3)
    assert info["instances_per_task"] == 9 and not info["reduced"]
    assert len(tasks) == -(-120 // 9)                      # ceil(120 / 9) = 14
    assert all(len(t) == 10 for t in tasks)


def test_plan_tasks_rejects_bad_parameters():
    rows = _rows(2)
    with pytest.raises(ValueError):
        plan_tasks(rows, 5, 5, shipped_checks(), 0)
    with pytest.raises(ValueError):
        plan_tasks(rows, 5, 1, [], 0)


# ----------------------------------------------------------------- the next question -------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from pipeline.annotation.core.questions import pick_next  # noqa: E402


def test_pick_next_prefers_the_own_lease_then_the_nearest_to_completion_then_the_order():
    order = ["a", "b", "c", "d"]
    # nothing stored: the seeded order
    assert pick_next(order, {}, set(), set(), {}, 3) == ("a", 4)
    # c has two answers, b one: c is nearest to completion
    assert pick_next(order, {"b": 1, "c": 2}, set(), set(), {}, 3) == ("c", 4)
    # another annotator's lease counts as taken: b (1 answer + 2 leases) is nearest
    assert pick_next(order, {"b": 1, "c": 2}, set(), set(), {"b": 1}, 3) == ("b", 4)
    # ... and a question whose answers and others' leases fill it is not open
    assert pick_next(order, {"b": 1}, set(), set(), {"b": 2}, 3) == ("a", 3)
    # a reload gives the own lease back, even when that slot looks full
    assert pick_next(order, {"d": 2}, set(), {"d"}, {"d": 1}, 3) == ("d", 4)
    # answered by me, or with enough answers: never again
    assert pick_next(order, {"a": 3}, {"b", "c"}, set(), {}, 3) == ("d", 1)
    assert pick_next(order, {"a": 3, "d": 3}, {"b", "c"}, set(), {}, 3) == (None, 0)


ids = st.sampled_from("abcdefgh")


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.permutations(list("abcdefgh")), st.dictionaries(ids, st.integers(0, 4)), st.sets(ids), st.sets(ids),
       st.dictionaries(ids, st.integers(0, 3)), st.integers(1, 4))
def test_pick_next_never_gives_what_must_not_be_given(order, answers, mine, held, others, assignments):
    best, n_open = pick_next(order, answers, mine, held, others, assignments)
    if best is None:
        assert n_open == 0
        return
    assert best not in mine and answers.get(best, 0) < assignments
    assert best in held or answers.get(best, 0) + others.get(best, 0) < assignments
    held_open = [i for i in order if i in held and i not in mine and answers.get(i, 0) < assignments]
    if held_open:                                   # a lease held on an open question comes back
        assert best in held_open
