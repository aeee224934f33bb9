"""Verbs that are never nouns or adjectives ("perform", "weep", "suffer"): the shipped list
``resources/verb_only_words.txt``, WordNet's verb-only lemmas as the installed spaCy pipeline
ships them (:mod:`pipeline.nlp.lexicon` writes it, ``make verbs``). The pronoun rules read it:
after "her", such a word is a bare infinitive, so "her" is its subject ("known her perform").

May import: the standard library and :mod:`pipeline.formats.resources`.
"""

from __future__ import annotations

import functools

RESOURCE = "verb_only_words.txt"


@functools.lru_cache(maxsize=1)
def verb_only_words() -> frozenset[str]:
    """The shipped list (lower case, base forms)."""
    from pipeline.formats.resources import resource

    text = resource(RESOURCE).read_text(encoding="utf-8")
    return frozenset(line for line in text.split("\n") if line and not line.startswith("#"))


def verb_only(word: str) -> bool:
    """``word`` (any case) is the base form of a verb that is no noun or adjective."""
    return word.lower() in verb_only_words()
