"""`python -m pipeline benchmark` and the benchmark evaluation (`evaluate` on benchmark.parquet)."""

from __future__ import annotations

import json

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.formats.benchmarks import read_benchmark
from tests.lang.test_benchmarks import BUG_CSV, write_winobias

PRO = ["1 [The developer] argued with the designer because [he] did not like the design.",
       "2 The mechanic met [the clerk] and wished [her] well."]
ANTI = ["1 [The developer] argued with the designer because [she] did not like the design.",
        "2 The mechanic met [the clerk] and wished [him] well."]


@pytest.fixture
def bench(tmp_path):
    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, PRO, ANTI)
    bug = tmp_path / "bug.csv"
    bug.write_bytes(BUG_CSV.encode("latin-1"))
    out = tmp_path / "bench"
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--source", "bug",
                 "--path", str(bug), "--out", str(out)]) == 0
    return out / "benchmark.parquet"


def test_benchmark_command(bench):
    items = {it["id"]: it for it in read_benchmark(bench)}
    assert len(items) == 7
    one = items["winobias-pro-type1-dev-0001"]
    assert (one["category"], one["stereotype"]) == ("pro-anti", "pro")
    assert one["maze_eligible"] is False                     # "like" comes after "he"
    assert items["winobias-anti-type1-dev-0002"]["maze_eligible"] is True   # "wished him well."
    assert items["bug-wikipedia-11"]["maze_eligible"] is True
    assert items["bug-covid19-13"]["maze_eligible"] is False  # "He" before "the secretary"
    tsv = (bench.parent / "benchmark.tsv").read_text().splitlines()
    assert tsv[0].startswith("ID\tText\tPronoun\tPronoun-offset\tA\tA-offset\tA-coref\tB")
    assert len(tsv) == 8


def test_benchmark_bad_input(tmp_path, capsys):
    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, ["1 [The developer] argued.", "2 x"])
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "pro_stereotyped_type1.txt.dev, row 1:" in err
    assert not (tmp_path / "o" / "benchmark.parquet").exists()


def _write_outputs(items, path, extra=()):
    """Clusters: right on pro items, wrong (pronoun with the other entity) on anti items;
    one line re-tokenised without an id."""
    with open(path, "w") as fh:
        for k, it in enumerate(items):
            toks = it["text"].split()
            pos = lambda s: len(it["text"][:s].split())  # noqa: E731 -- token index of an offset
            p = pos(it["pronoun_start"])
            target = "main" if it["stereotype"] == "pro" or it["other_start"] is None else "other"
            s = pos(it[f"{target}_start"])
            e = len(it["text"][:it[f"{target}_end"]].split()) - 1
            obj = {"doc_key": it["id"], "document": toks, "clusters": [[[s, e], [p, p]]]}
            if k == 0:
                obj.pop("doc_key")
            fh.write(json.dumps(obj) + "\n")
        for line in extra:
            fh.write(line + "\n")


@pytest.mark.slow
def test_evaluate_benchmark_end_to_end(bench, tmp_path):
    from pipeline.runs.eval_benchmark import evaluate_benchmark

    items = read_benchmark(bench)
    out_file = tmp_path / "sys.jsonl"
    _write_outputs(items, out_file)
    metrics = evaluate_benchmark(bench, {"toy": out_file}, tmp_path / "eval", resamples=500, seed=0)
    m = metrics["toy"]
    n_pro = sum(it["stereotype"] == "pro" for it in items)
    n_anti = sum(it["stereotype"] == "anti" for it in items)
    # anti BUG item has no other entity: the toy system links it with the main entity
    anti_right = sum(it["stereotype"] == "anti" and it["other_start"] is None for it in items)
    assert (m["n_pro"], m["n_anti"]) == (n_pro, n_anti)
    assert m["pro"] == 1.0 and m["anti"] == pytest.approx(anti_right / n_anti)
    assert m["delta"] == pytest.approx(1.0 - anti_right / n_anti)
    saved = json.loads((tmp_path / "eval" / "metrics.json").read_text())
    assert saved["toy"]["delta"] == pytest.approx(m["delta"]) and "ci_delta" in saved["toy"]
    per_item = pq.read_table(tmp_path / "eval" / "per_item.parquet").to_pylist()
    assert len(per_item) == len(items) and {"id", "system", "correct"} <= set(per_item[0])
    assert (tmp_path / "eval" / "benchmark.md").exists() and (tmp_path / "eval" / "benchmark.png").exists()


