"""Mention forms (the clean-variant rules): an ungendered title belongs to the mention it
stands before, "St. Name's" is a place, a punctuation run ends a name. Hand-built Docs, so the
rules are tested apart from what the NER happens to mark."""

import pytest
from spacy.tokens import Doc, Span

from pipeline.formats.resources import read_commented, resource
from pipeline.lang.names import (any_title, mention_from_span, name_end, saint_place, title_gender,
                                 ungendered_title, ungendered_titles)


def _mention(nlp, words, start, end, spaces=None):
    doc = Doc(nlp.vocab, words=words, spaces=spaces)
    doc.ents = [Span(doc, start, end, label="PERSON")]
    return mention_from_span(doc.ents[0])


# ------------------------------------------------------------------ the title table ---------

def test_ungendered_titles_are_read_from_the_resource():
    rows = read_commented(resource("ungendered_titles.tsv"), header="title", min_columns=2)
    assert len(rows) == len(ungendered_titles()) > 20
    for t in ("Doctor", "Dr.", "DR", "Professor", "Rev.", "St.", "Saint", "Judge"):
        assert ungendered_title(t), t
        assert title_gender(t) is None, t          # no gender: not in titles.tsv
        assert any_title(t)
    assert not ungendered_title("doctor")           # a common noun, not a title
    assert not ungendered_title("Darcy")
    assert any_title("Mrs.") and not ungendered_title("Mrs.")


def test_no_title_is_in_both_tables():
    from pipeline.lang.names import titles

    assert not set(titles()) & set(ungendered_titles())


# ------------------------------------------------------------------ ungendered titles -------

@pytest.mark.parametrize("words,start,end", [
    (["Doctor", "Armstrong", "'s", "house", "."], 1, 2),     # NER marks the name only
    (["Doctor", "Armstrong", "'s", "house", "."], 0, 3),     # ... or the title and possessive too
])
def test_ungendered_title_before_a_name_joins_the_mention(nlp, words, start, end):
    m = _mention(nlp, words, start, end, spaces=[True, False, True, False, False])
    assert (m.text, m.title, m.name) == ("Doctor Armstrong", "Doctor", "Armstrong")
    assert (m.start, m.end) == (0, len("Doctor Armstrong"))
    assert m.token_start == 0 and m.token_end == 2


def test_ungendered_title_gives_no_gender(nlp):
    m = _mention(nlp, ["Dr.", "John", "Watson", "came"], 1, 3)
    assert (m.text, m.title, m.name) == ("Dr. John Watson", "Dr.", "John Watson")
    assert m.gender == "masculine" and m.gender_source.startswith("gender-guesser")   # from "John"
    m = _mention(nlp, ["Professor", "Bhaer", "came"], 0, 2)
    assert (m.title, m.name, m.gender) == ("Professor", "Bhaer", "ungendered")


def test_ungendered_title_with_a_split_period(nlp):
    m = _mention(nlp, ["DR", ".", "WALKER", "came"], 2, 3, spaces=[False, True, True, False])
    assert (m.text, m.title, m.name) == ("DR. WALKER", "DR.", "WALKER")


def test_a_lone_ungendered_title_is_the_name(nlp):
    m = _mention(nlp, ["Doctor", "said", "so"], 0, 1)
    assert (m.text, m.title, m.name) == ("Doctor", "", "Doctor")


def test_gendered_title_still_wins(nlp):
    m = _mention(nlp, ["Mrs.", "Armstrong", "came"], 0, 2)
    assert (m.title, m.gender, m.gender_source) == ("Mrs.", "feminine", "title")


# ------------------------------------------------------------------ St. / Saint -------------

def test_st_john_said_is_a_person(nlp):
    m = _mention(nlp, ["St.", "John", "said", "nothing", "."], 1, 2)
    assert (m.text, m.title, m.name, m.gender) == ("St. John", "St.", "John", "masculine")


