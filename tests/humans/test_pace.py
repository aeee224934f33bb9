"""Reading pace and display time of the timed QA experiment."""

import math

import pytest
from hypothesis import given, strategies as st

from pipeline.humans.core.pace import ALPHAS, PaceError, display_ms, reading_pace, word_count


def test_pace_is_the_mean_of_seconds_per_word():
    # 10 words in 5 s -> 0.5 s/word; 4 words in 4 s -> 1 s/word; mean 0.75
    assert reading_pace([(5.0, 10), (4.0, 4)]) == pytest.approx(0.75)


def test_display_time_is_alpha_pace_length_in_ms():
    assert display_ms(0.5, 0.3, 12) == pytest.approx(1800.0)
    assert display_ms(0.25, 0.4, 10) == pytest.approx(1000.0)


def test_word_count_is_whitespace_tokens():
    assert word_count("The developer argued with the designer.") == 6
    assert word_count("  two   words ") == 2


@pytest.mark.parametrize("bad", [[], [(0.0, 5)], [(-1.0, 5)], [(float("nan"), 5)], [(2.0, 0)]])
def test_bad_calibration_is_refused(bad):
    with pytest.raises(PaceError):
        reading_pace(bad)


@pytest.mark.parametrize("args", [(0.0, 0.3, 10), (1.5, 0.3, 10), (0.5, 0.0, 10), (0.5, 0.3, 0)])
def test_bad_display_arguments_are_refused(args):
    with pytest.raises(PaceError):
        display_ms(*args)


@given(st.lists(st.tuples(st.floats(0.1, 60), st.integers(1, 60)), min_size=1, max_size=8),
       st.sampled_from(ALPHAS), st.integers(1, 80))
def test_display_time_scales_with_alpha_and_length(calib, alpha, n):
    pace = reading_pace(calib)
    lo = min(s / w for s, w in calib)
    hi = max(s / w for s, w in calib)
    assert lo - 1e-9 <= pace <= hi + 1e-9
    ms = display_ms(alpha, pace, n)
    assert math.isclose(ms, alpha * pace * n * 1000)
    assert ms < display_ms(1.0, pace, n) or alpha == 1.0
