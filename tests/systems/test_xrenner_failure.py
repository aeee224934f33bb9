"""xrenner's refusals a user can act on (issue 46, item 4): the "Cycle detected in syntax tree"
parse check is repaired where it can be (hyphenated words joined), and otherwise the row is
named with the reason and the fix, in the summary and in answers.parquet."""

from __future__ import annotations

import sys

import pandas as pd
import pytest

from pipeline.systems.xrenner import rejection_message

CYCLE = "Cycle detected in syntax tree in doc in sentence 2 (child of token: 'Margaret')"


def test_rejection_message_names_the_reason_and_the_fix():
    msg = rejection_message(CYCLE)
    assert msg.startswith("xrenner rejected the parse: a cycle in the syntax tree of sentence 2 at the token "
                          "'Margaret'")
    assert "joining hyphenated words did not help" in msg
    assert "recorded unanswered (answers.parquet, error)" in msg and "Fix: run with another spaCy model" in msg
    assert "\n" not in msg
    other = rejection_message("Exiting due to invalid input", tried_repair=False)
    assert other.startswith("xrenner rejected the parse: Exiting due to invalid input; the row is recorded")


xr = pytest.importorskip("xrenner", reason="xrenner not installed (pip install --no-deps xrenner==2.2.1.1)")


@pytest.fixture(scope="module")
def adapter():
    from pipeline.systems.xrenner import XrennerAdapter

    return XrennerAdapter(None)


def test_cross_questioned_cycle_is_repaired(adapter):
    # spaCy parses "cross - questioned Margaret" as three tokens; xrenner's parser
    # post-processing turns them into a cycle and exits (North and South, issue 46)
    from pipeline.systems.xrenner import XrennerRejected, join_hyphenated

    text = "She questioned and cross-questioned Margaret, till the latter was weary."
    doc = adapter.nlp(text)
    with pytest.raises(XrennerRejected, match="Cycle detected in syntax tree"):
        adapter._analyze(doc, text)
    assert "cross-questioned" in [t.text for t in join_hyphenated(doc)]
    assert join_hyphenated(adapter.nlp("No hyphen here.")) is None
    [clusters] = adapter.predict([text])
    assert isinstance(clusters, list)          # answered, not an error


@pytest.mark.slow
def test_a_refused_row_is_named_with_reason_and_fix(tmp_path, capsys, adapter):
    from pipeline.cli import main
    from pipeline.formats.gap_tsv import write_gap_tsv
    from pipeline.systems.registry import systems
    from pipeline.systems.xrenner import XrennerAdapter
    from tests.stages.test_evaluate_systems import dataset_rows

    @systems.register("test-xrenner-refuses")
    class Refusing(XrennerAdapter):
        """The real adapter, its xrenner refusing every text with 'Harriet' as it refuses a cycle."""

        def __init__(self, model, device="cpu", batch_size=8):
            self.nlp, self.xr, self.batch_size = adapter.nlp, adapter.xr, batch_size

        def _analyze(self, doc, text):
            if "Harriet" in text:
                real = self.xr.analyze

                def refuse(conllu, fmt):
                    sys.stderr.write("\nCycle detected in syntax tree in doc in sentence 1 (child of token: "
                                     "'Harriet')\n")
                    sys.exit("Exiting due to invalid input\n")
                self.xr.analyze = refuse
                try:
                    return super()._analyze(doc, text)
                finally:
                    self.xr.analyze = real
            return super()._analyze(doc, text)

    data = tmp_path / "q.tsv"
    write_gap_tsv(dataset_rows(), data)
    out = tmp_path / "pred"
    assert main(["predict", "--dataset", str(data), "--system", "x=test-xrenner-refuses", "--out", str(out),
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "6/8 documents answered" in said, said
    assert ("2 failed, recorded as unanswered (first: 0-swap-2: RuntimeError: xrenner rejected the parse: "
            "a cycle in the syntax tree of sentence 1 at the token 'Harriet'") in said
    assert "every failed row and its error: answers.parquet (answered = false, column error)" in said
    ans = pd.read_parquet(out / "answers.parquet").set_index("id")
    assert not ans.loc["0-swap-2", "answered"]
    assert "Fix: run with another spaCy model" in ans.loc["0-swap-2", "error"]
    assert ans.loc[ans["answered"], "error"].isna().all()
    # evaluate names the first failed row, its reason and where the rest are
    assert main(["evaluate", "--dataset", str(data), "--system", f"x={out / 'x.jsonl'}", "--out",
                 str(tmp_path / "ev"), "--resamples", "100"]) == 0
    said = capsys.readouterr().out
    assert "2 document(s) the system failed on, counted as wrong (first: 0-swap-2: RuntimeError: xrenner rejected" in said
    assert "all in answers.parquet, column error" in said
