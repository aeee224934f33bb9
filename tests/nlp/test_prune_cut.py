"""Prune's second cut (pipeline.nlp.prune.ner_ranges): after the parse, a pronoun goes on to
NER only when a GAP pattern is still possible with name marks as candidates, and the
sentences NER reads are whole parsed sentences around its windows."""

from __future__ import annotations

import pytest

from pipeline.nlp import load as nlp_mod
from pipeline.nlp import prune

WOMEN = "Emma and Harriet walked home together after the long dinner at the vicarage."


def _parsed(nlp, text):
    first, then = prune.stages(nlp, nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp))
    assert then and then[0] == "ner"
    doc = list(prune.run_components(nlp, iter([nlp.make_doc(text)]), first))[0]
    assert not doc.ents and doc.has_annotation("DEP")
    return doc


def _kept(nlp, text, pronoun):
    """Offsets the cut keeps when ``pronoun`` (its first occurrence as a word) is promising."""
    doc = _parsed(nlp, text)
    at = next(t.idx for t in doc if t.text == pronoun)
    ranges = prune.ner_ranges(doc, {at}, prune.name_marks(doc))
    return at, ranges, doc


def test_stages_put_ner_after_the_parse(nlp):
    first, then = prune.stages(nlp, nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp))
    assert "parser" in first and "tok2vec" in first and "ner" not in first
    assert then == ["ner", "person_layer"]


def test_stages_do_not_split_when_ner_runs_before_the_parser(nlp):
    class Fake:
        pipeline = [("ner", None), ("tok2vec", None), ("parser", None)]
    assert prune.stages(Fake(), ["ner", "tok2vec", "parser"]) == (["ner", "tok2vec", "parser"], [])


def test_finalpro_candidates_before_the_pronoun_are_kept(nlp):
    text = WOMEN + " John met Robert at the gate, and he smiled at the news."
    at, ranges, doc = _kept(nlp, text, "he")
    assert len(ranges) == 1 and ranges[0][2] == {at}
    s, e, _ = ranges[0]
    assert s == 0 and e == len(doc)            # whole sentences, the margin reaches both ends


def test_candidates_only_after_the_pronoun_and_no_initial_clause_are_dropped(nlp):
    text = WOMEN + " He was sure that John and Robert would come to the dinner."
    _, ranges, _ = _kept(nlp, text, "He")
    assert ranges == []


def test_pronoun_in_an_initial_clause_keeps_candidates_after_it(nlp):
    text = WOMEN + " When he arrived at the house, John greeted Robert warmly."
    at, ranges, _ = _kept(nlp, text, "he")
    assert [r[2] for r in ranges] == [{at}]


def test_medialpro_one_candidate_in_the_sentence_before(nlp):
    text = WOMEN + " John waited in the hall. When he saw the carriage, Robert ran out."
    at, ranges, _ = _kept(nlp, text, "he")
    assert [r[2] for r in ranges] == [{at}]


def test_one_candidate_only_is_dropped(nlp):
    text = WOMEN + " John waited in the hall, and he was cold. Much later Robert came home."
    _, ranges, _ = _kept(nlp, text, "he")
    assert ranges == []


def test_two_women_and_two_men_are_needed_in_a_window(nlp):
    text = "Emma walked home alone. John met Robert at the gate, and he smiled at the news."
    _, ranges, _ = _kept(nlp, text, "he")
    assert ranges == []


@pytest.mark.parametrize("before", [True, False])
def test_a_name_takes_the_gender_of_its_titled_variant(nlp, before):
    """gender-guesser calls Darcy a woman's name; "Darcy" beside "Mr. Darcy" is Mr. Darcy,
    a man: he can be a candidate of "he"."""
    from pipeline.lang.names import guess

    assert guess("Darcy")[0] == "feminine"
    variant = "Mr. Darcy called on Elizabeth and Jane." if before else "Elizabeth and Jane sat alone."
    text = f"{variant} Darcy looked at John, and he smiled at the news."
    at, ranges, _ = _kept(nlp, text, "he")
    assert [r[2] for r in ranges] == ([{at}] if before else [])


