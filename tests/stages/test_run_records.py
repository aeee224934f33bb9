"""Run records: every command that writes outputs records its settings with them (run.json
beside/inside its outputs, docs/runs.md), and a failed run leaves no record claiming success."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest

from pipeline.cli import commands, main
from pipeline.formats.files import sha256_file
from pipeline.formats.run_record import RECORD, describe, record_path
from tests.chaos import malformed

SERVERS = {"annotate-serve", "experiment-serve"}     # a live SQLite store, no run record (docs/runs.md)


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("runrec")
    return malformed.make_inputs(root / "inputs", malformed.sample_instances(root))


def _gap(tmp: Path) -> tuple[Path, Path]:
    from tests.stages.gap_fixtures import toy_spans, write_toy_gap

    data = write_toy_gap(tmp / "toy.tsv")
    spans = tmp / "spans.json"
    spans.write_text(json.dumps(toy_spans()))
    return data, spans


def _analyze(i, tmp):
    data, spans = _gap(tmp)
    return ["analyze", "--dataset", data, "--name-spans", spans, "--out", tmp / "out", "--no-progress"], \
        [tmp / "out"], [data, spans]


def _annotate_export(i, tmp):
    return ["annotate-export", "--quadruples", i.quadruples, "--out", tmp / "out", "--per-task", "4"], \
        [tmp / "out"], [i.quadruples]


def _annotate_import(i, tmp):
    from tests.annotation.helpers import scenario, write_quadruples
    from tests.annotation.test_annotate_import import write_mturk_results

    _, rows, ans = scenario()
    write_quadruples(rows, tmp / "q.parquet")
    write_mturk_results(tmp / "results.csv", rows, ans)
    return ["annotate-import", "--results", tmp / "results.csv", "--quadruples", tmp / "q.parquet",
            "--out", tmp / "out", "--drop-real-people"], [tmp / "out"], [tmp / "results.csv", tmp / "q.parquet"]


def _baseline(i, tmp):
    data, spans = _gap(tmp)
    return ["baseline", "--dataset", data, "--name-spans", spans, "--kind", "dist1", "--out", tmp / "b.tsv",
            "--no-progress"], [tmp / "b.tsv"], [data]


def _benchmark(i, tmp):
    from tests.humans.test_benchmark_command import ANTI, PRO
    from tests.lang.test_benchmarks import write_winobias

    wb = tmp / "wb"
    wb.mkdir()
    write_winobias(wb, PRO, ANTI)
    return ["benchmark", "--source", "winobias", "--path", wb, "--out", tmp / "out"], [tmp / "out"], [wb]


def _cda(i, tmp):
    return ["cda", "--conll", i.conll, "--mode", "acda", "--out", tmp / "out.acda", "--no-progress"], \
        [tmp / "out.acda"], [i.conll]


def _embeddings(i, tmp):
    from tests.embeddings.test_embeddings_command import real_word_embedding

    real_word_embedding().save_word2vec_format(str(tmp / "v.txt"))
    return ["embeddings", "--vectors", f"v={tmp / 'v.txt'}", "--out", tmp / "out", "--n-cluster", "200",
            "--n-svm", "300", "--gipe-vocab", "100", "--gipe-neighbours", "10", "--draws", "200"], \
        [tmp / "out"], [tmp / "v.txt"]


def _evaluate(i, tmp):
    system = tmp / "sys.tsv"
    system.write_text("ID\tA-coref\tB-coref\n" + "".join(f"0{s}\tTRUE\tFALSE\n" for s in
                                                         ("", "-control", "-swap-1", "-swap-2")))
    return ["evaluate", "--dataset", i.dataset, "--system", f"s={system}", "--resamples", "20",
            "--out", tmp / "out", "--write-conll", tmp / "key.conll"], [tmp / "out", tmp / "key.conll"], \
        [i.dataset, system]


def _experiment_export(i, tmp):
    from pipeline.humans.web.app import create_app
    from tests.humans.experiment_helpers import qa_plan_file
    from tests.web.helpers import page_client

    qa_plan_file(tmp / "plan.parquet")
    client = page_client(create_app(tmp / "plan.parquet", tmp / "db.sqlite"))
    client.get("/api/state?key=A1")
    return ["experiment-export", "--db", tmp / "db.sqlite", "--out", tmp / "out"], [tmp / "out"], \
        [tmp / "db.sqlite"]


def _experiment_plan(i, tmp):
    from tests.humans.experiment_helpers import make_items, write_benchmark

    write_benchmark(make_items(40), tmp / "bench.parquet")
    return ["experiment-plan", "--benchmark", tmp / "bench.parquet", "--experiment", "qa", "--participants",
            "2", "--targets", "4", "--calibration", "2", "--out", tmp / "out"], [tmp / "out"], \
        [tmp / "bench.parquet"]


def _extract(i, tmp):
    from pipeline.formats.resources import resource

    return ["extract", "--corpus", resource("sample"), "--out", tmp / "out"], [tmp / "out"], [resource("sample")]


def _build(i, tmp):
    from pipeline.formats.resources import resource

    return ["build", "--corpus", resource("sample"), "--out", tmp / "out"], [tmp / "out"], [resource("sample")]


def _generate(i, tmp):
    return ["generate", "--instances", i.instances, "--out", tmp / "out", "--no-recheck"], [tmp / "out"], \
        [i.instances]


def _humans(i, tmp):
    from pipeline.humans.formats.results import write_qa_results
    from tests.humans.fixtures import QA_ROWS

    write_qa_results(QA_ROWS, tmp / "qa.csv")
    return ["humans", "qa", "--results", tmp / "qa.csv", "--out", tmp / "out"], [tmp / "out"], [tmp / "qa.csv"]


def _label(i, tmp):
    return ["label", "--instances", i.instances, "--coref", i.conll, "--out", tmp / "out"], [tmp / "out"], \
        [i.instances, i.conll]


def _namemap(i, tmp):
    from tests.cda.test_namemap import line

    nd = tmp / "nam_dict.txt"
    nd.write_text("".join(["# header\r\n", line("M", "Adam", {0: "5"}), line("F", "Ella", {0: "4"}),
                           line("M", "Ben", {1: "3"}), line("F", "Dora", {1: "3"})]), encoding="utf-8")
    return ["namemap", "--out", tmp / "out", "--nam-dict", nd], [tmp / "out"], [nd]


def _persons(i, tmp):
    from tests.stages.test_persons import corpus

    c = corpus(tmp)
    return ["persons", "--corpus", c, "--out", tmp / "out"], [tmp / "out"], [c]


def _predict(i, tmp):
    from pipeline.formats.gap_tsv import write_gap_tsv
    from tests.stages import test_predict  # noqa: F401 -- registers the adapter test-oracle
    from tests.stages.test_evaluate_systems import dataset_rows

    write_gap_tsv(dataset_rows(), tmp / "q.tsv")
    return ["predict", "--dataset", tmp / "q.tsv", "--system", "o=test-oracle:m", "--out", tmp / "out",
            "--no-progress"], [tmp / "out"], [tmp / "q.tsv"]


def _sowinobias(i, tmp):
    return ["sowinobias", "--out", tmp / "out", "--sample", "20", "--resamples", "20"], [tmp / "out"], []


def _weights(i, tmp):
    data, spans = _gap(tmp)
    return ["weights", "--dataset", data, "--name-spans", spans, "--variant", "num", "--no-progress",
            "--out", tmp / "w.json"], [tmp / "w.json"], [data, spans]


CASES = {"analyze": _analyze, "annotate-export": _annotate_export, "annotate-import": _annotate_import,
         "baseline": _baseline, "benchmark": _benchmark, "build": _build, "cda": _cda, "embeddings": _embeddings,
         "evaluate": _evaluate, "experiment-export": _experiment_export, "experiment-plan": _experiment_plan,
         "extract": _extract, "generate": _generate, "humans": _humans, "label": _label, "namemap": _namemap,
         "persons": _persons, "predict": _predict, "sowinobias": _sowinobias, "weights": _weights}


def _run(argv) -> int:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        return main([str(a) for a in argv])


def test_every_command_that_writes_outputs_has_a_case():
    assert set(commands()) - SERVERS == set(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_command_records_its_run(name, inputs, tmp_path):
    argv, outputs, given = CASES[name](inputs, tmp_path)
    assert _run(argv) == 0, name
    for output in outputs:
        target = record_path(output)
        assert target == (output / RECORD if output.is_dir() else output.with_name(output.name + ".run.json"))
        record = json.loads(target.read_text(encoding="utf-8"))
        assert list(record) == ["record", "command", "arguments", "inputs", "settings", "fingerprint", "outputs"]
        assert record["command"] == name
        assert record["arguments"]["out"] == str(outputs[0]) if "out" in record["arguments"] else True
        assert set(record["fingerprint"]) >= {"code", "git", "spacy", "gender_guesser", "model"}
        # every input given is hashed, and the hashes are those of the files
        by_path = {e["path"]: e for e in record["inputs"]}
        for path in given:
            entry = by_path[str(path)]
            assert entry == {"argument": entry["argument"], **describe(path)}
            if path.is_file():
                assert entry["sha256"] == sha256_file(path)
        # the outputs it lists are the files there, with their hashes
        assert record["outputs"], name
        if output.is_file():
            assert record["outputs"] == [{"path": output.name, "bytes": output.stat().st_size,
                                          "sha256": sha256_file(output)}]
        else:
            for entry in record["outputs"]:
                if "path" in entry:
                    assert sha256_file(output / entry["path"]) == entry["sha256"]
            assert RECORD not in {e.get("path") for e in record["outputs"]}


def test_generate_records_word_lists_and_name_forms(inputs, tmp_path):
    out = tmp_path / "out"
    assert _run(["generate", "--instances", inputs.instances, "--out", out, "--no-recheck",
                 "--name-forms", "shape"]) == 0
    record = json.loads((out / RECORD).read_text())
    assert record["settings"] == {"word_lists": ["gendered_words.tsv"], "name_forms": "shape"}
    assert record["arguments"]["name_forms"] == "shape" and record["arguments"]["no_recheck"] is True


def test_extract_records_the_model_in_its_fingerprint(inputs, tmp_path):
    from pipeline.formats.resources import resource
    from pipeline.nlp.load import resolve_model_name

    out = tmp_path / "out"
    assert _run(["extract", "--corpus", resource("sample"), "--out", out]) == 0
    record = json.loads((out / RECORD).read_text())
    model = resolve_model_name(None)
    assert record["settings"]["model"] == model
    assert record["fingerprint"]["model"].startswith(model + " ")
    directory = next(e for e in record["inputs"] if e["argument"] == "corpus")
    assert directory["kind"] == "directory" and directory["files"] == len(directory["entries"]) > 0
    # the same run again (resumed, nothing to do) gives a byte-identical record
    first = (out / RECORD).read_bytes()
    assert _run(["extract", "--corpus", resource("sample"), "--out", out]) == 0
    assert (out / RECORD).read_bytes() == first


def test_extract_records_its_settings_from_its_result_not_a_global(tmp_path):
    """The extract run notes nothing in a module global: run_record has none to note in; the
    command's run.json gets the model and the strategy from the settings and the result, in
    that order."""
    from pipeline.formats import run_record
    from pipeline.formats.books import CorpusSpec
    from pipeline.formats.resources import resource
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.extract import ExtractSettings, extract

    out = tmp_path / "out"
    with contextlib.redirect_stdout(io.StringIO()):
        assert extract(ExtractSettings(out=out, corpus=CorpusSpec(path=str(resource("sample"))))) == 0
    assert not {"note", "noted", "reset", "_settings"} & set(vars(run_record))
    assert _run(["extract", "--corpus", resource("sample"), "--out", out]) == 0       # resumed: nothing to do
    record = json.loads((out / RECORD).read_text())
    assert list(record["settings"].items()) == [("model", resolve_model_name(None)), ("strategy", "prune")]


def test_build_records_extract_then_generate_settings_from_its_result(tmp_path):
    """build's run.json: extract's settings (the resolved model, the strategy), then generate's
    (word lists, name-form mode), all from the result the command returns."""
    from pipeline.formats.resources import resource
    from pipeline.nlp.load import resolve_model_name

    out = tmp_path / "out"
    assert _run(["build", "--corpus", resource("sample"), "--out", out]) == 0
    record = json.loads((out / RECORD).read_text())
    assert list(record["settings"].items()) == [("model", resolve_model_name(None)), ("strategy", "prune"),
                                                ("word_lists", ["gendered_words.tsv"]), ("name_forms", "person")]


def test_a_failed_run_leaves_no_record(inputs, tmp_path):
    out = tmp_path / "out"
    bad = tmp_path / "bad.tsv"
    bad.write_text(malformed.GAP_HEADER, encoding="utf-8")            # header only: refused
    assert _run(["generate", "--gap-tsv", bad, "--out", out]) == 2
    assert not (out / RECORD).exists()


def test_a_failed_run_keeps_the_record_of_untouched_outputs_and_drops_a_stale_one(inputs, tmp_path):
    out = tmp_path / "out"
    assert _run(["generate", "--instances", inputs.instances, "--out", out, "--no-recheck"]) == 0
    before = (out / RECORD).read_bytes()
    bad = tmp_path / "bad.tsv"
    bad.write_text(malformed.GAP_HEADER, encoding="utf-8")
    assert _run(["generate", "--gap-tsv", bad, "--out", out]) == 2       # outputs untouched: record kept
    assert (out / RECORD).read_bytes() == before
    (out / "quadruples.tsv").write_text("changed by hand\n")              # outputs no longer those recorded
    assert _run(["generate", "--gap-tsv", bad, "--out", out]) == 2
    assert not (out / RECORD).exists()


def test_an_error_inside_the_command_writes_no_record(tmp_path, monkeypatch):
    from pipeline.sowinobias.commands import sowinobias

    def boom(args):
        (args.out).mkdir(parents=True, exist_ok=True)
        (args.out / "partial.txt").write_text("x")
        raise OSError(28, "No space left on device", str(args.out / "partial.txt"))

    monkeypatch.setattr(sowinobias, "run", boom)
    assert _run(["sowinobias", "--out", tmp_path / "out"]) == 2
    assert not (tmp_path / "out" / RECORD).exists()


def test_private_salt_is_named_but_not_hashed(tmp_path):
    from tests.annotation.helpers import scenario, write_quadruples
    from tests.annotation.test_annotate_import import write_mturk_results

    _, rows, ans = scenario()
    write_quadruples(rows, tmp_path / "q.parquet")
    write_mturk_results(tmp_path / "results.csv", rows, ans)
    (tmp_path / "my.salt").write_text("0123456789abcdef0123456789abcdef\n")
    assert _run(["annotate-import", "--results", tmp_path / "results.csv", "--quadruples", tmp_path / "q.parquet",
                 "--out", tmp_path / "out", "--salt-file", tmp_path / "my.salt"]) == 0
    record = json.loads((tmp_path / "out" / RECORD).read_text())
    assert record["arguments"]["salt_file"] == str(tmp_path / "my.salt")
    assert "salt_file" not in {e["argument"] for e in record["inputs"]}
    assert sha256_file(tmp_path / "my.salt") not in (tmp_path / "out" / RECORD).read_text()


def test_directory_inputs_over_the_limits_are_listed_not_hashed(tmp_path, monkeypatch):
    from pipeline.formats import run_record

    d = tmp_path / "d"
    (d / "sub").mkdir(parents=True)
    (d / "a.txt").write_text("aaaa")
    (d / "sub" / "b.txt").write_text("bb")
    (d / ".hidden").write_text("x")
    full = describe(d)
    assert (full["files"], full["bytes"]) == (2, 6) and [e["path"] for e in full["entries"]] == ["a.txt", "sub/b.txt"]
    assert full["sha256"] is not None
    monkeypatch.setattr(run_record, "MAX_BYTES", 5)
    listed = describe(d)
    assert listed["sha256"] is None and "entries" not in listed
    assert listed["listing_sha256"] == full["listing_sha256"]


def test_only_path_options_are_hashed_as_inputs(tmp_path, monkeypatch):
    """A value of an option that takes no path (the command's name, a choice, a name) is not
    taken for a path even when the working directory holds a file or folder of that name: only
    the values of path options (click.Path, NAME=FILE) are hashed into run.json's inputs."""
    data, spans = _gap(tmp_path)
    monkeypatch.chdir(tmp_path)
    for name in ("sowinobias", "baseline", "dist1", "ner"):      # the commands, --kind, --names-from
        (tmp_path / name).mkdir()
        (tmp_path / name / "x.txt").write_text("not an input\n")
    assert _run(["sowinobias", "--out", tmp_path / "s", "--sample", "20", "--resamples", "20"]) == 0
    assert json.loads((tmp_path / "s" / RECORD).read_text())["inputs"] == []
    assert _run(["baseline", "--dataset", data, "--name-spans", spans, "--kind", "dist1",
                 "--out", tmp_path / "b.tsv", "--no-progress"]) == 0
    record = json.loads((tmp_path / "b.tsv.run.json").read_text())
    assert [(e["argument"], e["path"]) for e in record["inputs"]] == [("dataset", str(data)), ("name_spans", str(spans))]
