"""annotate-export through the CLI: the four files, bad input, all-or-nothing output; a GAP TSV
input (a hand-made csv-quoted file, and Counter-GAP's published dev file when ../shared exists)."""

from __future__ import annotations

import csv
import html
import json

import pytest

from pipeline.cli import main
from pipeline.formats.files import sha256_file
from tests.annotation.helpers import gap_rows, quad_rows as _rows, write_gap_csv_quoted, write_quadruples


def test_export_cli(tmp_path, capsys):
    rows = _rows(5)
    write_quadruples(rows, tmp_path / "q.parquet")
    code = main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "out"), "--per-task", "6", "--checks", "2", "--seed", "1"])
    assert code == 0
    with open(tmp_path / "out" / "batch.csv", newline="", encoding="utf-8") as fh:
        recs = list(csv.DictReader(fh))
    ids = [html.unescape(r[f"q{i}_id"]) for r in recs for i in range(1, 7)]
    assert sorted(i for i in ids if not i.startswith("check-")) == sorted(r["id"] for r in rows)
    assert len(recs) == 5                                  # 20 instances, 4 per task
    summary = json.loads((tmp_path / "out" / "export.json").read_text())
    assert summary["tasks"] == 5 and summary["instance_questions"] == 20
    assert summary["check_questions"] == 10 and summary["answers_expected"] == 60
    assert (tmp_path / "out" / "task.html").exists() and (tmp_path / "out" / "preview.html").exists()
    assert "5 quadruples, 20 instance questions -> 5 tasks" in capsys.readouterr().out


def test_export_bad_input_exits_2(tmp_path, capsys):
    rows = _rows(1)
    rows[1]["pronoun_offset"] += 1
    write_quadruples(rows, tmp_path / "q.parquet")
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "row 1: pronoun_offset" in capsys.readouterr().err
    assert main(["annotate-export", "--quadruples", str(tmp_path / "nope.parquet"),
                 "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o" / "batch.csv").exists()


def test_a_failed_export_writes_nothing(tmp_path, monkeypatch):
    import pipeline.annotation.web.mturk as mturk

    write_quadruples(_rows(3), tmp_path / "q.parquet")
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "out"), "--per-task", "4"]) == 0
    before = {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()}
    assert sorted(before) == ["batch.csv", "export.json", "preview.html", "run.json", "task.html"]

    def broken(template, values):
        raise OSError("disk full")

    monkeypatch.setattr(mturk, "preview_page", broken)
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "out"), "--per-task", "5", "--seed", "3"]) == 2    # one line, exit 2
    assert {p.name: p.read_bytes() for p in (tmp_path / "out").iterdir()} == before
    assert main(["annotate-export", "--quadruples", str(tmp_path / "q.parquet"), "--out",
                 str(tmp_path / "new")]) == 2
    assert not (tmp_path / "new").exists() or list((tmp_path / "new").iterdir()) == []


# ----------------------------------------------------------------- GAP TSV input ------------

def _batch_questions(out) -> dict:
    """id -> (text, spans JSON) of every instance question in batch.csv."""
    with open(out / "batch.csv", newline="", encoding="utf-8") as fh:
        recs = list(csv.DictReader(fh))
    got = {}
    for r in recs:
        i = 1
        while f"q{i}_id" in r:
            qid = html.unescape(r[f"q{i}_id"])
            if qid and not qid.startswith("check-"):
                got[qid] = (html.unescape(r[f"q{i}_text"]), json.loads(html.unescape(r[f"q{i}_spans"])))
            i += 1
    return got


def _persons(text, spans) -> list[set[str]]:
    return [{text[s:e] for s, e in person} for person in spans["persons"]]


def _person_of(spans, start, end):
    hits = [k for k, person in enumerate(spans["persons"]) if any(s <= start and end <= e for s, e in person)]
    return hits[0] if len(hits) == 1 else None


