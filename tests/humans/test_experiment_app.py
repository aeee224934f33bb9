"""The experiment app through Flask's test client: consent, keys, calibration and pace, timed
trials, Maze words, refusals (unsafe keys, second tabs, non-loopback), export."""

from __future__ import annotations

import csv
import sqlite3
import types

import pytest

from tests.web.helpers import page_client
from pipeline.errors import InputError
from pipeline.humans.formats import results as human_results
from pipeline.humans.web.app import create_app
from tests.humans.experiment_helpers import maze_plan_file, qa_plan_file


@pytest.fixture
def qa(tmp_path):
    rows = qa_plan_file(tmp_path / "plan.parquet")
    app = create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    return types.SimpleNamespace(client=page_client(app), rows=rows, db=tmp_path / "db.sqlite",
                                 plan=tmp_path / "plan.parquet", tmp=tmp_path)


@pytest.fixture
def mz(tmp_path):
    rows = maze_plan_file(tmp_path / "plan.parquet")
    app = create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    return types.SimpleNamespace(client=page_client(app), rows=rows, db=tmp_path / "db.sqlite",
                                 plan=tmp_path / "plan.parquet", tmp=tmp_path)


def count(db, table):
    con = sqlite3.connect(db)
    try:
        return con.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    finally:
        con.close()


def start(client, key="W1"):
    res = client.post("/api/start", json={"key": key, "consent": True})
    assert res.status_code == 200, res.get_json()
    return res.get_json()


def do_calibration(client, st, key="W1", seconds_per_word=0.3):
    """Answer the calibration (one wrong attempt first); returns the expected pace."""
    rates = []
    while st["trial"]["kind"] == "calibration":
        t = st["trial"]
        res = client.post("/api/answer", json={"key": key, "position": t["position"],
                                               "answer": "male", "total_ms": 100}).get_json()
        assert res["retry"] is True and res["correct"] is False
        total = seconds_per_word * t["n_words"] * 1000 * (1 + t["position"])
        res = client.post("/api/answer", json={"key": key, "position": t["position"],
                                               "answer": "unknown", "total_ms": total}).get_json()
        assert res["correct"] is True
        rates.append(seconds_per_word * (1 + t["position"]))
        st = client.get(f"/api/state?key={key}").get_json()
    return st, sum(rates) / len(rates)


def test_page_and_consent(qa):
    page = qa.client.get("/")
    assert page.status_code == 200 and b'data-experiment="qa"' in page.data
    res = qa.client.post("/api/start", json={"key": "W1", "consent": False})
    assert res.status_code == 400 and "consent" in res.get_json()["error"]
    assert count(qa.db, "participants") == 0


@pytest.mark.parametrize("key", ["a b", "x;DROP TABLE", "<script>", "ü", "k" * 65, "../etc"])
def test_unsafe_participant_keys_are_refused(qa, key):
    res = qa.client.post("/api/start", json={"key": key, "consent": True})
    assert res.status_code == 400
    assert "letters, digits" in res.get_json()["error"]
    assert count(qa.db, "participants") == 0
    assert qa.client.get("/api/state", query_string={"key": key}).status_code == 400


def test_non_loopback_requests_are_refused(qa):
    res = qa.client.get("/", environ_base={"REMOTE_ADDR": "10.1.2.3"})
    assert res.status_code == 403
    assert "local machine only" in res.get_json()["error"]
    res = qa.client.post("/api/start", json={"key": "W1", "consent": True},
                         environ_base={"REMOTE_ADDR": "192.168.0.7"})
    assert res.status_code == 403 and count(qa.db, "participants") == 0
    assert qa.client.get("/", environ_base={"REMOTE_ADDR": "::1"}).status_code == 200


def test_slots_are_given_in_order_and_run_out(qa):
    assert start(qa.client, "W1")["slot"] == "P001"
    assert start(qa.client, "W2")["slot"] == "P002"
    assert start(qa.client, "W1")["slot"] == "P001"          # same key: resumes
    res = qa.client.post("/api/start", json={"key": "W3", "consent": True})
    assert res.status_code == 409 and "slots" in res.get_json()["error"]


