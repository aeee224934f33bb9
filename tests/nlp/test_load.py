"""The loaded pipeline's tokenizer (pipeline/nlp/load.py): a sentence end glued to a dash."""

import pytest


@pytest.mark.parametrize("text,tokens", [
    ("He was surprized.--Mr. Knightley came.", ["He", "was", "surprized", ".", "--", "Mr.", "Knightley", "came", "."]),
    ("congratulations.--Harriet was happy", ["congratulations", ".", "--", "Harriet", "was", "happy"]),
    ("came?--Yes, she did.", ["came", "?", "--", "Yes", ",", "she", "did", "."]),
    ("Mr. Darcy!--and so", ["Mr.", "Darcy", "!", "--", "and", "so"]),
    # unchanged: dashes without a sentence end, abbreviations, a lone dash
    ("I am--that is--sure.", ["I", "am", "--", "that", "is", "--", "sure", "."]),
    ("well--and Mr. Elton", ["well", "--", "and", "Mr.", "Elton"]),
    ("e.g. the end", ["e.g.", "the", "end"]),
    ("Mrs. Weston smiled.", ["Mrs.", "Weston", "smiled", "."]),
])
def test_a_sentence_end_glued_to_a_dash_is_split(nlp, text, tokens):
    assert [t.text for t in nlp.make_doc(text)] == tokens


def test_the_dash_infixes_are_added_once(nlp):
    from pipeline.nlp.load import DASH_INFIXES, split_dashes_after_sentence_ends

    split_dashes_after_sentence_ends(nlp)
    assert nlp.tokenizer.infix_finditer.__self__.pattern.count(DASH_INFIXES[0]) == 1
