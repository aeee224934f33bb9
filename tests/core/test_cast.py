"""The person rules of core/cast.py on hand-written sentences, positive and negative.

Each sentence is parsed by the real pipeline; the PERSON entity under test is set by hand so
that the test checks the rule, not the small NER's guess."""

from __future__ import annotations

import pytest

from pipeline.core.cast import cast_rows, doc_mentions
from pipeline.lang.book_evidence import book_evidence


def person_doc(nlp, text: str, word: str, nth: int = 0):
    """``text`` parsed, with the ``nth`` occurrence of ``word`` (one or more tokens) as the
    only PERSON entity."""
    from spacy.tokens import Span

    doc = nlp(text)
    words = word.split()
    hits = [i for i in range(len(doc) - len(words) + 1)
            if [t.text for t in doc[i:i + len(words)]] == words]
    i = hits[nth]
    doc.ents = [Span(doc, i, i + len(words), label="PERSON")]
    return doc


def names(doc, evidence=None):
    return [m.text for m in doc_mentions(doc, evidence)]


BOOK_KENT = ("They lived in Kent for years. She was in Kent again in May. "
             "The roads in Kent were bad. ")


@pytest.mark.parametrize("text,word,evidence_text,person", [
    # places: the sentence, and the book
    ("Since her being in Kent, she had changed.", "Kent", BOOK_KENT, False),
    ("Kent said that he would come.", "Kent", BOOK_KENT, True),
    ("Kent was green and pleasant.", "Kent", BOOK_KENT, False),
    ("Kent was tall and he smiled.", "Kent", "Mr. Kent came. Mr. Kent said so. ", True),
    # dates, months, feasts
    ("Walter Elliot, born March 1, 1760, married.", "March", "", False),
    ("March came in and sat down.", "March", "Mrs. March smiled. Mr. March said so. ", True),
    ("They met in March and parted.", "March", "Mrs. March smiled. Mr. March said so. ", False),
    ("His ordination at Easter was near.", "Easter", "", False),
    ("She was born June 1, 1785.", "June", "", False),
    # saints
    ("He had been presented at St. James's.", "St. James", "", False),
    ("St. John said nothing to her.", "St. John", "", True),
    # articles, powers, headings, estates
    ("They spoke of the Moonstone all night.", "Moonstone", "", False),
    ("Mr. Moon spoke of it all night.", "Mr. Moon", "", True),
    ("Heaven knows what she meant.", "Heaven", "", False),
    ("Sir Walter lived at Kellynch Hall with his daughters.", "Kellynch Hall", "", False),
    ("John Hall lived there with his daughters.", "John Hall", "", True),
    ("Doctor Armstrong came to see her.", "Doctor Armstrong", "", True),
])
def test_person_or_not(nlp, text, word, evidence_text, person):
    doc = person_doc(nlp, text, word)
    ev = book_evidence(evidence_text + text, "b") if evidence_text else None
    assert bool(names(doc, ev)) is person, (text, word)


def test_gender_from_the_book(nlp):
    book = ("Mr. Holmes lit his pipe. Mr. Holmes was silent. Holmes said nothing, and he smiled. "
            "Jo, a tall girl, ran in. Jo looked up and she laughed. Jo sat down and she sighed. "
            + "Demi ran out, and he laughed. " * 10)
    ev = book_evidence(book, "b")
    doc = person_doc(nlp, "Holmes looked at the fire.", "Holmes")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:titles")
    doc = person_doc(nlp, "Jo looked at the fire.", "Jo")
    assert doc_mentions(doc, ev)[0].gender == "feminine"
    doc = person_doc(nlp, "Demi looked at the fire.", "Demi")
    m = doc_mentions(doc, ev)[0]
    assert (m.gender, m.gender_source) == ("masculine", "book:pronouns")   # the book beats gender-guesser
    # without the book: Holmes and Jo have no gender, Demi is gender-guesser's
    assert doc_mentions(person_doc(nlp, "Holmes looked at the fire.", "Holmes"))[0].gender == "ungendered"
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"))[0].gender == "feminine"


def test_a_surname_titled_both_ways_stays_ungendered(nlp):
    ev = book_evidence("Mr. Musgrove came. Mrs. Musgrove sat. Mr. Musgrove left. Mrs. Musgrove cried. " * 3, "b")
    doc = person_doc(nlp, "Musgrove looked at the fire.", "Musgrove")
    assert doc_mentions(doc, ev)[0].gender == "ungendered"