def test_far_pronouns_make_separate_ranges_of_whole_sentences(nlp):
    filler = " ".join(f"The rain fell on the roof number {k}." for k in range(12))
    part = WOMEN + " John met Robert at the gate, and he smiled at the news."
    text = part + " " + filler + " " + part
    doc = _parsed(nlp, text)
    hes = [t.idx for t in doc if t.text == "he"]
    ranges = prune.ner_ranges(doc, set(hes), prune.name_marks(doc))
    assert [r[2] for r in ranges] == [{hes[0]}, {hes[1]}]
    starts = {s.start for s in doc.sents} | {len(doc)}
    for s, e, _ in ranges:
        assert s in starts and e in starts
    assert ranges[0][1] < ranges[1][0]


def test_nothing_promising_nothing_kept(nlp):
    doc = _parsed(nlp, WOMEN)
    assert prune.ner_ranges(doc, set(), prune.name_marks(doc)) == []


def test_sentence_docs_are_the_parsed_sentences(nlp):
    text = WOMEN + " John met Robert at the gate, and he smiled. " + WOMEN + " Then he left."
    doc = _parsed(nlp, text)
    sents = list(doc.sents)
    ranges = [(sents[1].start, sents[2].start, {sents[1][-3].idx}), (sents[3].start, len(doc), set())]
    pieces = prune.sentence_docs(doc, 1000, ranges)
    assert len(pieces) == 2
    for (s, e, toks), (offset, sub, mine) in zip(ranges, pieces):
        want = doc[s:e].as_doc()
        assert offset == 1000 + doc[s].idx and sub.text == want.text
        assert mine == {x - doc[s].idx for x in toks}
        assert [(t.tag_, t.dep_, t.head.i, t.is_sent_start) for t in sub] == \
            [(t.tag_, t.dep_, t.head.i, t.is_sent_start) for t in want]
        # every attribute as_doc copies (built from the arrays, without its per-token repairs)
        head = doc._get_array_attrs()
        assert (sub.to_array(head) == want.to_array(head)).all()
        assert [t.whitespace_ for t in sub] == [t.whitespace_ for t in want]
    assert prune.sentence_docs(doc, 0, []) == []


@pytest.mark.parametrize("text,want", [
    ("of Edward, then only of Robert,--a subject on which he spoke", {("robert",): "masculine"}),
    ("What a meal.--Harriet Smith came in.", {("harriet", "smith"): "feminine"}),
    ("He said so.--Mrs. Weston smiled.", {("weston",): "feminine"}),
    ("and then Mr.--Knightley came", {("knightley",): "masculine"}),
])
def test_names_glued_by_a_dash_run_are_marked(nlp, text, want):
    """en_core_web_sm kept "Robert,--a" one token, and NER might still make a person of it;
    the tokenizer now splits the stop and the dash off (pipeline.nlp.load.STOP_DASH_INFIXES), so
    the name is a token of its own and pass 0 marks it: prune keeps its windows (Sense and
    Sensibility lost seven instances of "Robert,--a subject" before)."""
    doc = nlp.make_doc(text)
    assert not [t.i for t in doc if "--" in t.text and t.text != "--"]
    marks = prune.name_marks(doc)
    for key, gender in want.items():
        assert any(k == key and g == gender for i, k, g in marks), marks


def test_a_glued_lowercase_word_is_no_mark(nlp):
    doc = nlp.make_doc("It was all over.--then they left.")
    assert prune.name_marks(doc) == []


def test_particles_after_a_title_are_part_of_the_mark(nlp):
    """"Mr. van der Luyden" (The Age of Innocence): the mention is titled, its name begins
    with lower-case particles; pass 0 marks it (and Mrs. van der Luyden), keyed by the name."""
    doc = nlp.make_doc("Mr. van der Luyden advanced to give her his arm, and Archer turned to Mrs. van der Luyden.")
    marks = prune.name_marks(doc)
    assert (0, ("van", "der", "luyden"), "masculine") in marks
    assert any(k == ("van", "der", "luyden") and g == "feminine" for _, k, g in marks)
    assert prune.name_marks(nlp.make_doc("Mr. van went home.")) == []


