"""Three window rules from the read of seed 20261180 (the development books' windows): a person
of the four whom the whole book names at most twice (a name in passing, an allusion) and a
pronoun capitalised inside a sentence (the deity's) and a word of one sex with no counterpart
("his matronly days") refuse the window."""

from collections import Counter

import pytest

from pipeline.core import extract as core
from pipeline.core.extract import BookMeta
from pipeline.lang.book_evidence import book_evidence

META = BookMeta("t", "T", "A")
# a book long enough (over RARE_MIN_WORDS words) whose Clara, Eleanor, Thomas and William are
# its characters
FILLER = "Clara and Eleanor walked with Thomas and William in the garden of the old house. " * 1600


def refusals(nlp, window, book=None):
    ev = book_evidence(book if book is not None else FILLER + window, "t", model=None) if book != "" else None
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(window), 0, META, evidence=ev, rejected=rejected)
    return insts, rejected


@pytest.mark.parametrize("window,refused", [
    # "perhaps of Isaac Johnson himself" (The Scarlet Letter): Boston's founder, written once
    # (titled here: the once-written allusion rule of the cast leaves titled names alone)
    ("Although she admired Clara, Eleanor would not say so to Thomas or to Mr. Isaac Johnson.", True),
    # written twice in the whole book: still in passing
    ("Although she admired Clara, Eleanor would not say so to Thomas or to Isaac Johnson. "
     "Isaac Johnson was long dead.", True),
    # the book's own four characters
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William.", False),
    # a name written three times is kept
    ("Although she admired Clara, Eleanor would not say so to Thomas or to Isaac Johnson. "
     "Isaac Johnson was long dead. Isaac Johnson had founded the town.", False),
])
def test_a_person_the_book_names_at_most_twice_refuses_the_window(nlp, window, refused):
    insts, rejected = refusals(nlp, window)
    assert (rejected.get(core.REJECT_RARE, 0) > 0) is refused, rejected
    assert bool(insts) is not refused


def test_a_short_text_or_no_book_names_its_persons_rarely_and_keeps_the_window(nlp):
    window = "Although she admired Clara, Eleanor would not say so to Thomas or to Isaac Johnson."
    for book in (window * 3, ""):                  # far below RARE_MIN_WORDS words; no evidence
        insts, rejected = refusals(nlp, window, book)
        assert not rejected.get(core.REJECT_RARE), rejected
        assert insts


def test_a_word_the_books_counter_never_saw_says_nothing(nlp):
    # "O'Dowd" is no capitalised word to the counter (the apostrophe): 0 is no "rare"
    window = "Although she admired Clara, Eleanor would not say so to Thomas or to O'Dowd."
    ev = book_evidence(FILLER + window, "t", model=None)
    assert ev.capital["O'Dowd"] == 0
    insts, rejected = refusals(nlp, window)
    assert not rejected.get(core.REJECT_RARE), rejected


@pytest.mark.parametrize("window,refused", [
    # "prayed to God that He would make his club-foot whole": the deity's He, inside a sentence
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William, and she prayed that "
     "He would forgive them.", True),
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William; she left all to Him.", True),
    # at a sentence's start, or after a quotation mark: an ordinary pronoun
    ("Although she admired Clara, Eleanor would not say so to Thomas or to William. He would forgive them.", False),
    ('Although she admired Clara, Eleanor would not say so to Thomas or to William. "He is kind," she said.', False),
])
def test_a_pronoun_capitalised_inside_a_sentence_refuses_the_window(nlp, window, refused):
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(nlp(window), 0, META, rejected=rejected)
    assert (rejected.get(core.REJECT_DEITY, 0) > 0) is refused, rejected
    if not refused:
        assert insts


@pytest.mark.parametrize("tail,refused", [
    (", in her matronly days.", True),          # read of seeds 20261176 and 20261177: "his matronly days"
    (", and she was pregnant.", True),
    (", a matron among matrons.", True),        # read of seed 20261188: "a matron among matrons, Erik"
    (", like the village coquette.", True),
    (", and she was the housewife.", True),
    (", and she was the hostess.", False),      # a pair the swap turns: "the host"
    (", in her motherly way.", False),          # a pair the swap turns: "his fatherly way"
    (", in her later days.", False),
])
def test_a_word_of_one_sex_with_no_counterpart_refuses_the_window(nlp, tail, refused):
    from pipeline.lang import gendered_words as gw

    assert gw.one_sex("Matronly") and not gw.one_sex("motherly")
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(
        nlp("Although she admired Clara, Eleanor would not say so to Thomas or to William" + tail), 0, META,
        rejected=rejected)
    assert (rejected.get(core.REJECT_ONE_SEX, 0) > 0) is refused, rejected
    assert bool(insts) is not refused


