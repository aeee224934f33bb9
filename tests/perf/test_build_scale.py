"""The build benchmark (``pipeline/perf/build_scale.py``) on two short books: the local and the
Dask build run, their outputs compared (identical, and a changed file caught), the processes'
memory recorded; the selection of books and the projections' arithmetic."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pipeline.perf import build_scale

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt"


def test_projection_arithmetic():
    # 1,000 words measured in 10 s wall on 2 workers (20 core-s), 15 CPU s, 1 s serial
    rows = build_scale.projections(words=1_000, wall_s=10.0, workers=2, cpu_s=15.0, serial_cpu_s=1.0, cores=2,
                                   machines=[1, 16, 64], words_per_book=500.0)
    by = {(r["target"], r["words_per_book_source"], r["basis"]): r for r in rows}
    assert len(rows) == 6
    books = by[("1,575 books", "measured mean", "wall")]
    assert books["words"] == 1_575 * 500
    assert math.isclose(books["core_hours"], 1_575 * 500 * 0.02 / 3600)
    assert math.isclose(books["wall_hours"][1], books["core_hours"] / 2)           # 2 cores per machine
    assert math.isclose(books["wall_hours"][64], books["core_hours"] / 128)
    assert math.isclose(books["serial_floor_hours"], 1_575 * 500 * 0.001 / 3600)
    cpu = by[("1,575 books", "measured mean", "cpu")]
    assert math.isclose(cpu["core_hours"], 1_575 * 500 * 0.015 / 3600)
    spgc = by[("Gutenberg catalogue, 70,000 texts", "SPGC mean", "wall")]
    assert spgc["words"] == 70_000 * 60_000 and math.isclose(spgc["core_hours"], 4.2e9 * 0.02 / 3600)
    assert math.isclose(spgc["wall_hours"][16], spgc["core_hours"] / 32)
    assert build_scale.fmt_hours(0.5) == "30 min" and build_scale.fmt_hours(2) == "2.0 h" \
        and build_scale.fmt_hours(72) == "3.0 days"


def test_books_selected_smallest_first_and_assembled(tmp_path):
    a, b = tmp_path / "src" / "gutenberg", tmp_path / "other" / "gutenberg"
    for folder, sizes in ((a, (30, 10, 20)), (b, (5,))):
        folder.mkdir(parents=True)
        for i, size in enumerate(sizes):
            (folder / f"{i}.txt").write_text("x" * size)
    got = build_scale.select_book_files([a, b], None)
    assert [(c, p.name) for c, p in got] == [(a, "1.txt"), (a, "2.txt"), (a, "0.txt"), (b, "0.txt")]
    assert len(build_scale.select_book_files([a, b], 2)) == 2
    dest = build_scale.assemble(got, tmp_path / "corpus")
    # two folders of the same name do not collide
    assert sorted(p.relative_to(dest).as_posix() for p in dest.rglob("*.txt")) == \
        ["gutenberg-1/0.txt", "gutenberg/0.txt", "gutenberg/1.txt", "gutenberg/2.txt"]


@pytest.mark.slow
def test_local_and_dask_builds_identical_and_measured(tmp_path, capsys):
    pytest.importorskip("distributed")
    pytest.importorskip("psutil")
    corpus = tmp_path / "books"
    corpus.mkdir()
    paragraphs = SAMPLE.read_text(encoding="utf-8").split("\n\n")
    half = len(paragraphs) // 2                      # two short books: the story's halves
    (corpus / "orchard-a.txt").write_text("\n\n".join(paragraphs[:half]), encoding="utf-8")
    (corpus / "orchard-b.txt").write_text("\n\n".join(paragraphs[half:]), encoding="utf-8")
    work = tmp_path / "work"
    status = build_scale.main(["--corpus", str(corpus), "--work", str(work), "--workers", "1", "--dask",
                               "--machines", "1", "16", "--json", str(tmp_path / "r.json")])
    assert status == 0
    r = json.loads((tmp_path / "r.json").read_text())
    assert r["identical"] is True and r["subset"] is False and r["books_selected"] == 2
    assert set(r["comparison"]) >= {"extract/instances.parquet", "generate/quadruples.parquet",
                                    "generate/quadruples.tsv", "generate/recheck.json"}
    assert r["comparison"]["generate/quadruples.tsv"] == "bytes"
    local, dask = r["runs"]
    assert (local["engine"], dask["engine"]) == ("local", "dask")
    assert local["quadruples"] == dask["quadruples"] > 10 and local["words"] == dask["words"] > 1_500
    # wall_seconds is rounded to 0.1 s, words_per_second is not: allow that rounding (and 1 for the
    # rounding of words/s itself); a run of a few seconds moves words/s by a few words
    slack = local["words"] * 0.05 / local["wall_seconds"] ** 2 + 1
    assert abs(local["words_per_second"] - local["words"] / local["wall_seconds"]) <= slack
    assert math.isclose(local["extract_seconds"] + local["generate_seconds"], local["stages_seconds"], abs_tol=0.2)
    assert local["peak_mb_main"] > 50 and local["cpu_seconds"] > 0
    assert any(p["role"] == "Dask worker" and p["peak_mb"] > 50 for p in dask["processes"])
    assert dask["peak_mb_worker_max"] > 50
    assert r["machine"]["cores"] >= 1 and r["machine"]["ram_gb"] > 0
    p = r["projection"]
    assert math.isclose(p["wall_s_per_word"], local["wall_seconds"] / local["words"])       # 1 worker
    assert p["words_per_book"] == pytest.approx(local["words"] / 2, rel=0.01)
    assert (work / "build_scale.md").read_text().startswith("# build_scale")
    assert "Dask outputs identical to the local run's: **yes**" in capsys.readouterr().out
    # a changed output is caught
    tsv = work / "dask" / "generate" / "quadruples.tsv"
    tsv.write_text(tsv.read_text(encoding="utf-8").replace("\t", " \t", 1), encoding="utf-8")
    assert build_scale.compare_outputs(work / "local", work / "dask")["generate/quadruples.tsv"].startswith("DIFFERENT")


def test_json_key_order_is_told_apart(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    for side, text in (("a", '{"x": 1, "y": [1, 2]}'), ("b", '{"y": [1, 2], "x": 1}'), ("c", '{"x": 2, "y": [1, 2]}')):
        (tmp_path / side / "extract").mkdir(parents=True)
        pq.write_table(pa.table({"book_id": ["b1"], "evidence": [text]}), tmp_path / side / "extract" / "evidence.parquet")
    assert build_scale.compare_outputs(tmp_path / "a", tmp_path / "b")["extract/evidence.parquet"] \
        == "DIFFERENT: JSON key order only"
    assert build_scale.compare_outputs(tmp_path / "a", tmp_path / "c")["extract/evidence.parquet"] \
        == "DIFFERENT: 1 / 1 rows"


def test_skips_without_a_corpus(tmp_path, capsys):
    assert build_scale.main(["--corpus", str(tmp_path / "absent")]) == 0
    assert "skipped" in capsys.readouterr().out
