"""The book's cast reaches the stages after generate through the dataset's ``names`` column
(issue 42, item 1): extract groups a person's aliases with the book's alias table, and
``annotate-export`` (:func:`pipeline.annotation.core.questions.question_from_row`) and
``analyze`` (:mod:`pipeline.diagnostics.core.analysis`, names from the column) take that person, aliases
and all, instead of deciding persons again from the text."""

from __future__ import annotations

from pipeline.core import extract as core
from pipeline.annotation.core.questions import check_answer, label_of, question_from_row
from pipeline.lang.book_evidence import book_evidence
from tests.lang.test_aliases import MARJORIBANKS

# the pronoun's sentence holds two persons of each gender only with the sentence before it
TEXT = "Lucilla looked at Tom and Barbara. Miss Marjoribanks then told Mr. Cavendish that she had come."


def _instance(nlp, evidence):
    insts, _, _ = core.instances_from_doc(nlp(TEXT), 0, core.BookMeta("b", "T", "A"), evidence=evidence)
    return insts


def test_annotation_takes_a_persons_aliases_from_the_cast(nlp):
    insts = _instance(nlp, book_evidence(MARJORIBANKS * 3, "b"))
    assert insts, "with the book, Lucilla and Miss Marjoribanks are one woman: a window"
    inst = insts[0]
    lucilla = next(n for n in inst["names"] if n["name"] == "Lucilla")
    assert {m["text"] for m in lucilla["mentions"]} == {"Lucilla", "Miss Marjoribanks"}
    q = question_from_row(dict(inst, id=inst["instance_id"]))
    s = inst["text"].index("Miss Marjoribanks")
    t = inst["text"].index("Lucilla")
    by_alias = check_answer(q, [(s, s + len("Miss Marjoribanks"))], False)
    by_name = check_answer(q, [(t, t + len("Lucilla"))], False)
    assert by_alias == by_name is not None          # one person to the annotation check
    assert label_of(q, by_alias) == label_of(q, by_name)


def test_analyze_counts_the_casts_name_mentions(nlp):
    from pipeline.diagnostics.core.analysis import analyse_records

    inst = _instance(nlp, book_evidence(MARJORIBANKS * 3, "b"))[0]
    from pipeline.formats.dataset_files import _names_column

    record = dict(inst, id=inst["instance_id"], names=_names_column(inst["names"]))
    examples, feats, source = analyse_records([record], nlp, progress=False)
    assert source == "the dataset's names column"
    n_mentions = sum(len(n["mentions"]) for n in inst["names"])
    assert feats[0].n_names == n_mentions


def test_without_the_book_the_window_holds_three_women(nlp):
    assert _instance(nlp, None) == []
