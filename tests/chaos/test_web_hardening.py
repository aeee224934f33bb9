"""Issue 45, item 7: the web apps. CSRF tokens issued and verified by the server (a pair the
client chose itself is refused); every JSON field validated by type and range (400, never a
500 or a truncated value stored); security headers and no version banner; one
annotate-serve per database."""

from __future__ import annotations

import sqlite3
import types

import pytest

from pipeline.cli import main
from tests.chaos.test_chaos import request, served, session  # noqa: F401 -- the fixture
from tests.web.helpers import page_client

pytestmark = pytest.mark.chaos


@pytest.fixture
def mz(tmp_path):
    from pipeline.humans.web.app import create_app
    from tests.humans.experiment_helpers import maze_plan_file

    rows = maze_plan_file(tmp_path / "plan.parquet")
    app = create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    return types.SimpleNamespace(app=app, client=page_client(app), rows=rows, db=tmp_path / "db.sqlite")


def count(db, table):
    con = sqlite3.connect(db)
    try:
        return con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        con.close()


# ------------------------------------------------------------------ CSRF ------------------

def test_a_csrf_pair_the_client_chose_is_refused(served):  # noqa: F811
    port, rows = served
    answer = {"annotator": "ann", "id": next(iter(rows)), "spans": [], "none": True}
    chosen = {"Cookie": "cg_csrf=mine", "X-CSRF-Token": "mine"}
    assert request(port, "POST", "/api/answer", answer, chosen)[0] == 403
    assert request(port, "GET", "/api/next?annotator=ann", headers=chosen)[0] == 403
    # the page replaces a cookie it did not issue with one it did
    status, page, headers = request(port, "GET", "/", headers={"Cookie": "cg_csrf=mine"})
    assert status == 200 and b"mine" not in page and "cg_csrf=mine" not in headers.get("Set-Cookie", "")
    assert request(port, "POST", "/api/answer", answer, session(port))[0] == 200


def test_the_experiment_app_refuses_a_chosen_csrf_pair(mz):
    client = mz.app.test_client()
    client.set_cookie("cg_csrf", "abc.def")
    res = client.post("/api/start", json={"key": "W1", "consent": True}, headers={"X-CSRF-Token": "abc.def"})
    assert res.status_code == 403
    assert mz.client.post("/api/start", json={"key": "W1", "consent": True}).status_code == 200


def test_the_csrf_token_is_the_signed_sessions_own(mz):
    """The token lives in Flask's session, signed with the app's SECRET_KEY: another session's
    token is refused, and so is a session cookie signed with another key (a forged one, or one
    of a previous server process); the same cookie signed with the app's key is accepted."""
    from flask import Flask

    from pipeline.web.serving import CSRF_KEY

    other = page_client(mz.app)                                   # a second browser
    token = mz.client.environ_base["HTTP_X_CSRF_TOKEN"]
    start = {"key": "W1", "consent": True}
    assert other.post("/api/start", json=start, headers={"X-CSRF-Token": token}).status_code == 403

    def cookie_signed_with(secret):
        signer = Flask("t")
        signer.secret_key = secret
        return signer.session_interface.get_signing_serializer(signer).dumps({CSRF_KEY: "chosen"})

    name = mz.app.config["SESSION_COOKIE_NAME"]
    for secret, status in ((b"not the server's key", 403), (mz.app.secret_key, 200)):
        client = mz.app.test_client()
        client.set_cookie(name, cookie_signed_with(secret))
        assert client.post("/api/start", json=start, headers={"X-CSRF-Token": "chosen"}).status_code == status


def test_hosts_are_flasks_trusted_hosts_and_the_port_is_checked(mz):
    assert mz.app.config["TRUSTED_HOSTS"] == ["127.0.0.1", "localhost"]
    client = mz.app.test_client()
    assert client.get("/", headers={"Host": "localhost"}).status_code == 200     # port 80 when not served
    for host in ("evil.example", "localhost.evil.example", "localhost:8080", "127.0.0.1:1"):
        res = client.get("/", headers={"Host": host})
        assert res.status_code == 403 and "answers only to" in res.get_json()["error"], host


# ------------------------------------------------------------------ JSON fields -----------

@pytest.mark.parametrize("field,value", [
    ("spans", [[1e400, 5]]), ("spans", [[0.5, 4]]), ("spans", [["0", "4"]]), ("spans", [[0, 10 ** 12]]),
    ("annotator", ["list"]), ("annotator", 7), ("id", ["1"]), ("none", "yes"), ("contradiction", {"a": 1}),
])
def test_annotate_json_fields_are_checked_by_type_and_range(served, field, value):  # noqa: F811
    port, rows = served
    qid = next(iter(rows))
    answer = {"annotator": "ann", "id": qid, "spans": [], "none": True, field: value}
    status, body, _ = request(port, "POST", "/api/answer", answer, session(port))
    assert status == 400, body


