"""Humans vs models on files hand-made in the layouts the study released: QA results
(Wino and BUG), the enrollment file, the sentence lists, model cluster lines (AllenNLP predictor
output and {sentence, tokens, clusters}); the paper's Table 2 printed by `humans qa`.

The per-cell counts are chosen so that the accuracies round to the paper's Table 2."""

from __future__ import annotations

import csv
import json
import random

import pytest

from pipeline.cli import main
from pipeline.humans.core.stereotypes import parse_question_category
from pipeline.humans.formats.results import QA_COLUMNS, read_enrollment, read_qa_results
from tests.lang.test_cog_lists import WINO_HEADER, wino_row

# (alpha, dataset): (n pro, correct pro, n anti, correct anti) -> the paper's humans rows
HUMANS = {
    (0.75, "wino"): (49, 44, 29, 26),      # 89.8 / 89.7 / 0.1
    (0.5, "wino"): (89, 79, 113, 99),      # 88.8 / 87.6 / 1.2
    (0.25, "wino"): (47, 37, 79, 62),      # 78.7 / 78.5 / 0.2
    (0.75, "bug"): (41, 36, 29, 24),       # 87.8 / 82.8 / 5.0
    (0.5, "bug"): (223, 191, 67, 53),      # 85.7 / 79.1 / 6.5
    (0.25, "bug"): (23, 19, 37, 28),       # 82.6 / 75.7 / 6.9
}
TABLE2_HUMANS = [
    "| humans, alpha = 0.75 | 89.8 | 89.7 | 0.1 | 87.8 | 82.8 | 5.0 |",
    "| humans, alpha = 0.50 | 88.8 | 87.6 | 1.2 | 85.7 | 79.1 | 6.5 |",
    "| humans, alpha = 0.25 | 78.7 | 78.5 | 0.2 | 82.6 | 75.7 | 6.9 |",
]
# the study's category spellings: either order, trailing spaces
WINO_PRO = ["pro-stereotype.pro-anti.main", "pro-stereotype.main.pro-neutral ", "pro-stereotype.neutral-anti.main"]
WINO_ANTI = ["anti-stereotype.main.anti-neutral", "anti-stereotype.anti-pro.main ", "anti-stereotype.neutral-pro.main"]
PARTICIPANTS = [f"A{i:02d}" for i in range(12)]


