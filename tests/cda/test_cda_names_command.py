"""``cda``'s person detection leaves out what is no person although the cast kept it: a name
inside the italics of a longer title of a work, and a lone word the evidence (the document's, or
the whole book's with ``--books``) shows as a place and never as a person. The check runs on
hand-made mentions, so no spaCy pipeline is loaded."""

from __future__ import annotations

from types import SimpleNamespace

from pipeline.cda.core.augment import detokenize
from pipeline.lang.book_evidence import book_evidence
from pipeline.cda.runs.cda import PersonFinder, name_swap


def check(sentence: str, word: str, evidence_text: str | None = None, title: str = ""):
    words = sentence.split()
    text, offsets = detokenize(words, [(0, len(words))])
    i = words.index(word)
    mention = SimpleNamespace(start=offsets[i][0], end=offsets[i][1], title=title)
    evidence = book_evidence(evidence_text if evidence_text is not None else text, "b")
    finder = PersonFinder()
    dropped = finder._not_a_person(mention, words, offsets, 0, len(words), evidence)
    return dropped, dict(finder.not_persons)


def test_a_title_of_a_work_is_no_person():
    assert check("I do want to buy _ Undine and Sintran _ for myself .", "Undine") == \
        (True, {"title of a work": 1})
    assert check("\" Do n't , _ Jo _ . It 's so boyish ! \"", "Jo")[0] is False


def test_a_place_of_the_book_is_no_person_and_a_person_of_the_same_name_is():
    book = ("They lived in Florence that spring. " * 3) + "She knew Florence well."
    assert check("He asked whether she knew Florence well .", "Florence", book) == \
        (True, {"a place of the book": 1})
    # the opening alone shows no place use: the mention stays a person
    assert check("He asked whether she knew Florence well .", "Florence")[0] is False
    # a person the book names as one ("Florence said", "she") stays a person
    person = ("Florence said nothing. She smiled. " * 3) + "True, Florence."
    assert check("\" True , Florence , \" she said .", "Florence", person)[0] is False


def test_the_lists_behind_whole_names():
    swap = name_swap()
    assert "bartlett" in swap.surnames and "smith" in swap.surnames
    assert swap.surname_for("Smith") == "Williams" and swap.surname_for("Williams") == "Smith"
    assert swap.surname_for("Honeychurch") in swap.surname_pool      # not in the list: a pool surname
    assert all(" " not in n for names in swap.fallback.values() for n in names)
    assert swap.fallback_for("Jo", "masculine") in swap.fallback["masculine"]
