"""generate on workers, side by side (a perf script, not a test).

    python -m pipeline.perf.generate_scale [--corpus DIR] [--extract DIR] [--work DIR] [--workers N]
                                           [--repeat R] [--no-full-pipeline]

On the 18 Gutenberg novels of ``../shared/corpus/gutenberg`` (or ``--corpus``):

1. extract with ``--workers N`` (default 2) into ``WORK/extract``, timed (skipped when
   ``--extract DIR`` names a finished extract run of that corpus: then its summary's time is
   not known and the share is computed from the extract time given with ``--extract-seconds``);
2. ``generate --workers 1`` and ``generate --workers N`` on it, each a fresh process, timed
   (wall clock, and the CPU seconds of the process and its workers: on a shared machine the
   wall-clock speed-up says little, the CPU time says what the work costs); their ``quadruples.parquet``, ``quadruples.tsv`` and ``recheck.json`` compared
   byte for byte; ``--repeat R`` runs the pair R times, alternating, and reports each run (with the
   load average at its start) and the fastest of each (on a shared machine the least disturbed);
3. the re-check's decisions with the components it runs (the attribute ruler left out,
   :func:`pipeline.runs.generate.recheck_disabled`) against the full pipeline's, book by book
   (every difference listed with its quadruple and both reasons);

and prints the table of ``docs/scale.md`` (speed-up of N workers over 1, generate's share of
extract + generate with N workers). Skips (exit 0) when the corpus is absent.

May import: every layer except the commands.
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
CORPUS = SHARED / "corpus" / "gutenberg"
COMPARED_FILES = ("quadruples.parquet", "quadruples.tsv", "recheck.json")


CPU: dict[str, float] = {}     # the same runs' CPU seconds (user + system, the process and its workers)


def _timed(args: list[str]) -> float:
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pipeline", *args], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, env={**os.environ, "PIPELINE_PROGRESS": "lines"})
    if done.returncode not in (0, 1):
        sys.exit(f"error: {' '.join(args)} failed: {done.stderr.strip().splitlines()[-1:]}")
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[" ".join(args)] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall


def recheck_differences(extract_dir: Path, batch_size: int = 64) -> tuple[int, list[str]]:
    """(quadruples checked, differences) between the re-check with its components and with the
    whole pipeline, on every book of ``extract_dir``."""
    from pipeline.runs.generate import BookOptions, _book_groups, _read_instances, process_book

    path = extract_dir / "instances.parquet"
    insts, _ = _read_instances(path, True)
    diffs, checked = [], 0
    for book, items in _book_groups(insts):
        got = {}
        for comp in ("needed", "all"):
            opts = BookOptions(instances=str(path), skip_bad_rows=True, batch_size=batch_size,
                               recheck_components=comp)
            r = process_book(book, items, opts)
            got[comp] = ({q["quadruple_id"]: (q["variant"], q["reason"]) for q in r["recheck"]["quadruples"]},
                         r["recheck"]["checked"])
        checked += got["all"][1]
        a, b = got["needed"][0], got["all"][0]
        for qid in sorted(set(a) | set(b)):
            if a.get(qid) != b.get(qid):
                diffs.append(f"{book} {qid}: components {a.get(qid) or 'kept'} / full pipeline {b.get(qid) or 'kept'}")
    return checked, diffs


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    a = opt.parse_script(argv, "python -m pipeline.perf.generate_scale", __doc__.split("\n")[0], [
        opt.option("--corpus", type=opt.PATH, default=CORPUS),
        opt.option("--extract", type=opt.PATH, default=None, help="a finished extract run of the corpus (skip step 1)"),
        opt.option("--extract-seconds", type=float, default=None, help="with --extract: its wall time"),
        opt.option("--work", type=opt.PATH, default=None, help="where the runs go (default: a temporary directory)"),
        opt.option("--workers", type=int, default=2),
        opt.option("--repeat", type=int, default=1, help="run generate with 1 and N workers R times, alternating"),
        opt.option("--no-full-pipeline", is_flag=True, help="skip step 3"),
    ])
    if not a.corpus.exists() and a.extract is None:
        print(f"skipped: no corpus at {a.corpus}")
        return 0
    work = a.work or Path(tempfile.mkdtemp(prefix="cg-generate-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    n = a.workers
    if a.extract is None:
        ext = work / "extract"
        t_extract = _timed(["extract", "--corpus", str(a.corpus), "--out", str(ext), "--workers", str(n)])
        print(f"extract: {t_extract:.1f} s wall, {list(CPU.values())[-1]:.1f} s CPU", flush=True)
    else:
        ext, t_extract = a.extract, a.extract_seconds
    times, cpu, runs = {}, {}, []
    for r in range(max(1, a.repeat)):
        for w in (1, n):
            load = os.getloadavg()[0]
            wall = _timed(["generate", "--instances", str(ext), "--out", str(work / f"generate-{w}"),
                           "--workers", str(w), "--overwrite"])
            runs.append((w, wall, list(CPU.values())[-1], load))
            if w not in times or wall < times[w]:
                times[w], cpu[w] = wall, list(CPU.values())[-1]
    same = all(filecmp.cmp(work / "generate-1" / f, work / f"generate-{n}" / f, shallow=False) for f in COMPARED_FILES)
    import pyarrow.parquet as pq

    quads = pq.ParquetFile(work / "generate-1" / "quadruples.parquet").metadata.num_rows // 4
    print(f"generate_scale: {a.corpus} ({work})")
    if len(runs) > 2:
        for w, wall, c, load in runs:
            print(f"  generate --workers {w}: {wall:.1f} s wall, {c:.1f} s CPU (load average {load:.2f} at its start)")
        print(f"  (below: the fastest of {a.repeat} runs each)")
    print(f"| measure | value |\n|---|---|")
    if t_extract is not None:
        print(f"| extract, {n} workers | {t_extract:.1f} s |")
    print(f"| generate, 1 worker | {times[1]:.1f} s wall, {cpu[1]:.1f} s CPU ({quads:,} quadruples) |")
    print(f"| generate, {n} workers | {times[n]:.1f} s wall, {cpu[n]:.1f} s CPU |")
    print(f"| speed-up, {n} workers over 1 | {times[1] / times[n]:.2f}x |")
    print(f"| outputs identical (quadruples.parquet, .tsv, recheck.json) | {'yes' if same else 'NO'} |")
    if t_extract is not None:
        print(f"| generate's share of extract + generate, {n} workers | {100 * times[n] / (t_extract + times[n]):.1f} % |")
    if not a.no_full_pipeline:
        checked, diffs = recheck_differences(ext)
        print(f"| re-check decisions differing from the full pipeline | {len(diffs)} of {checked:,} quadruples |")
        for d in diffs:
            print(f"  {d}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
