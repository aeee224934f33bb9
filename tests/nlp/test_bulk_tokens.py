"""Token attributes read in bulk give exactly what the token-by-token code gave:
``DocArrays``, the region Docs of prune, pronouns, word counts, sentences, pass 0."""

from __future__ import annotations

import bisect

import numpy as np

from pipeline.core.extract import count_words, doc_sentences, pronoun_tokens, sentence_bounds
from pipeline.lang.doc_arrays import DocArrays, pronoun_indices
from pipeline.lang.pronouns import target_pronoun_gender
from pipeline.nlp import prune

TEXT = ("“MRS. WESTON,” said he, “is here!” Mr Knightley  smiled at Emma; HER sister Isabella\n\n"
        "came in. She and John Knightley (his brother) don't stay… Harriet's friend, Mr. Elton, "
        "asked him.  \n\nThen Mrs Elton — the bride — spoke to her and Jane Fairfax.")


def test_doc_arrays_equal_the_token_properties(nlp):
    doc = nlp(TEXT)
    for arrays in (DocArrays(doc), DocArrays(doc, doc.text)):
        assert arrays.n == len(doc)
        assert arrays.texts == [t.text for t in doc]
        assert arrays.idx == [t.idx for t in doc]
        assert arrays.space_after == [bool(t.whitespace_) for t in doc]
        assert arrays.punct == [t.is_punct for t in doc]
        assert arrays.space == [t.is_space for t in doc]
        assert [arrays.is_sent_start(i) for i in range(len(doc))] == [t.is_sent_start is True for t in doc]
        assert arrays.upper == [t.text[:1].isupper() for t in doc]
    assert DocArrays(nlp.make_doc("")).texts == []


def test_pronouns_words_and_sentences_as_token_by_token(nlp):
    doc = nlp(TEXT)
    assert pronoun_indices(doc) == [t.i for t in doc if target_pronoun_gender(t.text)]
    assert [t.i for t in pronoun_tokens(doc)] == [
        t.i for t in doc if target_pronoun_gender(t.text) and (t.tag_ in ("PRP", "PRP$") or not t.tag_)]
    assert "HER" in [t.text for t in pronoun_tokens(doc)]
    assert count_words(doc) == sum(1 for t in doc if not (t.is_punct or t.is_space))
    expected = [(s.start, s.end) for s in doc.sents if any(not t.is_space for t in s)]
    assert sentence_bounds(doc) == expected
    assert [(s.start, s.end) for s in doc_sentences(doc)] == expected
    assert count_words(nlp.make_doc("")) == 0 and pronoun_indices(nlp.make_doc("")) == []


def test_region_doc_is_the_same_doc_as_as_doc(nlp):
    doc = nlp.make_doc(TEXT)
    arrays = DocArrays(doc, TEXT)
    head = doc._get_array_attrs()
    array = doc.to_array(head)
    for s, e in [(0, len(doc)), (3, 17), (10, len(doc) - 2)]:
        mine, theirs = prune.region_doc(doc, s, e, arrays, head, array), doc[s:e].as_doc()
        assert mine.text == theirs.text
        assert np.array_equal(mine.to_array(head), theirs.to_array(head))
        comps = [c for c in nlp.pipe_names]
        for name in comps:                      # and the model reads both the same way
            mine, theirs = nlp.get_pipe(name)(mine), nlp.get_pipe(name)(theirs)
        assert [(t.text, t.tag_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_) for t in mine] == \
            [(t.text, t.tag_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_) for t in theirs]


def _rough_sentences_by_token(doc) -> list[int]:
    """The token-by-token statement of prune's rough sentences (spaCy's Token attributes)."""
    sent, out, prev_end = 0, [], False
    closers = prune._CLOSERS | {"'", '"'}
    for tok in doc:
        opens = False
        if tok.i > 0 and not tok.is_space:
            prev = doc[tok.i - 1]
            attached = not prev.whitespace_ and not prev.is_space
            if prev_end and attached and tok.text in closers:
                pass
            elif tok.is_sent_start or (prev_end and (tok.text[:1].isupper() or tok.text[:1] in prune._OPENERS)):
                sent += 1
                opens = True
        out.append(sent)
        if not tok.is_space:
            prev_end = (tok.is_punct and tok.text.endswith(prune._END_PUNCT)) or \
                (prev_end and not opens and tok.text in closers)
    return out


def test_pass0_on_arrays_as_token_by_token(nlp):
    doc = nlp.make_doc(TEXT * 3)
    sent_of = prune.rough_sentences(doc)
    assert sent_of == _rough_sentences_by_token(doc)
    marks = prune.name_marks(doc, sent_of)
    assert marks == prune.name_marks(doc, sent_of, arrays=DocArrays(doc, doc.text))
    assert (1, ("weston",), "feminine") in marks and any(m[1] == ("knightley",) for m in marks)
    regions = prune.promising_regions(doc, marks, sent_of)
    assert regions
    for s, e, toks in regions:              # whole rough sentences, the pronouns inside
        assert s == bisect.bisect_left(sent_of, sent_of[s]) and e == bisect.bisect_right(sent_of, sent_of[e - 1])
        assert all(s <= i < e and target_pronoun_gender(doc[i].text) for i in toks)


