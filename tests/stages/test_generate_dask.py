"""generate --scheduler: one task per book on a Dask cluster (2 workers on 127.0.0.1), the
same files as one process writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.cli import main

distributed = pytest.importorskip("distributed")

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample" / "the-orchard-at-hollins-end.txt"
OUTPUTS = ("quadruples.parquet", "quadruples.tsv", "recheck.json")


@pytest.mark.slow
def test_generate_on_a_dask_cluster_writes_what_one_process_writes(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    shutil.copy(SAMPLE, corpus / "orchard-a.txt")
    shutil.copy(SAMPLE, corpus / "orchard-b.txt")
    ext = tmp_path / "extract"
    assert main(["extract", "--corpus", str(corpus), "--out", str(ext)]) == 0
    assert main(["generate", "--instances", str(ext), "--out", str(tmp_path / "here")]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        assert main(["generate", "--instances", str(ext), "--out", str(tmp_path / "dask"),
                     "--scheduler", cluster.scheduler_address]) == 0
    assert "books             2 (0 done before: resumed)" in capsys.readouterr().out
    for f in OUTPUTS:
        assert (tmp_path / "here" / f).read_bytes() == (tmp_path / "dask" / f).read_bytes(), f