def test_a_name_in_capitals_counts_its_title_case_uses():
    # "MADAME DUVAL" heading a letter (Evelina), Madame Duval everywhere else
    from types import SimpleNamespace

    from pipeline.lang.names import NameMention

    ev = book_evidence(FILLER + "MADAME DUVAL wrote. Madame Duval came. Madame Duval left. Madame Duval sat.", "t",
                       model=None)
    duval = SimpleNamespace(mentions=[NameMention(0, 12, "MADAME DUVAL", "MADAME", "DUVAL", "feminine", "title")])
    assert core._rare_person([duval], ev) == ""
    # a hyphenated name counts its parts (Tess: "in the words of M. Sully-Prudhomme", the poet)
    poet = SimpleNamespace(mentions=[NameMention(0, 19, "M. Sully-Prudhomme", "M.", "Sully-Prudhomme", "masculine",
                                                 "title")])
    assert core._rare_person([poet], book_evidence(FILLER + "M. Sully-Prudhomme wrote.", "t", model=None)) \
        == "M. Sully-Prudhomme"
    rare = SimpleNamespace(mentions=[NameMention(0, 12, "Mr. Hume", "Mr.", "Hume", "masculine", "title")])
    assert core._rare_person([duval, rare], book_evidence(FILLER + "Mr. Hume came.", "t", model=None)) == "Mr. Hume"


@pytest.mark.parametrize("window,refused", [
    # "Mamma" as one of the four persons (Jack and Jill: Mrs. Minot, beside "Minot")
    ("Clara and Mamma talked with Thomas and William, and after some urging Mamma went to her room.", True),
    ("Clara and Mary talked with Thomas and William, and after some urging Mary went to her room.", False),
])
def test_a_kin_word_as_one_of_the_four_refuses_the_window(nlp, window, refused):
    from spacy.tokens import Span

    doc = nlp(window)
    ents = [e for e in doc.ents if e.label_ == "PERSON"]
    for w in ("Mamma", "Mary", "Clara", "Thomas", "William"):
        k = next((t.i for t in doc if t.text == w), None)
        if k is not None and not any(e.start <= k < e.end for e in ents):
            ents.append(Span(doc, k, k + 1, label="PERSON"))
    doc.ents = sorted(ents, key=lambda e: e.start)
    # the book's possessive "her" after "Mamma" gives the word its gender
    ev = book_evidence(("Mamma smiled at her own child. Mary shook her head. " * 5) + FILLER + window, "t", model=None)
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(doc, 0, META, evidence=ev, rejected=rejected)
    assert (rejected.get(core.REJECT_KIN_NAME, 0) > 0) is refused, rejected
    assert bool(insts) is not refused


@pytest.mark.parametrize("kin,refused", [
    ("her aunt", True),          # read of seed 20261190: "her aunt Western" beside the squire Western
    ("her sister", True),
    ("her brother", False),      # the kin word agrees: the same man
    ("poor", False),
])
def test_a_kin_word_of_the_other_gender_before_a_name_refuses_the_window(nlp, kin, refused):
    window = ("Thomas Hurst swore at William, and he laughed. Clara sat beside " + kin
              + " Hurst, and Eleanor said nothing to Thomas Hurst.")
    doc = nlp(window)
    # the small NER's label of the bare surname varies with the word before it (ORG after
    # "aunt"): the book's PERSON, as in Tom Jones, is set here
    from spacy.tokens import Span

    i = next(t.i for t in doc if t.text == "Hurst" and doc[t.i - 1].text != "Thomas")
    doc.ents = [e for e in doc.ents if not (e.start <= i < e.end)] + [Span(doc, i, i + 1, "PERSON")]
    # the book makes Hurst a man ("Mr. Hurst said", "he"), as Tom Jones its squire Western
    ev = book_evidence(FILLER + "Mr. Hurst said so, and he sat down. " * 30 + window, "t", model=None)
    rejected = Counter()
    insts, _, _ = core.instances_from_doc(doc, 0, META, evidence=ev, rejected=rejected)
    assert (rejected.get(core.REJECT_KIN_GENDER, 0) > 0) is refused, rejected
    assert bool(insts) is not refused
