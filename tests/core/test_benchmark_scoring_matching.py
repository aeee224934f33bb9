"""Matching released model outputs to benchmark items: spaCy-style tokenisation, lines out of
order, a sentence in two files, lines that match nothing (counted; an error above the share)."""

from __future__ import annotations

import pytest

from pipeline.core import benchmark_scoring as bs
from pipeline.errors import InputError
from tests.core.test_benchmark_scoring import Doc, item

BUG_TEXT = "The 50-year-old baker yelled; he was \u201cangry\u201d."
SPACY = ["The", "50-year", "-", "old", "baker", "yelled", ";", "he", "was", '"', "angry", '"', "."]


def items():
    return [item(), item(id="bug-1", text=BUG_TEXT, tokens=BUG_TEXT.split(),
                         pronoun_start=BUG_TEXT.index(" he ") + 1, pronoun_end=BUG_TEXT.index(" he ") + 3,
                         main_entity="The 50-year-old baker", main_start=0, main_end=21,
                         other_entity=None, other_start=None, other_end=None)]


def test_spacy_tokens_out_of_order_and_duplicates():
    wb = "The developer argued with the designer because he did not like the design .".split()
    docs = [Doc(None, 1, SPACY, [[(1, 4), (7, 7)]]),
            Doc(None, 2, wb, [[(0, 1), (7, 7)]]),
            Doc(None, 3, SPACY, [[(1, 4), (7, 7)]]),          # the same sentence again (another file)
            Doc(None, 4, SPACY, [[(8, 8), (7, 7)]])]          # again, other clusters
    report = {}
    matched, missing = bs.match_documents(items(), docs, "out.jsonl", report=report)
    assert missing == [] and matched["bug-1"].line == 1 and matched["wb-1"].line == 2
    assert (report["n_documents"], report["n_duplicates"], report["n_conflicting"], report["n_unmatched"]) == (
        4, 2, 1, 0)
    assert bs.judge(items()[1], SPACY, matched["bug-1"].clusters)["strict"] is True


def test_loose_key_survives_dropped_punctuation():
    toks = ["The", "50", "year", "old", "baker", "yelled", "he", "was", "angry"]
    matched, _ = bs.match_documents(items(), [Doc(None, 1, toks, [])])
    assert list(matched) == ["bug-1"]


def test_unmatched_lines_counted_then_fatal_above_the_share():
    good = [Doc(None, i + 1, SPACY, []) for i in range(150)]       # 149 duplicates of one item
    stray = Doc(None, 151, ["Nothing", "like", "it", "."], [])
    report = {}
    matched, missing = bs.match_documents(items(), good + [stray], "out.jsonl", report=report)
    assert report["n_unmatched"] == 1 and report["unmatched"] == [("out.jsonl", 151, "Nothing like it .")]
    assert missing == ["wb-1"]
    with pytest.raises(InputError, match=r"matches no benchmark item .*2 of 102 lines match none, "
                                         r"more than the 1 % allowed") as exc:
        bs.match_documents(items(), good[:100] + [stray, Doc(None, 152, ["Other", "."], [])], "out.jsonl")
    assert exc.value.row == 151 and len(str(exc.value).splitlines()) == 1
    # a share of 0 makes any stray line an error
    with pytest.raises(InputError, match="1 of 151 lines"):
        bs.match_documents(items(), good + [stray], "out.jsonl", max_unmatched=0)
