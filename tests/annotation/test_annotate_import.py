"""annotate-import through the CLI: MTurk CSV and SQLite readers, bad input, the outputs."""

from __future__ import annotations

import csv
import html
import json
import sqlite3

import pyarrow.parquet as pq
import pytest

from tests.web.helpers import page_client
from pipeline.cli import main
from pipeline.formats.gap_tsv import read_gap_tsv
from tests.annotation.helpers import scenario, write_quadruples


def write_mturk_results(path, quads_rows, answers, per_task=4, rejected=()):
    """Pack scripted answers into an MTurk results CSV: one assignment per (worker, task)."""
    by_worker = {}
    for a in answers:
        by_worker.setdefault(a.annotator, []).append(a)
    texts = {r["id"]: r["text"] for r in quads_rows}
    header = ["HITId", "AssignmentId", "WorkerId", "AssignmentStatus"]
    header += [f"Input.q{i}_{f}" for i in range(1, per_task + 1) for f in ("id", "text", "spans")]
    header += [f"Answer.q{i}_{f}" for i in range(1, per_task + 1) for f in ("spans", "none", "contradiction")]
    out = []
    for w, items in sorted(by_worker.items()):
        for t in range(0, len(items), per_task):
            rec = dict.fromkeys(header, "")
            rec.update(HITId=f"H{t}", AssignmentId=f"{w}-{t}", WorkerId=w,
                       AssignmentStatus="Rejected" if (w, t) in rejected else "Submitted")
            for i, a in enumerate(items[t:t + per_task], start=1):
                rec[f"Input.q{i}_id"] = html.escape(a.item)
                rec[f"Input.q{i}_text"] = html.escape(texts[a.item])
                rec[f"Answer.q{i}_spans"] = json.dumps([list(s) for s in a.spans])
                rec[f"Answer.q{i}_none"] = "true" if a.none else "false"
                rec[f"Answer.q{i}_contradiction"] = a.contradiction
            out.append(rec)
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(out)
    return header, out


@pytest.fixture
def files(tmp_path):
    quads, rows, ans = scenario()
    write_quadruples(rows, tmp_path / "q.parquet")
    return tmp_path, rows, ans


