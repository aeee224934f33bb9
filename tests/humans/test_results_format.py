"""QA results and Maze trials CSV: round trip, typing, bad input."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.humans.formats import results as hr


def qa_row(**kw):
    row = {"ID": 1, "id_sentence": "s1", "sentence": "The nurse met the guard because she was late.",
           "question": "What is the gender of the nurse?", "user_answer": "female",
           "correct_answer": "female", "main_entity_gender": "female", "is_correct": True,
           "question_category": "pro-stereotype.pro-anti.1", "time_fraction": 0.5,
           "batch_number": 1, "index_in_batch": 3, "mturk_id": "W1", "hash_id": "h",
           "avg_sec_for_token": 0.31}
    row.update(kw)
    return row


def maze_row(**kw):
    row = {"pronoun": "she", "gender": "female", "main_entity": "nurse", "other_entity": "guard",
           "relation_to_main": "pro", "relation_to_other": "anti", "dist_to_main": 5,
           "dist_to_other": 2, "time_to_answer": 812.5, "correct": True, "user_ip": "p1",
           "sentence_id": "s1", "sentence": "The nurse met the guard because she was late."}
    row.update(kw)
    return row


def test_qa_round_trip(tmp_path):
    p = tmp_path / "qa.csv"
    hr.write_qa_results([qa_row(), qa_row(user_answer="Unknown", is_correct=False, batch_number=None)], p)
    assert p.read_text().splitlines()[0] == ",".join(hr.QA_COLUMNS)
    rows = hr.read_qa_results(p)
    assert rows[0]["time_fraction"] == 0.5 and rows[0]["is_correct"] is True
    assert rows[1]["user_answer"] == "unknown" and rows[1]["batch_number"] is None
    assert rows[1]["_line"] == 3


def test_maze_round_trip(tmp_path):
    p = tmp_path / "maze.csv"
    hr.write_maze_trials([maze_row(), maze_row(other_entity="", relation_to_other=None,
                                               dist_to_other=None, correct=False)], p)
    rows = hr.read_maze_trials(p)
    assert rows[0]["time_to_answer"] == 812.5 and rows[0]["relation_to_other"] == "anti"
    assert rows[1]["relation_to_other"] is None and rows[1]["correct"] is False


@pytest.mark.parametrize("bad, message", [
    ({"user_answer": "maybe"}, "user_answer must be one of"),
    ({"time_fraction": "fast"}, "time_fraction must be a number"),
    ({"is_correct": "perhaps"}, "is_correct must be True or False"),
])
def test_qa_bad_cells(tmp_path, bad, message):
    p = tmp_path / "qa.csv"
    hr.write_qa_results([qa_row(), qa_row(**bad)], p)
    with pytest.raises(InputError, match=message) as exc:
        hr.read_qa_results(p)
    assert exc.value.row == 3 and str(p) in str(exc.value)


def test_maze_bad_time_and_relation(tmp_path):
    p = tmp_path / "maze.csv"
    hr.write_maze_trials([maze_row(time_to_answer="slow")], p)
    with pytest.raises(InputError, match="time_to_answer must be a number"):
        hr.read_maze_trials(p)
    hr.write_maze_trials([maze_row(relation_to_main="stereo")], p)
    with pytest.raises(InputError, match="relation_to_main"):
        hr.read_maze_trials(p)


def test_other_layout_and_latin1(tmp_path):
    p = tmp_path / "x.csv"
    p.write_text("a,b\n1,2\n")
    with pytest.raises(InputError, match="missing column"):
        hr.read_qa_results(p)
    lat = tmp_path / "parts.csv"
    lat.write_bytes("mturk_id,name\nW1,Jos\xe9\nW2,x\n".encode("latin-1"))
    assert hr.read_participants(lat) == {"W1", "W2"}


def test_maze_relation_aliases(tmp_path):
    p = tmp_path / "maze.csv"
    hr.write_maze_trials([maze_row(relation_to_main="Anti-stereotype", relation_to_other="pro-stereotype")], p)
    (row,) = hr.read_maze_trials(p)
    assert (row["relation_to_main"], row["relation_to_other"]) == ("anti", "pro")


ENROLL = '"ID","mturk_id","batch_number","total_performance","hash_id"\n'


def test_enrollment_one_row_per_batch(tmp_path):
    p = tmp_path / "e.csv"
    p.write_text(ENROLL + '0,"W1",0,0.9,"a"\n1,"W1",1,0.8,"b"\n2,"W2",0,0.7,"c"\n')
    rows = hr.read_enrollment(p)
    assert [(r["mturk_id"], r["batch_number"], r["hash_id"]) for r in rows] == \
        [("W1", 0, "a"), ("W1", 1, "b"), ("W2", 0, "c")]
    assert hr.read_participants(p) == {"W1", "W2"}
    assert len(hr.read_participant_rows(p)) == 3


@pytest.mark.parametrize("extra, message", [
    ('3,"W1",1,0.5,"d"\n', r"row 5: participant 'W1' enrolled twice in batch 1 \(first on row 3\)"),
    ('3,"W3",2,0.5,"b"\n', r"row 5: hash_id 'b' given twice \(first on row 3\)"),
])
def test_enrollment_true_duplicate(tmp_path, extra, message):
    p = tmp_path / "e.csv"
    p.write_text(ENROLL + '0,"W1",0,0.9,"a"\n1,"W1",1,0.8,"b"\n2,"W2",0,0.7,"c"\n' + extra)
    with pytest.raises(InputError, match=message):
        hr.read_enrollment(p)


def test_maze_layout_detected():
    assert hr.maze_layout(hr.MAZE_COLUMNS) == "project"
    assert hr.maze_layout(["_index"] + hr.MAZE_WINO_COLUMNS) == "released Wino"
    assert hr.maze_layout(["_index"] + hr.MAZE_BUG_COLUMNS) == "released BUG"
    assert hr.maze_layout(hr.MAZE_BUG_COLUMNS) == "released BUG"        # without the index column too


def test_maze_bug_layout_cells(tmp_path):
    p = tmp_path / "bug.csv"
    p.write_text("," + ",".join(hr.MAZE_BUG_COLUMNS) + "\n"
                 '0,her,her,nurse,anti,4.0,1234.5,False,ip1,3,"The nurse lost her keys.",0.0\n'
                 '1,He,HE,nurse,pro-stereotype,4.0,987.0,True,ip1,4,"The nurse lost his keys.",1.0\n')
    a, b = hr.read_maze_trials(p)
    assert (a["gender"], a["relation_to_main"], a["time_to_answer"], a["correct"], a["word_side"]) == \
        ("female", "anti", 1234.5, False, 0)
    assert (b["gender"], b["relation_to_main"], b["word_side"], b["other_entity"]) == ("male", "pro", 1, None)
    p.write_text(p.read_text().replace(",1.0\n", ",2.0\n"))
    with pytest.raises(InputError, match="word_side must be 0 or 1"):
        hr.read_maze_trials(p)
    p.write_text(p.read_text().replace(",2.0\n", ",1.0\n").replace(",her,her,", ",her,,"))
    assert hr.read_maze_trials(p)[0]["gender"] == "female"        # an empty cell: from the pronoun
