"""The MTurk CSV layout (pipeline.formats.mturk_csv): the column names MTurk's batch upload
and results download use, spelled out here independently."""

from __future__ import annotations

from pipeline.formats import mturk_csv as layout


def test_batch_and_results_columns():
    assert layout.batch_header(2) == ["q1_id", "q1_text", "q1_spans", "q2_id", "q2_text", "q2_spans"]
    assert layout.input_column(3, "text") == "Input.q3_text"
    assert layout.answer_columns([1]) == ["Answer.q1_spans", "Answer.q1_none", "Answer.q1_contradiction"]
    assert layout.results_header(["q1_id", "q1_text", "q1_spans"], [1]) == [
        "HITId", "AssignmentId", "WorkerId", "AssignmentStatus",
        "Input.q1_id", "Input.q1_text", "Input.q1_spans",
        "Answer.q1_spans", "Answer.q1_none", "Answer.q1_contradiction"]


def test_question_numbers_from_headers():
    assert layout.batch_question_numbers(["q10_id", "q2_id", "q2_text", "xq3_id", "q4_idx"]) == [2, 10]
    assert layout.results_question_numbers(["Input.q2_id", "Input.q1_id", "Answer.q3_spans",
                                            "q5_id", "Input.q7_text"]) == [1, 2]
