"""Issue 45, item 6: every error names its file, a full disk included (the file being
written), where pyarrow's and Python's write errors name none."""

from __future__ import annotations

import errno

import pyarrow as pa
import pytest

from pipeline.cli import os_error_line
from pipeline.formats.files import atomic_path, staged_outputs

pytestmark = pytest.mark.chaos


def test_a_full_disk_inside_an_atomic_write_names_the_file(tmp_path):
    target = tmp_path / "out" / "cda.conll"
    with pytest.raises(OSError) as exc:
        with atomic_path(target) as tmp:
            tmp.write_text("partial")
            raise OSError(errno.ENOSPC, "No space left on device")          # as fh.write raises it
    assert os_error_line(exc.value) == f"{target}: No space left on device"
    assert list(target.parent.iterdir()) == []                               # nothing half-written


def test_pyarrows_write_error_names_the_parquet_file(tmp_path, monkeypatch):
    import pyarrow.parquet as pq

    from pipeline.formats.tables import write_table

    def full(*a, **k):
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    monkeypatch.setattr(pq, "write_table", full)
    target = tmp_path / "quadruples.parquet"
    with pytest.raises(OSError) as exc:
        write_table(pa.table({"x": [1]}), target)
    assert os_error_line(exc.value) == f"{target}: No space left on device"


def test_a_nameless_write_error_in_a_staged_set_names_the_output_folder(tmp_path):
    out = tmp_path / "out"
    with pytest.raises(OSError) as exc:
        with staged_outputs(out):
            raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")
    assert os_error_line(exc.value) == f"{out}: No space left on device"
    assert [p.name for p in out.iterdir()] == []


def test_weights_for_ids_the_dataset_lacks_name_the_weights_file(tmp_path, capsys):
    import json

    from pipeline.cli import main
    from pipeline.formats.gap_tsv import write_gap_tsv
    from tests.chaos.malformed import gap_dataset_rows

    rows = gap_dataset_rows()
    dataset = tmp_path / "d.tsv"
    write_gap_tsv(rows, dataset)
    system = tmp_path / "sys.tsv"
    system.write_text("ID\tA-coref\tB-coref\n" + "".join(f"{r['ID']}\tTRUE\tFALSE\n" for r in rows))
    weights = tmp_path / "w.json"
    weights.write_text(json.dumps({**{r["ID"]: 1.0 for r in rows}, "C14": 1.0}))
    code = main(["evaluate", "--dataset", str(dataset), "--out", str(tmp_path / "out"), "--resamples", "10",
                 "--system", f"s={system}", "--weights", f"lp={weights}"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"error: {weights}: weights for 1 ID(s) the dataset does not have, first: C14")