def test_export_a_csv_quoted_gap_tsv(tmp_path, capsys):
    rows = gap_rows()
    write_gap_csv_quoted(rows, tmp_path / "cgap.tsv")
    assert (tmp_path / "cgap.tsv").read_text(encoding="utf-8").splitlines()[1].startswith('1\t"""Well,""')
    code = main(["annotate-export", "--quadruples", str(tmp_path / "cgap.tsv"), "--out",
                 str(tmp_path / "out"), "--per-task", "3", "--checks", "1"])
    assert code == 0
    out = capsys.readouterr().out
    # quadruple 2's original: A "the baker" is not a name -> reported; its other rows go with it
    assert "GAP TSV: 8 rows in 2 quadruple(s)" in out and "4 rows of 1 quadruple(s) kept" in out
    assert "1 row(s) could not be converted and were left out (A is not a name the pipeline can find: 1): 2\n" in out
    assert "3 other row(s) of those quadruples left out with them: 2-control, 2-swap-1, 2-swap-2" in out
    assert "1 quadruples, 4 instance questions" in out
    got = _batch_questions(tmp_path / "out")
    assert sorted(got) == ["1", "1-control", "1-swap-1", "1-swap-2"]
    by_id = {r["ID"]: r for r in rows}
    for qid, (text, spans) in got.items():
        row = by_id[qid]
        assert text == row["Text"]                          # the unquoted text, offsets intact
        assert text[spans["pronoun"][0]:spans["pronoun"][1]] == row["Pronoun"]
        # the names of the text, each person with all its mentions
        assert sorted(map(sorted, _persons(text, spans))) == [
            ["Catherine"], ["Lydia"], ["Mr. Bennet"], ["Mr. Collins"]]
        a = _person_of(spans, row["A-offset"], row["A-offset"] + len(row["A"]))
        b = _person_of(spans, row["B-offset"], row["B-offset"] + len(row["B"]))
        assert a is not None and b is not None and a != b   # A and B are highlightable candidates
    text, spans = got["1"]
    lydia = [p for p in spans["persons"] if text[p[0][0]:p[0][1]] == "Lydia"][0]
    assert len(lydia) == 2                                  # both "Lydia"s are one person
    summary = json.loads((tmp_path / "out" / "export.json").read_text())
    conv = summary["input"]
    assert conv["kind"] == "gap-tsv" and conv["rows"] == 8 and conv["rows_kept"] == 4
    assert conv["quadruples"] == 2 and conv["quadruples_kept"] == 1
    assert conv["rejected"] == [["2", "A is not a name the pipeline can find"]]
    assert summary["quadruples_sha256"] == sha256_file(tmp_path / "cgap.tsv")
    preview = (tmp_path / "out" / "preview.html").read_text(encoding="utf-8")
    assert "Mr. Collins" in preview or "Mr. Bennet" in preview


def test_export_gap_tsv_of_which_nothing_converts_exits_2(tmp_path, capsys):
    rows = [r for r in gap_rows() if r["ID"] == "2"]
    write_gap_csv_quoted(rows, tmp_path / "bad.tsv")
    assert main(["annotate-export", "--quadruples", str(tmp_path / "bad.tsv"),
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "none of the 1 rows could be converted (A is not a name the pipeline can find: 1)" in err
    assert not (tmp_path / "o" / "batch.csv").exists()


@pytest.mark.slow
def test_export_the_published_counter_gap_dev_file(shared_dir, tmp_path, capsys):
    """Counter-GAP's C-GAP-withdot.dev.tsv exactly as released (csv-quoted, Book column)."""
    path = shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    if not path.exists():
        pytest.skip(f"{path} is absent")
    from pipeline.formats.gap_tsv import read_gap_tsv

    rows = {r["ID"]: r for r in read_gap_tsv(path)[0]}
    assert len(rows) == 300
    assert main(["annotate-export", "--quadruples", str(path), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    print(out)
    conv = json.loads((tmp_path / "out" / "export.json").read_text())["input"]
    assert conv["rows"] == 300 and conv["quadruples"] == 75
    assert conv["rows_kept"] == 4 * conv["quadruples_kept"]
    assert conv["quadruples_kept"] >= 70                      # 75 of 75 when written
    got = _batch_questions(tmp_path / "out")
    assert len(got) == conv["rows_kept"]
    for qid, (text, spans) in got.items():
        row = rows[qid]
        assert text == row["Text"]
        a = _person_of(spans, row["A-offset"], row["A-offset"] + 1)
        b = _person_of(spans, row["B-offset"], row["B-offset"] + 1)
        assert a is not None and b is not None and a != b, qid


def test_the_export_run_writes_the_layout_it_is_given(tmp_path):
    """pipeline.annotation.runs.export takes its MTurk layout from the caller (a run may not
    import the web package): the files hold what the layout made, the plan is the run's."""
    from pipeline.annotation.runs.export import export

    calls = []

    def layout(tasks, per_task):
        calls.append((len(tasks), per_task, sorted(q.id for t in tasks for q in t)))
        header = [f"q{i}_id" for i in range(1, per_task + 1)]
        recs = [{f"q{i}_id": q.id for i, q in enumerate(t, start=1)} for t in tasks]
        return header, recs, "<p>layout</p>", "<p>preview</p>"

    rows = _rows(2)
    write_quadruples(rows, tmp_path / "q.parquet")
    s = export(tmp_path / "q.parquet", tmp_path / "out", per_task=4, n_checks=0, layout=layout)
    # 8 instances; two variants of a quadruple never share a task: 4 tasks of 2
    assert calls == [(4, 4, sorted(r["id"] for r in rows))]
    assert (tmp_path / "out" / "task.html").read_text() == "<p>layout</p>"
    assert (tmp_path / "out" / "preview.html").read_text() == "<p>preview</p>"
    with open(tmp_path / "out" / "batch.csv", newline="", encoding="utf-8") as fh:
        recs = list(csv.DictReader(fh))
    assert sorted(r[f"q{i}_id"] for r in recs for i in range(1, 5) if r[f"q{i}_id"]) == sorted(r["id"] for r in rows)
    assert s["tasks"] == 4 and s["instances_per_task"] == 2 and s["reduced"] and s["check_questions"] == 0
    assert json.loads((tmp_path / "out" / "export.json").read_text())["tasks"] == 4