def test_a_hyphenated_name_takes_the_books_gender(nlp):
    """"'Liza-Lu" (Tess): the book's evidence (here a researcher's cast) genders the whole
    hyphenated name; gender-guesser calls "Liza" a woman's name. Both are marked."""
    from pipeline.lang.book_evidence import book_evidence

    text = "Mrs Durbeyfield, 'Liza-Lu, and Abraham had gone out, and Tess was keeping house."
    evidence = book_evidence(text, "b", {"*": {"Liza-Lu": "masculine"}})
    doc = nlp.make_doc(text)
    liza = next(t.i for t in doc if t.text == "Liza")
    genders = {g for i, _, g in prune.name_marks(doc, evidence=evidence) if i == liza}
    assert genders == {"masculine", "feminine"}
    assert {g for i, _, g in prune.name_marks(doc) if i == liza} == {"feminine"}


def test_a_name_may_take_its_variants_gender_in_the_first_condition(nlp):
    """"Montoni" (a man's name to the book) is grouped with "Madame Montoni" three sentences
    on (The Mysteries of Udolpho), so "she" has two feminine candidates: the pronoun is
    promising although only one feminine mark stands near it."""
    from pipeline.lang.book_evidence import book_evidence

    text = ("Emily, considering the temper of Montoni, looked at John. 'Ah!' said she to herself. "
            "Robert was gone. It was late. Madame Montoni smiled.")
    evidence = book_evidence(text, "b", {"*": {"Montoni": "masculine"}})
    doc = nlp.make_doc(text)
    she = next(t.i for t in doc if t.text == "she")
    marks = prune.name_marks(doc, evidence=evidence)
    regions = prune.promising_regions(doc, marks)
    assert any(she in toks for _, _, toks in regions)
    alone = nlp.make_doc(text.replace("Madame Montoni smiled.", "Nobody smiled."))
    assert not any(she in toks for _, _, toks in prune.promising_regions(alone, prune.name_marks(alone, evidence=evidence)))


def test_a_name_after_a_title_of_the_professions_is_marked_a_man(nlp):
    """Little Women: "busy Dr. Bangs did his best" made a window in full and none in prune (the
    cast gives a professions' title the period's convention, a man; pass 0 marked nothing). A
    superset of the genders: the convention and the name's own."""
    doc = nlp.make_doc("Hannah had her way, and busy Dr. Bangs did his best.")
    assert any(k == ("bangs",) and g == "masculine" for _, k, g in prune.name_marks(doc))
    doc = nlp.make_doc("Dr. Mary Walker came.")
    genders = {g for _, k, g in prune.name_marks(doc) if k == ("mary", "walker")}
    assert genders == {"masculine", "feminine"}
    assert not any(k == ("the",) for _, k, _ in prune.name_marks(nlp.make_doc("Ask the Doctor.")))


def test_a_family_surname_the_book_titles_both_ways_is_marked_a_man(nlp):
    """Jo's Boys: the cast gives a bare "Bhaer" the family head's gender (core.cast._family_surname)
    where the book writes "Mr. Bhaer" and "Mrs. Bhaer"; pass 0 must mark it so too."""
    from pipeline.lang.book_evidence import book_evidence, mark_genders

    book = "Mr. Bhaer came. Mrs. Bhaer smiled. Mr. Bhaer sat. Mrs. Bhaer sang. " * 2
    assert "masculine" in mark_genders("Bhaer", book_evidence(book, "b"))
    assert "masculine" not in mark_genders("Bhaer", book_evidence("Mrs. Bhaer smiled. Mrs. Bhaer sang. " * 2, "b"))


def test_pass_0_marks_a_family_head_only_where_the_cast_can_make_one(nlp):
    """One "Mr. Sharp" (her father) against a dozen "Miss Sharp": the cast leaves a bare "Sharp"
    hers (``FAMILY_HEAD_SHARE``), so pass 0 marks no man for it either; the two ask one question
    (:meth:`pipeline.lang.book_evidence.BookEvidence.family_head`)."""
    from pipeline.lang.book_evidence import book_evidence, mark_genders

    few = "Mr. Sharp came once. " + "Miss Sharp smiled. " * 12
    many = "Mr. Sharp came. " * 3 + "Miss Sharp smiled. " * 12
    for book, head in ((few, False), (many, True)):
        evidence = book_evidence(book, "b")
        assert evidence.family_head("Sharp") is head
        assert ("masculine" in mark_genders("Sharp", evidence)) is head
