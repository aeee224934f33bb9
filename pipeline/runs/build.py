"""Build run: a corpus -> extract's instances -> generate's quadruples -> the run's summary, in
one command (``python -m pipeline build``; manual: ``docs/scale.md``, "One command").

Layout: ``OUT/extract/`` is exactly what ``extract --corpus DIR --out OUT/extract`` writes
(partitions, manifest, merged Parquet files) and ``OUT/generate/`` exactly what
``generate --instances OUT/extract --out OUT/generate`` writes (its book parts under
``generate-parts/``, ``quadruples.parquet``/``.tsv``, ``recheck.json``): each stage is the
separate command's run (:func:`pipeline.runs.extract.extract`,
:func:`pipeline.runs.generate.generate`) with the same options. ``OUT/build.json`` holds the
summary (stage times, words, words/s, quadruples, peak memory).

Resume: a build stopped anywhere (inside extract, between the stages, inside generate) is
resumed by the same command: extract skips its done units, generate its done books (same
digest), so the outputs are those of an uninterrupted run. Other settings or other code than
the run already in OUT are refused by the stage concerned (one line, exit 2), unless
``overwrite``.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats`,
:mod:`pipeline.runs.extract`, :mod:`pipeline.runs.generate`, :mod:`pipeline.runs.partitions`, :mod:`pipeline.runs.progress`,
:mod:`pipeline.runs.settings`.
"""

from __future__ import annotations

import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path

EXTRACT_DIR = "extract"
GENERATE_DIR = "generate"
SUMMARY_FILE = "build.json"


@dataclass(frozen=True)
class BuildSettings:
    """What one build is given (the command's options)."""
    out: Path
    corpus: object                  # a pipeline.formats.books.CorpusSpec
    model: str | None = None
    workers: int = 1
    scheduler: str | None = None
    strategy: str = "prune"
    cast: Path | None = None
    no_title_period: bool = False
    overwrite: bool = False


def _peak_mb() -> tuple[float, float]:
    """(this process, the largest child process waited for) peak resident memory, MB (Linux: KB)."""
    scale = 1 / 1024 if sys.platform.startswith("linux") else 1 / (1024 * 1024)
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * scale)


def build(s: BuildSettings):
    """The whole build into ``s.out`` (holding its lock) -> a
    :class:`pipeline.runs.settings.RunResult`: the exit status (1 when a unit of the corpus
    failed: the rest is generated, a rerun retries it; else 0), ``OUT`` and generate's settings
    for ``run.json`` (its word lists, name-form mode and model)."""
    from pipeline.formats.files import output_lock

    out = Path(s.out)
    if out.exists() and not out.is_dir():
        from pipeline.errors import InputError

        raise InputError("not a directory", out)
    with output_lock(out, remove_if_created=True):      # re-entrant: the CLI may hold it already
        return _build_locked(s, out)


def _stage(n: int, name: str, where: Path) -> None:
    print(f"build: stage {n}/2 {name} -> {where}", file=sys.stderr, flush=True)


def _build_locked(s: BuildSettings, out: Path):
    from pipeline.runs.extract import ExtractSettings, extract
    from pipeline.runs.generate import GenerateSettings, generate
    from pipeline.runs.partitions import read_run_cast
    from pipeline.runs.settings import RunResult

    from pipeline.formats.out_guard import check_out

    check_out(out, "build")         # another command's folder (an extract output...): refused, --overwrite or not
    ext, gen = out / EXTRACT_DIR, out / GENERATE_DIR
    cast = read_run_cast(s.cast)    # read once for both stages (hashed and parsed from one read)
    t0 = time.perf_counter()
    _stage(1, "extract", ext)
    status = extract(ExtractSettings(out=ext, corpus=s.corpus, model=s.model, workers=s.workers,
                                     strategy=s.strategy, scheduler=s.scheduler, overwrite=s.overwrite,
                                     cast=cast)).status
    t1 = time.perf_counter()
    _stage(2, "generate", gen)
    generated = generate(GenerateSettings(
        out=gen, instances=ext, model=s.model, cast=cast, no_title_period=s.no_title_period,
        workers=s.workers, scheduler=s.scheduler, overwrite=s.overwrite))
    status = max(status, generated.status)
    t2 = time.perf_counter()
    summary = _summary(out, ext, gen, t1 - t0, t2 - t1, s)
    from pipeline.formats.files import write_json

    write_json(out / SUMMARY_FILE, summary)
    print(_summary_text(summary))
    return RunResult(status, outputs=(out,), settings=generated.settings)


def _summary(out: Path, ext: Path, gen: Path, extract_s: float, generate_s: float, s: BuildSettings) -> dict:
    from pipeline.formats.tables import count_rows, read_table

    books = read_table(ext / "books.parquet", columns=["status", "n_words"]).to_pylist()
    words = sum(b["n_words"] or 0 for b in books)
    quads = count_rows(gen / "quadruples.parquet") // 4
    main_mb, child_mb = _peak_mb()
    total = extract_s + generate_s
    return {"out": str(out), "workers": s.workers, "scheduler": s.scheduler,
            "books": len(books), "books_ok": sum(b["status"] == "ok" for b in books), "words": words,
            "quadruples": quads, "extract_seconds": round(extract_s, 1), "generate_seconds": round(generate_s, 1),
            "seconds": round(total, 1), "words_per_second": round(words / total) if total else 0,
            "generate_share": round(generate_s / total, 3) if total else 0.0,
            "peak_mb_main": round(main_mb), "peak_mb_worker": round(child_mb)}


def _summary_text(d: dict) -> str:
    where = f"Dask {d['scheduler']}" if d["scheduler"] else f"{d['workers']} worker(s)"
    return "\n".join([
        "build summary",
        f"output           {d['out']}/extract (extract), {d['out']}/generate (generate), {d['out']}/{SUMMARY_FILE}",
        f"books            {d['books']:,} ({d['books_ok']:,} extracted), {d['words']:,} words",
        f"quadruples       {d['quadruples']:,}",
        f"time             {d['seconds']:.1f} s this run on {where}: extract {d['extract_seconds']:.1f} s, "
        f"generate {d['generate_seconds']:.1f} s ({100 * d['generate_share']:.0f} %)",
        f"throughput       {d['words_per_second']:,} words/s end to end (resumed work not counted in time)",
        f"peak memory      {d['peak_mb_main']:,} MB this process, {d['peak_mb_worker']:,} MB the largest worker",
    ])
