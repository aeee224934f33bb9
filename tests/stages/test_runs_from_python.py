"""Every run called from Python with its settings object (no command-line namespace), on the
tiny fixtures of its command's own tests: the outputs are those of the command, the settings
are typed and checked when built (one :class:`pipeline.errors.InputError` line)."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.runs.settings import RunResult


def _cli(argv) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main([str(a) for a in argv])


def _quiet(call):
    with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.redirect_stderr(io.StringIO()):
        result = call()
    return result, out.getvalue()


def _same_files(a: Path, b: Path, names) -> None:
    for name in names:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_benchmark_from_python(tmp_path):
    from pipeline.humans.runs.benchmark import BenchmarkSettings, benchmark
    from tests.lang.test_benchmarks import write_winobias
    from tests.humans.test_benchmark_command import ANTI, PRO

    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, PRO, ANTI)
    s = BenchmarkSettings(sources=["winobias"], paths=[str(wb)], out=tmp_path / "py")
    assert s.paths == (wb,) and s.sources == ("winobias",)
    result, text = _quiet(lambda: benchmark(s))
    assert result == RunResult(0, (s.out / "benchmark.parquet", s.out / "benchmark.tsv"))
    assert "4 items -> " in text
    assert _cli(["benchmark", "--source", "winobias", "--path", wb, "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["benchmark.parquet", "benchmark.tsv"])
    with pytest.raises(InputError, match=r"give one --path per --source \(1 sources, 2 paths\)"):
        BenchmarkSettings(sources=["winobias"], paths=[wb, wb], out=tmp_path / "x")


@pytest.fixture
def toy_gap(tmp_path):
    from tests.stages.test_run_records import _gap

    return _gap(tmp_path)


def test_analyze_from_python(toy_gap, tmp_path):
    from pipeline.diagnostics.runs.diagnostics import AnalyzeSettings, analyze

    data, spans = toy_gap
    s = AnalyzeSettings(dataset=str(data), name_spans=str(spans), out=tmp_path / "py", no_progress=True)
    assert isinstance(s.dataset, Path) and isinstance(s.name_spans, Path)
    result, text = _quiet(lambda: analyze(s))
    assert result.status == 0 and {p.name for p in result.outputs} == {"summary.json", "summary.md",
                                                                        "names.png", "rank.png"}
    assert "names:" in text
    assert _cli(["analyze", "--dataset", data, "--name-spans", spans, "--out", tmp_path / "cli", "--no-progress"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["summary.json", "summary.md"])
    with pytest.raises(InputError, match="--names-from must be one of auto, column, ner, got 'spans'"):
        AnalyzeSettings(dataset=data, out=tmp_path / "x", names_from="spans")


def test_weights_from_python(toy_gap, tmp_path):
    from pipeline.diagnostics.runs.weights import WeightsSettings, weights

    data, spans = toy_gap
    s = WeightsSettings(dataset=data, name_spans=spans, out=tmp_path / "py.json", variant="num", no_progress=True)
    result, _ = _quiet(lambda: weights(s))
    assert result == RunResult(0, (tmp_path / "py.json",))
    assert _cli(["weights", "--dataset", data, "--name-spans", spans, "--variant", "num", "--no-progress",
                 "--out", tmp_path / "cli.json"]) == 0
    assert (tmp_path / "py.json").read_bytes() == (tmp_path / "cli.json").read_bytes()
    with pytest.raises(InputError, match="--variant must be one of all, num, dist, trimmed, got 'W'"):
        WeightsSettings(dataset=data, out=tmp_path / "w.json", variant="W")


def test_baseline_from_python(toy_gap, tmp_path):
    from pipeline.diagnostics.runs.diagnostics import BaselineSettings, baseline

    data, spans = toy_gap
    s = BaselineSettings(dataset=data, name_spans=spans, kind="dist1", out=tmp_path / "py.tsv", no_progress=True)
    assert s.names_from == "ner"            # the command's default for baseline
    result, text = _quiet(lambda: baseline(s))
    assert result == RunResult(0, (tmp_path / "py.tsv",)) and text.startswith("dist1: ")
    assert _cli(["baseline", "--dataset", data, "--name-spans", spans, "--kind", "dist1", "--out",
                 tmp_path / "cli.tsv", "--no-progress"]) == 0
    assert (tmp_path / "py.tsv").read_bytes() == (tmp_path / "cli.tsv").read_bytes()
    with pytest.raises(InputError, match="--kind must be one of random, dist1, dist2, dist3"):
        BaselineSettings(dataset=data, out=tmp_path / "b.tsv", kind="dist4")


def test_embeddings_from_python(tmp_path):
    import json

    from pipeline.embeddings.runs import EmbeddingsSettings, embeddings
    from tests.embeddings.test_embeddings_command import real_word_embedding

    real_word_embedding().save_word2vec_format(str(tmp_path / "v.txt"))
    small = dict(n_cluster=200, n_svm=300, gipe_vocab=100, gipe_neighbours=10, draws=200)
    s = EmbeddingsSettings(vectors=[("v", tmp_path / "v.txt")], out=str(tmp_path / "py"), **small)
    assert s.vectors == (("v", str(tmp_path / "v.txt")),) and s.out == tmp_path / "py"
    assert EmbeddingsSettings(vectors=[f"v={tmp_path / 'v.txt'}"], out=s.out, **small) == s
    result, text = _quiet(lambda: embeddings(s))
    assert result == RunResult(0, (tmp_path / "py" / "embeddings.json", tmp_path / "py" / "embeddings.md"))
    assert "embeddings: 1 embedding(s), reference v" in text
    assert _cli(["embeddings", "--vectors", f"v={tmp_path / 'v.txt'}", "--out", tmp_path / "cli", "--n-cluster",
                 "200", "--n-svm", "300", "--gipe-vocab", "100", "--gipe-neighbours", "10", "--draws", "200"]) == 0
    assert json.loads((tmp_path / "py" / "embeddings.json").read_text()) == \
        json.loads((tmp_path / "cli" / "embeddings.json").read_text())
    with pytest.raises(InputError, match=r"--reference 'w' is not one of the --vectors names \(v\)"):
        EmbeddingsSettings(vectors=[("v", "v.txt")], out=tmp_path / "x", reference="w")
    with pytest.raises(InputError, match="--vectors name 'v' given twice"):
        EmbeddingsSettings(vectors=["v=a.txt", "v=b.txt"], out=tmp_path / "x")


def test_namemap_from_python(tmp_path):
    from pipeline.cda.runs.namemap import NamemapSettings, namemap
    from tests.stages.test_run_records import _namemap

    _, _, (nam_dict,) = _namemap(None, tmp_path)
    s = NamemapSettings(out=tmp_path / "py", nam_dict=str(nam_dict), alpha=1.2)
    result, text = _quiet(lambda: namemap(s))
    assert result == RunResult(0, (tmp_path / "py" / "name_map.parquet", tmp_path / "py" / "name_map.tsv"))
    assert "(alpha = 1.2)" in text
    assert _cli(["namemap", "--out", tmp_path / "cli", "--nam-dict", nam_dict, "--alpha", "1.2"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["name_map.tsv", "name_map.parquet"])
    with pytest.raises(InputError, match="--alpha must be a finite number, got nan"):
        NamemapSettings(alpha=float("nan"))


def test_label_from_python(tmp_path):
    from pipeline.formats import schemas
    from pipeline.formats.files import read_json
    from pipeline.formats.tables import read_table, write_records
    from pipeline.runs.label import LabelSettings, label
    from tests.core.test_label import CONLL, TEXT, _inst

    (tmp_path / "1342_tiny_brat.conll").write_text(CONLL, encoding="utf-8")
    row = {name: None for name in schemas.INSTANCES.names}
    row.update(_inst(TEXT, "Jane", "Lydia"), instance_id="1342_tiny-0")
    (tmp_path / "run").mkdir()
    write_records([row], tmp_path / "run" / "instances.parquet", schemas.INSTANCES, fill_missing=True)
    s = LabelSettings(instances=str(tmp_path / "run"), coref=str(tmp_path), out=str(tmp_path / "py"))
    assert (s.instances, s.coref, s.out) == (tmp_path / "run", tmp_path, tmp_path / "py")
    result, text = _quiet(lambda: label(s))
    assert result == RunResult(0, (tmp_path / "py" / "labelled.parquet", tmp_path / "py" / "label_summary.json"))
    assert result == 0 and text.startswith("label: 1 instances against 1 annotated documents")
    assert [r["label"] for r in read_table(tmp_path / "py" / "labelled.parquet").to_pylist()] == ["A"]
    assert _cli(["label", "--instances", tmp_path / "run", "--coref", tmp_path, "--out", tmp_path / "cli"]) == 0
    assert read_json(tmp_path / "py" / "label_summary.json") == read_json(tmp_path / "cli" / "label_summary.json")
    with pytest.raises(InputError, match="file not found"):
        label(LabelSettings(instances=tmp_path / "nope.parquet", coref=tmp_path, out=tmp_path / "o"))


@pytest.mark.slow
def test_humans_qa_and_maze_from_python(tmp_path):
    import json

    from pipeline.humans.formats.results import write_maze_trials, write_qa_results
    from pipeline.humans.runs.humans import MazeSettings, QaSettings, humans
    from tests.humans.fixtures import MAZE_ROWS, QA_ROWS

    write_qa_results(QA_ROWS, tmp_path / "qa.csv")
    (tmp_path / "passed.csv").write_text("mturk_id\nW1\nW2\n")
    s = QaSettings(results=[str(tmp_path / "qa.csv")], participants=[tmp_path / "passed.csv"], out=tmp_path / "py")
    assert s.results == (tmp_path / "qa.csv",) and s.participants == (tmp_path / "passed.csv",)
    result, text = _quiet(lambda: humans(s))
    assert result == 0 and {p.name for p in result.outputs} == {"qa.json", "qa_participants.csv", "qa.md", "qa.png"}
    assert "Delta_QA" in text
    assert _cli(["humans", "qa", "--results", tmp_path / "qa.csv", "--participants", tmp_path / "passed.csv",
                 "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["qa.json", "qa_participants.csv", "qa.md"])
    with pytest.raises(InputError, match=r"--models needs --benchmark"):
        QaSettings(results=[tmp_path / "qa.csv"], out=tmp_path / "x", models=tmp_path / "per_item.parquet")

    write_maze_trials(MAZE_ROWS, tmp_path / "maze.csv")
    m = MazeSettings(results=tmp_path / "maze.csv", out=tmp_path / "mz")
    assert m.results == (tmp_path / "maze.csv",)
    result, _ = _quiet(lambda: humans(m))
    assert result == RunResult(0, tuple(tmp_path / "mz" / n for n in ("maze.json", "maze.md", "maze.png")))
    assert _cli(["humans", "maze", "--results", tmp_path / "maze.csv", "--out", tmp_path / "mz-cli"]) == 0
    assert json.loads((tmp_path / "mz" / "maze.json").read_text()) == \
        json.loads((tmp_path / "mz-cli" / "maze.json").read_text())
    with pytest.raises(InputError, match="give at least one --results FILE"):
        MazeSettings(results=[], out=tmp_path / "x")


def test_experiment_plan_from_python(tmp_path):
    from pipeline.humans.runs.plan import ExperimentPlanSettings, experiment_plan
    from tests.humans.experiment_helpers import make_items, write_benchmark

    write_benchmark(make_items(40), tmp_path / "bench.parquet")
    s = ExperimentPlanSettings(benchmark=str(tmp_path / "bench.parquet"), experiment="qa", participants=2,
                               targets=4, calibration=2, out=tmp_path / "py")
    result, text = _quiet(lambda: experiment_plan(s))
    assert result == RunResult(0, (tmp_path / "py" / "plan.parquet", tmp_path / "py" / "plan.tsv"))
    assert text.startswith("qa plan: 2 participant(s)")
    assert _cli(["experiment-plan", "--benchmark", tmp_path / "bench.parquet", "--experiment", "qa",
                 "--participants", "2", "--targets", "4", "--calibration", "2", "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["plan.tsv", "plan.parquet"])
    with pytest.raises(InputError, match="--participants must be >= 1, got 0"):
        ExperimentPlanSettings(benchmark=tmp_path / "bench.parquet", experiment="qa", participants=0, out=tmp_path)
    with pytest.raises(InputError, match="--experiment must be one of qa, maze, got 'spr'"):
        ExperimentPlanSettings(benchmark=tmp_path / "bench.parquet", experiment="spr", participants=1, out=tmp_path)


def test_experiment_export_from_python(tmp_path):
    from pipeline.humans.runs.export import ExperimentExportSettings, experiment_export
    from tests.stages.test_run_records import _experiment_export

    _experiment_export(None, tmp_path)          # a plan and a database with one participant started
    s = ExperimentExportSettings(db=str(tmp_path / "db.sqlite"), out=tmp_path / "py")
    assert s.db == tmp_path / "db.sqlite" and s.plan is None
    result, text = _quiet(lambda: experiment_export(s))
    assert result == RunResult(0, tuple(tmp_path / "py" / n for n in ("qa_results.csv", "qa_answers.csv",
                                                                       "codes.csv")))
    assert text.startswith("0 trial answers (0 with calibration) from 0 participant(s)")
    assert _cli(["experiment-export", "--db", tmp_path / "db.sqlite", "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["qa_results.csv", "qa_answers.csv", "codes.csv"])
    with pytest.raises(InputError, match="file not found"):
        experiment_export(ExperimentExportSettings(db=tmp_path / "none.sqlite", out=tmp_path / "o"))


def test_sowinobias_from_python(tmp_path):
    from pipeline.sowinobias.runs import RESOURCES, SowinobiasSettings, sowinobias

    s = SowinobiasSettings(out=str(tmp_path / "py"), sample=20, resamples=20, vocab=None)
    assert s.out == tmp_path / "py" and s.vocab == RESOURCES
    result, text = _quiet(lambda: sowinobias(s))
    assert result == 0 and [p.name for p in result.outputs] == ["sowinobias.parquet", "sowinobias.tsv",
                                                                  "baseline_nearest.tsv", "evaluation"]
    assert "| baseline_nearest | 20 |" in text
    assert _cli(["sowinobias", "--out", tmp_path / "cli", "--sample", "20", "--resamples", "20"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["sowinobias.parquet", "sowinobias.tsv", "baseline_nearest.tsv",
                                                    "evaluation/metrics.json"])
    with pytest.raises(InputError, match=r"--resamples must be >= 0 \(0: no bootstrap\), got -1"):
        SowinobiasSettings(out=tmp_path / "x", resamples=-1)


def test_annotate_export_from_python(tmp_path):
    import json

    from pipeline.annotation.runs.export import AnnotateExportSettings, annotate_export
    from pipeline.annotation.web.mturk import mturk_files
    from tests.annotation.helpers import quad_rows, write_quadruples

    write_quadruples(quad_rows(3), tmp_path / "q.parquet")
    s = AnnotateExportSettings(quadruples=str(tmp_path / "q.parquet"), out=tmp_path / "py", per_task=4)
    result, text = _quiet(lambda: annotate_export(s, layout=mturk_files))
    assert result.status == 0 and result.outputs == tuple(tmp_path / "py" / n for n in ("batch.csv", "task.html",
                                                                                          "preview.html", "export.json"))
    assert result.summary["per_task"] == 4 and "wrote " in text
    assert _cli(["annotate-export", "--quadruples", tmp_path / "q.parquet", "--out", tmp_path / "cli",
                 "--per-task", "4"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["batch.csv", "task.html", "preview.html"])
    assert json.loads((tmp_path / "py" / "export.json").read_text()) == \
        json.loads((tmp_path / "cli" / "export.json").read_text())
    with pytest.raises(InputError, match="--checks must be between 0 and --per-task - 1"):
        AnnotateExportSettings(quadruples=tmp_path / "q.parquet", out=tmp_path / "x", per_task=2, checks=2)


def test_generate_from_python(tmp_path):
    """generate called with GenerateSettings (no Namespace) writes the files of the command and
    returns its run.json settings in the result; nothing is noted in a module global."""
    import json

    from pipeline.formats import run_record
    from pipeline.formats.run_record import RECORD
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.generate import GenerateSettings, generate
    from tests.chaos.malformed import sample_instances
    from tests.stages.gap_fixtures import write_toy_gap

    instances = sample_instances(tmp_path)
    options = {"no_recheck": True, "name_forms": "shape", "no_title_period": True, "gendered_words": ["builtin"]}
    s = GenerateSettings(out=str(tmp_path / "py"), instances=str(instances), **options)
    assert s.out == tmp_path / "py" and s.instances == instances and s.gendered_words == ("builtin",)
    result, _ = _quiet(lambda: generate(s))
    assert isinstance(result, RunResult) and result.status == 0 and result.outputs == (s.out,)
    assert list(result.settings.items()) == [("word_lists", ["gendered_words.tsv"]), ("name_forms", "shape")]
    assert not {"note", "noted", "reset", "_settings"} & set(vars(run_record))      # no module global
    assert _cli(["generate", "--instances", instances, "--out", tmp_path / "cli", "--no-recheck", "--name-forms",
                 "shape", "--no-title-period", "--gendered-words", "builtin"]) == 0
    names = ["quadruples.parquet", "quadruples.tsv", "quadruples-nodot.parquet", "quadruples-nodot.tsv"]
    _same_files(tmp_path / "py", tmp_path / "cli", names)
    record = json.loads((tmp_path / "cli" / RECORD).read_text())
    assert list(record["settings"].items()) == list(result.settings.items())
    # a GAP TSV (the model is used): the settings name it, last, as the command's run.json does
    gap = write_toy_gap(tmp_path / "toy.tsv")
    result, _ = _quiet(lambda: generate(GenerateSettings(out=tmp_path / "gap-py", gap_tsv=gap)))
    assert list(result.settings.items()) == [("word_lists", ["gendered_words.tsv"]), ("name_forms", "person"),
                                             ("model", resolve_model_name(None))]
    assert _cli(["generate", "--gap-tsv", gap, "--out", tmp_path / "gap-cli"]) == 0
    _same_files(tmp_path / "gap-py", tmp_path / "gap-cli", ["quadruples.parquet", "quadruples.tsv", "recheck.json"])
    assert json.loads((tmp_path / "gap-cli" / RECORD).read_text())["settings"] == result.settings
    # checked when built, with the command's messages
    with pytest.raises(InputError, match="--dataset is only used with --no-title-period"):
        GenerateSettings(out=tmp_path / "x", dataset=tmp_path / "q.parquet")
    with pytest.raises(InputError, match="--workers must be at least 1"):
        GenerateSettings(out=tmp_path / "x", instances=instances, workers=0)
    with pytest.raises(InputError, match="--gap-tsv runs in this process"):
        GenerateSettings(out=tmp_path / "x", gap_tsv=gap, workers=2)
    with pytest.raises(InputError, match="give exactly one of --instances, --gap-tsv and --dataset"):
        GenerateSettings(out=tmp_path / "x", instances=instances, gap_tsv=gap)


def test_extract_from_python(tmp_path):
    """extract called with ExtractSettings writes the files of the command and returns its
    run.json settings (the resolved model, the strategy) in a RunResult."""
    import json

    from pipeline.formats.books import CorpusSpec
    from pipeline.formats.run_record import RECORD
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.extract import ExtractSettings, extract
    from tests.stages.test_persons import corpus

    books = corpus(tmp_path)
    s = ExtractSettings(out=tmp_path / "py", corpus=CorpusSpec(path=str(books)))
    result, _ = _quiet(lambda: extract(s))
    assert isinstance(result, RunResult) and result == RunResult(0, (), {"model": resolve_model_name(None),
                                                                          "strategy": "prune"})
    assert list(result.settings) == ["model", "strategy"]
    assert _cli(["extract", "--corpus", books, "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", ["instances.parquet", "mentions.parquet", "evidence.parquet"])
    record = json.loads((tmp_path / "cli" / RECORD).read_text())
    assert list(record["settings"].items()) == list(result.settings.items())


def test_cda_from_python(tmp_path):
    """cda called with CdaSettings (no Namespace): typed paths, the command's files, and
    run.json's settings (the mode, the resolved model) in the run's result."""
    import json

    from pipeline.cda.runs.cda import CdaSettings, cda
    from pipeline.nlp.load import resolve_model_name
    from tests.chaos.malformed import CONLL

    conll = tmp_path / "tiny.conll"
    conll.write_text(CONLL, encoding="utf-8")
    s = CdaSettings(conll=str(conll), mode="acda", out=str(tmp_path / "py.conll"), no_progress=True)
    assert s.conll == conll and s.out == tmp_path / "py.conll"
    result, text = _quiet(lambda: cda(s))
    assert isinstance(result, RunResult) and result.status == 0
    assert result.outputs == (s.out, tmp_path / "py.conll.persons.tsv")
    assert list(result.settings.items()) == [("mode", "acda"), ("model", resolve_model_name(None))]
    assert f"acda of {conll} -> {s.out}" in text
    out = tmp_path / "cli.conll"
    assert _cli(["cda", "--conll", conll, "--mode", "acda", "--out", out, "--no-progress"]) == 0
    assert out.read_bytes() == s.out.read_bytes()
    assert (tmp_path / "cli.conll.persons.tsv").read_bytes() == (tmp_path / "py.conll.persons.tsv").read_bytes()
    assert json.loads(out.with_name(out.name + ".run.json").read_text())["settings"] == result.settings
    with pytest.raises(InputError, match="--mode must be one of acda, ncda, got 'xcda'"):
        CdaSettings(conll=conll, mode="xcda", out=tmp_path / "x")
    with pytest.raises(InputError, match="--persons must be one of auto, column, detect, got 'all'"):
        CdaSettings(conll=conll, mode="acda", out=tmp_path / "x", persons="all")


def test_cda_and_persons_record_their_settings_from_the_result(tmp_path):
    """cda and persons hand run.json's settings (the mode, the resolved model) to the CLI in the
    result of their command, not through a module global."""
    import json

    from pipeline.formats import run_record
    from pipeline.formats.run_record import RECORD
    from pipeline.nlp.load import resolve_model_name
    from tests.chaos.malformed import CONLL
    from tests.stages.test_persons import corpus

    (tmp_path / "tiny.conll").write_text(CONLL, encoding="utf-8")
    out = tmp_path / "out.acda"
    assert _cli(["cda", "--conll", tmp_path / "tiny.conll", "--mode", "acda", "--out", out, "--no-progress"]) == 0
    record = json.loads(out.with_name(out.name + ".run.json").read_text())
    assert record["settings"] == {"mode": "acda", "model": resolve_model_name(None)}
    assert _cli(["persons", "--corpus", corpus(tmp_path), "--out", tmp_path / "persons"]) == 0
    assert json.loads((tmp_path / "persons" / RECORD).read_text())["settings"] == {"model": resolve_model_name(None)}
    assert not {"note", "noted", "reset", "_settings"} & set(vars(run_record))      # no module global


def test_the_example_of_docs_architecture_runs(tmp_path, monkeypatch):
    """docs/architecture.md, "Calling a run from Python": the example runs as written, and its
    last line is the error it says."""
    import re

    page = (Path(__file__).resolve().parents[2] / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = page.split("## Calling a run from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.findall(r"# (\[.*\])", code)
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(io.StringIO()) as out, \
            pytest.raises(InputError, match=re.escape("--resamples must be >= 0 (0: no bootstrap), got -1")):
        exec(compile(code, "docs/architecture.md", "exec"), {})
    assert shown and shown[0] in out.getvalue()
    assert (tmp_path / "sowinobias-sample" / "sowinobias.parquet").is_file()


def test_persons_from_python(tmp_path):
    """persons called with PersonsSettings (no Namespace): typed paths, a corpus given as a path,
    the command's files and run.json's settings (the resolved model) in a RunResult; --explain
    too; checked when built with the command's messages."""
    import json

    from pipeline.formats.books import CorpusSpec
    from pipeline.formats.run_record import RECORD
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.persons import ExplainSettings, PersonsSettings, persons
    from tests.stages.test_persons import corpus

    books = corpus(tmp_path)
    s = PersonsSettings(out=str(tmp_path / "py"), corpus=str(books))
    assert s.out == tmp_path / "py" and s.corpus == CorpusSpec(path=str(books))
    result, text = _quiet(lambda: persons(s))
    names = ("persons.parquet", "cast.parquet", "cast.tsv")
    assert isinstance(result, RunResult)
    assert result == RunResult(0, tuple(s.out / n for n in names), {"model": resolve_model_name(None)})
    assert _cli(["persons", "--corpus", books, "--out", tmp_path / "cli"]) == 0
    _same_files(tmp_path / "py", tmp_path / "cli", names)
    record = json.loads((tmp_path / "cli" / RECORD).read_text())
    assert list(record["settings"].items()) == list(result.settings.items())
    explained, text = _quiet(lambda: persons(PersonsSettings(out=None, corpus=books, explain="  Emma ")))
    assert explained == RunResult(0, (), {"model": resolve_model_name(None)}) and "Emma" in text
    assert ExplainSettings(form=" Mr.  Knightley ", corpus=books).form == "Mr. Knightley"
    with pytest.raises(InputError, match=r"--out DIR is needed \(and --book only goes with --explain\)"):
        PersonsSettings(out=None, corpus=books)
    with pytest.raises(InputError, match="--workers must be at least 1"):
        PersonsSettings(out=tmp_path / "x", corpus=books, workers=0)
    with pytest.raises(InputError, match=r"--explain needs a form \(a name as written, e.g. Diamond\)"):
        PersonsSettings(out=None, corpus=books, explain=" ")