@pytest.mark.parametrize("words,name", [
    (["at", "St.", "James", "'s", "."], 2),                            # ends the phrase
    (["to", "St.", "Paul", "'s", "Cathedral", "."], 2),                # a capitalised word after it
    (["on", "St.", "Michael", "'s", "day", "."], 2),                   # a feast
    (["to", "Saint", "Mary", "'s", "church", "."], 2),
])
def test_st_name_possessive_is_a_place_not_a_person(nlp, words, name):
    spaces = [True] * len(words)
    spaces[name] = False
    assert _mention(nlp, words, name, name + 1, spaces) is None
    assert _mention(nlp, words, name - 1, name + 2, spaces) is None     # NER took the title and "'s" too


def test_st_name_possessive_before_a_noun_is_the_person(nlp):
    m = _mention(nlp, ["St.", "John", "'s", "eyes", "fell"], 1, 2, spaces=[True, False, True, True, False])
    assert (m.text, m.name) == ("St. John", "John")


def test_saint_place_reads_the_parse(nlp):
    doc = nlp("We went to St. James's last week and St. John's eyes were on Jane.")
    toks = [t.text for t in doc]
    i, j = toks.index("St."), toks.index("St.", toks.index("St.") + 1)
    assert saint_place(doc, i, i + 2)                 # "James's" modifies a date or stands alone
    assert not saint_place(doc, j, j + 2)             # "John's eyes": the person's eyes
    assert not saint_place(doc, toks.index("Jane") - 1, toks.index("Jane"))   # not a saint's title


# ------------------------------------------------------------------ punctuation runs --------

@pytest.mark.parametrize("text,end", [
    ("Darcy", 5), ("Mary-Anne", 9), ("O'Brien", 7), ("J. K. Rowling", 13), ("Mr. Darcy", 9),
    ("Darcy!--and", 5), ("Darcy--and", 5), ("Darcy,", 5), ("Darcy, I vow", 5), ("Darcy--", 5),
    ("Darcy -- and", 5), ("Darcy'", 5), ("Jane;", 4), ("Jane (the elder)", 4), ("Jane...", 4),
    # a period after a word that is no abbreviation ends a sentence, and the name
    ("Father. He", 6), ("Father.  He", 6), ("Jane. She", 4), ("Darcy. Mr. Bingley", 5),
    ("St. John", 8), ("Dr. Watson", 10), ("Wm. Collins", 11), ("MRS. BENNET", 11), ("John Smith Jr. Esq", 18),
])
def test_name_end(text, end):
    assert name_end(text) == end


def test_punctuation_run_inside_a_token_ends_the_mention(nlp):
    # spaCy keeps "Darcy!--and" as one token tagged PERSON; the mention is "Mr. Darcy"
    m = _mention(nlp, ["Oh", "!", "Mr.", "Darcy!--and", "so", "it", "does"], 3, 4,
                 spaces=[False, True, True, True, True, True, False])
    assert (m.text, m.title, m.name, m.gender) == ("Mr. Darcy", "Mr.", "Darcy", "masculine")
    assert m.end - m.start == len("Mr. Darcy")
    assert m.token_end == 4                  # the token that holds the cut


def test_punctuation_tokens_inside_an_entity_end_the_mention(nlp):
    m = _mention(nlp, ["Jane", "--", "and", "Lizzy", "came"], 0, 4)
    assert (m.text, m.name) == ("Jane", "Jane")
    assert m.token_end == 1


def test_entity_running_across_a_sentence_end_keeps_no_pronoun(nlp):
    # Howards End: NER marked "Father.  He" as one PERSON; "He" is the pronoun, not a name
    words = ["come", "in", "at", "once", "to", "Father", ".", " ", "He", "'s", "had", "a", "letter"]
    spaces = [True, True, True, True, True, False, True, False, False, True, True, True, False]
    assert _mention(nlp, words, 5, 9, spaces=spaces) is None
    m = _mention(nlp, ["to", "Jane", ".", "She", "had"], 1, 4)
    assert (m.text, m.name, m.token_end) == ("Jane", "Jane", 2)
    m = _mention(nlp, ["St.", "John", "said"], 0, 2)
    assert (m.text, m.name) == ("St. John", "John")


def test_whole_name_of_punctuation_is_no_mention(nlp):
    assert _mention(nlp, ["Mr.", "--", "said", "she"], 0, 2) is None
