"""Verbs that are never nouns or adjectives ("perform", "weep", "suffer"): the shipped list
``resources/verb_only_words.txt``, WordNet's verb-only lemmas as the installed spaCy pipeline
ships them (:mod:`pipeline.nlp.lexicon` writes it, ``make verbs``). The pronoun rules read it:
after "her", such a word is a bare infinitive, so "her" is its subject ("known her perform").
And every verb lemma (``resources/verbs.txt``): a listed gendered noun the tagger tags a verb is
a noun when the word is no verb at all ("to spend as bridesmaid", tagged VBN).

May import: the standard library and :mod:`pipeline.formats.resources`.
"""

from __future__ import annotations

import functools

RESOURCE = "verb_only_words.txt"
VERBS = "verbs.txt"


@functools.lru_cache(maxsize=2)
def _words(name: str) -> frozenset[str]:
    from pipeline.formats.resources import resource

    text = resource(name).read_text(encoding="utf-8")
    return frozenset(line for line in text.split("\n") if line and not line.startswith("#"))


def verb_only_words() -> frozenset[str]:
    """The shipped list (lower case, base forms)."""
    return _words(RESOURCE)


def verb_lemmas() -> frozenset[str]:
    """Every verb lemma of the shipped ``resources/verbs.txt`` (lower case)."""
    return _words(VERBS)


def may_be_verb(word: str) -> bool:
    """``word`` (any case, any form) may be a form of a verb: it, or it without a verb's ending
    (-s, -es, -ed, -d, -ing, with a final "e" put back or a doubled consonant undone), is a verb
    lemma. "bridesmaid" is none, so a tagger's VBN on it is an error; "misses", "counted" are."""
    w = word.lower()
    cands = {w}
    for suffix in ("s", "es", "ed", "d", "ing"):
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[:-len(suffix)]
            cands |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                cands.add(stem[:-1])
    return bool(cands & verb_lemmas())


def verb_only(word: str) -> bool:
    """``word`` (any case) is the base form of a verb that is no noun or adjective."""
    return word.lower() in verb_only_words()