def test_evaluate_from_python(tmp_path):
    """evaluate called with EvaluateSettings (no Namespace): typed paths and tuples, the command's
    files, a RunResult naming the outputs (run.json's settings: none); checked when built."""
    import json

    from pipeline.formats.run_record import RECORD
    from pipeline.runs.evaluate import EvaluateSettings, evaluate
    from tests.stages.gap_fixtures import write_toy_gap
    from tests.stages.test_evaluate import write_gold, write_system

    gold, system = write_gold(tmp_path / "gold.tsv"), write_system(tmp_path / "sys.tsv")
    s = EvaluateSettings(dataset=str(gold), systems=[["s", str(system)]], out=str(tmp_path / "py"), resamples=50)
    assert s.dataset == gold and s.out == tmp_path / "py" and s.systems == (("s", str(system)),)
    result, text = _quiet(lambda: evaluate(s))
    assert isinstance(result, RunResult) and result == RunResult(0, (s.out,))
    assert _cli(["evaluate", "--dataset", gold, "--system", f"s={system}", "--out", tmp_path / "cli",
                 "--resamples", "50"]) == 0
    assert json.loads((tmp_path / "py" / "metrics.json").read_text()) == \
        json.loads((tmp_path / "cli" / "metrics.json").read_text())
    assert json.loads((tmp_path / "cli" / RECORD).read_text())["settings"] == result.settings == {}
    toy = write_toy_gap(tmp_path / "toy.tsv")
    key = tmp_path / "key.conll"
    result, _ = _quiet(lambda: evaluate(EvaluateSettings(dataset=toy, write_conll=str(key))))
    assert result == RunResult(0, (key,)) and key.is_file()
    with pytest.raises(InputError, match="--resamples must be >= 0, got -1"):
        EvaluateSettings(dataset=gold, systems=[("s", system)], out=tmp_path / "x", resamples=-1)
    with pytest.raises(InputError, match="nothing to do: give --system NAME=FILE"):
        EvaluateSettings(dataset=gold)
    with pytest.raises(InputError, match="--out is required with --system"):
        EvaluateSettings(dataset=gold, systems=[("s", system)])