def test_calibration_gives_the_pace_and_attempts_are_stored(qa):
    st = start(qa.client)
    st, pace = do_calibration(qa.client, st)
    assert st["pace"] == pytest.approx(pace)
    assert count(qa.db, "qa_attempts") == 4 and count(qa.db, "qa_answers") == 2
    t = st["trial"]
    assert t["kind"] in ("target", "filler")
    assert t["display_ms"] == pytest.approx(t["alpha"] * pace * t["n_words"] * 1000, abs=0.1)


def test_timed_trial_shown_once_answered_once(qa):
    st, _ = do_calibration(qa.client, start(qa.client))
    t = st["trial"]
    pos = t["position"]
    # an answer before the sentence was shown is refused
    res = qa.client.post("/api/answer", json={"key": "W1", "position": pos, "answer": "male"})
    assert res.status_code == 409
    assert qa.client.post("/api/shown", json={"key": "W1", "position": pos}).status_code == 200
    # a reload (or a second tab) now gets the question without the sentence
    again = qa.client.get("/api/state?key=W1").get_json()["trial"]
    assert again["shown"] is True and again["text"] is None
    res = qa.client.post("/api/shown", json={"key": "W1", "position": pos})
    assert res.status_code == 409 and "not shown twice" in res.get_json()["error"]
    assert qa.client.post("/api/hidden", json={"key": "W1", "position": pos,
                                               "actual_ms": t["display_ms"] + 3}).status_code == 200
    ok = qa.client.post("/api/answer", json={"key": "W1", "position": pos, "answer": "female",
                                             "question_ms": 900})
    assert ok.status_code == 200
    # the second tab answers the same trial: refused, nothing stored twice
    dup = qa.client.post("/api/answer", json={"key": "W1", "position": pos, "answer": "male",
                                              "question_ms": 500})
    assert dup.status_code == 409 and "not the current one" in dup.get_json()["error"]
    con = sqlite3.connect(qa.db)
    rows = con.execute("SELECT answer FROM qa_answers WHERE key='W1' AND position=?", (pos,)).fetchall()
    shown = con.execute("SELECT target_ms, actual_ms FROM shown").fetchall()
    con.close()
    assert rows == [("female",)]
    assert shown == [(pytest.approx(t["display_ms"], abs=0.1), pytest.approx(t["display_ms"] + 3))]


def test_bad_answers_are_refused(qa):
    st, _ = do_calibration(qa.client, start(qa.client))
    pos = st["trial"]["position"]
    for body in ({"key": "W1", "position": pos, "answer": "maybe"},
                 {"key": "W1", "position": "x", "answer": "male"},
                 {"key": "W1", "position": pos, "answer": "male", "question_ms": "soon"}):
        assert qa.client.post("/api/answer", json=body).status_code == 400
    assert qa.client.post("/api/answer", data="nope").status_code == 400


def run_qa_participant(client, key):
    st, _ = do_calibration(client, start(client, key), key)
    while not st["done"]:
        t = st["trial"]
        client.post("/api/shown", json={"key": key, "position": t["position"]})
        client.post("/api/hidden", json={"key": key, "position": t["position"],
                                         "actual_ms": t["display_ms"]})
        answer = "female" if t["position"] % 2 else "male"
        client.post("/api/answer", json={"key": key, "position": t["position"], "answer": answer,
                                         "question_ms": 700})
        st = client.get(f"/api/state?key={key}").get_json()
    return st


def test_completion_code_and_export(qa, capsys):
    from pipeline.humans.commands import experiment_export

    st = run_qa_participant(qa.client, "W1")
    assert st["done"] and st["code"].startswith("CG-")
    assert qa.client.get("/api/state?key=W1").get_json()["code"] == st["code"]
    args = types.SimpleNamespace(db=str(qa.db), out=str(qa.tmp / "out"), plan=None)
    assert experiment_export.run(args) == 0
    results = human_results.read_qa_results(qa.tmp / "out" / "qa_results.csv")
    assert len(results) == 4
    assert {r["mturk_id"] for r in results} == {"W1"}
    assert {r["question_category"] == "filler" for r in results} == {True, False}
    assert all(r["time_fraction"] in (0.75, 0.5, 0.25) for r in results)
    assert all(r["hash_id"] == st["code"] for r in results)
    with open(qa.tmp / "out" / "codes.csv", newline="") as fh:
        codes = list(csv.DictReader(fh))
    assert codes[0]["key"] == "W1" and codes[0]["completion_code"] == st["code"]
    with open(qa.tmp / "out" / "qa_answers.csv", newline="") as fh:
        answers = list(csv.DictReader(fh))
    assert len(answers) == 6 and all(a["actual_ms"] for a in answers if a["kind"] != "calibration")



