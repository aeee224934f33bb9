"""The annotation app's queries in its store (pipeline.annotation.formats.store): leases and
answers, each statement a named function run inside the caller's transaction."""

from __future__ import annotations

import json

from pipeline.annotation.formats import store as store
from pipeline.formats.sqlite_store import connect, immediate


def _db(tmp_path):
    db = tmp_path / "a.sqlite"
    assert store.open_store(db, tmp_path / "q.parquet", "0" * 64, 2) == {"answers": 0}
    return db


def test_leases_are_counted_per_annotator_and_expire(tmp_path):
    db = _db(tmp_path)
    con = connect(db)
    try:
        with immediate(con):
            store.add_lease(con, "q1", "ada", 100.0)
            store.add_lease(con, "q2", "ada", 200.0)
            store.add_lease(con, "q1", "bob", 300.0)
        assert store.leased_by(con, "ada") == {"q1", "q2"}
        assert store.lease_counts_of_others(con, "ada") == {"q1": 1}
        assert store.lease_counts_of_others(con, "bob") == {"q1": 1, "q2": 1}
        with immediate(con):
            store.drop_expired_leases(con, 150.0)            # ada's q1 lease ran out
        assert store.leased_by(con, "ada") == {"q2"}
        with immediate(con):
            store.release_leases(con, "bob", "q2")           # not bob's: nothing happens
            store.release_leases(con, "ada", "q2")
        assert store.leased_by(con, "ada") == set() and store.leased_by(con, "bob") == {"q1"}
        with immediate(con):
            store.release_leases(con, "bob")
        assert store.lease_counts_of_others(con, "ada") == {}
    finally:
        con.close()


def test_answers_are_stored_and_counted(tmp_path):
    db = _db(tmp_path)
    con = connect(db)
    try:
        with immediate(con):
            store.add_answer(con, "ada", "q1", [[0, 4, "Anna"]], False, "")
            store.add_answer(con, "bob", "q1", [], True, "odd text")
            store.add_answer(con, "bob", "q2", [[5, 9, "Émile"]], False, "")
        assert store.has_answered(con, "ada", "q1") and not store.has_answered(con, "ada", "q2")
        assert store.answers_to(con, "q1") == 2 and store.answers_to(con, "q3") == 0
        assert store.answered_by(con, "bob") == {"q1", "q2"}
        assert store.answer_counts_per_instance(con) == {"q1": 2, "q2": 1}
        row = con.execute("SELECT spans, no_names, contradiction, answered_at FROM answers "
                          "WHERE annotator = 'bob' AND instance_id = 'q2'").fetchone()
    finally:
        con.close()
    assert json.loads(row[0]) == [[5, 9, "Émile"]] and "Émile" in row[0]     # JSON, not escaped
    assert row[1] == 0 and row[2] == "" and row[3].endswith("+00:00")
    assert sorted(store.answered_instance_ids(db)) == ["q1", "q2"]
    assert store.answer_counts(db) == (3, 2)


def test_a_failed_transaction_stores_nothing(tmp_path):
    db = _db(tmp_path)
    con = connect(db)
    try:
        try:
            with immediate(con):
                store.add_answer(con, "ada", "q1", [], True, "")
                store.add_answer(con, "ada", "q1", [], True, "")     # UNIQUE (annotator, instance_id)
        except Exception as exc:                                    # sqlite3.IntegrityError
            assert "UNIQUE" in str(exc)
        assert store.answers_to(con, "q1") == 0
    finally:
        con.close()