def test_annotate_import_from_python(tmp_path):
    """annotate-import called with ImportSettings (no Namespace): typed paths, the command's
    dataset, a RunResult with its outputs and counts (run.json's settings: none); checked when
    built with the command's messages."""
    import json

    from pipeline.annotation.runs.import_answers import ImportSettings, annotate_import
    from pipeline.formats.run_record import RECORD
    from tests.annotation.helpers import scenario, write_quadruples
    from tests.annotation.test_annotate_import import write_mturk_results

    _, rows, answers = scenario()
    quads, results = tmp_path / "q.parquet", tmp_path / "results.csv"
    write_quadruples(rows, quads)
    write_mturk_results(results, rows, answers)
    s = ImportSettings(results=str(results), quadruples=str(quads), out=str(tmp_path / "py"), drop_real_people=True,
                       annotator_ids=str(tmp_path / "key.csv"))
    assert (s.results, s.quadruples, s.out, s.annotator_ids) == (results, quads, tmp_path / "py", tmp_path / "key.csv")
    result, text = _quiet(lambda: annotate_import(s))
    assert isinstance(result, RunResult) and result.status == 0 and result.settings == {}
    assert result.outputs == (s.out, s.annotator_ids) and s.annotator_ids.is_file()
    assert result.summary["funnel"]["balanced"] == 2 and result.summary["instances"] == 8
    assert "funnel (quadruples): originals 9 -> " in text
    assert _cli(["annotate-import", "--results", results, "--quadruples", quads, "--out", tmp_path / "cli",
                 "--drop-real-people"]) == 0     # the same salt file (beside the results): the same pseudonyms
    _same_files(tmp_path / "py", tmp_path / "cli", ["dataset.parquet", "dataset.tsv", "votes.parquet"])
    assert json.loads((tmp_path / "cli" / RECORD).read_text())["settings"] == result.settings
    with pytest.raises(InputError, match="assignments must be at least 1"):
        ImportSettings(results=results, quadruples=quads, out=tmp_path / "x", assignments=0)
    with pytest.raises(InputError, match=r"--annotator-ids must lie outside --out \(the published directory\)"):
        ImportSettings(results=results, quadruples=quads, out=tmp_path / "x", annotator_ids=tmp_path / "x" / "k.csv")
