"""``evaluate`` opens its dataset once and finds its kind once (issue 47 item 3): a GAP TSV with a
system run on the fly (the adapter's rows, then the gold), a benchmark Parquet (its kind, its
items, then the per-row answers) and a SoWinoBias TSV (the gold, then the answers) each open the
file one time; the outputs are those the tests of each kind check. The run is called from
Python (the command's run.json hashes its inputs besides, :mod:`pipeline.formats.run_record`)."""

from __future__ import annotations

import builtins
import io
import json
import os
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.runs.evaluate import EvaluateSettings, evaluate


@pytest.fixture
def opens(monkeypatch):
    """Count the openings of one file (set ``opens.path``): Python's ``open`` and pyarrow's
    Parquet readers."""

    class Opens(list):
        path: Path | None = None

    seen = Opens()

    def counting(real):
        def wrapper(file, *a, **k):
            if seen.path is not None and isinstance(file, (str, os.PathLike)) \
                    and os.path.abspath(file) == os.path.abspath(seen.path):
                seen.append(real.__name__)
            return real(file, *a, **k)
        return wrapper

    monkeypatch.setattr(builtins, "open", counting(builtins.open))
    monkeypatch.setattr(io, "open", counting(io.open))
    for name in ("read_table", "read_schema", "read_metadata", "ParquetFile"):
        monkeypatch.setattr(pq, name, counting(getattr(pq, name)))
    return seen


def test_a_gap_tsv_with_a_system_run_on_the_fly_is_opened_once(tmp_path, opens, capsys):
    from pipeline.formats.gap_tsv import write_gap_tsv
    from tests.stages.test_evaluate_systems import dataset_rows
    import tests.stages.test_predict  # noqa: F401 -- registers the test-oracle adapter

    data = tmp_path / "quadruples.tsv"
    write_gap_tsv(dataset_rows(), data)
    opens.path = data
    assert evaluate(EvaluateSettings(dataset=data, systems=[("o", "test-oracle")], out=tmp_path / "ev",
                                     resamples=100)) == 0
    assert len(opens) == 1, opens
    m = json.loads((tmp_path / "ev" / "metrics.json").read_text())["o"]
    assert m["n_failed"] == 2 and m["acc_overall"] == 6 / 8


def test_a_benchmark_is_opened_once(tmp_path, opens, capsys):
    from pipeline.formats.benchmarks import read_benchmark
    from tests.humans.test_benchmark_command import ANTI, PRO, _write_outputs
    from tests.lang.test_benchmarks import write_winobias

    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, PRO, ANTI)
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--out", str(tmp_path / "b")]) == 0
    bench = tmp_path / "b" / "benchmark.parquet"
    out_file = tmp_path / "sys.jsonl"
    _write_outputs(read_benchmark(bench), out_file)
    opens.path = bench
    assert evaluate(EvaluateSettings(dataset=bench, systems=[("toy", str(out_file))], out=tmp_path / "ev",
                                     resamples=50)) == 0
    assert len(opens) == 1, opens
    assert json.loads((tmp_path / "ev" / "metrics.json").read_text())["toy"]["pro"] == 1.0
    assert (tmp_path / "ev" / "answers.parquet").exists() and (tmp_path / "ev" / "per_item.parquet").exists()


def test_a_sowinobias_tsv_is_opened_once(tmp_path, opens, capsys):
    ds = tmp_path / "sowino.tsv"
    ds.write_text("ID\tset\tpolarity\tpair_id\tPronoun\tA-coref\tB-coref\n"
                  "p1\tpro\tpositive\tq1\tthey\tFALSE\tTRUE\na1\tanti\tpositive\tq1\tthey\tFALSE\tTRUE\n"
                  "p2\tpro\tnegative\tq2\tthey\tFALSE\tTRUE\na2\tanti\tnegative\tq2\tthey\tFALSE\tTRUE\n")
    sysout = tmp_path / "s.tsv"
    sysout.write_text("ID\tA-coref\tB-coref\np1\tFALSE\tTRUE\na1\tTRUE\tFALSE\np2\tFALSE\tTRUE\na2\tFALSE\tTRUE")
    opens.path = ds
    assert evaluate(EvaluateSettings(dataset=ds, systems=[("s", str(sysout))], out=tmp_path / "out",
                                     resamples=50)) == 0
    assert len(opens) == 1, opens
    m = json.loads((tmp_path / "out" / "metrics.json").read_text())["s"]
    assert m["acc_pro"] == 1.0 and m["acc_anti"] == 0.5 and m["bias"] == 0.5
