"""Extract benchmark (``make bench``): words/s of the strategies and of the worker counts,
measured side by side in one run, the agreement of prune with full, and peak memory.

    python -m pipeline.perf.extract [--corpus DIR] [--repeats N] [--books ID ...] [--memory-book ID]

Every configuration runs ``python -m pipeline extract`` in a fresh subprocess into a fresh
output directory (so nothing is resumed and each pays its own model loading, like a user),
in interleaved order when repeated; the table shows medians. Agreement: the share of the
full strategy's instances that prune also finds with the same book, pronoun offset and
candidate names. Peak memory: the maximum resident set size of a single-process run over
one book alone: War and Peace (book 2600), or with ``--books`` the largest book of the subset
(``--memory-book`` chooses another).
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd

DEFAULT_CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus" / "gutenberg"
CONFIGS = [("full", 1), ("prune", 1), ("prune", 2)]


def run_extract(corpus: Path, out: Path, strategy: str, workers: int) -> tuple[float, int, float]:
    """(seconds, words, peak RSS of the slowest child in MB) of one extract run."""
    cmd = [sys.executable, "-m", "pipeline", "extract", "--corpus", str(corpus), "--out", str(out),
           "--strategy", strategy, "--workers", str(workers)]
    env = dict(os.environ, TQDM_DISABLE="1")
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    seconds = time.perf_counter() - t0
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    books = pd.read_parquet(out / "books.parquet")
    return seconds, int(books.n_words.sum()), max(peak, before) / 1024


def instance_keys(out: Path) -> set:
    inst = pd.read_parquet(out / "instances.parquet", columns=["book_id", "pronoun_offset", "book_start", "names"])
    keys = set()
    for row in inst.itertuples():
        cands = tuple(sorted(n["name"] for n in row.names if n["role"] in ("C1", "C2")))
        keys.add((row.book_id, row.book_start + row.pronoun_offset, cands))
    return keys


def peak_memory_mb(corpus: Path, book: str, tmp: Path) -> float | None:
    src = corpus / f"{book}.txt"
    if not src.exists():
        return None
    one = tmp / f"only-{book}"
    one.mkdir()
    shutil.copy(src, one / src.name)
    code = ("import resource, sys; from pipeline.cli import main; rc = main(sys.argv[1:]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    res = subprocess.run([sys.executable, "-c", code, "extract", "--corpus", str(one), "--out", str(tmp / f"out-{book}")],
                         check=True, capture_output=True, text=True, env=dict(os.environ, TQDM_DISABLE="1"))
    return int(res.stdout.strip().splitlines()[-1]) / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--books", nargs="*", default=None, help="Gutenberg ids (default: every book)")
    ap.add_argument("--memory-book", default=None,
                    help="book id for the peak-memory run (default: 2600, or the largest of --books)")
    args = ap.parse_args(argv)
    if not args.corpus.is_dir():
        print(f"skipped: {args.corpus} is absent (the benchmark needs ../shared/corpus/gutenberg)")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-extract-") as tmpdir:
        tmp = Path(tmpdir)
        corpus = args.corpus
        if args.books:
            corpus = tmp / "corpus"
            corpus.mkdir()
            for b in args.books:
                shutil.copy(args.corpus / f"{b}.txt", corpus / f"{b}.txt")
        times: dict[tuple[str, int], list[float]] = {c: [] for c in CONFIGS}
        words = 0
        outs = {}
        for r in range(args.repeats):
            order = CONFIGS if r % 2 == 0 else CONFIGS[::-1]
            for strategy, workers in order:
                out = tmp / f"{strategy}-{workers}-{r}"
                seconds, words, _ = run_extract(corpus, out, strategy, workers)
                times[(strategy, workers)].append(seconds)
                outs[(strategy, workers)] = out
                print(f"  run {r + 1}: {strategy:<5} workers={workers}: {seconds:7.1f} s, {words / seconds:7.0f} words/s",
                      flush=True)
        full, prune = instance_keys(outs[("full", 1)]), instance_keys(outs[("prune", 1)])
        agreement = len(full & prune) / len(full) if full else 1.0
        memory_book = args.memory_book or (
            max(args.books, key=lambda b: (args.corpus / f"{b}.txt").stat().st_size) if args.books else "2600")
        peak = peak_memory_mb(args.corpus, memory_book, tmp)

    med = {c: statistics.median(v) for c, v in times.items()}
    wps = {c: words / s for c, s in med.items()}
    print()
    print(f"extract benchmark: {words:,} words, {args.repeats} repeat(s), {os.cpu_count()} cores, "
          f"{time.strftime('%Y-%m-%d')}")
    print()
    print("| configuration | median s | words/s | ratio |")
    print("|---|---|---|---|")
    print(f"| full, 1 worker | {med[('full', 1)]:.1f} | {wps[('full', 1)]:,.0f} | 1.00 |")
    print(f"| prune, 1 worker | {med[('prune', 1)]:.1f} | {wps[('prune', 1)]:,.0f} | "
          f"{wps[('prune', 1)] / wps[('full', 1)]:.2f} (target >= 1.6 vs full) |")
    print(f"| prune, 2 workers | {med[('prune', 2)]:.1f} | {wps[('prune', 2)]:,.0f} | "
          f"{wps[('prune', 2)] / wps[('prune', 1)]:.2f} (target >= 1.7 vs 1 worker) |")
    print()
    print(f"agreement of prune with full: {agreement:.2%} of {len(full)} full instances "
          f"({len(full - prune)} missed, {len(prune - full)} only in prune) (target >= 99 %)")
    if peak is not None:
        print(f"peak memory, book {memory_book} alone, prune, 1 worker: {peak:,.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