@pytest.mark.parametrize("field,value", [
    ("position", 1e400), ("position", 0.9), ("position", -1), ("position", True), ("position", "0"),
    ("word_index", 1.9), ("word_index", 1e400), ("n_errors", -0.5), ("n_errors", 1.9), ("first_ms", float("inf")),
    ("first_ms", "300"), ("side", ["left"]),
])
def test_maze_json_fields_are_checked_and_nothing_is_stored(mz, field, value):
    st = mz.client.post("/api/start", json={"key": "W1", "consent": True}).get_json()
    assert st["trial"]["next_word"] == 1
    row = next(r for r in mz.rows if r["participant"] == "P001")
    body = {"key": "W1", "position": 0, "word_index": 1, "side": row["sides"][1], "n_errors": 0,
            "first_ms": 300, "correct_ms": 400, field: value}
    res = mz.client.post("/api/maze", json=body)
    assert res.status_code == 400, res.get_json()
    err = mz.client.post("/api/maze-error", json={"key": "W1", "position": body["position"] if field == "position" else 0,
                                                  "word_index": body["word_index"] if field == "word_index" else 1,
                                                  "ms": 280 if field != "first_ms" else value})
    assert err.status_code in (200, 400)
    if field in ("position", "word_index", "first_ms"):
        assert err.status_code == 400
    assert count(mz.db, "maze_words") == 0


# ------------------------------------------------------------------ headers ---------------

def test_security_headers_and_no_version_banner(served):  # noqa: F811
    port, _ = served
    for path in ("/", "/api/next?annotator=x", "/static/app.js"):
        status, _, headers = request(port, "GET", path, headers=session(port) if "api" in path else None)
        csp = headers.get("Content-Security-Policy", "")
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp.split("script-src")[1].split(";")[0]
        assert "frame-ancestors 'none'" in csp
        assert headers.get("X-Content-Type-Options") == "nosniff"
        assert headers.get("X-Frame-Options") == "DENY"
        assert headers.get("Referrer-Policy") == "no-referrer"
        assert headers.get("Server") == "counter-gap", headers.get("Server")


# ------------------------------------------------------------------ one server per db -----

def test_a_second_annotate_serve_on_one_database_is_refused(tmp_path, capsys):
    from tests.annotation.helpers import make_quadruple, write_quadruples
    from tests.chaos.test_chaos import helper, wait_line

    write_quadruples(make_quadruple("1"), tmp_path / "q.parquet")
    db = tmp_path / "a.sqlite"
    proc = helper("lock-file-and-sleep", str(db), "30")             # a first server holding the database
    try:
        wait_line(proc, "locked")
        code = main(["annotate-serve", "--quadruples", str(tmp_path / "q.parquet"), "--db", str(db),
                     "--assignments", "1", "--port", "0"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and f"pid {proc.pid}" in err and str(db) in err
        assert not db.exists()                                          # its settings untouched
    finally:
        proc.kill()
        proc.wait(timeout=30)


def test_a_second_experiment_serve_on_one_database_is_refused(tmp_path, capsys, monkeypatch):
    """Issue 45 item 7, as annotate-serve: one experiment-serve per --db (a lock beside it)."""
    from pipeline.web import serving
    from tests.chaos.test_chaos import helper, wait_line
    from tests.humans.experiment_helpers import qa_plan_file

    qa_plan_file(tmp_path / "plan.parquet")
    db = tmp_path / "e.sqlite"
    served = []
    monkeypatch.setattr(serving, "serve_until_stopped", lambda server: served.append(server))   # never block
    proc = helper("lock-file-and-sleep", str(db), "30")             # a first server holding the database
    try:
        wait_line(proc, "locked")
        code = main(["experiment-serve", "--plan", str(tmp_path / "plan.parquet"), "--db", str(db), "--port", "0"])
        err = capsys.readouterr().err
        assert code == 2 and err.count("\n") == 1 and f"pid {proc.pid}" in err and str(db) in err, err
        assert not db.exists() and not served                           # nothing created, nothing served
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert main(["experiment-serve", "--plan", str(tmp_path / "plan.parquet"), "--db", str(db), "--port", "0"]) == 0
    assert served and db.exists()                                        # the lock gone: served, then released
    from pipeline.formats.files import file_lock_path

    assert not file_lock_path(db).exists()


# ------------------------------------------------------------------ full disk -------------

def test_a_full_disk_answers_503_with_one_log_line(tmp_path, monkeypatch, caplog):
    import logging

    from pipeline.annotation.formats import store as annotation_store
    from pipeline.annotation.web.app import create_app
    from tests.annotation.helpers import make_quadruple, write_quadruples

    rows = make_quadruple("1")
    write_quadruples(rows, tmp_path / "q.parquet")
    client = page_client(create_app(tmp_path / "q.parquet", tmp_path / "a.sqlite", assignments=2))

    def full(*a, **k):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(annotation_store, "add_answer", full)
    with caplog.at_level(logging.ERROR):
        res = client.post("/api/answer", json={"annotator": "ann", "id": rows[0]["id"], "spans": [], "none": True})
    assert res.status_code == 503 and "nothing was stored" in res.get_json()["error"]
    logged = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(logged) == 1 and "disk is full" in logged[0].getMessage() and not logged[0].exc_info
    assert count(tmp_path / "a.sqlite", "answers") == 0
