"""How common an English word is: wordfreq's Zipf frequency, the one place every layer asks.

The person rules (:mod:`pipeline.core.cast`, :mod:`pipeline.nlp.persons`), the person model's
features (:mod:`pipeline.lang.person_model`) and the Maze experiment's distractors
(:mod:`pipeline.humans.core.maze`) all use it.

May import: wordfreq, the standard library.
"""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=100_000)
def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of the lower-case word in English (0 for a word it does not
    know; "the" about 7.7, "John" 5.4)."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en")