def test_evaluate_benchmark_unmatched_line(bench, tmp_path):
    from pipeline.errors import InputError
    from pipeline.runs.eval_benchmark import evaluate_benchmark

    items = read_benchmark(bench)
    out_file = tmp_path / "sys.jsonl"
    _write_outputs(items, out_file, ['{"doc_key": "nope", "document": ["A", "b", "."], "clusters": []}'])
    with pytest.raises(InputError, match="matches no benchmark item") as exc:
        evaluate_benchmark(bench, {"toy": out_file}, tmp_path / "eval", resamples=0)
    assert exc.value.row == len(items) + 1
    assert not (tmp_path / "eval" / "metrics.json").exists()


@pytest.mark.slow
def test_evaluate_command_on_a_benchmark(bench, tmp_path, capsys):
    items = read_benchmark(bench)
    out_file = tmp_path / "sys.jsonl"
    _write_outputs(items, out_file)
    ev = tmp_path / "eval"
    assert main(["evaluate", "--dataset", str(bench), "--system", f"toy={out_file}", "--out", str(ev),
                 "--resamples", "200"]) == 0
    data = json.loads((ev / "metrics.json").read_text())
    assert data["toy"]["pro"] == 1.0 and "per_category" in data["toy"]
    assert (ev / "per_item.parquet").exists()
    # per-row answers: the strict rule's correctness is "answer == A" (gold: A, never B)
    per_item = pq.read_table(ev / "per_item.parquet").to_pandas().set_index("id")
    ans = pq.read_table(ev / "answers.parquet").to_pandas().set_index("id")
    assert len(ans) == len(items) and set(ans["gold"]) == {"A"}
    assert (ans["correct"] == per_item.loc[ans.index, "correct"]).all()
    assert set(ans["variant"]) <= {"pro", "anti", "neutral"}
    bad = tmp_path / "bad.jsonl"
    _write_outputs(items, bad, ['{"doc_key": "nope", "document": ["A", "b", "."], "clusters": []}'])
    assert main(["evaluate", "--dataset", str(bench), "--system", f"toy={bad}", "--out",
                 str(tmp_path / "ev2")]) == 2
    assert f"error: {bad}, row {len(items) + 1}: prediction matches no benchmark item" in capsys.readouterr().err


@pytest.mark.slow
def test_winobias_gold_conll_scores_100_on_shared(shared_dir, tmp_path):
    """WinoBias's own CoNLL files as a system: every line found by its text (the CoNLL document
    keys are not item ids) and right under both rules."""
    from pipeline.humans.core.stereotypes import categorize
    from pipeline.formats.benchmarks import write_benchmark
    from pipeline.lang.benchmarks import load_winobias
    from pipeline.runs.eval_benchmark import evaluate_benchmark

    wb = shared_dir / "reference" / "winobias"
    items = categorize(load_winobias(wb))
    for it in items:
        it["maze_eligible"] = False
    write_benchmark(items, tmp_path)
    gold = tmp_path / "gold.conll"
    gold.write_text("".join(p.read_text() for p in sorted((wb / "conll_format").glob("*_conll"))))
    m = evaluate_benchmark(tmp_path / "benchmark.parquet", {"gold": gold}, tmp_path / "eval",
                           resamples=0)["gold"]
    assert (m["pro"], m["anti"], m["loose"]["pro"], m["loose"]["anti"]) == (1.0, 1.0, 1.0, 1.0)
    assert m["n_missing"] == 0 and (m["n_pro"], m["n_anti"]) == (1584, 1584)
