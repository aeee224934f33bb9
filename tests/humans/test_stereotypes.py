"""Fine-grained and coarse stereotype categories, QA category strings, Maze eligibility."""

from __future__ import annotations

import pytest

from pipeline.humans.core import stereotypes as s
from pipeline.lang.benchmarks import stereotype_from_share
from pipeline.errors import InputError
from pipeline.vocab import FEMININE, MASCULINE, NEUTRAL


@pytest.mark.parametrize("pronoun, main, other, fine, coarse", [
    (MASCULINE, MASCULINE, FEMININE, "pro-anti", "pro"),
    (FEMININE, MASCULINE, FEMININE, "anti-pro", "anti"),
    (FEMININE, FEMININE, None, "pro-neutral", "pro"),
    (MASCULINE, FEMININE, NEUTRAL, "anti-neutral", "anti"),
    (MASCULINE, NEUTRAL, FEMININE, "neutral-anti", "pro"),
    (MASCULINE, NEUTRAL, MASCULINE, "neutral-pro", "anti"),
    (FEMININE, NEUTRAL, NEUTRAL, "neutral-neutral", "neutral"),
    (NEUTRAL, MASCULINE, FEMININE, "pronoun-neutral", "neutral"),
    (MASCULINE, MASCULINE, MASCULINE, "pro-pro", "neutral"),
])
def test_fine_and_coarse(pronoun, main, other, fine, coarse):
    assert s.fine_category(pronoun, main, other) == fine
    assert s.coarse(fine) == coarse


def test_share_thresholds():
    assert stereotype_from_share(89.58) == FEMININE
    assert stereotype_from_share(10.72) == MASCULINE
    assert stereotype_from_share(56.3) == NEUTRAL       # dispatcher
    assert stereotype_from_share(57.0) == FEMININE      # pharmacist: 7 points off 50
    assert stereotype_from_share(45.15) == NEUTRAL      # investigator


@pytest.mark.parametrize("value, kind, coarse", [
    ("filler", "filler", None),
    ("pro.developer|designer.pro-anti", "synthetic", "pro"),
    ("anti.neutral-pro", "synthetic", "anti"),
    ("neutral.pronoun-neutral", "synthetic", "neutral"),
    ("pro-stereotype_Male", "natural", "pro"),
    ("anti-stereotype_Female", "natural", "anti"),
])
def test_question_categories(value, kind, coarse):
    qc = s.parse_question_category(value)
    assert (qc.kind, qc.coarse) == (kind, coarse)


@pytest.mark.parametrize("value", ["pro.x|y.upside-down", "sideways_Male", "", "stereo"])
def test_unknown_question_category(value):
    with pytest.raises(InputError, match="unknown question_category") as exc:
        s.parse_question_category(value, "qa.csv", 7)
    assert "qa.csv, row 7" in str(exc.value)


def test_maze_eligibility():
    text = "The accountant met the janitor and wished her well."
    starts = [0, 4, 15, 19, 23, 31, 35, 42, 46, 50]
    tags = ["DT", "NN", "VBD", "DT", "NN", "CC", "VBD", "PRP", "RB", "."]
    p_end = text.index("her") + 3
    assert s.maze_eligible_by_verbs(starts, tags, p_end)
    tags2 = tags[:8] + ["VB", "."]
    assert not s.maze_eligible_by_verbs(starts, tags2, p_end)
    assert s.maze_eligible_by_order(pronoun_start=30, main_start=4)
    assert not s.maze_eligible_by_order(pronoun_start=2, main_start=4)
