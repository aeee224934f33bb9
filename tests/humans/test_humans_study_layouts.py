"""The humans-vs-models study's files as released, made by hand in each layout: enrollment with a
worker in several batches (and a true duplicate), the processed Maze trials of Wino (two
entities) and BUG (one entity) after a leading unnamed index column, the paper's Table 2 in its
shape with Delta_MAZE, the disagreements of our category rule with the study's list, and the
count of items without a prediction."""

from __future__ import annotations

import csv
import json

import pytest

from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.humans.formats.results import (QA_COLUMNS, maze_layout, read_enrollment, read_maze_trials,
                                            write_maze_trials)
from tests.humans.fixtures import MAZE_ROWS

ENROLL_HEADER = '"ID","mturk_id","batch_number","total_performance","hash_id"\n'

# ------------------------------------------------------------------------------ enrollment

# one worker in batches 0-4 (a row each, its own ID and hash_id), two workers in one batch each
ENROLLMENT = ENROLL_HEADER + "".join(
    f'{i},"{w}",{b},{p},"{h}"\n' for i, (w, b, p, h) in enumerate([
        ("A28KX", 0, 0.91, "hA0"), ("B11", 0, 0.88, "hB0"), ("A28KX", 1, 0.93, "hA1"),
        ("A28KX", 2, 0.9, "hA2"), ("C07", 3, 0.95, "hC3"), ("A28KX", 3, 0.87, "hA3"),
        ("A28KX", 4, 0.92, "hA4")]))


def test_enrollment_a_worker_in_several_batches(tmp_path):
    p = tmp_path / "wino_enrollment.csv"
    p.write_text(ENROLLMENT)
    rows = read_enrollment(p)
    assert len(rows) == 7
    a = [r for r in rows if r["mturk_id"] == "A28KX"]
    assert [r["batch_number"] for r in a] == [0, 1, 2, 3, 4]
    assert [r["hash_id"] for r in a] == ["hA0", "hA1", "hA2", "hA3", "hA4"]
    assert [r["ID"] for r in a] == ["0", "2", "3", "5", "6"]
    assert a[1]["total_performance"] == 0.93 and a[1]["_line"] == 4


