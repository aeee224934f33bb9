"""Pronoun case in idioms and italics in a swapped variant, end to end (issue 42): the
person layer corrects the tags (:func:`pipeline.lang.gendered_words.pronoun_case`), the
instance records them, the quadruple flips by them."""

from __future__ import annotations

import pytest

from tests.core.test_generate import swap_1_of_four


@pytest.mark.parametrize("text,pronoun,swapped", [
    ("Frank saw John with Emma and Anne; to do her justice, she smiled.", "her",
     "Emma saw Anne with Frank and John; to do him justice, he smiled."),
    ("Frank saw John with Emma and Anne, as she said _her_ poor boy had to go.", "she",
     "Emma saw Anne with Frank and John, as he said _his_ poor girl had to go."),
    ("Emma saw Anne with Frank and John, and found among his the handwriting of a girl.", "his",
     "Frank saw John with Emma and Anne, and found among hers the handwriting of a boy."),
    # a possessive stays one
    ("Frank saw John with Emma and Anne, and took her hand.", "her",
     "Emma saw Anne with Frank and John, and took his hand."),
])
def test_pronoun_case_in_idioms_and_italics(nlp, text, pronoun, swapped):
    assert swap_1_of_four(nlp, text, pronoun) == swapped