def write_released_qa(path, rows):
    """Every field double-quoted except numbers, as released."""
    with open(path, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        w.writerow(QA_COLUMNS)
        for i, r in enumerate(rows):
            w.writerow([i, r.get("id_sentence", i), r.get("sentence", f"Sentence {i}."), r["question"],
                        r["user_answer"], r["correct_answer"], r["main_entity_gender"], int(r["is_correct"]),
                        r["question_category"], r["time_fraction"], 1 + i % 4, i % 40,
                        r.get("mturk_id", PARTICIPANTS[i % len(PARTICIPANTS)]), f"h{i}", 0.31])


def gender_rows(dataset, alpha, n_pro, k_pro, n_anti, k_anti):
    rows = []
    for coarse, n, k in (("pro", n_pro, k_pro), ("anti", n_anti, k_anti)):
        for i in range(n):
            male = i % 2 == 0
            right = i < k
            if dataset == "wino":
                gender = "male" if male else "female"
                answer = gender if right else "unknown"
                cats = WINO_PRO if coarse == "pro" else WINO_ANTI
                rows.append({"question": "What is the gender of the developer?", "user_answer": answer,
                             "correct_answer": gender, "main_entity_gender": gender, "is_correct": right,
                             "question_category": cats[i % 3], "time_fraction": alpha})
            else:
                gender = "Male" if male else "Female"
                answer = gender if right else ("Female" if male else "male ")
                rows.append({"question": "What is the gender of the patient?", "user_answer": answer,
                             "correct_answer": gender.lower(), "main_entity_gender": gender,
                             "is_correct": right, "question_category": f"{coarse}-stereotype_{gender}",
                             "time_fraction": alpha})
    return rows


def extra_rows(alpha):
    """Rows that must not move the pro/anti figures: an answer that is no coreference decision
    (ignored), a question on the other entity, fillers answered with free text."""
    filler = {"question": "Who was being questioned?", "main_entity_gender": "", "question_category": "filler",
              "time_fraction": alpha}
    return [
        {"question": "What is the gender of the developer?", "user_answer": "female", "correct_answer": "male",
         "main_entity_gender": "male", "is_correct": False, "question_category": "pro-stereotype.pro-anti.main",
         "time_fraction": alpha},
        {"question": "What is the gender of the designer?", "user_answer": "female", "correct_answer": "unknown",
         "main_entity_gender": "male", "is_correct": False, "question_category": "pro-stereotype.pro-anti.other",
         "time_fraction": alpha},
        {**filler, "user_answer": "The patient", "correct_answer": "the patient", "is_correct": True},
        {**filler, "user_answer": "patient", "correct_answer": "The patient", "is_correct": True},
        {**filler, "user_answer": "50-year - old man", "correct_answer": "the 50-year-old man", "is_correct": False},
        {**filler, "user_answer": "the nurse", "correct_answer": "the manager", "is_correct": False},
    ]


@pytest.fixture
def released_qa(tmp_path):
    return make_released_qa(tmp_path)


def make_released_qa(tmp_path):
    """The study's Wino and BUG QA results and an enrollment file, made in ``tmp_path``."""
    wino, bug = [], []
    for (alpha, dataset), cell in HUMANS.items():
        (wino if dataset == "wino" else bug).extend(gender_rows(dataset, alpha, *cell))
    for alpha in (0.75, 0.5, 0.25):
        wino.extend(extra_rows(alpha))
    # a participant who is not enrolled: every answer wrong, must be left out
    wino += [{**r, "mturk_id": "X99", "user_answer": "unknown", "is_correct": False}
             for r in gender_rows("wino", 0.75, 5, 0, 5, 0)]
    random.Random(3).shuffle(wino)
    paths = tmp_path / "Wino_QA_results.csv", tmp_path / "BUG_QA_results.csv"
    write_released_qa(paths[0], wino)
    write_released_qa(paths[1], bug)
    enrollment = tmp_path / "enrollment.csv"
    with open(enrollment, "w", newline="") as fh:
        w = csv.writer(fh, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
        w.writerow(["ID", "mturk_id", "batch_number", "total_performance", "hash_id"])
        for i, p in enumerate(PARTICIPANTS + ["Z00"]):
            w.writerow([i, p, 1 + i % 4, 0.9, f"e{i}"])
    return paths, enrollment


def test_reader_takes_the_released_layout(released_qa):
    (wino, bug), enrollment = released_qa
    rows = read_qa_results(wino)
    fill = [r for r in rows if r["question_category"] == "filler"]
    assert {r["user_answer"] for r in fill} >= {"The patient", "50-year - old man"}
    assert {r["time_fraction"] for r in rows} == {0.75, 0.5, 0.25}
    b = read_qa_results(bug)
    assert {r["main_entity_gender"] for r in b} == {"male", "female"}
    assert {r["user_answer"] for r in b} == {"male", "female"}
    people = read_enrollment(enrollment)
    assert len(people) == 13 and people[0]["total_performance"] == 0.9
    qc = parse_question_category("anti-stereotype.main.anti-neutral")
    assert (qc.fine, qc.coarse, qc.entity, qc.layout) == ("anti-neutral", "anti", "main", "released")
    qc = parse_question_category("pro-stereotype.pro-neutral.main ")
    assert (qc.fine, qc.entity) == ("pro-neutral", "main")
    assert parse_question_category("anti-stereotype_Female").kind == "natural"


def test_table2_humans(tmp_path, released_qa, capsys):
    (wino, bug), enrollment = released_qa
    out = tmp_path / "qa"
    assert main(["humans", "qa", "--results", str(wino), "--results", str(bug),
                 "--participants", str(enrollment), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    for line in TABLE2_HUMANS:
        assert line in printed
    assert "Layout: released Wino + BUG" in printed
    data = json.loads((out / "qa.json").read_text())
    a = data["0.75"]
    # fillers scored by matching: 2 of 4 right ("50-year - old man" = "the 50-year-old man",
    # recorded 0, is one of them); one ignored answer; one question on the other entity
    assert a["filler"] == 75.0 and a["n_filler_rescored"] == 1
    assert a["n_ignored"] == 1 and a["n_other"] == 1 and a["other"] == 0.0
    assert data["n_participants"] == 12 and data["excluded"]["not_in_list"] == 1


@pytest.mark.parametrize("edit, message", [
    (lambda r: {**r, "time_fraction": 0.6}, "unknown time_fraction '0.6'"),
    (lambda r: {**r, "user_answer": "the manager"}, "user_answer must be one of"),
])
def test_released_qa_strict(tmp_path, capsys, edit, message):
    rows = gender_rows("wino", 0.5, 2, 1, 2, 1)
    rows[2] = edit(rows[2])
    p = tmp_path / "qa.csv"
    write_released_qa(p, rows)
    assert main(["humans", "qa", "--results", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {p}, row 4:") and message in err and len(err.splitlines()) == 1


def test_released_qa_missing_column(tmp_path, capsys):
    p = tmp_path / "qa.csv"
    write_released_qa(p, gender_rows("bug", 0.5, 2, 1, 2, 1))
    p.write_text(p.read_text().replace('"time_fraction"', '"alpha"'))
    assert main(["humans", "qa", "--results", str(p), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert "row 1: not this layout: missing column(s) time_fraction" in err and len(err.splitlines()) == 1


# ------------------------------------------------------------------------------ models

# dataset: (n pro, n anti) and per model (correct pro, correct anti) -> the paper's models rows
MODELS = {"wino": (126, 94, {"SpanBERT": (109, 69), "s2e": (115, 73)}),
          "bug": (180, 135, {"SpanBERT": (112, 81), "s2e": (111, 80)})}
TABLE2_MODELS = ["| SpanBERT | 86.5 | 73.4 | 13.1 | 62.2 | 60.0 | 2.2 |",
                 "| s2e | 91.3 | 77.7 | 13.6 | 61.7 | 59.3 | 2.4 |"]
OCC = [("developer", "designer"), ("mechanic", "clerk"), ("farmer", "baker")]


def wino_items():
    """(row of the list, spaCy tokens, main token span, other token span, pronoun token)"""
    out = []
    n_pro, n_anti, _ = MODELS["wino"]
    for i in range(n_pro + n_anti):
        pro = i < n_pro
        m, o = OCC[i % 3]
        pron, gender = ("he", "male") if pro else ("she", "female")
        text = f"The {m} argued with the {o} about case {i} because {pron} was tired."
        toks = text[:-1].split() + ["."]
        row = wino_row(i, m, 1, gender, o, 4, pron, text, "pro-anti" if pro else "anti-pro ",
                       "pro-stereotype" if pro else "anti-stereotype")
        out.append((row, toks, (0, 1), (4, 5), toks.index(pron), pro))
    return out


def bug_items():
    out = []
    n_pro, n_anti, _ = MODELS["bug"]
    for i in range(n_pro + n_anti):
        pro = i < n_pro
        pron = "she" if pro else "he"
        text = f"The 50-year-old nurse yelled; {pron} was tired of case {i} ."
        row = (f"u{i},{'female' if pro else 'male'},True,{text},nurse,{pron},4,2,"
               f"{1 if pro else -1},wikipedia,{i},2,1\n")
        toks = ["The", "50-year", "-", "old", "nurse", "yelled", ";", pron, "was", "tired", "of", "case",
                str(i), "."]
        out.append((row, toks, (4, 4), None, 7, pro))
    return out


def model_lines(model, dataset, items):
    n_pro, n_anti, per_model = MODELS[dataset]
    k_pro, k_anti = per_model[model]
    lines, seen = [], {"pro": 0, "anti": 0}
    for _, toks, main_span, other_span, p, pro in items:
        key = "pro" if pro else "anti"
        right = seen[key] < (k_pro if pro else k_anti)
        seen[key] += 1
        if right:
            clusters = [[list(main_span), [p, p]]]
        elif other_span is not None:
            clusters = [[list(other_span), [p, p]]]
        else:
            clusters = []
        if model == "SpanBERT":     # AllenNLP's predictor output
            obj = {"document": toks, "clusters": clusters, "top_spans": [[0, 1], [p, p]],
                   "antecedent_indices": [[0], [0, 1]], "predicted_antecedents": [-1, 0]}
        else:
            obj = {"sentence": " ".join(toks), "tokens": toks, "clusters": clusters}
        lines.append(json.dumps(obj))
    return lines


@pytest.fixture
def released_models(tmp_path):
    return make_released_models(tmp_path)


def make_released_models(tmp_path):
    """The study's sentence lists and the two models' cluster files, made in ``tmp_path``."""
    wi, bi = wino_items(), bug_items()
    wl = tmp_path / "wino_list.tsv"
    wl.write_text(WINO_HEADER + "".join(r[0] for r in wi))
    bl = tmp_path / "bug_list.csv"
    bl.write_text("uid,predicted gender,correct,sentence_text,profession,g,g_first_index,"
                  "profession_first_index,stereotype,corpus,data_index,distance,num_of_pronouns\n"
                  + "".join(r[0] for r in bi))
    files = {}
    rng = random.Random(7)
    for model in ("SpanBERT", "s2e"):
        for dataset, items in (("wino", wi), ("bug", bi)):
            lines = model_lines(model, dataset, items)
            rng.shuffle(lines)                                     # not in the list's order
            if dataset == "bug":
                lines.append(model_lines(model, "wino", wi)[0])     # a Wino sentence in the BUG file too
                lines.append(json.dumps({"document": ["The", "baker", "yelled", ";", "nobody", "came", "."],
                                         "clusters": []}))          # a sentence of neither list
            files[model, dataset] = tmp_path / f"{model}_{dataset}.jsonl"
            files[model, dataset].write_text("\n".join(lines) + "\n")
    return wl, bl, files


@pytest.mark.slow
def test_table2_models_from_cluster_files(tmp_path, released_qa, released_models, capsys):
    wl, bl, files = released_models
    bench = tmp_path / "bench"
    assert main(["benchmark", "--source", "cog-wino", "--path", str(wl), "--source", "cog-bug",
                 "--path", str(bl), "--out", str(bench)]) == 0
    assert f"{sum(MODELS['wino'][:2]) + sum(MODELS['bug'][:2])} items" in capsys.readouterr().out
    ev = tmp_path / "eval"
    args = ["evaluate", "--dataset", str(bench / "benchmark.parquet"), "--resamples", "0", "--out", str(ev)]
    for (model, _), f in files.items():
        args += ["--system", f"{model}={f}"]
    assert main(args) == 0
    capsys.readouterr()
    metrics = json.loads((ev / "metrics.json").read_text())
    for model in ("SpanBERT", "s2e"):
        m = metrics[model]
        assert (m["n_unmatched"], m["n_duplicates"], m["n_missing"]) == (1, 1, 0)
    (wino, bug), enrollment = released_qa
    assert main(["humans", "qa", "--results", str(wino), "--results", str(bug), "--participants",
                 str(enrollment), "--models", str(ev / "metrics.json"), "--out", str(tmp_path / "qa")]) == 0
    printed = capsys.readouterr().out
    for line in TABLE2_HUMANS + TABLE2_MODELS:
        assert line in printed


@pytest.mark.slow
def test_too_many_unmatched_lines_exit_2(tmp_path, released_models, capsys):
    wl, bl, files = released_models
    bench = tmp_path / "bench"
    assert main(["benchmark", "--source", "cog-bug", "--path", str(bl), "--out", str(bench)]) == 0
    capsys.readouterr()
    # the Wino file holds no BUG sentence: every line matches nothing
    args = ["evaluate", "--dataset", str(bench / "benchmark.parquet"), "--resamples", "0",
            "--out", str(tmp_path / "eval"), "--system", f"s2e={files['s2e', 'bug']}",
            "--system", f"s2e={files['s2e', 'wino']}"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "prediction matches no benchmark item" in err and "more than the 1 % allowed" in err
    # the first stray line: the Wino sentence the BUG file also holds (its line 316)
    assert err.startswith(f"error: {files['s2e', 'bug']}, row 316: ") and "222 of 537 lines" in err
    assert len(err.splitlines()) == 1
    # the BUG file alone: its one stray line (of 317) is counted, not fatal
    assert main(args[:-2]) == 0


# ------------------------------------------------------------------------------ categories

def test_benchmark_categories_and_comparison(tmp_path, capsys):
    from tests.lang.test_benchmarks import write_winobias

    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, ["1 [The developer] argued with the designer because [he] did not like the design.",
                        "2 The mechanic met [a clerk] and wished [her] well."])
    study = tmp_path / "list.tsv"
    study.write_text(WINO_HEADER
                     + wino_row(0, "developer", 1, "male", "designer", 4, "he",
                                "The developer argued with the designer because he did not like the design.",
                                "pro-anti")
                     + wino_row(1, "clerk", 3, "female", "mechanic", 1, "her",
                                "The mechanic met a clerk and wished her well.", "anti-pro")
                     + wino_row(2, "nurse", 1, "male", "", "", "he", "The nurse said he was tired.",
                                "anti-neutral"))
    agree = {}
    for rule in ("entity", "table4"):
        out = tmp_path / rule
        assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--categories", rule,
                     "--compare", str(study), "--out", str(out)]) == 0
        printed = capsys.readouterr().out
        rows = list(csv.DictReader(open(out / "category_comparison.tsv"), delimiter="\t"))
        agree[rule] = [(r["id"], r["study_id"], r["ours"], r["study"], r["agree"]) for r in rows]
        assert f"category rule: {rule}" in printed
    assert agree["entity"] == [
        ("winobias-pro-type1-dev-0001", "cog-wino-0", "pro-anti", "pro-anti", "TRUE"),
        ("winobias-pro-type1-dev-0002", "cog-wino-1", "pro-anti", "anti-pro", "FALSE"),
        ("", "cog-wino-2", "", "anti-neutral", "FALSE")]
    assert agree["table4"][1] == ("winobias-pro-type1-dev-0002", "cog-wino-1", "anti-pro", "anti-pro", "TRUE")
    assert "agrees on 2 of 2 matched sentences (0 of ours and 1 of the list unmatched)" in printed


# ------------------------------------------------------------------------------ details

@pytest.mark.parametrize("user, correct, right", [
    ("The patient", "the patient", True), ("patient", "The patient", True), ("  PATIENT ", "patient", True),
    ("50-year - old man", "the 50-year-old man", True), ("a manager", "The manager", True),
    ("the nurse", "the manager", False), ("", "someone", False), ("someone", "Someone", True),
])
def test_filler_answers_matched(user, correct, right):
    from pipeline.humans.core.compare import filler_correct

    assert filler_correct(user, correct) is right


@pytest.mark.slow
def test_other_entity_questions_counted_with_questions_all(tmp_path):
    rows = gender_rows("wino", 0.5, 2, 2, 2, 2)
    rows.append({"question": "What is the gender of the designer?", "user_answer": "female",
                 "correct_answer": "unknown", "main_entity_gender": "male", "is_correct": False,
                 "question_category": "pro-stereotype.other.pro-anti", "time_fraction": 0.5})
    p = tmp_path / "qa.csv"
    write_released_qa(p, rows)
    got = {}
    for questions in ("main", "all"):
        out = tmp_path / questions
        assert main(["humans", "qa", "--results", str(p), "--questions", questions, "--out", str(out)]) == 0
        got[questions] = json.loads((out / "qa.json").read_text())["0.5"]
    assert (got["main"]["n_pro"], got["main"]["pro"], got["main"]["n_other"], got["main"]["n_ignored"]) == (
        2, 100.0, 1, 0)
    # counted as a pro question: "female" for a male main entity is then no coreference decision
    assert (got["all"]["n_pro"], got["all"]["n_ignored"], got["all"]["n_other"]) == (2, 1, 0)


def test_enrollment_checked_and_joined(tmp_path, capsys):
    rows = [{**r, "mturk_id": "A01" if i % 2 else "B01"} for i, r in enumerate(gender_rows("bug", 0.5, 4, 4, 4, 0))]
    p = tmp_path / "qa.csv"
    write_released_qa(p, rows)
    header = '"ID","mturk_id","batch_number","total_performance","hash_id"\n'
    e1, e2 = tmp_path / "e1.csv", tmp_path / "e2.csv"
    e1.write_text(header + '0,"A01",1,0.93,"x"\n')
    e2.write_text(header + '0,"B01",2,0.88,"y"\n')
    out = tmp_path / "o"
    assert main(["humans", "qa", "--results", str(p), "--participants", str(e1), "--participants", str(e2),
                 "--out", str(out)]) == 0
    assert json.loads((out / "qa.json").read_text())["n_participants"] == 2
    e2.write_text(header + '0,"B01",2,"high","y"\n')
    assert main(["humans", "qa", "--results", str(p), "--participants", str(e2), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {e2}, row 2: total_performance must be a number")