@pytest.mark.parametrize("extra, message", [
    ('7,"A28KX",2,0.5,"hA9"\n', "row 9: participant 'A28KX' enrolled twice in batch 2 (first on row 5)"),
    ('7,"D01",1,0.5,"hB0"\n', "row 9: hash_id 'hB0' given twice (first on row 3)"),
])
def test_enrollment_true_duplicate_is_an_error_naming_the_row(tmp_path, capsys, extra, message):
    p = tmp_path / "wino_enrollment.csv"
    p.write_text(ENROLLMENT + extra)
    with pytest.raises(InputError):
        read_enrollment(p)
    qa = tmp_path / "qa.csv"
    write_qa(qa, [answer("A28KX", 0, 0.5, "pro-stereotype_Male", True)])
    assert main(["humans", "qa", "--results", str(qa), "--participants", str(p),
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == f"error: {p}, {message}"


# ------------------------------------------------------------------------------ QA results

def answer(worker, batch, alpha, category, right, filler=False):
    gender = "Male" if "Male" in category else "female"
    if filler:
        return {"question": "Who was being questioned?", "user_answer": "The patient" if right else "the nurse",
                "correct_answer": "patient", "main_entity_gender": "", "is_correct": right,
                "question_category": "filler", "time_fraction": alpha, "mturk_id": worker, "batch_number": batch}
    return {"question": "What is the gender of the patient?", "user_answer": gender if right else "unknown",
            "correct_answer": gender, "main_entity_gender": gender, "is_correct": right,
            "question_category": category, "time_fraction": alpha, "mturk_id": worker, "batch_number": batch}


HASHES = {("A28KX", b): f"hA{b}" for b in range(5)} | {("B11", 0): "hB0", ("C07", 3): "hC3"}


def write_qa(path, rows):
    """The released QA layout: every field double-quoted except numbers."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        w.writerow(QA_COLUMNS)
        for i, r in enumerate(rows):
            key = (r["mturk_id"], r["batch_number"])
            w.writerow([i, i, f"Sentence {i}.", r["question"], r["user_answer"], r["correct_answer"],
                        r["main_entity_gender"], int(r["is_correct"]), r["question_category"],
                        r["time_fraction"], r["batch_number"], i % 40, r["mturk_id"],
                        HASHES.get(key, "hX"), 0.31])


def test_answers_grouped_per_worker_and_batch(tmp_path, capsys):
    enr = tmp_path / "enrollment.csv"
    enr.write_text(ENROLLMENT)
    rows = []
    for b in range(5):          # A28KX: batch 2 has bad fillers, the others good ones
        rows += [answer("A28KX", b, 0.5, "pro-stereotype_Male", True),
                 answer("A28KX", b, 0.5, "anti-stereotype_Male", b != 4),
                 answer("A28KX", b, 0.5, "filler", b != 2, filler=True)]
    rows += [answer("B11", 0, 0.5, "pro-stereotype_Male", False), answer("B11", 0, 0.5, "filler", True, True),
             answer("C07", 3, 0.5, "anti-stereotype_Male", True), answer("C07", 3, 0.5, "filler", True, True),
             answer("Z99", 1, 0.5, "pro-stereotype_Male", False),            # not enrolled: left out
             answer("C07", 1, 0.5, "pro-stereotype_Male", True)]             # a batch C07 is not enrolled in
    qa = tmp_path / "qa.csv"
    write_qa(qa, rows)
    out = tmp_path / "o"
    assert main(["humans", "qa", "--results", str(qa), "--participants", str(enr), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3 worker(s) in 8 (worker, batch) group(s)" in printed
    assert "answers of 3 participants in 8 (worker, batch) groups (left out: 1 not in the participant list" in printed
    assert "1 answer(s) of enrolled workers are in a batch the enrollment does not list" in printed
    data = json.loads((out / "qa.json").read_text())
    assert (data["n_participants"], data["n_batches"], data["excluded"]["not_in_list"]) == (3, 8, 1)
    # pro: A28KX 5 right, B11 wrong, C07 (batch 1) right -> 6/7; anti: A28KX 4/5, C07 1/1 -> 5/6
    assert data["0.5"]["pro"] == pytest.approx(600 / 7) and data["0.5"]["anti"] == pytest.approx(500 / 6)
    per = list(csv.DictReader(open(out / "qa_participants.csv")))
    a = [(r["batch_number"], r["filler"]) for r in per if r["mturk_id"] == "A28KX"]
    assert a == [("0", "100.0"), ("1", "100.0"), ("2", "0.0"), ("3", "100.0"), ("4", "100.0")]
    # the filler threshold drops the one bad batch of A28KX, not the worker
    out2 = tmp_path / "o2"
    assert main(["humans", "qa", "--results", str(qa), "--participants", str(enr),
                 "--min-filler-accuracy", "50", "--out", str(out2)]) == 0
    data = json.loads((out2 / "qa.json").read_text())
    assert data["excluded"]["low_filler_accuracy_batches"] == 1 and data["excluded"]["low_filler_accuracy"] == 0
    assert (data["n_participants"], data["n_batches"]) == (3, 7)
    assert data["0.5"]["n_pro"] == 6


# ------------------------------------------------------------------------------ Maze trials

WINO_MAZE = (
    ",pronoun,gender,main_entity,other_entity,relation_to_main,relation_to_other,dist_to_main,"
    "dist_to_other,time_to_answer,correct,user_ip,sentence_id,sentence,word_side,closer_entity,"
    "closer_distance,closer_relation\n")
BUG_MAZE = (",pronoun,gender,main_entity,relation_to_main,dist_to_main,time_to_answer,correct,user_ip,"
            "sentence_id,sentence,word_side\n")


def wino_maze(times):
    """One trial per (relation, time, correct); distances and sides as the study wrote them."""
    lines = []
    for i, (rel, t, ok) in enumerate(times):
        other = "anti" if rel == "pro" else "pro"
        lines.append(f'{i},he,male,developer,designer,{rel},{other},5.0,2.0,{t},{ok},10.0.0.{i % 3},'
                     f'{100 + i},"The developer argued with the designer because he was late.",'
                     f'{float(i % 2)},designer,2.0,{other}\n')
    return WINO_MAZE + "".join(lines)


def bug_maze(times):
    lines = [f'{i},his,his,nurse,{rel},3.0,{t},{ok},ip{i % 4},{7000 + i},"The nurse lost his keys.",'
             f'{float((i + 1) % 2)}\n' for i, (rel, t, ok) in enumerate(times)]
    return BUG_MAZE + "".join(lines)


# evenly spread correct times (no outlier); anti slower by 50 ms (Wino) and 120 ms (BUG) at every quantile
WINO_TIMES = ([("pro", 800.0 + 100 * k, True) for k in range(9)] + [("anti", 850.0 + 100 * k, True) for k in range(9)]
              + [("pro", 650.5, False), ("anti", 1900.25, False)])
BUG_TIMES = ([("pro", 700.0 + 50 * k, True) for k in range(11)] + [("anti", 820.0 + 50 * k, True) for k in range(11)]
             + [("anti", 400.0, False)])


def test_bug_maze_layout_read(tmp_path):
    p = tmp_path / "BUG_maze.csv"
    p.write_text(bug_maze(BUG_TIMES))
    rows = read_maze_trials(p)
    assert len(rows) == 23 and {r["_layout"] for r in rows} == {"released BUG"}
    r = rows[0]
    assert (r["pronoun"], r["gender"], r["relation_to_main"], r["relation_to_other"]) == ("his", "male", "pro", None)
    assert (r["other_entity"], r["dist_to_other"], r["dist_to_main"]) == (None, None, 3.0)
    assert (r["time_to_answer"], r["correct"], r["word_side"], r["sentence_id"]) == (700.0, True, 1, "7000")
    assert rows[-1]["correct"] is False and rows[1]["word_side"] == 0


def test_wino_maze_layout_read_with_index_column(tmp_path):
    p = tmp_path / "Wino_maze.csv"
    p.write_text(wino_maze(WINO_TIMES))
    rows = read_maze_trials(p)
    assert {r["_layout"] for r in rows} == {"released Wino"} and "_index" not in rows[0]
    r = rows[-1]
    assert (r["relation_to_main"], r["relation_to_other"], r["other_entity"], r["dist_to_other"]) == \
        ("anti", "pro", "designer", 2.0)
    assert (r["time_to_answer"], r["correct"], r["closer_entity"], r["closer_relation"]) == (1900.25, False, "designer", "pro")
    # pandas' other spelling of the index column
    q = tmp_path / "unnamed.csv"
    q.write_text("Unnamed: 0" + wino_maze(WINO_TIMES))
    assert len(read_maze_trials(q)) == len(rows)


def test_our_export_still_read(tmp_path):
    p = tmp_path / "maze.csv"
    write_maze_trials(MAZE_ROWS, p)
    rows = read_maze_trials(p)
    assert {r["_layout"] for r in rows} == {"project"} and len(rows) == len(MAZE_ROWS)
    assert maze_layout(["_index"] + list(MAZE_ROWS[0])) == "released Wino"


@pytest.mark.parametrize("layout, drop, message", [
    ("bug", "word_side", "not the released BUG layout: missing column(s) word_side"),
    ("bug", "relation_to_main", "not the released BUG layout: missing column(s) relation_to_main"),
    ("wino", "closer_relation", "not the released Wino layout: missing column(s) closer_relation"),
    ("wino", "dist_to_other", "not the released Wino layout: missing column(s) dist_to_other"),
])
def test_maze_missing_column_of_the_detected_layout(tmp_path, capsys, layout, drop, message):
    text = bug_maze(BUG_TIMES) if layout == "bug" else wino_maze(WINO_TIMES)
    rows = list(csv.reader(text.splitlines()))
    k = rows[0].index(drop)
    p = tmp_path / "maze.csv"
    with open(p, "w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([r[:k] + r[k + 1:] for r in rows])
    assert main(["humans", "maze", "--results", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {p}, row 1: {message} (expected ")


def test_maze_bad_cell_names_the_row(tmp_path, capsys):
    p = tmp_path / "BUG_maze.csv"
    p.write_text(bug_maze(BUG_TIMES).replace(",True,ip2,", ",Maybe,ip2,", 1))
    assert main(["humans", "maze", "--results", str(p), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.strip() == f"error: {p}, row 4: correct must be True or False, got 'Maybe'"


def test_maze_command_on_both_released_files(tmp_path, capsys):
    w, b = tmp_path / "Wino_maze.csv", tmp_path / "BUG_maze.csv"
    w.write_text(wino_maze(WINO_TIMES))
    b.write_text(bug_maze(BUG_TIMES))
    out = tmp_path / "o"
    assert main(["humans", "maze", "--results", str(w), "--results", str(b), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "43 trial(s) of 2 file(s), layout released BUG, released Wino" in printed
    res = json.loads((out / "maze.json").read_text())
    syn, nat = res["by_kind"]["synthetic"], res["by_kind"]["natural"]
    assert syn["delta"] == pytest.approx([50.0] * 51) and nat["delta"] == pytest.approx([120.0] * 51)
    assert syn["success_rate"] == {"pro": 0.9, "anti": 0.9}
    assert nat["success_rate"]["anti"] == pytest.approx(11 / 12) and res["n_without_kind"] == 0
    assert res["n_participants"] == 3 + 4


# ------------------------------------------------------------------------------ Table 2

# (dataset, alpha): (n pro, right pro, n anti, right anti) -> the figures, two decimals
TABLE2_CELLS = {
    ("wino", 0.75): (49, 44, 107, 96),     # 89.80 / 89.72 / 0.08
    ("wino", 0.5): (89, 79, 193, 169),     # 88.76 / 87.56 / 1.20
    ("wino", 0.25): (239, 188, 107, 84),   # 78.66 / 78.50 / 0.16
    ("bug", 0.75): (139, 122, 64, 53),     # 87.77 / 82.81 / 4.96
    ("bug", 0.5): (244, 209, 139, 110),    # 85.66 / 79.14 / 6.52
    ("bug", 0.25): (155, 128, 144, 109),   # 82.58 / 75.69 / 6.89
}
TABLE2 = [
    "| dataset | | alpha = 0.75 | alpha = 0.50 | alpha = 0.25 |",
    "| Wino | pro | 89.80 | 88.76 | 78.66 |",
    "| Wino | anti | 89.72 | 87.56 | 78.50 |",
    "| Wino | Delta | +0.08 | +1.20 | +0.16 |",
    "| BUG | pro | 87.77 | 85.66 | 82.58 |",
    "| BUG | anti | 82.81 | 79.14 | 75.69 |",
    "| BUG | Delta | +4.96 | +6.52 | +6.89 |",
]
TABLE2_MAZE = [
    "| dataset | pro + anti trials | q = 0.50 | q = 0.60 | q = 0.70 | q = 0.80 | q = 0.90 | q = 1.00 | positive from |",
    "| Wino | 20 | +50 | +50 | +50 | +50 | +50 | +50 | 0.50 |",
    "| BUG | 23 | +120 | +120 | +120 | +120 | +120 | +120 | 0.50 |",
]
WINO_CATS = {"pro": "pro-stereotype.pro-anti.main", "anti": "anti-stereotype.main.anti-neutral "}


def table2_rows():
    """Every cell's answers spread over the workers and their batches (A28KX in five)."""
    units = sorted(HASHES)
    wino, bug = [], []
    n = 0
    for (dataset, alpha), (n_pro, k_pro, n_anti, k_anti) in TABLE2_CELLS.items():
        for coarse, total, right in (("pro", n_pro, k_pro), ("anti", n_anti, k_anti)):
            for i in range(total):
                worker, batch = units[n % len(units)]
                n += 1
                male = i % 2 == 0
                if dataset == "wino":
                    g = "male" if male else "female"
                    wino.append({"question": "What is the gender of the developer?",
                                 "user_answer": g if i < right else "unknown", "correct_answer": g,
                                 "main_entity_gender": g, "is_correct": i < right,
                                 "question_category": WINO_CATS[coarse], "time_fraction": alpha,
                                 "mturk_id": worker, "batch_number": batch})
                else:
                    g = "Male" if male else "Female"
                    bug.append({**answer(worker, batch, alpha, f"{coarse}-stereotype_{g}", i < right),
                                "user_answer": g if i < right else ("Female" if male else "Male")})
    return wino, bug


def test_table2_in_the_papers_shape_with_delta_maze(tmp_path, capsys):
    wino, bug = table2_rows()
    qa_w, qa_b = tmp_path / "Wino_QA_results.csv", tmp_path / "BUG_QA_results.csv"
    write_qa(qa_w, wino)
    write_qa(qa_b, bug)
    enr = tmp_path / "enrollment.csv"
    enr.write_text(ENROLLMENT)
    mw, mb = tmp_path / "Wino_maze.csv", tmp_path / "BUG_maze.csv"
    mw.write_text(wino_maze(WINO_TIMES))
    mb.write_text(bug_maze(BUG_TIMES))
    out = tmp_path / "qa"
    assert main(["humans", "qa", "--results", str(qa_w), "--results", str(qa_b), "--participants", str(enr),
                 "--maze", str(mw), "--maze", str(mb), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for line in TABLE2 + TABLE2_MAZE:
        assert line in printed
    md = (out / "qa.md").read_text()
    assert all(line in md for line in TABLE2 + TABLE2_MAZE)
    data = json.loads((out / "qa.json").read_text())
    assert data["n_batches"] == 7 and data["n_participants"] == 3 and data["n_answers_unenrolled_batch"] == 0
    assert data["table2_maze"]["natural"]["delta"]["0.90"] == pytest.approx(120.0)


def test_table2_models_columns(tmp_path, capsys):
    wino, bug = table2_rows()
    qa_w = tmp_path / "qa.csv"
    write_qa(qa_w, wino + bug)
    metrics = {"SpanBERT": {"per_source": {
        "cog-wino": {"pro": 0.865, "anti": 0.734, "n_pro": 1000, "n_anti": 1000},
        "cog-bug": {"pro": 0.622, "anti": 0.6, "n_pro": 500, "n_anti": 500}}}}
    m = tmp_path / "metrics.json"
    m.write_text(json.dumps(metrics))
    assert main(["humans", "qa", "--results", str(qa_w), "--models", str(m), "--out", str(tmp_path / "o")]) == 0
    printed = capsys.readouterr().out
    assert "| dataset | | alpha = 0.75 | alpha = 0.50 | alpha = 0.25 | SpanBERT |" in printed
    assert "| Wino | pro | 89.80 | 88.76 | 78.66 | 86.50 |" in printed
    assert "| BUG | Delta | +4.96 | +6.52 | +6.89 | +2.20 |" in printed


def test_maze_of_no_known_dataset_refused(tmp_path, capsys):
    wino, _ = table2_rows()
    qa = tmp_path / "qa.csv"
    write_qa(qa, wino)
    mz = tmp_path / "maze.csv"
    write_maze_trials([{**r, "sentence_id": f"x{i}"} for i, r in enumerate(MAZE_ROWS)], mz)
    assert main(["humans", "qa", "--results", str(qa), "--maze", str(mz), "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.startswith(f"error: {mz}: no Maze trial is of a known dataset")
