"""Classes of errors met in the read of seed 20261136 and in the Austen development originals
(issue 42), each rule with positive and negative hand-written sentences: a stop glued to a dash
and to the next word ("assist us.--Poor Anne", "know her.--My paper") is three tokens and no
sentence break; the possessive and reflexive pronouns after a name vote its gender ("Tana opened
and closed his mouth"); a well-known person whose first word is a common word is no common word
("Mark Antony's oration"); from the read of seed 20261137, a name coordinated with itself
before a singular verb is a thing ("Jarndyce and Jarndyce was the curtain") and a royal title
before a street word a place ("near Queen Square")."""

from __future__ import annotations

import pytest

from pipeline.core import extract as E
from pipeline.core.cast import doc_mentions
from pipeline.lang.book_evidence import book_evidence
from tests.core.test_cast import person_doc


# ------------------------------------------------------------ a stop glued to a dash ----------

@pytest.mark.parametrize("text,tokens", [
    ("to assist us.--Poor Anne was much to blame.", ["us", ".", "--", "Poor", "Anne"]),
    ("proud to know her.--My paper reminds me.", ["her", ".", "--", "My", "paper"]),
    ("congratulations.--Harriet was there.", ["congratulations", ".", "--", "Harriet", "was"]),
    ("the table.--Mrs. Elton came in.", ["table", ".", "--", "Mrs.", "Elton"]),
    ("I saw her,--and then he left.", ["her", ",", "--", "and", "then"]),
    ("assist us.\u2014Poor Anne was here.", ["us", ".", "\u2014", "Poor", "Anne"]),
    ('he said.--"Come here," she cried.', ["said", ".", "--", '"', "Come"]),
])
def test_a_stop_glued_to_a_dash_is_split_into_its_own_tokens(nlp, text, tokens):
    got = [t.text for t in nlp.make_doc(text)]
    k = got.index(tokens[0])
    assert got[k:k + len(tokens)] == tokens


@pytest.mark.parametrize("text", [
    "a well-known man came.",            # a hyphen between letters: spaCy's own infix
    "He stopped--and went on.",           # no stop before the dash
    "It was 3.5 miles away -- or more.",  # a decimal point; a spaced dash
    "Mr. Weston came. -- Emma left.",
    "Ann.--",                             # nothing after the dash
])
def test_what_is_no_stop_dash_is_tokenized_as_english_defaults_do(nlp, text):
    import spacy

    plain = spacy.blank("en").tokenizer
    assert [t.text for t in nlp.make_doc(text)] == [t.text for t in plain(text)]


def test_a_pronoun_glued_to_a_stop_dash_is_a_pronoun_token(nlp):
    doc = nlp("Mr. Knightley said that my cousins would be proud to know her.--My paper reminds me.")
    assert "her" in [t.text for t in E.pronoun_tokens(doc)]


@pytest.mark.parametrize("text", [
    "We must wait, and hope for any friend that may be able to assist us.--Poor Anne was much to blame "
    "for what she did, but she did it for the best.",
    "It was true, and he said it.--Harriet was there, and Emma saw her.",
])
def test_a_stop_glued_to_a_dash_breaks_no_sentence(nlp, text):
    """Counter-GAP's sentences (spaCy's, while "us.--Poor" was one token) stay: no sentence
    starts at the dash or at the word glued after it."""
    doc = nlp(text)
    dash = next(t for t in doc if t.text == "--")
    assert not dash.is_sent_start and not doc[dash.i + 1].is_sent_start
    assert len(E.doc_sentences(doc)) == 1


def test_a_name_glued_after_a_stop_dash_is_a_mention(nlp):
    doc = nlp("She sent her congratulations.--Harriet was there with Mr. Knightley.")
    assert [m.text for m in E.person_mentions(doc)] == ["Harriet", "Mr. Knightley"]


def test_the_infixes_are_added_once(nlp):
    from pipeline.nlp import load as nlp_mod

    before = nlp.tokenizer.infix_finditer
    nlp_mod.split_stop_dashes(nlp)
    assert nlp.tokenizer.infix_finditer == before
    assert nlp_mod.STOP_DASH_JOINS in nlp.pipe_names


# ------------------------------------------- possessive and reflexive pronouns vote -------

@pytest.mark.parametrize("sentence,votes", [
    ("Tana opened and closed his mouth several times.", {"masculine": 1}),
    ("Tana saw himself in the glass.", {"masculine": 1}),
    ("Tana found herself alone in the garden.", {"feminine": 1}),
    ("Tana said that he would come.", {"masculine": 1}),
    # an object is mostly someone else: no vote
    ("Tana reassured him quietly.", {}),
    ("Tana looked at her for a long while.", {}),
    # another name between the name and the pronoun: no vote
    ("Tana shook Anthony warmly by his hand.", {}),
    # too far from the sentence start to be its subject: no vote
    ("In the long evenings of that summer Tana took his flute out.", {}),
])
def test_own_pronouns_after_a_name_vote_its_gender(sentence, votes):
    book = "Tana came. Anthony waited. " + sentence + " Anthony left."
    ev = book_evidence(book, "b")
    form = ev.forms.get("Tana")
    assert (dict(form.pronouns) if form is not None else {}) == votes


# ------------------------------------------------- a well-known person, a common word ----

BOOK_MARK = ("He left a mark on the door. Mark the place well, she said. The mark was there. "
             "Anne laughed. Prissy sang. ") * 3


@pytest.mark.parametrize("text,word,person", [
    # "Mark Antony" is a well-known person, "mark" a common word of the book: a person still
    ("Mr. Phillips gave Mark Antony's oration over the body.", "Mark Antony", True),
    # a common first word of a name nobody knows stays a common word
    ("He had been at the Royal George, he said.", "Royal George", False),
])
def test_a_well_known_person_is_no_common_word(nlp, text, word, person):
    doc = person_doc(nlp, text, word)
    assert bool(doc_mentions(doc, book_evidence(BOOK_MARK, "b"))) is person


# ------------------------------------------ the read of seed 20261137: a lawsuit, a square ----

@pytest.mark.parametrize("text,word,nth,person", [
    # the coordination is the subject of a singular verb: one thing ("was", two people "were")
    ("But it was too much. Jarndyce and Jarndyce was the curtain of Rick's cradle.", "Jarndyce", 0, False),
    ("But it was too much. Jarndyce and Jarndyce was the curtain of Rick's cradle.", "Jarndyce", 1, False),
    ("Jarndyce and Jarndyce is a suit that never ends.", "Jarndyce", 0, False),
    # the second name the subject of its own clause: two mentions of one person
    ("Alice had written to Clara and Clara was pleased.", "Clara", 1, True),
])
def test_a_name_coordinated_with_itself_before_a_singular_verb_is_a_thing(nlp, text, word, nth, person):
    doc = person_doc(nlp, text, word, nth)
    assert bool(doc_mentions(doc)) is person


@pytest.mark.parametrize("text,word,person", [
    ("They took a quiet old house near Queen Square for him.", "Queen Square", False),
    ("He lodged in Duke Street all winter.", "Duke Street", False),
    # a royal title before a given name, a gendered title before a street word's namesake
    ("They bowed to Queen Victoria at the gate.", "Queen Victoria", True),
    ("He bowed to Mr. Street at the gate.", "Mr. Street", True),
])
def test_a_royal_title_before_a_street_word_is_a_place(nlp, text, word, person):
    doc = person_doc(nlp, text, word)
    assert bool(doc_mentions(doc)) is person