def test_import_cli_from_mturk_csv(files, capsys):
    tmp, rows, ans = files
    write_mturk_results(tmp / "results.csv", rows, ans)
    code = main(["annotate-import", "--results", str(tmp / "results.csv"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final"), "--drop-real-people"])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "funnel (quadruples): originals 9 -> annotated 8 -> consistent 6 -> no flags 5 -> " \
           "no real people 4 -> balanced 2" in out
    assert "6-control" in out                               # reported: too few answers
    table = pq.read_table(tmp / "final" / "dataset.parquet")
    assert table.num_rows == 8
    gap, bad = read_gap_tsv(tmp / "final" / "dataset.tsv")
    assert bad == 0 and len(gap) == 8
    assert {g["ID"] for g in gap} == set(table.column("id").to_pylist())
    assert all(g["Book"] in ("Emma", "Persuasion") for g in gap)
    assert all(g["URL"] == "https://www.gutenberg.org/ebooks/158" for g in gap)
    card = (tmp / "final" / "README.md").read_text()
    for line in ("| originals (quadruples exported) | 9 |", "| consistent (same majority label "
                 "position in all four) | 6 |", "| no real-world people's names | 4 |",
                 "| balanced (as many masculine as feminine originals) | 2 |"):
        assert line in card
    assert "Per book" in card and "Per pattern" in card and "sha256" in card
    summary = json.loads((tmp / "final" / "summary.json").read_text())
    assert summary["funnel"]["balanced"] == 2
    votes = pq.read_table(tmp / "final" / "votes.parquet")
    assert votes.num_rows == 36


def test_rejected_assignments_are_skipped(files, capsys):
    tmp, rows, ans = files
    write_mturk_results(tmp / "results.csv", rows, ans, rejected={("w1", 0)})
    assert main(["annotate-import", "--results", str(tmp / "results.csv"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 0
    out = capsys.readouterr().out
    assert "skipped 1 rejected assignment(s)" in out
    # w1's first task held q1's four instances: now two answers each -> q1 not annotated
    assert "annotated 7" in out


def test_results_missing_columns_exit_2(files, capsys):
    tmp, rows, ans = files
    header, recs = write_mturk_results(tmp / "results.csv", rows, ans)
    for drop in ("Answer.q2_none", "WorkerId"):
        keep = [h for h in header if h != drop]
        with open(tmp / "bad.csv", "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=keep, extrasaction="ignore")
            writer.writeheader()
            writer.writerows(recs)
        assert main(["annotate-import", "--results", str(tmp / "bad.csv"), "--quadruples",
                     str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 2
        err = capsys.readouterr().err
        assert err.startswith("error: ") and f"missing column(s) {drop}" in err
    assert not (tmp / "final").exists()


def test_results_unknown_instance_exit_2(files, capsys):
    tmp, rows, ans = files
    header, recs = write_mturk_results(tmp / "results.csv", rows, ans)
    recs[2]["Input.q3_id"] = "12345-swap-1"
    with open(tmp / "bad.csv", "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(recs)
    assert main(["annotate-import", "--results", str(tmp / "bad.csv"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 2
    err = capsys.readouterr().err
    assert "row 4" in err and "unknown instance '12345-swap-1'" in err


def test_results_of_another_file_and_bad_json_exit_2(files, capsys):
    tmp, rows, ans = files
    header, recs = write_mturk_results(tmp / "results.csv", rows, ans)
    for col, value, message in (("Input.q1_text", "another text", "differs"),
                                ("Answer.q1_spans", "[[1, 2", "not a JSON list"),
                                ("Answer.q1_none", "maybe", "true or false")):
        changed = [dict(r) for r in recs]
        changed[0][col] = value
        with open(tmp / "bad.csv", "w", newline="", encoding="utf-8") as fh:
            writer = csv.DictWriter(fh, fieldnames=header)
            writer.writeheader()
            writer.writerows(changed)
        assert main(["annotate-import", "--results", str(tmp / "bad.csv"), "--quadruples",
                     str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 2
        assert message in capsys.readouterr().err


def test_import_from_sqlite(files, capsys):
    from pipeline.annotation.formats.store import SCHEMA

    tmp, rows, ans = files
    con = sqlite3.connect(tmp / "a.sqlite")
    con.executescript(SCHEMA)
    for a in ans:
        con.execute("INSERT OR IGNORE INTO answers (annotator, instance_id, spans, no_names, "
                    "contradiction, answered_at) VALUES (?, ?, ?, ?, ?, '')",
                    (a.annotator, a.item, json.dumps([list(s) for s in a.spans]), int(a.none),
                     a.contradiction))
    con.commit()
    con.close()
    assert main(["annotate-import", "--results", str(tmp / "a.sqlite"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 0
    out = capsys.readouterr().out
    # the UNIQUE constraint already dropped w1's second answer to q1
    assert "(sqlite)" in out and "originals 9 -> annotated 8 -> consistent 6 -> no flags 5 -> balanced 4" in out


def test_sqlite_without_answers_table_exit_2(files, capsys):
    tmp, rows, ans = files
    con = sqlite3.connect(tmp / "x.sqlite")
    con.execute("CREATE TABLE other (x)")
    con.commit()
    con.close()
    assert main(["annotate-import", "--results", str(tmp / "x.sqlite"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 2
    assert "no table 'answers'" in capsys.readouterr().err


# ----------------------------------------------------------------- the app's database ------

def app_database(db, quadruples, rows, answers, with_hash=True):
    """A database as annotate-serve leaves it: meta with the quadruples hash, spans stored
    as [start, end, text]."""
    from pipeline.formats.files import sha256_file
    from pipeline.annotation.formats.store import connect, open_store

    open_store(db, quadruples, sha256_file(quadruples), 3)
    texts = {r["id"]: r["text"] for r in rows}
    con = connect(db)
    for a in answers:
        spans = [[s, e, texts[a.item][s:e]] for s, e in a.spans]
        con.execute("INSERT OR IGNORE INTO answers (annotator, instance_id, spans, no_names, "
                    "contradiction, answered_at) VALUES (?, ?, ?, ?, ?, '')",
                    (a.annotator, a.item, json.dumps(spans), int(a.none), a.contradiction))
    if not with_hash:
        con.execute("DELETE FROM meta")
    con.close()


def regenerate(rows, path):
    """Quadruple 1 regenerated with a longer C1 name: same ids, shifted offsets."""
    from tests.annotation.helpers import make_quadruple

    new = make_quadruple("1", "masculine", book="Emma", c1=("Bartholomew Smith", "Bartholomew"))
    write_quadruples(new + [r for r in rows if r["quadruple_id"] != "1"], path)


def test_import_from_the_apps_database(files, capsys):
    tmp, rows, ans = files
    app_database(tmp / "a.sqlite", tmp / "q.parquet", rows, ans)
    assert main(["annotate-import", "--results", str(tmp / "a.sqlite"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 0
    assert "originals 9 -> annotated 8 -> consistent 6 -> no flags 5 -> balanced 4" in \
        capsys.readouterr().out


@pytest.mark.slow
def test_import_refuses_a_regenerated_quadruples_file(files, capsys):
    tmp, rows, ans = files
    app_database(tmp / "a.sqlite", tmp / "q.parquet", rows, ans)
    regenerate(rows, tmp / "q2.parquet")
    assert main(["annotate-import", "--results", str(tmp / "a.sqlite"), "--quadruples",
                 str(tmp / "q2.parquet"), "--out", str(tmp / "final")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {tmp / 'a.sqlite'}: started with another quadruples file")
    assert err.count("\n") == 1
    assert not (tmp / "final").exists()


@pytest.mark.slow
def test_import_checks_stored_span_texts_without_a_hash(files, capsys):
    tmp, rows, ans = files
    app_database(tmp / "a.sqlite", tmp / "q.parquet", rows, ans, with_hash=False)
    regenerate(rows, tmp / "q2.parquet")
    con = sqlite3.connect(tmp / "a.sqlite")
    first_bad = con.execute("SELECT MIN(rowid) FROM answers WHERE instance_id = '1' "
                            "AND no_names = 0").fetchone()[0]      # only the original changed
    con.close()
    assert main(["annotate-import", "--results", str(tmp / "a.sqlite"), "--quadruples",
                 str(tmp / "q2.parquet"), "--out", str(tmp / "final")]) == 2
    err = [line for line in capsys.readouterr().err.splitlines() if line.startswith("error:")]
    assert len(err) == 1
    assert f"a.sqlite, row {first_bad}: the highlight" in err[0] and "another quadruples file" in err[0]
    assert not (tmp / "final").exists()
    # the unchanged file still imports (the stored texts agree)
    assert main(["annotate-import", "--results", str(tmp / "a.sqlite"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final")]) == 0


# ----------------------------------------------------------------- the published dataset ---

@pytest.fixture
def published(files):
    tmp, rows, ans = files
    write_mturk_results(tmp / "results.csv", rows, ans)
    assert main(["annotate-import", "--results", str(tmp / "results.csv"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(tmp / "final"),
                 "--license", "cc-by-4.0"]) == 0
    return tmp / "final"


LOAD = """
import json, sys
import datasets
out = {}
for config in ("default", "votes"):
    ds = datasets.load_dataset(sys.argv[1], config, cache_dir=sys.argv[2])
    split = ds["test"]
    out[config] = {"splits": list(ds), "rows": split.num_rows, "ids": list(split["id"]),
                   "features": sorted(split.features)}
first = datasets.load_dataset(sys.argv[1], cache_dir=sys.argv[2])["test"][0]
out["first"] = {"names0": first["names"][0]["name"], "mention": first["names"][0]["mentions"][0],
                "a_coref": first["a_coref"], "b_coref": first["b_coref"]}
print(json.dumps(out))
"""


@pytest.mark.slow
def test_published_dataset_loads_offline_with_datasets(published, tmp_path):
    """``datasets.load_dataset(DIR)`` in a fresh interpreter, offline, cache in tmp_path."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1",
           "HF_HOME": str(tmp_path / "hf-home")}
    done = subprocess.run([sys.executable, "-c", LOAD, str(published), str(tmp_path / "cache")],
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    got = json.loads(done.stdout.strip().splitlines()[-1])
    dataset = pq.read_table(published / "dataset.parquet")
    assert got["default"]["splits"] == ["test"]
    assert got["default"]["rows"] == dataset.num_rows == 16
    assert got["default"]["ids"] == dataset.column("id").to_pylist()
    assert got["default"]["features"] == sorted(dataset.column_names)
    assert got["votes"]["rows"] == 36
    first = dataset.to_pylist()[0]
    assert got["first"]["names0"] == first["names"][0]["name"]
    assert got["first"]["mention"] == first["names"][0]["mentions"][0]
    assert (got["first"]["a_coref"], got["first"]["b_coref"]) == (first["a_coref"], first["b_coref"])


def test_dataset_card_has_the_metadata_block(published):
    import yaml

    text = (published / "README.md").read_text(encoding="utf-8")
    assert text.startswith("---\n")
    meta = yaml.safe_load(text.split("---\n", 2)[1])
    assert meta["license"] == "cc-by-4.0"
    assert [c["config_name"] for c in meta["configs"]] == ["default", "votes"]
    assert meta["configs"][0]["data_files"] == [{"split": "test", "path": "dataset.parquet"}]
    info = {i["config_name"]: i for i in meta["dataset_info"]}
    assert info["default"]["splits"] == [{"name": "test", "num_bytes": info["default"]["splits"][0]["num_bytes"],
                                          "num_examples": 16}]
    features = {f["name"]: f for f in info["default"]["features"]}
    assert features["a_coref"]["dtype"] == "bool" and features["pronoun_offset"]["dtype"] == "int32"
    assert [f["name"] for f in features["names"]["list"]] == ["role", "name", "gender", "mentions"]
    body = text.split("---\n", 2)[2]
    assert "| balanced (as many masculine as feminine originals) | 4 |" in body
    assert "License: `cc-by-4.0`" in body


@pytest.mark.slow
def test_every_parquet_output_opens_in_pandas_polars_duckdb(published):
    import duckdb
    import pandas as pd
    import polars as pl

    for name, n in (("dataset.parquet", 16), ("votes.parquet", 36)):
        path = published / name
        ids = pq.read_table(path).column("id").to_pylist()
        assert len(ids) == n
        assert pd.read_parquet(path)["id"].tolist() == ids
        assert pl.read_parquet(path)["id"].to_list() == ids
        con = duckdb.connect()
        try:
            got = [r[0] for r in con.execute("SELECT id FROM read_parquet(?)", [str(path)]).fetchall()]
        finally:
            con.close()
        assert got == ids
    frame = pl.read_parquet(published / "dataset.parquet")
    assert frame["names"].list.len().to_list() == [4] * 16           # nested lists survive
    votes = pd.read_parquet(published / "votes.parquet")
    assert set(votes["status"]) == {"voted", "no-majority", "too-few-answers"}


def test_a_failed_import_leaves_the_previous_outputs(published, files, monkeypatch, capsys):
    import pipeline.formats.gap_tsv as gap_tsv

    tmp, rows, ans = files
    before = {p.name: p.read_bytes() for p in published.iterdir()}

    def broken(*args, **kwargs):
        raise OSError("disk full")

    monkeypatch.setattr(gap_tsv, "write_gap_tsv", broken)
    capsys.readouterr()
    assert main(["annotate-import", "--results", str(tmp / "results.csv"), "--quadruples",
                 str(tmp / "q.parquet"), "--out", str(published), "--seed", "5"]) == 2
    # one line, no traceback, naming what was being written (issue 45: every error names its file)
    assert capsys.readouterr().err == f"error: {published}: disk full\n"
    assert {p.name: p.read_bytes() for p in published.iterdir()} == before


# ----------------------------------------------------------------- GAP TSV input ------------

@pytest.mark.slow
def test_import_of_a_gap_tsv_annotated_in_the_app(tmp_path, capsys):
    """Counter-GAP-style csv-quoted file -> annotate-serve's app -> annotate-import: the same
    conversion on both sides, the file's Book column kept in dataset.tsv."""
    from pipeline.formats.gap_tsv import read_gap_tsv
    from pipeline.annotation.web.app import create_app
    from tests.annotation.helpers import BOOK, GAP_TEXTS, GAP_TEXTS_M, gap_rows, write_gap_csv_quoted

    rows = gap_rows(GAP_TEXTS + GAP_TEXTS_M)
    gap, db = tmp_path / "cgap.tsv", tmp_path / "a.sqlite"
    write_gap_csv_quoted(rows, gap)
    client = page_client(create_app(gap, db, assignments=2))
    by_id = {r["ID"]: r for r in rows}
    for name in ("w1", "w2"):
        while True:
            got = client.get("/api/next", query_string={"annotator": name}).get_json()
            if got["done"]:
                break
            row = by_id[got["question"]["id"]]
            b = [row["B-offset"], row["B-offset"] + len(row["B"])]
            r = client.post("/api/answer", json={"annotator": name, "id": row["ID"], "spans": [b],
                                                 "none": False})
            assert r.status_code == 200
    assert main(["annotate-import", "--results", str(db), "--quadruples", str(gap),
                 "--assignments", "2", "--out", str(tmp_path / "final")]) == 0
    out = capsys.readouterr().out
    assert "GAP TSV: 12 rows in 3 quadruple(s)" in out and ": 2\n" in out
    assert "originals 2 -> annotated 2 -> consistent 2 -> no flags 2 -> balanced 2" in out
    table = pq.read_table(tmp_path / "final" / "dataset.parquet").to_pylist()
    assert sorted(r["id"] for r in table) == sorted(i for i in by_id if not i.startswith("2"))
    assert all(r["b_coref"] is True and r["a_coref"] is False for r in table)
    assert {r["source"] for r in table} == {"gap-tsv:cgap.tsv"}
    published, _ = read_gap_tsv(tmp_path / "final" / "dataset.tsv")
    assert {r["Book"] for r in published} == {BOOK}
    for r in published:                                   # texts and offsets as in the input
        src = by_id[r["ID"]]
        assert (r["Text"], r["A"], r["A-offset"], r["B"], r["B-offset"]) == \
            (src["Text"], src["A"], src["A-offset"], src["B"], src["B-offset"])
    card = (tmp_path / "final" / "README.md").read_text(encoding="utf-8")
    assert "(GAP TSV)" in card and "8 of 12" in card
