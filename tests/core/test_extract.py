"""Extract's core on hand-written sentences: the GAP patterns, the two-plus-two window rule,
chunking (long paragraphs are cut into pieces that keep book offsets) and the consistency of
every instance record."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc, Span

from pipeline.core.extract import (CHUNK_CHARS, BookMeta, candidate_windows, chunk_paragraphs, extract_chunks,
                                   fit_window, instances_from_doc, lead_start, split_paragraph, with_leads)
from pipeline.lang import names
from pipeline.lang.names import mention_from_span
from pipeline.lang.patterns import FINALPRO, INITIALPRO, MEDIALPRO, initial_clause_kind, match_pattern

from tests.core.extract_checks import check_instance


def extract(nlp, text):
    insts, _, _ = instances_from_doc(nlp(text), 0, BookMeta("t", "T", "A"))
    return insts


def only(nlp, text, pronoun):
    found = [i for i in extract(nlp, text) if i["pronoun"] == pronoun]
    assert len(found) <= 1
    return found[0] if found else None


# --------------------------------------------------------------------- patterns ---------

def test_initialpro_subordinate_clause(nlp):
    inst = only(nlp, "Although she admired Clara, Eleanor would not say so to Thomas or to William.", "she")
    assert inst["pattern"] == INITIALPRO
    assert (inst["a"], inst["b"]) == ("Clara", "Eleanor")


def test_initialpro_possessive_in_initial_pp(nlp):
    inst = only(nlp, "In her letter to Clara, Eleanor thanked Thomas and William.", "her")
    assert inst["pattern"] == INITIALPRO
    assert inst["pronoun_tag"] == "PRP$"


def test_medialpro(nlp):
    inst = only(nlp, "Thomas met Clara and Eleanor at the gate. When he saw the orchard, William laughed.", "he")
    assert inst["pattern"] == MEDIALPRO
    assert (inst["a"], inst["b"]) == ("Thomas", "William")
    assert inst["pronoun_gender"] == "masculine"


def test_finalpro_same_sentence(nlp):
    inst = only(nlp, "Thomas told William that Clara and Eleanor had seen him.", "him")
    assert inst["pattern"] == FINALPRO
    assert (inst["a"], inst["b"]) == ("Thomas", "William")


def test_finalpro_next_sentence(nlp):
    inst = only(nlp, "Thomas and William met Clara and Eleanor at the gate. Nobody had invited him.", "him")
    assert inst["pattern"] == FINALPRO


def test_pronoun_in_main_clause_is_not_initialpro(nlp):
    inst = only(nlp, "Clara told Eleanor that she would write to Thomas and William.", "she")
    assert inst is not None and inst["pattern"] == FINALPRO


def test_candidates_in_distant_sentences_match_nothing(nlp):
    text = "Thomas met Clara. Eleanor sang a song. The rain fell on the roof. William laughed at him."
    assert only(nlp, text, "him") is None


def test_initial_clause_rule(nlp):
    doc = nlp("When his horse stumbled, Thomas laughed at William.")
    sent = next(doc.sents)
    assert initial_clause_kind(doc[1], sent) == "subordinate-clause"
    doc = nlp("In her garden, Clara found Eleanor.")
    assert initial_clause_kind(doc[1], next(doc.sents)) == "prepositional-phrase"
    doc = nlp("Thomas laughed at William when he stumbled.")
    he = [t for t in doc if t.text == "he"][0]
    assert initial_clause_kind(he, next(doc.sents)) is None     # clause is not initial
    doc = nlp("In the garden she found Eleanor.")
    she = [t for t in doc if t.text == "she"][0]
    assert initial_clause_kind(she, next(doc.sents)) is None     # subject, not inside the PP


def test_match_pattern_priority_and_order():
    # both candidates in the pronoun's sentence (1) and C1 also in sentence 0: INITIALPRO wins
    cands = {"C1": [(0, 5), (1, 60)], "C2": [(1, 80)]}
    m = match_pattern(40, 1, True, cands)
    assert m.pattern == INITIALPRO and (m.a_role, m.b_role) == ("C1", "C2")
    # not initial: FINALPRO needs both before the pronoun
    assert match_pattern(40, 1, False, cands) is None
    m = match_pattern(90, 1, False, cands)
    assert m.pattern == FINALPRO and (m.a_role, m.a_index) == ("C1", 1)
    # MEDIALPRO: C2 before, C1 in the pronoun sentence; A is the earlier mention
    m = match_pattern(40, 1, True, {"C1": [(1, 60)], "C2": [(0, 10)]})
    assert m.pattern == MEDIALPRO and (m.a_role, m.b_role) == ("C2", "C1")


# --------------------------------------------------------------------- windows ----------

def test_window_needs_exactly_two_plus_two(nlp):
    assert only(nlp, "Thomas told William that Clara, Eleanor and Alice had seen him.", "him") is None
    assert only(nlp, "Thomas told William and Robert that Clara and Eleanor had seen him.", "him") is None
    # an ungendered name (gender-guesser: andy) in the window spoils it
    assert only(nlp, "Thomas told William that Clara and Eleanor had seen Jo with him.", "him") is None


ONE_WINDOW_VARIANTS = "Thomas told William that Harriet and Emma had seen him, and Harriet Smith laughed."


def test_name_variants_count_once(nlp, monkeypatch):
    inst = only(nlp, "Thomas told William that Harriet and Emma had seen him. Harriet Smith laughed.", "him")
    assert inst is not None
    # the smallest window (one sentence) is chosen
    assert len(inst["sentence_starts"]) == 1
    # in one window, "Harriet" and "Harriet Smith" are one woman: two women, not three
    inst = only(nlp, ONE_WINDOW_VARIANTS, "him")
    assert inst is not None
    harriet = [n for n in inst["names"] if n["gender"] == "feminine" and "Harriet" in n["name"]]
    assert len(harriet) == 1 and sorted(m["text"] for m in harriet[0]["mentions"]) == ["Harriet", "Harriet Smith"]
    # the mutation this test must catch: with variant merging off (group_persons lets no form
    # join a person) the same window holds three women and gives no instance
    monkeypatch.setattr(names, "_fit", lambda *args, **kwargs: None)
    assert only(nlp, ONE_WINDOW_VARIANTS, "him") is None


def _persons_doc(nlp, names):
    words, ents = [], []
    for n in names:
        toks = n.split()
        ents.append((len(words), len(words) + len(toks)))
        words += toks + [","]
    doc = Doc(nlp.vocab, words=words)
    doc.ents = [Span(doc, s, e, label="PERSON") for s, e in ents]
    return [mention_from_span(e) for e in doc.ents]


@pytest.mark.parametrize("names,fits", [
    (["Thomas", "William", "Clara", "Eleanor"], True),
    (["Thomas", "William", "Clara", "Eleanor", "Clara"], True),          # repeated mention
    (["Thomas", "William", "Clara", "Eleanor", "Eleanor Price"], True),  # variant of Eleanor
    (["Thomas", "William", "Clara", "Eleanor", "Alice"], False),         # three women
    (["Thomas", "Clara", "Eleanor"], False),                              # one man
    (["Mr. Dalton", "Sir Walter", "Lady Russell", "Mrs. Fenwick"], True),  # titles decide
    (["Thomas", "William", "Clara", "Eleanor", "Smith"], False),          # ungendered person
])
def test_fit_window(nlp, names, fits):
    assert (fit_window(_persons_doc(nlp, names)) is not None) == fits


def test_candidate_windows_order():
    assert list(candidate_windows(2, 10))[:4] == [(2, 2), (1, 2), (2, 3), (0, 2)]
    wins = list(candidate_windows(0, 3))
    assert wins == [(0, 0), (0, 1), (0, 2)]
    assert all(hi - lo < 5 for lo, hi in candidate_windows(7, 20))


def test_chunks_keep_book_offsets():
    paras = ["a" * 10, "b" * 20, "c" * 5000, "d" * 30]
    text = "\n\n".join(paras)
    chunks = chunk_paragraphs(paras, max_chars=5000)
    assert [off for off, _ in chunks] == [0, 34, 5036]
    for off, chunk in chunks:
        assert text[off:off + len(chunk)] == chunk
    assert "".join(c for _, c in chunks).replace("\n", "") == text.replace("\n", "")


def test_long_paragraph_is_cut_after_sentence_ends():
    sentence = "Thomas saw the river again. "
    para = sentence * 100                      # 2,800 characters, one paragraph
    pieces = split_paragraph(para, 1000)
    assert "".join(para[s:e] for s, e in pieces) == para
    assert all(e - s <= 1000 for s, e in pieces)
    # every cut but the last falls right after "again. ", so each piece ends a sentence
    assert all(para[s:e].endswith("again. ") for s, e in pieces)
    assert [s for s, _ in pieces] == [0, 980, 1960]


def test_paragraph_without_spaces_is_cut_anywhere():
    assert split_paragraph("x" * 25, 10) == [(0, 10), (10, 20), (20, 25)]


def test_two_million_character_line_never_makes_a_long_chunk():
    line = "the cat sat on the mat and looked at the door. " * 42_600    # one paragraph, 2,002,200 chars
    assert len(line) > 2_000_000
    chunks = chunk_paragraphs(["A short first paragraph.", line, "The end."])
    text = "\n\n".join(["A short first paragraph.", line, "The end."])
    assert max(len(c) for _, c in chunks) <= CHUNK_CHARS < 1_000_000     # spaCy's max_length
    for off, chunk in chunks[:3] + chunks[-3:]:
        assert text[off:off + len(chunk)] == chunk
    assert chunks[0] == (0, "A short first paragraph.") and chunks[-1][1] == "The end."
    assert sum(len(c) for _, c in chunks) == len(text) - 4            # all but the two separators


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet="ab .!\"", min_size=1, max_size=60), min_size=1, max_size=12),
       st.integers(min_value=1, max_value=40))
def test_chunks_cover_the_book_text(paragraphs, max_chars):
    text = "\n\n".join(paragraphs)
    chunks = chunk_paragraphs(paragraphs, max_chars)
    assert all(1 <= len(c) <= max_chars for _, c in chunks)
    covered = 0
    last_end = 0
    for off, chunk in chunks:
        assert off >= last_end and text[off:off + len(chunk)] == chunk
        assert text[last_end:off].strip("\n") == ""    # only paragraph separators between chunks
        covered += len(chunk)
        last_end = off + len(chunk)
    assert last_end == len(text)


# --------------------------------------------------------------------- records ----------

def test_instance_records_are_consistent(nlp):
    text = ("Mr. Dalton had a letter for Thomas from the bank. While he was reading the letter, "
            "Thomas frowned, and Mr. Dalton turned away. Mrs. Fenwick and Clara Bennet exchanged a look.\n\n"
            "\"It is nothing,\" Thomas said at last. But Clara did not believe him, and neither did Mrs. Fenwick.")
    insts = extract(nlp, text)
    assert insts
    for inst in insts:
        check_instance(inst)


def test_extract_chunks_keeps_one_instance_per_pronoun_in_text_order(nlp):
    text = ("Thomas told William that Clara and Eleanor had seen him. "
            "Thomas told William that Clara and Eleanor had heard him.")
    meta = BookMeta("b", "T", "A")
    doc = nlp(text)
    # the same chunk handed over twice (as overlapping prune regions can): no duplicates
    parsed = [(0, doc, [(0, doc, None), (0, doc, None)])]
    instances, mentions, counts = extract_chunks(parsed, meta)
    assert [i["instance_id"] for i in instances] == ["b-52", "b-110"]
    assert counts["pronouns"] == 2 and counts["names"] == 16 and counts["words"] == 20
    assert {m["kind"] for m in mentions} == {"name", "pronoun"}


# --------------------------------------------------------------------- leads ------------

def test_leads_start_at_a_sentence_and_keep_book_offsets():
    paras = ["Anne walked. Tom ran far away.", "Mary sang a song. Frank listened to her.", "The end came."]
    text = "\n\n".join(paras)
    chunks = chunk_paragraphs(paras, max_chars=45)
    led, owns = with_leads(chunks, text, lead_chars=25)
    assert owns == [off for off, _ in chunks]
    assert led[0] == chunks[0]                              # the first chunk has no lead
    for (off, t), own, (_, own_text) in zip(led, owns, chunks):
        assert text[off:off + len(t)] == t and t.endswith(own_text) and off <= own
    assert led[1][1].startswith("Tom ran far away.")        # whole sentences only, within 25 characters
    assert lead_start(text, owns[1], 0) == owns[1]
    assert lead_start(text, 10, 1000) == 0


def test_a_window_reaches_back_across_a_chunk_start_and_nothing_counts_twice(nlp):
    from pipeline.nlp.prune import parsed_docs

    paras = ["Thomas and William met Clara in the lane.",
             "Eleanor laughed, and Clara told William that she had seen him."]
    text = "\n\n".join(paras)
    chunks = chunk_paragraphs(paras, max_chars=80)
    assert len(chunks) == 2
    meta = BookMeta("b", "T", "A")
    for strategy in ("full", "prune"):
        alone, m0, n0 = extract_chunks(parsed_docs(nlp, chunks, strategy), meta)
        led, owns = with_leads(chunks, text)
        both, m1, n1 = extract_chunks(parsed_docs(nlp, led, strategy), meta, owns=owns)
        assert alone == []                                  # the second chunk alone has three persons
        assert [i["pronoun"] for i in both] == ["she", "him"] or [i["pronoun"] for i in both] == ["she"]
        assert {n["name"] for n in both[0]["names"]} == {"Thomas", "William", "Clara", "Eleanor"}
        for k in ("words", "pronouns"):                     # the lead is context, not counted again
            assert n1[k] == n0[k], (strategy, k)
        if strategy == "full":          # (prune records the names of the regions it parses only)
            key = lambda m: (m["kind"], m["book_start"], m["book_end"])   # noqa: E731
            assert sorted(map(key, m1)) == sorted(map(key, m0)) and n1["names"] == n0["names"]


def test_a_window_with_a_name_and_its_pet_form_or_one_surname_under_two_titles_is_not_fitted(nlp):
    """"Miss Eliza" and "Elizabeth" (one person under two names?), "Mrs. Shaw" and "Madam
    Shaw" (two persons under one name?): no window of four persons is fitted from them."""
    from spacy.tokens import Doc, Span

    from pipeline.core.extract import fit_window
    from pipeline.lang.names import mention_from_span

    def persons(words, spans):
        doc = Doc(nlp.vocab, words=words)
        doc.ents = [Span(doc, s, e, label="PERSON") for s, e in spans]
        return fit_window([mention_from_span(e) for e in doc.ents])

    ok = persons(["John", "and", "Tom", "met", "Jane", "and", "Elizabeth"], [(0, 1), (2, 3), (4, 5), (6, 7)])
    assert ok is not None and len(ok) == 4
    assert persons(["John", "and", "Tom", "met", "Miss", "Eliza", "and", "Elizabeth"],
                   [(0, 1), (2, 3), (5, 6), (7, 8)]) is None
    assert persons(["John", "and", "Tom", "met", "Mrs.", "Shaw", "Jane", "and", "Madam", "Shaw"],
                   [(0, 1), (2, 3), (5, 6), (6, 7), (9, 10)]) is None


