"""Reading pace and display time of the timed QA experiment (Lior & Stanovsky's method).

* Reading pace (seconds per word) = the mean, over the calibration sentences answered
  correctly, of (time from showing the sentence to the correct answer, in seconds) / (the
  sentence's length in words). A calibration sentence answered wrongly first counts with the
  time to its *correct* answer (the page asks again until it is right).
* Display time of a trial = alpha x pace x length (words), in milliseconds in the browser.

Words are whitespace-separated tokens (:func:`word_count`), the tokenisation the benchmarks
distribute. Pure functions, no I/O.

May import: the standard library, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import math
from typing import Iterable

ALPHAS = (0.75, 0.5, 0.25)


class PaceError(ValueError):
    """Calibration times that give no pace (none, non-positive, not finite)."""


def word_count(text: str) -> int:
    """Length of a sentence in words (whitespace-separated tokens)."""
    return len(text.split())


def reading_pace(calibration: Iterable[tuple[float, int]]) -> float:
    """Mean seconds per word over ``(seconds_to_correct_answer, n_words)`` pairs."""
    rates = []
    for seconds, n_words in calibration:
        if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and seconds > 0):
            raise PaceError(f"calibration time must be a positive number of seconds, got {seconds!r}")
        if int(n_words) < 1:
            raise PaceError(f"calibration sentence length must be at least 1 word, got {n_words!r}")
        rates.append(float(seconds) / int(n_words))
    if not rates:
        raise PaceError("no calibration answers: the pace needs at least one")
    return sum(rates) / len(rates)


def display_ms(alpha: float, pace_seconds_per_word: float, n_words: int) -> float:
    """How long a trial's sentence stays on screen: alpha x pace x length, in milliseconds."""
    if not (0 < alpha <= 1):
        raise PaceError(f"alpha must be in (0, 1], got {alpha!r}")
    if not (math.isfinite(pace_seconds_per_word) and pace_seconds_per_word > 0):
        raise PaceError(f"pace must be positive, got {pace_seconds_per_word!r}")
    if n_words < 1:
        raise PaceError(f"a sentence of at least one word, got {n_words!r}")
    return alpha * pace_seconds_per_word * n_words * 1000.0
