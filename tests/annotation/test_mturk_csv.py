"""The MTurk CSV layout (pipeline.annotation.formats.mturk_csv): the column names MTurk's batch upload
and results download use, spelled out here independently."""

from __future__ import annotations

from pipeline.annotation.formats import mturk_csv as layout
from tests.annotation import simulate as simulate


def test_batch_and_results_columns():
    assert layout.batch_header(2) == ["q1_id", "q1_text", "q1_spans", "q2_id", "q2_text", "q2_spans"]
    assert layout.input_column(3, "text") == "Input.q3_text"
    assert layout.answer_columns([1]) == ["Answer.q1_spans", "Answer.q1_none", "Answer.q1_contradiction"]
    assert simulate.results_header(["q1_id", "q1_text", "q1_spans"], [1]) == [
        "HITId", "AssignmentId", "WorkerId", "AssignmentStatus",
        "Input.q1_id", "Input.q1_text", "Input.q1_spans",
        "Answer.q1_spans", "Answer.q1_none", "Answer.q1_contradiction"]


def test_question_numbers_from_headers():
    assert simulate.batch_question_numbers(["q10_id", "q2_id", "q2_text", "xq3_id", "q4_idx"]) == [2, 10]
    assert layout.results_question_numbers(["Input.q2_id", "Input.q1_id", "Answer.q3_spans",
                                            "q5_id", "Input.q7_text"]) == [1, 2]


# ----------------------------------------------------------------- read_results -----------

import json  # noqa: E402

import pytest  # noqa: E402

from pipeline.errors import InputError  # noqa: E402

TEXTS = {"7": "Anne met Tom & Jo.", "8": "Tom saw her."}
HEADER = ("HITId,AssignmentId,WorkerId,AssignmentStatus,Input.q1_id,Input.q1_text,Input.q2_id,Input.q2_text,"
          "Answer.q1_spans,Answer.q1_none,Answer.q1_contradiction,Answer.q2_spans,Answer.q2_none,"
          "Answer.q2_contradiction")


def spans_of(value):
    """A stand-in for the core's span parser: a JSON list, else ValueError."""
    got = json.loads(value) if value else []
    if not isinstance(got, list):
        raise ValueError("not a list")
    return [tuple(s[:2]) for s in got]


def results(tmp_path, *rows, header=HEADER, encoding="utf-8"):
    path = tmp_path / "results.csv"
    path.write_bytes(("\n".join([header, *rows]) + "\n").encode(encoding))
    return path


def test_reads_answers_in_file_order(tmp_path):
    path = results(tmp_path,
                   'H1,A1,W1,Submitted,7,Anne met Tom &amp; Jo.,8,Tom saw her.,"[[0, 4, ""Anne""]]",false,,[],on,x',
                   'H1,A2,W2,Rejected,7,Anne met Tom &amp; Jo.,8,Tom saw her.,[],false,,[],false,',
                   'H2,A3,W1,Approved,8,Tom saw her.,,,[],TRUE, ,,,')
    answers, rejected, encoding = layout.read_results(path, TEXTS, spans_of)
    assert (rejected, encoding) == (1, "UTF-8")
    assert answers == [
        {"row": 2, "annotator": "W1", "item": "7", "spans": [(0, 4)], "none": False, "contradiction": ""},
        {"row": 2, "annotator": "W1", "item": "8", "spans": [], "none": True, "contradiction": "x"},
        {"row": 4, "annotator": "W1", "item": "8", "spans": [], "none": True, "contradiction": ""},
    ]                                   # row 4's second slot is empty: an unused slot of a short task


def test_reads_excel_cp1252(tmp_path):
    texts = {"7": "Zoë met Tom."}
    path = results(tmp_path, "H1,A1,W1,,7,Zoë met Tom.,,,[],false,,,,", encoding="cp1252")
    answers, _, encoding = layout.read_results(path, texts, spans_of)
    assert encoding != "UTF-8" and answers[0]["item"] == "7"


@pytest.mark.parametrize("row, header, message, line", [
    ("H1,A1,,x,7,,,,[],false,,,,", HEADER, "empty WorkerId", 2),
    ("H1,A1,W1,x,9,,,,[],false,,,,", HEADER, "unknown instance '9' (Input.q1_id)", 2),
    ("H1,A1,W1,x,7,Anne met Tom.,,,[],false,,,,", HEADER, "Input.q1_text differs from the text of '7'", 2),
    ("H1,A1,W1,x,8,Tom saw her.,,,{},false,,,,", HEADER, "Answer.q1_spans is not a JSON list of spans", 2),
    ("H1,A1,W1,x,8,Tom saw her.,,,[],maybe,,,,", HEADER, "'Answer.q1_none' must be true or false", 2),
    ("H1,A1,W1,x,7", "HITId,AssignmentId,WorkerId,AssignmentStatus,Input.q1_id", "missing column(s) Answer.q1_spans", None),
    ("H1,A1", "HITId,AssignmentId", "missing column(s) WorkerId, Input.q1_id", None),
])
def test_refusals_name_the_row(tmp_path, row, header, message, line):
    path = results(tmp_path, row, header=header)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")) as exc:
        layout.read_results(path, TEXTS, spans_of)
    assert exc.value.row == line


def test_a_file_the_csv_module_cannot_read(tmp_path):
    """A field over the csv module's limit is csv.Error inside the reader: one line, no traceback."""
    import csv

    path = results(tmp_path, "H1,A1,W1,x,7,Anne met Tom &amp; Jo.,,,[],false,,,,")
    old = csv.field_size_limit(8)
    try:
        with pytest.raises(InputError, match="not a readable CSV file"):
            layout.read_results(path, TEXTS, spans_of)
    finally:
        csv.field_size_limit(old)


def test_batch_file_reads_back_with_the_csv_module(tmp_path):
    import csv

    header = layout.batch_header(1)
    rows = [{"q1_id": "7", "q1_text": 'He said, "Go,\nnow."', "q1_spans": "{}"}]
    layout.write_batch(tmp_path / "batch.csv", header, rows)
    raw = (tmp_path / "batch.csv").read_bytes()
    assert raw.startswith(b"q1_id,q1_text,q1_spans\r\n")        # the csv module's line ends, as MTurk reads
    with open(tmp_path / "batch.csv", newline="", encoding="utf-8") as fh:
        assert list(csv.DictReader(fh)) == rows
