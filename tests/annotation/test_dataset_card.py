"""The dataset card says who produced the labels (issue 46, item 5): people, the scripted
workers of a rehearsal, a model; carried from the raw annotator ids at annotate-import."""

from __future__ import annotations

import csv

from pipeline.cli import main
from pipeline.annotation.report import LABELS_BY, labels_by, labels_sentence
from tests.annotation.helpers import quad_rows, write_quadruples
from tests.annotation.simulate import simulate


def test_labels_by_reads_the_raw_annotator_ids():
    assert labels_by("mturk-csv", ["SIMW0001", "SIMW0017"]) == "simulator"
    assert labels_by("mturk-csv", ["A1B2C3D4E5", "SIMW0001"]) == "mixed"
    assert labels_by("sqlite", ["alice", "bob"]) == "people"
    assert labels_by("mturk-csv", ["model:gpt-x", "model:gpt-x"]) == "model:gpt-x"
    assert labels_by("mturk-csv", ["SIMW1"]) == "people"          # not the simulator's spelling


def test_labels_sentence_never_claims_people_it_does_not_know():
    assert "human annotators" in labels_sentence({LABELS_BY: "people"})
    sim = labels_sentence({LABELS_BY: "simulator"})
    assert "simulated annotators" in sim and "made up" in sim and "human" not in sim
    assert "model** (gpt-x)" in labels_sentence({LABELS_BY: "model:gpt-x"})
    unknown = labels_sentence({})
    assert "was not recorded" in unknown and "human" not in unknown


def _round_trip(tmp_path, rename=None):
    rows = quad_rows(6)
    write_quadruples(rows, tmp_path / "q.parquet")
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "export"), "--per-task", "4", "--checks", "1", "--seed", "0"]) == 0
    simulate(tmp_path / "export" / "batch.csv", tmp_path / "q.parquet", tmp_path / "results.csv",
             workers=3, accuracy=1.0, flag_rate=0.0, seed=7)
    if rename:       # the same answers under other workers' ids
        with open(tmp_path / "results.csv", newline="", encoding="utf-8") as fh:
            recs = list(csv.DictReader(fh))
        with open(tmp_path / "results.csv", "w", newline="", encoding="utf-8") as fh:
            w = csv.DictWriter(fh, fieldnames=list(recs[0]))
            w.writeheader()
            for r in recs:
                w.writerow({**r, "WorkerId": rename(r["WorkerId"])})
    assert main(["annotate-import", "--results", str(tmp_path / "results.csv"), "--quadruples",
                 str(tmp_path / "q.parquet"), "--out", str(tmp_path / "final"), "--seed", "0"]) == 0
    return (tmp_path / "final" / "README.md").read_text(encoding="utf-8")


def test_card_of_a_rehearsal_says_simulated(tmp_path, capsys):
    card = _round_trip(tmp_path)
    assert "majority vote of **simulated annotators**" in card and "human annotators" not in card
    assert "| labels by | `simulator` |" in card
    assert "labels by simulator" in capsys.readouterr().out


def test_card_of_people_says_human(tmp_path):
    card = _round_trip(tmp_path, rename=lambda w: "A" + w[4:] + "XQ9")
    assert "majority vote of human annotators" in card and "| labels by | `people` |" in card