def test_participant_counts_as_experiment_serve_prints_them(qa):
    """What ``experiment-serve`` prints when it stops: started and completed participants."""
    from pipeline.humans.formats.experiment_db import participant_counts

    assert participant_counts(qa.db) == (0, 0)
    run_qa_participant(qa.client, "W1")
    start(qa.client, "W2")
    assert participant_counts(qa.db) == (2, 1)

def test_completion_url(tmp_path):
    qa_plan_file(tmp_path / "plan.parquet", participants=1)
    app = create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite",
                     completion_url="https://app.prolific.com/submissions/complete?cc={code}")
    st = run_qa_participant(page_client(app), "PID1")
    assert st["completion_url"].endswith("cc=" + st["code"])
    with pytest.raises(InputError, match="code"):
        create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite", completion_url="https://x")


def test_database_of_another_plan_is_refused(qa, tmp_path):
    start(qa.client)
    qa_plan_file(tmp_path / "other.parquet", seed=9)
    with pytest.raises(InputError, match="another plan"):
        create_app(tmp_path / "other.parquet", qa.db)


def test_maze_words_in_order_wrong_side_and_duplicates_refused(mz):
    st = start(mz.client)
    t = st["trial"]
    assert t["next_word"] == 1
    row = next(r for r in mz.rows if r["participant"] == "P001")
    wrong = "left" if row["sides"][1] == "right" else "right"
    body = {"key": "W1", "position": 0, "word_index": 1, "side": wrong, "n_errors": 0,
            "first_ms": 400, "correct_ms": 400}
    assert mz.client.post("/api/maze", json=body).status_code == 400
    body["word_index"] = 2
    body["side"] = row["sides"][2]
    assert mz.client.post("/api/maze", json=body).status_code == 409      # word 1 comes first
    err = mz.client.post("/api/maze-error", json={"key": "W1", "position": 0, "word_index": 1, "ms": 280})
    assert err.status_code == 200
    assert mz.client.post("/api/maze-error", json={"key": "W1", "position": 0, "word_index": 3,
                                                   "ms": 280}).status_code == 409
    for i in range(1, len(row["tokens"])):
        body = {"key": "W1", "position": 0, "word_index": i, "side": row["sides"][i],
                "n_errors": 1 if i == 2 else 0, "first_ms": 300 + i, "correct_ms": 300 + i + (250 if i == 2 else 0)}
        assert mz.client.post("/api/maze", json=body).status_code == 200
        if i == 1:
            dup = mz.client.post("/api/maze", json=body)
            assert dup.status_code == 409
    assert count(mz.db, "maze_words") == len(row["tokens"]) - 1
    assert count(mz.db, "maze_errors") == 1
    st = mz.client.get("/api/state?key=W1").get_json()
    assert st["done"] and st["code"]
    con = sqlite3.connect(mz.db)
    pron = con.execute("SELECT word_index, word FROM maze_words WHERE is_pronoun = 1").fetchall()
    second = con.execute("SELECT first_correct, n_errors, first_ms, correct_ms FROM maze_words "
                         "WHERE word_index = 2").fetchone()
    con.close()
    assert pron == [(row["pronoun_index"], row["pronoun"])]
    assert second == (0, 1, 302.0, 552.0)


