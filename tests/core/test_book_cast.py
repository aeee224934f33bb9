"""One cast per book: the evidence extract gathers is stored and read back unchanged, and
generate's re-check asks the book's cast (:class:`pipeline.core.book_cast.BookCast`) instead of
re-deciding persons and genders from each isolated variant."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.core import recheck as rc
from pipeline.core.book_cast import BookCast, name_words
from pipeline.core.cast import EVIDENCE_KEY
from pipeline.core.quadruples import Edit, quadruple
from pipeline.lang import evidence_json as ej
from pipeline.lang.book_evidence import BookEvidence, FormEvidence, book_evidence
from tests.core.generate_helpers import build_instance
from tests.core.test_generate_recheck import _row_and_doc

F, M = "feminine", "masculine"


# ------------------------------------------------------------------ the stored evidence -----

def test_a_books_evidence_round_trips_through_json():
    text = ("Laurie came in. He laughed. Laurie said nothing; he sat. Mr. Brooke smiled, and Laurie "
            "went to Plumfield. Jo, a tall girl, ran in Kent. \"Well,\" said Demi.") * 3
    ev = book_evidence(text, "514", {"514": {"Demi": M}})
    back = ej.loads(ej.dumps(ev))
    assert back == ev
    assert back.forms["Laurie"].pronouns == ev.forms["Laurie"].pronouns
    assert isinstance(back.lower, Counter) and back.override("Demi") == M


def test_evidence_of_another_version_is_refused_with_what_to_do():
    text = ej.dumps(BookEvidence("1")).replace(f'"version":{ej.VERSION}', '"version":999')
    with pytest.raises(ej.EvidenceVersionError, match="run extract again"):
        ej.loads(text)


_counts = st.dictionaries(st.text(min_size=1, max_size=6), st.integers(0, 50), max_size=5)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(forms=st.dictionaries(st.text(min_size=1, max_size=8),
                             st.tuples(st.integers(0, 9), st.integers(0, 9), _counts, _counts), max_size=6),
       lower=_counts, rules=st.booleans())
def test_any_evidence_round_trips(forms, lower, rules):
    ev = BookEvidence("b", {f: FormEvidence(place=p, person=q, titled=Counter(t), pronouns=Counter(v))
                            for f, (p, q, t, v) in forms.items()},
                      {}, Counter(lower), Counter(), Counter(), rules)
    assert ej.loads(ej.dumps(ev)) == ev


# ------------------------------------------------------------------ the cast ----------------

def test_name_words_drop_titles_and_possessives():
    assert name_words("Mr. Darcy's", "Mr.") == ["Darcy"]
    assert name_words("Stepan Arkadyevitch") == ["Stepan", "Arkadyevitch"]
    assert name_words("Lady Catherine") == ["Catherine"]


def test_a_form_is_a_member_when_extract_found_it_twice_or_the_book_shows_it():
    mentions = [{"kind": "name", "text": "Vronsky", "title": "", "gender": M}] * 2 + \
               [{"kind": "name", "text": "Hark", "title": "", "gender": M},
                {"kind": "pronoun", "text": "she", "title": "", "gender": F}]
    ev = book_evidence("Mr. Bucket came in. \"Come,\" said Tuppence. Tuppence laughed. \"No,\" said Tuppence.",
                       "1")
    cast = BookCast.from_mentions("1", ev, mentions)
    assert cast.is_member("Vronsky") and cast.gender("Vronsky") == M
    assert not cast.is_member("Hark")                 # once: a stray reading of the NER
    assert cast.is_member("Tuppence")                 # the book's speech verbs
    assert cast.is_member("Bucket")                   # the book titles it
    assert not cast.is_member("Diamond")
    assert cast.member_in("Mr. Smith", "Mr.") == "Smith"     # a titled name is a person
    assert cast.member_in("Hark") is None


# ------------------------------------------------------------------ the re-check -----------

WORDS = ["Jane", "met", "Tom", "and", "Emma", "with", "Lydia", "and", "Frank", "."]
NAMES = [("C1", F, [(0, 1)]), ("C2", M, [(2, 3)]), ("O1", F, [(4, 5)]), ("O2", M, [(8, 9)])]


def _cast(*forms):
    return BookCast("1", BookEvidence("1"), {f: Counter({F: 3}) for f in forms})


def test_a_person_of_the_book_outside_the_four_fails(nlp):
    row, doc = _row_and_doc(nlp, WORDS, [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)], NAMES)
    assert rc.recheck_with_cast(row, doc, [], _cast("Lydia")) == (rc.RECHECK_CAST_MEMBER, "Lydia")


def test_a_detection_the_book_never_shows_as_a_person_is_noise(nlp):
    row, doc = _row_and_doc(nlp, WORDS, [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)], NAMES)
    assert rc.recheck_with_cast(row, doc, [], _cast("Jane")) == (None, "")


def test_a_person_the_swap_made_fails(nlp):
    row, doc = _row_and_doc(nlp, WORDS, [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)], NAMES)
    lydia = doc[6].idx
    edit = Edit(lydia, lydia + 5, "Lydia", "word", "Lydia")
    assert rc.recheck_with_cast(row, doc, [edit], _cast()) == (rc.RECHECK_NEW_PERSON, "Lydia")


def test_names_are_not_read_again_for_gender(nlp):
    # "Jane" and "Emma" at masculine slots: the sentence rules fail it, the book's cast does not
    names = [("C1", M, [(0, 1)]), ("C2", M, [(2, 3)]), ("O1", M, [(4, 5)]), ("O2", M, [(8, 9)])]
    row, doc = _row_and_doc(nlp, WORDS, [(0, 1), (2, 3), (4, 5), (8, 9)], names)
    assert rc.recheck_row(row, doc)[0] == rc.RECHECK_GENDER
    assert rc.recheck_with_cast(row, doc, [], _cast()) == (None, "")


LAURIE = {"C1": ("Laurie", M, ["Laurie"]), "C2": ("Tom", M, ["Tom"]),
          "O1": ("Meg", F, ["Meg"]), "O2": ("Mrs. March", F, ["Mrs. March"])}
LAURIE_TEXT = "Laurie met Meg and Mrs. March. Tom said that he was late."
LAURIE_BOOK = ("Laurie came in, and he laughed. Laurie sat down; he was tired. Laurie ran, and he fell. "
               "Laurie spoke, and he smiled. ") * 3


def _recheck(nlp, inst, cast):
    rows, edits = quadruple(inst, "q")
    docs = list(nlp.pipe(r["text"] for r in rows))
    if cast is not None:
        for d in docs:
            d.user_data[EVIDENCE_KEY] = cast.evidence
    return rc.recheck_quadruple(inst, rows, edits, docs, cast=cast)


def test_a_name_the_book_genders_is_kept_with_the_books_cast(nlp):
    inst = build_instance(nlp, LAURIE_TEXT, LAURIE, ("he", 0), ("C1", 0), ("C2", 0))
    ev = book_evidence(LAURIE_BOOK + LAURIE_TEXT, "514")
    cast = BookCast.from_mentions("514", ev, [{"kind": "name", "text": "Laurie", "title": "", "gender": M}] * 3)
    assert _recheck(nlp, inst, None)[0] == rc.RECHECK_GENDER      # the sentence rules: a girl's name
    assert _recheck(nlp, inst, cast) == (None, "", "")


def test_a_fifth_cast_member_still_fails_with_the_books_cast(nlp):
    text = "Laurie met Meg and Mrs. March. Tom said to Amy that he was late."
    inst = build_instance(nlp, text, LAURIE, ("he", 0), ("C1", 0), ("C2", 0))
    cast = BookCast.from_mentions("514", book_evidence(LAURIE_BOOK + text, "514"),
                                  [{"kind": "name", "text": "Amy", "title": "", "gender": F}] * 2)
    assert _recheck(nlp, inst, cast) == (rc.RECHECK_CAST_MEMBER, "original", "Amy")


def test_the_cast_answers_who_a_form_is_with_its_aliases():
    book = ("Lucilla Marjoribanks came home. Miss Marjoribanks was nineteen. Dr Marjoribanks looked at his "
            "daughter. Tom Marjoribanks, her cousin, was at sea. Lucilla Marjoribanks smiled. \"No,\" said Lucilla.")
    ev = book_evidence(book, "lm")
    cast = BookCast.from_mentions("lm", ev, [{"kind": "name", "text": "Lucilla", "title": "", "gender": F}] * 4)
    member = cast.person("Lucilla")
    assert member is not None and member.gender == F and member.mentions == 4
    assert "Marjoribanks" in member.aliases and "Lucilla Marjoribanks" in member.aliases
    assert cast.person("Diamond") is None
    assert cast.explain("Lucilla")["gender-guesser"] == "feminine (female)"


def test_the_explanation_names_a_womans_married_surname():
    book = ("Jane Featherstone was young. Jane Featherstone was old. Jane Waule came. "
            + "Mrs. Waule sat. Mr. Featherstone was ill. John Waule was out. " * 3)
    cast = BookCast.from_mentions("mm", book_evidence(book, "mm"), [{"kind": "name", "text": "Jane", "title": "", "gender": F}] * 2)
    facts = cast.explain("Jane")
    assert facts["aliases: surnames written after it"] == {"featherstone": 2, "waule": 1}
    assert facts["aliases: a married woman's surnames among them"] == ["waule"]
    assert "aliases: a married woman's surnames among them" not in cast.explain("John")


def test_the_original_is_not_parsed_again_with_the_books_cast(nlp, monkeypatch):
    """generate's re-check with a cast parses the control and the swaps only: the original's
    persons are extract's (with the same cast). A fifth cast member, a name no swap touches,
    still fails the quadruple, in the control; without a cast every text is parsed."""
    from types import SimpleNamespace

    from pipeline.lang import gendered_words as gw
    from pipeline.nlp import load as nlp_mod
    from pipeline.runs.generate import _recheck

    text = "Laurie met Meg and Mrs. March. Tom said to Amy that he was late."
    inst = build_instance(nlp, text, LAURIE, ("he", 0), ("C1", 0), ("C2", 0))
    inst["book_id"] = "514"
    rows, edits = quadruple(inst, "q")
    cast = BookCast.from_mentions("514", book_evidence(LAURIE_BOOK + text, "514"),
                                  [{"kind": "name", "text": "Amy", "title": "", "gender": F}] * 2)
    seen: list[str] = []

    class Recording:
        def __init__(self, real):
            self.real, self.pipe_names = real, real.pipe_names

        def pipe(self, texts, **kw):
            texts = list(texts)
            seen.extend(texts)
            return self.real.pipe(texts, **kw)

    monkeypatch.setattr(nlp_mod, "load", lambda name=None: Recording(nlp))
    args = SimpleNamespace(model=None, batch_size=8, cast=None, recheck_components="needed")
    words = gw.load([])
    out = _recheck([(inst, rows, edits)], args, words, {"514": cast})
    assert rows[0]["text"] not in seen and all(r["text"] in seen for r in rows[1:])
    assert out["ok"] == [False]
    assert out["quadruples"][0]["reason"] == rc.RECHECK_CAST_MEMBER and out["quadruples"][0]["variant"] == "control"
    seen.clear()
    out = _recheck([(inst, rows, edits)], args, words, {})
    assert rows[0]["text"] in seen


def test_an_override_still_speaks_for_the_original_not_parsed_again(nlp):
    row, _ = _row_and_doc(nlp, WORDS, [(0, 1), (2, 3), (4, 5), (6, 7), (8, 9)], NAMES)
    assert rc.recheck_with_cast(row, None, [], _cast()) == (None, "")
    name = row["names"][0]["mentions"][0]["text"]
    ev = book_evidence("x", "b", {"b": {name: "not-a-person"}})
    assert rc.recheck_with_cast(row, None, [], BookCast.from_mentions("b", ev, []))[0] == rc.RECHECK_NOT_PERSON


def test_a_familys_plural_the_original_held_passes_the_recheck(nlp):
    """Extract judged the family ("the Coles" beside the four, the family of none of them or of
    one) in the original window; its plural is no cast member the variant brought in."""
    from pipeline.core.cast import EVIDENCE_KEY

    words = ["Jane", "met", "Tom", "and", "Emma", "with", "the", "Coles", "and", "Frank", "."]
    names = [("C1", F, [(0, 1)]), ("C2", M, [(2, 3)]), ("O1", F, [(4, 5)]), ("O2", M, [(9, 10)])]
    row, doc = _row_and_doc(nlp, words, [(0, 1), (2, 3), (4, 5), (7, 8), (9, 10)], names)
    doc.user_data[EVIDENCE_KEY] = book_evidence("Mr. Cole came. John Cole said so. " * 3, "1", model=None)
    assert rc.recheck_with_cast(row, doc, [], _cast("Coles")) == (None, "")
    coles = doc[7].idx
    edit = Edit(coles, coles + 5, "Coles", "word", "Coles")
    assert rc.recheck_with_cast(row, doc, [edit], _cast()) == (rc.RECHECK_NEW_PERSON, "Coles")
