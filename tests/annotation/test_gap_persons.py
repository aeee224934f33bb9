"""annotation.core.gap_persons: the persons of a GAP row's text, with A and B among them (spaCy Docs from
the session pipeline; hand-written texts)."""

from __future__ import annotations

from pipeline.annotation.core.gap_persons import (REJECT_NOT_NAME, REJECT_SAME_PERSON,
                                       gap_persons, gap_records)
from pipeline.core.gap_rows import REJECT_AMBIGUOUS


def row(text, pronoun, a, b, rid="7", a_at=0, b_at=-1):
    def find(s, k):
        offs = [i for i in range(len(text)) if text.startswith(s, i)]
        return offs[k]
    return {"ID": rid, "Text": text, "Pronoun": pronoun, "Pronoun-offset": find(f" {pronoun} ", -1) + 1,
            "A": a, "A-offset": find(a, a_at), "A-coref": None, "B": b, "B-offset": find(b, b_at),
            "B-coref": True, "Book": "Emma"}


def names_of(names):
    return {n["role"]: sorted(m["text"] for m in n["mentions"]) for n in names}


def test_possessive_and_untitled_candidates_join_their_person(nlp):
    r = row("Old John Abdy's son met Mr. Elton, and Elton told Jane that he was sorry.", "he",
            "John Abdy's", "Elton", b_at=-1)
    names, reason = gap_persons(r, nlp(r["Text"]))
    assert reason is None
    got = names_of(names)
    assert got["C1"] == ["John Abdy"] and got["C2"] == ["Elton", "Mr. Elton"]
    assert got["O1"] == ["Jane"]


def test_a_lower_case_candidate_is_not_a_name(nlp):
    r = row('"Come in," said Mr. Darcy to the baker, and Emma smiled because she was glad.', "she",
            "the baker", "Emma")
    assert gap_persons(r, nlp(r["Text"])) == (None, REJECT_NOT_NAME.format("A"))


def test_candidates_of_one_person_are_rejected(nlp):
    r = row("Harriet Smith waved, and Harriet saw Emma before she left.", "she", "Harriet Smith", "Harriet",
            b_at=1)
    assert gap_persons(r, nlp(r["Text"])) == (None, REJECT_SAME_PERSON)


def test_an_ambiguous_form_is_not_guessed(nlp):
    r = row("Mr. Weston and Mrs. Weston came; Weston bowed to Emma, and she smiled.", "she",
            "Mrs. Weston", "Emma")
    assert gap_persons(r, nlp(r["Text"])) == (None, REJECT_AMBIGUOUS)


def test_a_quadruple_with_a_bad_row_is_left_out_whole(nlp):
    good = row("Emma thanked Harriet, and then she left with Mr. Knightley.", "she", "Emma", "Harriet",
               rid="4")
    bad = row("The baker thanked Harriet, and then she left with Mr. Knightley.", "she", "The baker",
              "Harriet", rid="4-control")
    other = row("Emma thanked Harriet, and then she left with Mr. Knightley.", "she", "Emma", "Harriet",
                rid="5-swap-1")
    conv = gap_records([good, bad, other], [nlp(r["Text"]) for r in (good, bad, other)], "gap-tsv:x")
    assert [r["id"] for r in conv.records] == ["5-swap-1"]
    assert conv.rejected == [("4-control", REJECT_NOT_NAME.format("A"))]
    assert conv.dropped_with_quadruple == ["4"] and (conv.quadruples, conv.quadruples_kept) == (2, 1)
    rec = conv.records[0]
    assert (rec["quadruple_id"], rec["variant"], rec["pronoun_gender"], rec["original_gender"]) == \
        ("5", "swap-1", "feminine", "masculine")
    assert (rec["a"], rec["a_offset"], rec["book"], rec["source"]) == ("Emma", 0, "Emma", "gap-tsv:x")