def test_maze_export(mz):
    from pipeline.humans.commands import experiment_export

    start(mz.client)
    row = next(r for r in mz.rows if r["participant"] == "P001")
    for i in range(1, len(row["tokens"])):
        mz.client.post("/api/maze", json={"key": "W1", "position": 0, "word_index": i,
                                          "side": row["sides"][i], "n_errors": 0,
                                          "first_ms": 350, "correct_ms": 350})
    args = types.SimpleNamespace(db=str(mz.db), out=str(mz.tmp / "out"), plan=None)
    assert experiment_export.run(args) == 0
    trials = human_results.read_maze_trials(mz.tmp / "out" / "maze_trials.csv")
    assert len(trials) == 1
    t = trials[0]
    assert t["pronoun"] == row["pronoun"] and t["user_ip"] == "W1" and t["correct"] is True
    assert t["time_to_answer"] == 350.0 and t["relation_to_main"] == row["relation_to_main"]
    with open(mz.tmp / "out" / "maze_words.csv", newline="") as fh:
        words = list(csv.DictReader(fh))
    assert len(words) == len(row["tokens"]) - 1
    assert sum(w["is_pronoun"] == "True" for w in words) == 1


@pytest.mark.slow
def test_plan_serve_export_humans_end_to_end(tmp_path):
    """experiment-plan (spaCy fillers) -> scripted participants -> experiment-export ->
    humans qa: a participant right on pro questions and "unknown" on anti ones gives
    Delta_QA = 100 points at every alpha."""
    import json

    from pipeline.cli import main
    from tests.humans.experiment_helpers import make_items, write_benchmark

    write_benchmark(make_items(40), tmp_path / "bench.parquet")
    assert main(["experiment-plan", "--benchmark", str(tmp_path / "bench.parquet"),
                 "--experiment", "qa", "--participants", "3", "--seed", "4", "--targets", "6",
                 "--calibration", "2", "--out", str(tmp_path / "plan")]) == 0
    app = create_app(tmp_path / "plan" / "plan.parquet", tmp_path / "db.sqlite")
    client = page_client(app)
    from pipeline.formats.tables import read_table

    plan = {(r["participant"], r["position"]): r
            for r in read_table(tmp_path / "plan" / "plan.parquet").to_pylist()}
    for key in ("A1", "A2", "A3"):
        st = start(client, key)
        while not st["done"]:
            t = st["trial"]
            row = plan[(st["slot"], t["position"])]
            if t["kind"] != "calibration":
                client.post("/api/shown", json={"key": key, "position": t["position"]})
                client.post("/api/hidden", json={"key": key, "position": t["position"],
                                                 "actual_ms": t["display_ms"]})
            anti = row["question_category"] != "filler" and row["question_category"].split(".")[-1] in (
                "anti-pro", "neutral-pro", "anti-neutral")
            answer = "unknown" if anti else row["correct_answer"]
            res = client.post("/api/answer", json={"key": key, "position": t["position"],
                                                   "answer": answer, "question_ms": 800,
                                                   "total_ms": 3000})
            assert res.status_code == 200, res.get_json()
            st = client.get(f"/api/state?key={key}").get_json()
    assert main(["experiment-export", "--db", str(tmp_path / "db.sqlite"),
                 "--out", str(tmp_path / "results")]) == 0
    assert main(["humans", "qa", "--results", str(tmp_path / "results" / "qa_results.csv"),
                 "--out", str(tmp_path / "analysis")]) == 0
    qa = json.loads((tmp_path / "analysis" / "qa.json").read_text())
    assert qa["n_participants"] == 3 and qa["n_answers"] == 3 * 12
    for alpha in ("0.75", "0.5", "0.25"):
        values = qa[alpha]
        if values["n_pro"] and values["n_anti"]:
            assert values["pro"] == 100 and values["anti"] == 0 and values["delta"] == 100
        assert values["ignored"] == 0
        assert values["filler"] in (100, None)
    assert sum(qa[a]["n_pro"] + qa[a]["n_anti"] + qa[a]["n_neutral"]
               for a in ("0.75", "0.5", "0.25")) == 3 * 6


def test_plan_command_refuses_a_benchmark_without_maze_items(tmp_path, capsys):
    from pipeline.cli import main
    from tests.humans.experiment_helpers import make_items, write_benchmark

    write_benchmark(make_items(8, maze=False), tmp_path / "bench.parquet")
    assert main(["experiment-plan", "--benchmark", str(tmp_path / "bench.parquet"),
                 "--experiment", "maze", "--participants", "2", "--out", str(tmp_path / "plan")]) == 2
    err = capsys.readouterr().err
    assert "no Maze-eligible items" in err and err.count("\n") == 1
    assert not (tmp_path / "plan" / "plan.parquet").exists()