def _regions(nlp, text, from_char=0):
    from pipeline.lang.doc_arrays import DocArrays
    from pipeline.nlp import prune

    doc = nlp.make_doc(text)
    arrays = DocArrays(doc, text)
    sent_of = prune.rough_sentences(doc, arrays)
    regions = prune.promising_regions(doc, prune.name_marks(doc, sent_of, None, arrays), sent_of, arrays, from_char)
    return doc, sent_of, regions


def test_prune_parses_only_the_windows_that_can_hold_two_and_two(nlp):
    """The four names stand after the pronoun: the sentences long before it are not parsed,
    though they are within a window's reach of the pronoun."""
    from pipeline.nlp.prune import MARGIN

    from pipeline.nlp.prune import SLACK
    from pipeline.vocab import MAX_SENTENCES

    filler = "The rain fell on the roofs. " * 8
    text = filler + "John and Thomas walked. He saw them. The sun set. The wind rose. Mary met Jane. " + filler
    doc, sent_of, regions = _regions(nlp, text)
    pron = next(t.i for t in doc if t.text == "He")
    k = sent_of[pron]
    women = sent_of[next(t.i for t in doc if t.text == "Jane")]
    assert women == k + 3 and len(regions) == 1
    first = sent_of[regions[0][0]]
    # the windows (rough sentences, widened by SLACK) that hold both women start here at the earliest
    earliest = women - (MAX_SENTENCES + SLACK) + 1
    assert first == earliest - MARGIN
    assert first > k - (MAX_SENTENCES - 1 + MARGIN)     # less than every window around the pronoun
    assert pron in regions[0][2]


def test_prune_makes_no_region_for_a_pronoun_in_a_lead(nlp):
    text = "John and Thomas walked. He saw Mary. Mary met Jane at noon."
    doc, _, regions = _regions(nlp, text)
    assert regions
    own = text.index("Mary met")                     # the chunk's own text starts after the pronoun
    assert _regions(nlp, text, from_char=own)[2] == []
