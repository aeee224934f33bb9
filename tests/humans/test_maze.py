"""Maze distractors: real words of similar length and frequency, another part of speech,
never gendered words or names; seeded; dressed like the true word."""

import random

import pytest

from pipeline.humans.core import maze as maze
from pipeline.humans.core.maze import Entry, Lexicon, allowed, coarse_pos, distractors, dress

WORDS = [  # word, Zipf, coarse POS (as spaCy tags them alone)
    ("table", 4.9, "noun"), ("house", 5.5, "noun"), ("green", 5.0, "adj"), ("quick", 4.9, "adj"),
    ("seven", 5.0, "num"), ("often", 5.1, "adv"), ("under", 5.4, "prep"), ("drive", 5.0, "verb"),
    ("sleep", 5.0, "verb"), ("plant", 4.7, "noun"), ("mostly", 4.8, "adv"), ("across", 5.2, "prep"),
    ("baghdad", 4.3, "propn"), ("mother", 5.3, "noun"), ("john", 5.2, "noun"), ("paper", 5.2, "noun"),
]


@pytest.fixture(scope="module")
def lexicon():
    return Lexicon([Entry(w, z, p) for w, z, p in WORDS])


@pytest.mark.parametrize("word", ["mother", "king", "actress", "he", "her", "himself", "john",
                                  "mary", "they", "x", "don't", "café"])
def test_gendered_words_pronouns_names_and_non_words_are_never_distractors(word):
    assert not allowed(word)


@pytest.mark.parametrize("word", ["table", "green", "often", "under"])
def test_ordinary_words_are_allowed(word):
    assert allowed(word)


def test_lexicon_drops_proper_nouns_gendered_words_and_names(lexicon):
    words = {e.word for e in lexicon.entries}
    assert {"baghdad", "mother", "john"}.isdisjoint(words)
    assert "table" in words


def test_distractor_has_another_part_of_speech_similar_length_and_frequency(lexicon):
    rng = random.Random(0)
    for _ in range(20):
        d = lexicon.choose("chair", "noun", rng, word_zipf=4.8)
        entry = next(e for e in lexicon.entries if e.word == d)
        assert entry.pos != "noun"
        assert abs(len(d) - 5) <= 2 and abs(entry.zipf - 4.8) <= 1.5


def test_distractor_avoids_the_sentences_own_words(lexicon):
    rng = random.Random(1)
    for _ in range(20):
        assert lexicon.choose("chair", "noun", rng, avoid={"green", "quick", "seven"},
                              word_zipf=4.9) not in {"green", "quick", "seven"}


def test_seeded():
    lex = Lexicon([Entry(w, z, p) for w, z, p in WORDS])
    toks = ["The", "plant", "grew", "under", "green", "light."]
    tags = ["DT", "NN", "VBD", "IN", "JJ", "NN"]
    a = distractors(toks, tags, lex, random.Random(7))
    assert a == distractors(toks, tags, lex, random.Random(7))
    assert a[0] is None and len(a) == len(toks)
    assert a[-1].endswith(".")


def test_dress_copies_capitals_and_punctuation():
    assert dress("table", "Green,") == "Table,"
    assert dress("table", '"often') == '"table'
    assert dress("table", "car.") == "table."


def test_coarse_pos():
    assert coarse_pos("VBD") == coarse_pos("MD") == "verb"
    assert coarse_pos("NNS") == "noun" and coarse_pos("NNP") == "propn"
    assert coarse_pos("JJR") == "adj" and coarse_pos("RB") == "adv" and coarse_pos("IN") == "prep"


def test_wordfreq_candidates_are_all_allowed():
    words = maze.distractor_candidates(3000)
    assert len(words) > 2000
    assert all(allowed(w) for w, _ in words)
    assert not {"he", "she", "man", "woman", "john", "mary"} & {w for w, _ in words}


def test_clitics_get_a_plain_word(lexicon):
    out = distractors(["The", "chief", "'s", "plan."], ["DT", "NN", "POS", "NN"], lexicon,
                      random.Random(2))
    assert "'" not in out[2] and out[2].isalpha()
    assert out[3].endswith(".")