@pytest.mark.slow
def test_maze_export_goes_through_humans_maze(tmp_path):
    """Scripted Maze participants (anti pronouns 100 ms slower) -> export -> humans maze."""
    import json

    from pipeline.cli import main

    rows = maze_plan_file(tmp_path / "plan.parquet", participants=4, per_participant=6, n_items=24)
    app = create_app(tmp_path / "plan.parquet", tmp_path / "db.sqlite")
    client = page_client(app)
    plan = {(r["participant"], r["position"]): r for r in rows}
    for k in range(4):
        key = f"M{k}"
        st = start(client, key)
        while not st["done"]:
            t = st["trial"]
            row = plan[(st["slot"], t["position"])]
            i = t["next_word"]
            ms = 500.0 + 10 * i + k
            if i == row["pronoun_index"] and row["relation_to_main"] == "anti":
                ms += 100
            res = client.post("/api/maze", json={"key": key, "position": t["position"],
                                                 "word_index": i, "side": t["sides"][i],
                                                 "n_errors": 0, "first_ms": ms, "correct_ms": ms})
            assert res.status_code == 200
            st = client.get(f"/api/state?key={key}").get_json()
    assert main(["experiment-export", "--db", str(tmp_path / "db.sqlite"),
                 "--out", str(tmp_path / "results")]) == 0
    assert main(["humans", "maze", "--results", str(tmp_path / "results" / "maze_trials.csv"),
                 "--out", str(tmp_path / "analysis")]) == 0
    maze = json.loads((tmp_path / "analysis" / "maze.json").read_text())
    assert len(maze["quantiles"]) == len(maze["delta"])
    assert [d for d in maze["delta"] if d is not None] and all(d is None or d > 0 for d in maze["delta"])


def test_maze_plan_command_makes_allowed_distractors_reproducibly(tmp_path):
    from pipeline.cli import main
    from pipeline.humans.core.maze import allowed, split_word
    from pipeline.formats.tables import read_table
    from tests.humans.experiment_helpers import make_items, write_benchmark

    write_benchmark(make_items(6), tmp_path / "bench.parquet")
    tables = []
    for out in ("a", "b"):
        assert main(["experiment-plan", "--benchmark", str(tmp_path / "bench.parquet"),
                     "--experiment", "maze", "--participants", "2", "--items", "3", "--seed", "5",
                     "--lexicon-size", "2000", "--out", str(tmp_path / out)]) == 0
        tables.append(read_table(tmp_path / out / "plan.parquet").to_pylist())
    assert tables[0] == tables[1]
    for row in tables[0]:
        assert row["distractors"][0] is None
        for word, d in zip(row["tokens"][1:], row["distractors"][1:]):
            core = split_word(d)[1]
            assert allowed(core) and core.lower() != split_word(word)[1].lower()
    tsv = (tmp_path / "a" / "plan.tsv").read_text().splitlines()
    assert len(tsv) == 1 + 6 and "|" in tsv[1]


def test_plan_command_reads_the_benchmark_through_formats_and_names_a_bad_one(tmp_path, capsys):
    """experiment-plan reads its benchmark with formats.benchmarks.read_benchmark (one reader,
    the same refusal as every benchmark command) and still refuses an item without text."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.cli import main
    from tests.humans.experiment_helpers import make_items, write_benchmark

    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"id": ["1"]}), other)
    args = ["experiment-plan", "--experiment", "qa", "--participants", "1", "--out", str(tmp_path / "plan")]
    assert main([*args, "--benchmark", str(other)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {other}: not a benchmark table: missing column(s)")
    items = make_items(4)
    items[2]["text"] = ""
    write_benchmark(items, tmp_path / "bench.parquet")
    assert main([*args, "--benchmark", str(tmp_path / "bench.parquet")]) == 2
    assert capsys.readouterr().err == (f"error: {tmp_path / 'bench.parquet'}, row 3: "
                                       "an item without id, text or pronoun offsets\n")
    assert not (tmp_path / "plan").exists()