def test_a_person_the_ner_missed_is_added_from_the_book(nlp):
    from spacy.tokens import Span

    book = ("Tuppence said nothing. Tuppence laughed. Miss Tuppence smiled. Miss Tuppence cried. "
            "Tuppence sat down and she sighed. ") * 2
    ev = book_evidence(book, "b")
    doc = nlp("After a while Tuppence stood up.")
    doc.ents = []
    got = doc_mentions(doc, ev)
    assert [(m.text, m.gender) for m in got] == [("Tuppence", "feminine")]
    assert doc_mentions(doc, None) == []
    # ... but never inside a date or another entity of its own
    doc = nlp("After a while Tuppence stood up.")
    i = [t.text for t in doc].index("Tuppence")
    doc.ents = [Span(doc, i, i + 1, label="DATE")]
    assert doc_mentions(doc, ev) == []


def test_overrides_come_first(nlp):
    ev = book_evidence("Nothing here.", "b", {"b": {"Demi": "masculine", "Pinky": "not-a-person"}})
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"), ev)[0].gender == "masculine"
    assert doc_mentions(person_doc(nlp, "Pinky looked at the fire.", "Pinky"), ev) == []
    other = book_evidence("Nothing here.", "other-book", {"b": {"Demi": "masculine"}})
    assert doc_mentions(person_doc(nlp, "Demi looked at the fire.", "Demi"), other)[0].gender == "feminine"


def test_cast_rows_group_forms_into_persons():
    def r(start, text, name, gender, source="gender-guesser:male", title=""):
        return {"book_id": "b", "start": start, "end": start + len(text), "text": text, "name": name,
                "title": title, "gender": gender, "gender_source": source}

    rows, cast = cast_rows("b", [r(0, "Harriet Smith", "Harriet Smith", "feminine"), r(20, "Harriet", "Harriet", "feminine"),
                                 r(40, "Mr. Knightley", "Knightley", "masculine", "title", "Mr."),
                                 r(60, "Knightley", "Knightley", "unknown", "gender-guesser:unknown")])
    assert [c["name"] for c in cast] == ["Harriet Smith", "Knightley"]
    assert [c["mentions"] for c in cast] == [2, 2]
    assert cast[1]["gender"] == "masculine" and cast[1]["forms"] == ["Knightley", "Mr. Knightley"]
    assert [x["person"] for x in rows] == ["P0001", "P0001", "P0002", "P0002"]
    assert cast_rows("b", []) == ([], [])


def test_an_ungendered_mention_takes_the_gender_of_its_full_name_just_before():
    from pipeline.core.cast import resolve_in_context
    from pipeline.lang.names import NameMention

    def m(start, name, gender):
        return NameMention(start, start + len(name), name, "", name, gender, "x")

    ms = resolve_in_context([m(0, "John Durbeyfield", "masculine"), m(100, "Durbeyfield", "ungendered"),
                             m(5000, "Durbeyfield", "ungendered")])
    assert [x.gender for x in ms] == ["masculine", "masculine", "ungendered"]     # too far: none
    ms = resolve_in_context([m(0, "John Durbeyfield", "masculine"), m(50, "Joan Durbeyfield", "feminine"),
                             m(100, "Durbeyfield", "ungendered")])
    assert ms[2].gender == "ungendered"                                              # two candidates


def test_common_words_and_initials_are_no_persons(nlp):
    ev = book_evidence("Beauty is truth. The beauty of it. R. I. P. was carved. Mr. Brown said so. "
                       "Brown said nothing. Brown laughed and he went out.", "b")
    assert names(person_doc(nlp, "Beauty was everywhere that day.", "Beauty"), ev) == []
    assert names(person_doc(nlp, "They carved R. I. P. on it.", "R. I. P."), ev) == []
    assert names(person_doc(nlp, "Then Brown came in.", "Brown"), ev) == ["Brown"]   # the book shows a person


def test_a_house_whose_first_word_is_a_listed_girls_name(nlp):
    # gender-guesser lists "Windy" as a girl's name; the book never shows a Windy
    ev = book_evidence("They walked to Windy Corner. Windy Corner was quiet. Lucy said so.", "b")
    assert names(person_doc(nlp, "They drove back to Windy Corner that night.", "Windy Corner"), ev) == []
    ev = book_evidence("John said so. John laughed, and he left. John Hall came.", "b")
    assert names(person_doc(nlp, "John Hall lived there with his daughters.", "John Hall"), ev) == ["John Hall"]


def test_a_known_place_no_one_in_the_book_is_called(nlp):
    ev = book_evidence("They went to York by coach. It was a long way. " + "The rain fell on the fields. " * 4000, "b")
    assert names(person_doc(nlp, "The coach for York left at noon.", "York"), ev) == []
    ev = book_evidence("Mr. York came in. York said nothing, and he sat down.", "b")
    assert names(person_doc(nlp, "The coach for York left at noon.", "York"), ev) == ["York"]
