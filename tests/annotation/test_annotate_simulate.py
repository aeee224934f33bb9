"""The scripted workers (tests/annotation/simulate.py) between annotate-export and annotate-import:
the results file has MTurk's layout, and perfect workers' votes reproduce the hidden labels."""

from __future__ import annotations

import csv

import pyarrow.parquet as pq

from pipeline.cli import main
from tests.annotation.helpers import quad_rows, write_quadruples
from tests.annotation.simulate import hidden_label, simulate


def test_round_trip_with_scripted_workers(tmp_path, capsys):
    rows = quad_rows(6)
    write_quadruples(rows, tmp_path / "q.parquet")
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "export"), "--per-task", "4", "--checks", "1", "--seed", "0"]) == 0
    summary = simulate(tmp_path / "export" / "batch.csv", tmp_path / "q.parquet", tmp_path / "results.csv",
                       workers=3, accuracy=1.0, flag_rate=0.0, seed=7)
    with open(tmp_path / "export" / "batch.csv", newline="", encoding="utf-8") as fh:
        n_tasks = sum(1 for _ in csv.DictReader(fh))
    assert summary == {"tasks": n_tasks, "assignments": 3 * n_tasks, "dropped": 0}

    with open(tmp_path / "results.csv", newline="", encoding="utf-8") as fh:
        header = next(csv.reader(fh))
    # MTurk's results layout, spelled out here independently of pipeline.annotation.formats.mturk_csv
    assert header[:4] == ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus"]
    assert header[4:7] == ["Input.q1_id", "Input.q1_text", "Input.q1_spans"]
    assert header[-3:] == ["Answer.q4_spans", "Answer.q4_none", "Answer.q4_contradiction"]
    assert len(header) == 4 + 4 * 3 + 4 * 3

    capsys.readouterr()
    assert main(["annotate-import", "--results", str(tmp_path / "results.csv"), "--quadruples",
                 str(tmp_path / "q.parquet"), "--out", str(tmp_path / "final"), "--seed", "0"]) == 0
    votes = pq.read_table(tmp_path / "final" / "votes.parquet").to_pylist()
    assert len(votes) == len(rows)
    assert {v["status"] for v in votes} == {"voted"}
    assert all(v["agreement"] == 100.0 for v in votes)
    for v in votes:
        assert v["majority"] == hidden_label(v["quadruple_id"], 7), v["id"]
