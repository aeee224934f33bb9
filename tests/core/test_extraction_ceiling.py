"""The gold ceiling of the extraction rules (pipeline/core/extraction_ceiling.py) on hand-made documents."""

from __future__ import annotations

from pipeline.core.extraction_ceiling import GoldDocument, ceiling, cluster_gender, document_ceiling, is_named
from pipeline.lang.pronouns import FEMININE, MASCULINE

# "Mr. Bennet told Jane and Lydia that Mr. Wickham had gone , and she wept ."
WORDS = ["Mr.", "Bennet", "told", "Jane", "and", "Lydia", "that", "Mr.", "Wickham", "had", "gone", ",",
         "and", "she", "wept", "."]
CLUSTERS = [[(0, 1)], [(3, 3), (13, 13)], [(5, 5)], [(7, 8)]]


def _doc(words=WORDS, clusters=CLUSTERS, starts=(0,)):
    return GoldDocument("d", list(words), list(starts), [list(c) for c in clusters])


def test_two_and_two_named_persons_before_the_pronoun_make_a_finalpro():
    c = document_ceiling(_doc(), initial=set())
    assert (c.pronouns, c.two_and_two, c.instances) == (1, 1, 1)
    assert dict(c.patterns) == {"FINALPRO": 1}
    # the loosest bound counts every pronoun as initial: INITIALPRO is tried first
    assert dict(document_ceiling(_doc()).patterns) == {"INITIALPRO": 1}


def test_a_description_is_not_a_person():
    words = WORDS[:5] + ["the", "girl"] + WORDS[6:]          # "... told Jane and the girl that ..."
    clusters = [[(0, 1)], [(3, 3), (14, 14)], [(5, 6)], [(8, 9)]]
    c = document_ceiling(_doc(words, clusters))
    assert (c.pronouns, c.two_and_two, c.instances) == (1, 0, 0)


def test_an_ungendered_cluster_does_not_spoil_the_window():
    words = WORDS[:-1] + ["in", "London", "."]
    c = document_ceiling(_doc(words, CLUSTERS + [[(16, 16)]]))
    assert c.instances == 1


def test_a_third_woman_spoils_the_window():
    words = ["Kitty", "sang", "."] + WORDS
    clusters = [[(0, 0)]] + [[(s + 3, e + 3) for s, e in c] for c in CLUSTERS]
    assert document_ceiling(_doc(words, clusters, starts=(0, 3))).instances == 1    # a window without Kitty
    words = ["Kitty", "sang", "and"] + WORDS
    assert document_ceiling(_doc(words, clusters, starts=(0,))).instances == 0      # one sentence: three women


def test_initial_clauses_decide_initialpro():
    # "Jane smiled at Mr. Bennet and Mr. Wickham . When she saw Lydia , Jane laughed ."
    words = ["Jane", "smiled", "at", "Mr.", "Bennet", "and", "Mr.", "Wickham", ".",
             "When", "she", "saw", "Lydia", ",", "Jane", "laughed", "."]
    clusters = [[(0, 0), (14, 14), (10, 10)], [(3, 4)], [(6, 7)], [(12, 12)]]
    doc = _doc(words, clusters, starts=(0, 9))
    assert dict(document_ceiling(doc, initial=None).patterns) == {"INITIALPRO": 1}
    assert document_ceiling(doc, initial={10}).instances == 1
    assert document_ceiling(doc, initial=set()).instances == 0      # Lydia and Jane come after "she"
    total = ceiling([doc, _doc()], initial={"d": set()})
    assert (total.pronouns, total.instances) == (2, 1)


def test_named_mentions():
    assert is_named(["Mr.", "Hilbery"]) and is_named(["Katharine"]) and is_named(["Lady", "Elliot"])
    assert is_named(["Mrs.", "Hilbery", "'s"]) and is_named(["Catherine", "de", "Bourgh"])
    assert not is_named(["He"]) and not is_named(["The", "Lady"]) and not is_named(["the", "girl"])
    assert not is_named(["Her", "Ladyship"]) and not is_named([])


def test_cluster_gender_pronoun_majority_then_names():
    words = ["Jo", "said", "he", "and", "he", "and", "she", "Mr.", "Hilbery", "Miss", "Darcy"]
    assert cluster_gender(words, [(0, 0), (2, 2), (4, 4), (6, 6)]) == MASCULINE
    assert cluster_gender(words, [(0, 0), (2, 2), (6, 6)]) is None              # a tie
    assert cluster_gender(words, [(7, 8)]) == MASCULINE                         # title, no pronoun
    assert cluster_gender(words, [(9, 10)]) == FEMININE
    assert cluster_gender(words, [(7, 8), (9, 10)]) is None                     # names disagree
    assert cluster_gender(words, [(7, 8), (8, 8)]) == MASCULINE                 # "Hilbery" (unknown) beside "Mr. Hilbery"
    assert cluster_gender(words, [(0, 0)]) is None                              # "Jo": gender-guesser's andy
