"""Aligning system tokens with a dataset's text, and the GAP decision rule on clusters."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core.alignment import (Unaligned, align, align_tokens, gold_clusters, is_coreferent,
                                     pronoun_cluster, simple_tokens, token_range)


def test_identical_tokenisation():
    text = "Mr. Bennet met Lydia; she smiled."
    toks = ["Mr.", "Bennet", "met", "Lydia", ";", "she", "smiled", "."]
    assert align_tokens(text, toks) == [(0, 3), (4, 10), (11, 14), (15, 20), (20, 21), (22, 25), (26, 32), (32, 33)]


def test_ptb_escapes_quotes_and_case():
    text = "Anna (the baker) said \u201cno\u201d to Émile."
    toks = ["anna", "-LRB-", "the", "baker", "-RRB-", "said", "``", "no", "''", "to", "emile", "."]
    spans = align_tokens(text, toks)
    assert [text[s:e] for s, e in spans] == ["Anna", "(", "the", "baker", ")", "said", "\u201c", "no",
                                             "\u201d", "to", "Émile", "."]


def test_titles_that_lost_or_gained_their_period():
    spans = align_tokens("Mr Bennet smiled", ["Mr.", "Bennet", "smiled"])
    assert spans == [(0, 2), (3, 9), (10, 16)]                # the period matches nothing
    spans = align_tokens("Mr. Bennet smiled", ["Mr", "Bennet", "smiled"])
    assert spans == [(0, 2), (4, 10), (11, 17)]


def test_retokenisation_and_unknown_tokens():
    text = "She didn't see Anne-Marie."
    spans = align_tokens(text, ["She", "did", "n't", "see", "Anne", "-", "Marie", "[UNK]"])
    assert [text[s:e] for s, e in spans[:7]] == ["She", "did", "n't", "see", "Anne", "-", "Marie"]
    assert spans[7] is None


def test_coverage_of_another_text_is_low():
    _, cov = align("Anna met Bella in the garden.", ["Completely", "different", "words", "here"])
    assert cov < 0.5
    _, cov = align("Anna met Bella.", ["Anna", "met", "Bella", "."])
    assert cov == 1.0


TEXT = "Anna told Bella that her mother called."
TOKS = ["Anna", "told", "Bella", "that", "her", "mother", "called", "."]


def spans_of(*words):
    return [(TEXT.index(w), TEXT.index(w) + len(w)) for w in words]


def test_is_coreferent_rule():
    ts = align_tokens(TEXT, TOKS)
    pron, a, b = spans_of("her", "Anna", "Bella")
    clusters = [[(0, 0), (4, 4)], [(4, 5)]]          # Anna ~ her; "her mother" its own entity
    assert is_coreferent(ts, clusters, pron, a) is True
    assert is_coreferent(ts, clusters, pron, b) is False
    # the pronoun's mention is the shortest one covering it: "her", not "her mother"
    assert pronoun_cluster(clusters, (4, 4)) == (0, (4, 4))
    both = [[(0, 0), (2, 2), (4, 4)]]                 # one cluster holds both candidates
    assert is_coreferent(ts, both, pron, a) and is_coreferent(ts, both, pron, b)
    assert is_coreferent(ts, [[(0, 0), (2, 2)]], pron, a) is False   # pronoun in no mention
    # a multi-token candidate mention overlapping the name counts
    assert is_coreferent(ts, [[(0, 1), (4, 4)]], pron, a) is True


def test_unaligned_spans_raise():
    ts = [None] * len(TOKS)
    with pytest.raises(Unaligned):
        is_coreferent(ts, [], (21, 24), (0, 4))
    assert token_range(align_tokens(TEXT, TOKS), (100, 104)) is None


def test_gold_clusters_encode_the_labels():
    toks, ts = simple_tokens(TEXT)
    assert toks == TOKS
    pron, a, b = spans_of("her", "Anna", "Bella")
    cl = gold_clusters(ts, pron, a, b, True, False)
    assert cl == [[(0, 0), (4, 4)], [(2, 2)]]
    assert is_coreferent(ts, cl, pron, a) and not is_coreferent(ts, cl, pron, b)


WORDS = st.lists(st.sampled_from(["Anna", "Mr.", "Bennet", "she", "(", ")", "\u201c", "said", "don't",
                                  "x-ray", "\u00e9t\u00e9", ",", "."]), min_size=1, max_size=25)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(WORDS, st.lists(st.sampled_from([" ", "  ", "\n", "\t"]), min_size=25, max_size=25))
def test_regex_tokens_align_onto_their_own_spans(words, gaps):
    text = "".join(w + g for w, g in zip(words, gaps))
    toks, spans = simple_tokens(text)
    assert align_tokens(text, toks) == spans
    # lower-cased, PTB-escaped tokens align to the same spans
    esc = {"(": "-LRB-", ")": "-RRB-", "\u201c": "``"}
    assert align_tokens(text, [esc.get(t, t.lower()) for t in toks]) == spans
