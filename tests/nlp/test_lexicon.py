"""The verb-only list (resources/verb_only_words.txt) against the installed spaCy pipeline's
WordNet index, which it is built from, and what the pronoun rules ask of it."""

from __future__ import annotations

import pytest

from pipeline.lang.gendered_words import may_be_verb, verb_lemmas, verb_only, verb_only_words
from pipeline.nlp import lexicon


def _index():
    index = lexicon.wordnet_index()
    if index is None:
        pytest.skip("the installed spaCy pipeline ships no lemma_index lookups")
    return index


def test_the_shipped_lists_are_what_the_installed_pipeline_gives():
    """A pipeline upgrade that changes WordNet's index fails here: run `make verbs`."""
    index = _index()
    assert verb_only_words() == frozenset(lexicon.verb_only(index))
    assert verb_lemmas() == frozenset(lexicon.verbs(index))
    assert verb_only_words() < verb_lemmas()


def test_a_word_may_be_a_verb_in_any_of_its_forms():
    for word in ("miss", "Misses", "counted", "fathered", "mothering", "stopped", "man", "perform"):
        assert may_be_verb(word), word
    for word in ("bridesmaid", "boys", "lady", "king", "Duchess", ""):
        assert not may_be_verb(word), word


def test_verbs_that_are_no_noun_and_words_that_are_both():
    for word in ("perform", "weep", "suffer", "sing", "Perform"):
        assert verb_only(word), word
    for word in ("dance", "laugh", "smile", "face", "wont", "perfume", "happy", "her", ""):
        assert not verb_only(word), word


def test_verb_only_takes_verbs_and_leaves_nouns_adjectives_and_phrases():
    index = {"noun": frozenset({"dance", "walk"}), "verb": frozenset({"dance", "weep", "open", "look_up", "Ban"}),
             "adj": frozenset({"open"}), "adv": frozenset()}
    assert lexicon.verb_only(index) == ["weep"]


def test_write_puts_the_wordnet_licence_above_one_word_a_line(tmp_path):
    _index()
    out = tmp_path / "verbs.txt"
    n = lexicon.write_verb_only(out)
    lines = out.read_text(encoding="utf-8").splitlines()
    head = [line for line in lines if line.startswith("#")]
    words = [line for line in lines if line and not line.startswith("#")]
    assert n == len(words) == len(verb_only_words()) and words == sorted(words)
    assert any("WordNet 3.0 Copyright 2006 by Princeton University" in line for line in head)
    assert any("make verbs" in line for line in head)
    assert not list(tmp_path.glob("*.tmp"))