def test_parsed_docs_prune_regions_are_the_full_parse_of_their_text(nlp):
    chunks = [(k * 1000, TEXT) for k in range(2)]
    out = list(prune.parsed_docs(nlp, chunks, "prune"))
    assert [o for o, _, _ in out] == [0, 1000]
    for offset, whole, parts in out:
        assert whole.text == TEXT and parts
        for book_offset, sub, toks in parts:
            start = book_offset - offset
            assert TEXT[start:start + len(sub.text)] == sub.text
            assert sub.has_annotation("DEP") and toks <= {t.idx for t in sub if target_pronoun_gender(t.text)}


def test_space_attrs_stand_in_for_the_attribute_ruler_on_tags_and_deps(nlp):
    """Extract skips en_core_web_sm's attribute ruler: ``space_attrs`` writes the only TAG and
    DEP values the ruler writes (space tokens), so every tag and label comes out the same."""
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp.prune import run_components

    comps = nlp_mod.parse_components(nlp)
    assert nlp_mod.SPACE_ATTRS in comps and nlp_mod.ATTRIBUTE_RULER not in comps
    text = TEXT + "\n\n  He said   so.\n \nShe  did not.  "
    ruled = nlp(text)
    ours = list(run_components(nlp, iter([nlp.make_doc(text)]), nlp_mod.ner_components(nlp) + comps))[0]
    assert any(t.is_space for t in ruled)
    assert [t.tag_ for t in ours] == [t.tag_ for t in ruled]
    assert [t.dep_ for t in ours] == [t.dep_ for t in ruled]
    assert [t.head.i for t in ours] == [t.head.i for t in ruled]
    assert [(e.start, e.end, e.label_) for e in ours.ents] == [(e.start, e.end, e.label_) for e in ruled.ents]


def test_a_ruler_writing_other_tags_keeps_running():
    from types import SimpleNamespace

    from pipeline.nlp.load import _SPACE_DEP, _SPACE_TAG, ruler_sets_only_space_attrs

    space_tag = {**_SPACE_TAG, "attrs": {"TAG": "_SP", "POS": "SPACE"}}
    pos_only = {"patterns": [[{"ORTH": "ai"}]], "attrs": {"POS": "VERB", "LEMMA": "be"}}
    assert ruler_sets_only_space_attrs(SimpleNamespace(patterns=[space_tag, _SPACE_DEP, pos_only]))
    other_tag = {"patterns": [[{"ORTH": "ai"}]], "attrs": {"TAG": "VBP"}}
    assert not ruler_sets_only_space_attrs(SimpleNamespace(patterns=[space_tag, _SPACE_DEP, other_tag]))
    assert not ruler_sets_only_space_attrs(SimpleNamespace(patterns=[pos_only]))


def test_a_quote_opening_a_paragraph_starts_one_rough_sentence(nlp):
    # a straight quote after a paragraph break opens the sentence; it closes nothing, so the
    # capitalised word after it does not start a second one (Little Women writes its dialogue so)
    text = 'She spilled the coffee.\n\n"Oh, dear, what a blunderbuss I am!" exclaimed Jo.\n\n"Can I help you?" said a voice.'
    doc = nlp.make_doc(text)
    sent_of = prune.rough_sentences(doc)
    assert sent_of == _rough_sentences_by_token(doc)
    starts = [doc[i].text for i in range(len(doc)) if i == 0 or sent_of[i] != sent_of[i - 1]]
    assert starts == ["She", '"', '"'], starts
    # a closing quote after a sentence end stays with its sentence
    doc = nlp.make_doc('He said "Go." Then he left.')
    sent_of = prune.rough_sentences(doc)
    assert [doc[i].text for i in range(len(doc)) if i == 0 or sent_of[i] != sent_of[i - 1]] == ["He", "Then"]


def test_regions_of_several_chunks_go_through_the_model_together_with_the_same_result(nlp):
    """Prune gathers the regions of consecutive chunks before the model runs (full batches):
    every chunk still comes out once, in order, with the Docs one chunk at a time gives, byte for
    byte, and a chunk without a region keeps its place."""
    chunks = [(0, TEXT), (1000, "Nothing here but the weather."), (2000, TEXT), (3000, TEXT)]

    def run(group):
        return [(offset, whole.text, [(o, sub.to_bytes(exclude=["user_data", "tensor"]), sorted(toks))
                                      for o, sub, toks in parts])
                for offset, whole, parts in prune.parsed_docs(nlp, chunks, "prune", group=group)]

    alone, gathered = run(1), run(100)
    assert [o for o, _, _ in gathered] == [0, 1000, 2000, 3000]
    assert gathered[1][2] == [] and all(parts for o, _, parts in gathered if o != 1000)
    assert gathered == alone
