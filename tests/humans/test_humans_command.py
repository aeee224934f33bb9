"""`python -m pipeline humans qa|maze`: outputs, model comparison, bad input."""

from __future__ import annotations

import json

import pytest

from pipeline.cli import main
from pipeline.humans.formats.results import write_maze_trials, write_qa_results
from tests.humans.fixtures import MAZE_ROWS, QA_ROWS


@pytest.fixture
def qa_file(tmp_path):
    p = tmp_path / "qa.csv"
    write_qa_results(QA_ROWS, p)
    return p


def test_qa_command(tmp_path, qa_file, capsys):
    parts = tmp_path / "passed.csv"
    parts.write_text("mturk_id\nW1\nW2\n")
    out = tmp_path / "out"
    assert main(["humans", "qa", "--results", str(qa_file), "--participants", str(parts),
                 "--out", str(out)]) == 0
    data = json.loads((out / "qa.json").read_text())
    a = data["0.5"]
    assert a["pro"] == pytest.approx(75.0) and a["anti"] == pytest.approx(100 / 3)
    assert a["delta"] == pytest.approx(75.0 - 100 / 3) and a["ignored"] == pytest.approx(200 / 7)
    assert a["filler"] == 50.0 and (a["n_pro"], a["n_anti"]) == (4, 3)
    assert data["0.75"]["delta"] == 0.0
    assert (out / "qa.png").stat().st_size > 0 and (out / "qa_participants.csv").exists()
    assert "Delta_QA" in capsys.readouterr().out


def test_qa_bad_answer_exit_2(tmp_path, capsys):
    p = tmp_path / "qa.csv"
    write_qa_results(QA_ROWS[:2] + [{**QA_ROWS[2], "user_answer": "perhaps"}], p)
    out = tmp_path / "out"
    assert main(["humans", "qa", "--results", str(p), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {p}, row 4:") and len(err.splitlines()) == 1
    assert not (out / "qa.json").exists()


def test_qa_unknown_category_exit_2(tmp_path, capsys):
    p = tmp_path / "qa.csv"
    write_qa_results([{**QA_ROWS[0], "question_category": "pro.a|b.whatever"}], p)
    assert main(["humans", "qa", "--results", str(p), "--out", str(tmp_path / "o")]) == 2
    assert "row 2: unknown question_category" in capsys.readouterr().err


def test_maze_command_and_models(tmp_path):
    trials = tmp_path / "maze.csv"
    write_maze_trials(MAZE_ROWS, trials)
    metrics = tmp_path / "metrics.json"
    metrics.write_text(json.dumps({"m": {"pro": 0.5, "anti": 0.9, "delta": -0.4}}))
    out = tmp_path / "out"
    assert main(["humans", "maze", "--results", str(trials), "--models", str(metrics),
                 "--out", str(out)]) == 0
    data = json.loads((out / "maze.json").read_text())
    assert len(data["quantiles"]) == 51 and data["delta"][0] == pytest.approx(115.0)
    assert data["success_rate"]["pro"] == pytest.approx(5 / 6)
    assert data["models"]["m"]["pro"]["quantile"] == 0.67
    assert (out / "maze.png").stat().st_size > 0


def test_maze_non_numeric_time_exit_2(tmp_path, capsys):
    trials = tmp_path / "maze.csv"
    write_maze_trials(MAZE_ROWS[:3] + [{**MAZE_ROWS[3], "time_to_answer": "12ms"}], trials)
    assert main(["humans", "maze", "--results", str(trials), "--out", str(tmp_path / "o")]) == 2
    assert f"{trials}, row 5: time_to_answer must be a number" in capsys.readouterr().err


def test_qa_with_a_benchmark_of_another_layout_exit_2(tmp_path, qa_file, capsys):
    import pyarrow as pa
    import pyarrow.parquet as pq

    other = tmp_path / "other.parquet"
    pq.write_table(pa.table({"id": ["a"], "system": ["s"], "correct": [True]}), other)
    assert main(["humans", "qa", "--results", str(qa_file), "--benchmark", str(other),
                 "--models", str(other), "--out", str(tmp_path / "o")]) == 2
    assert f"error: {other}: not a benchmark table" in capsys.readouterr().err


def test_qa_models_on_the_same_sentences(tmp_path):
    """QA sentences found among benchmark items by id, model accuracy on exactly those."""
    from pipeline.formats.benchmarks import write_benchmark
    from pipeline.formats.schemas import BENCHMARK, BENCHMARK_PER_ITEM
    from pipeline.formats.tables import write_records

    def item(i, stereotype):
        row = {c: None for c in BENCHMARK.names}
        row.update(id=f"s{i}", source="winobias", split="dev", text=f"Sentence {i}.", tokens=["x"],
                   pronoun="he", pronoun_start=0, pronoun_end=2, pronoun_gender="masculine",
                   main_entity="x", main_start=0, main_end=1, main_occupation="x",
                   main_stereotype="masculine", category="pro-anti" if stereotype == "pro" else "anti-pro",
                   stereotype=stereotype, maze_eligible=False)
        return row

    # QA rows 1..16 use id_sentence s1..s16; make s1-s3 pro, s4-s6 anti, s99 never asked
    items = [item(i, "pro") for i in (1, 2, 3)] + [item(i, "anti") for i in (4, 5, 6)] + [item(99, "pro")]
    write_benchmark(items, tmp_path)
    per_item = [{"id": it["id"], "system": "m", "correct": it["id"] in ("s1", "s99", "s4"),
                 "correct_loose": True, "present": True, "source": "winobias",
                 "category": it["category"], "stereotype": it["stereotype"]} for it in items]
    write_records(per_item, tmp_path / "per_item.parquet", BENCHMARK_PER_ITEM, fill_missing=True)
    qa = tmp_path / "qa.csv"
    write_qa_results(QA_ROWS, qa)
    out = tmp_path / "out"
    assert main(["humans", "qa", "--results", str(qa), "--benchmark", str(tmp_path / "benchmark.parquet"),
                 "--models", str(tmp_path / "per_item.parquet"), "--out", str(out)]) == 0
    m = json.loads((out / "qa.json").read_text())["models"]["m"]
    assert (m["n_pro"], m["n_anti"]) == (3, 3)
    assert m["pro"] == pytest.approx(100 / 3) and m["anti"] == pytest.approx(100 / 3)
