"""Scale benchmark (``make bench-scale``): the corpus dumps end to end, and what a big corpus
would cost.

    python -m pipeline.perf.scale [--books N | --ids ID ...] [--machines 1 4 16 64]
                                        [--cores-per-machine C] [--price-per-core-hour USD] [--json FILE]

In a temporary folder (deleted at the end; never committed) it builds, from the books of
``../shared/corpus/gutenberg`` (18) and ``../shared/corpus/litbank`` (100), or the first
``--books N`` of them (Gutenberg first, smallest first) or the ``--ids`` chosen:

* ``plain/``: the books as plain ``.txt`` files (the reference run);
* ``mirror/``: a Project Gutenberg mirror-like tree of zips: ``1/0/105/105-0.zip`` (UTF-8 copy)
  beside ``1/0/105/105.zip`` (a second copy, which the reader must list as a duplicate), the
  LitBank books under ``litbank/…/NAME.zip``;
* ``table.parquet``: one Parquet table (``id``, ``title``, ``text``), one book per row group.

It then runs, each in a fresh process like a user: extract on ``plain/``, ``mirror/`` and
``table.parquet`` with ``--workers 2``, extract on ``table.parquet`` on a 2-worker Dask
``LocalCluster``; generate and annotate-export on the plain run. It reports books, words,
instances, quadruples, wall time, words/s per core (over the wall time, and over the books'
own processing time, which leaves out model loading and start-up), peak memory (RSS, sampled
every 0.1 s) of the main process and of the largest worker, whether every run found exactly
the instances of the plain run, the cost of reading (read + decode + paragraphs, no spaCy)
zip and Parquet against plain files, and the projected time and cost of 1,575 Gutenberg books
(the mean length of the 18 Gutenberg books) and of BookCorpus (11,038 books, 984,846,357
words: Zhu et al. 2015) on N machines, at the steady-state words/s per core measured here.
The projection assumes perfect scaling and a price per core-hour you give; it is a rough
guide, not a quote.

May import: the standard library, :mod:`pipeline.formats.books` (inside functions: reading the
corpus); the commands are run in subprocesses.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import zipfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
BOOKCORPUS_BOOKS, BOOKCORPUS_WORDS = 11_038, 984_846_357
GUTENBERG_BOOKS = 1_575
WORKERS = 2


@dataclass
class Source:
    key: str            # plain file name stem and table id: g105, l105_persuasion
    path: Path
    collection: str     # gutenberg | litbank
    number: str         # Gutenberg ebook number (LitBank: the number in the file name)
    name: str           # file stem


def select_books(gutenberg: Path, litbank: Path, n: int | None, ids: list[str] | None) -> list[Source]:
    books = []
    for collection, folder in (("gutenberg", gutenberg), ("litbank", litbank)):
        if not folder.is_dir():
            continue
        files = sorted(folder.glob("*.txt"), key=lambda p: (p.stat().st_size, p.name))
        for p in files:
            number = re.match(r"\d+", p.stem).group(0) if re.match(r"\d+", p.stem) else p.stem
            books.append(Source(f"{collection[0]}{p.stem}", p, collection, number, p.stem))
    if ids:
        wanted = set(ids)
        books = [b for b in books if b.key in wanted or b.name in wanted]
    return books[:n] if n is not None else books


def mirror_dir(number: str) -> str:
    """Project Gutenberg's mirror layout: 105 -> 1/0/105, 1342 -> 1/3/4/1342, 5 -> 0/5."""
    return f"0/{number}" if len(number) == 1 else "/".join(number[:-1]) + f"/{number}"


def build_inputs(books: list[Source], tmp: Path) -> dict:
    """plain/, mirror/, table.parquet; and for each, book id -> book key."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    plain, mirror = tmp / "plain", tmp / "mirror"
    plain.mkdir()
    ids = {"plain": {}, "mirror": {}, "table": {}}
    rows = []
    for b in books:
        data = b.path.read_bytes()
        (plain / f"{b.key}.txt").write_bytes(data)
        ids["plain"][b.key] = b.key
        if b.collection == "gutenberg":
            folder = mirror / mirror_dir(b.number)
            folder.mkdir(parents=True, exist_ok=True)
            for variant in (f"{b.number}-0", b.number):
                with zipfile.ZipFile(folder / f"{variant}.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
                    z.writestr(f"{variant}.txt", data)
            ids["mirror"][f"{mirror_dir(b.number)}/{b.number}-0.zip/{b.number}-0"] = b.key
        else:
            folder = mirror / "litbank" / mirror_dir(b.number)
            folder.mkdir(parents=True, exist_ok=True)
            with zipfile.ZipFile(folder / f"{b.name}.zip", "w", compression=zipfile.ZIP_DEFLATED) as z:
                z.writestr(f"{b.name}.txt", data)
            ids["mirror"][f"litbank/{mirror_dir(b.number)}/{b.name}.zip/{b.name}"] = b.key
        rows.append({"id": b.key, "title": b.name, "text": data.decode("utf-8-sig")})
        ids["table"][b.key] = b.key
    pq.write_table(pa.Table.from_pylist(rows), tmp / "table.parquet", row_group_size=1)
    return {"plain": plain, "mirror": mirror, "table": tmp / "table.parquet", "ids": ids}


class RssSampler:
    """Peak RSS per process of this process's descendants, sampled every 0.1 s."""

    def __init__(self):
        import psutil

        self.me = psutil.Process()
        self.peak: dict[int, tuple[str, float]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        import psutil

        while not self._stop.is_set():
            for p in self.me.children(recursive=True):
                try:
                    rss = p.memory_info().rss / 2**20
                    name = " ".join(p.cmdline()[1:4])
                except (psutil.NoSuchProcess, psutil.AccessDenied):
                    continue
                old = self.peak.get(p.pid, ("", 0.0))[1]
                self.peak[p.pid] = (name, max(old, rss))
            self._stop.wait(0.1)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


def run_command(args: list[str], exclude: set[int] = frozenset()) -> dict:
    """Run ``python -m pipeline ARGS`` in a fresh process: seconds and peak RSS (MB) of the
    command's main process and of its largest other process (a worker)."""
    env = dict(os.environ, TQDM_DISABLE="1")
    with RssSampler() as sampler:
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", *args], env=env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        out, err = proc.communicate()
        seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[:1])} failed ({proc.returncode}): {err.strip()[-2000:]}")
    main_rss = sampler.peak.get(proc.pid, ("", 0.0))[1]
    others = [rss for pid, (_, rss) in sampler.peak.items() if pid != proc.pid and pid not in exclude]
    return {"seconds": seconds, "main_mb": main_rss, "worker_mb": max(others, default=0.0), "stdout": out}


def extract_figures(out: Path, ids: dict) -> dict:
    import pandas as pd

    books = pd.read_parquet(out / "books.parquet")
    ok = books[books.status == "ok"]
    inst = pd.read_parquet(out / "instances.parquet", columns=["book_id", "book_start", "pronoun_offset", "pattern",
                                                               "pronoun", "a", "b", "text"])
    keys = {(ids.get(r.book_id, "?" + r.book_id), r.book_start + r.pronoun_offset, r.pattern, r.pronoun, r.a, r.b,
             r.text) for r in inst.itertuples()}
    return {"books": int(len(ok)), "words": int(ok.n_words.sum()), "book_seconds": float(ok.seconds.sum()),
            "instances": int(len(inst)), "keys": keys,
            "statuses": books.status.value_counts().to_dict()}


def read_seconds(corpus: Path) -> tuple[float, int]:
    """Seconds to read every book of ``corpus`` (no spaCy) in this process, and the number read."""
    from pipeline.formats.books import Book, CorpusSpec, iter_corpus

    t0 = time.perf_counter()
    n = sum(1 for item in iter_corpus(CorpusSpec(path=str(corpus))) if isinstance(item, Book))
    return time.perf_counter() - t0, n


def mean_gutenberg_words(gutenberg: Path) -> float:
    """Mean whitespace words of the Gutenberg books as read (header and licence stripped)."""
    from pipeline.formats.books import Book, CorpusSpec, iter_corpus

    words = [b.n_words for b in iter_corpus(CorpusSpec(path=str(gutenberg)), skips=False) if isinstance(b, Book)]
    return sum(words) / len(words) if words else 0.0


def fmt_time(hours: float) -> str:
    return f"{hours * 60:.0f} min" if hours < 1 else (f"{hours:.1f} h" if hours < 48 else f"{hours / 24:.1f} days")


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.scale", __doc__.split("\n\n")[0], [
        opt.option("--gutenberg", type=opt.PATH, default=SHARED / "gutenberg"),
        opt.option("--litbank", type=opt.PATH, default=SHARED / "litbank"),
        opt.option("--books", type=int, default=None, metavar="N",
                   help="only the first N books: Gutenberg then LitBank, smallest first (default: all 118)"),
        opt.many("--ids", default=None, help="only these books (file stems, e.g. 105 434 6684)"),
        opt.many("--machines", type=int, default=[1, 4, 16, 64]),
        opt.option("--cores-per-machine", type=int, default=os.cpu_count() or 1),
        opt.option("--price-per-core-hour", type=float, default=0.05,
                   help="USD per core-hour for the cost projection (default 0.05, an assumption)"),
        opt.option("--rate", type=float, default=None, metavar="WORDS_PER_S_PER_CORE",
                   help="also project at this rate (e.g. make bench's prune words/s on an idle machine)"),
        opt.option("--skip-dask", is_flag=True, help="leave out the Dask LocalCluster run"),
        opt.many("--layouts", choices=("mirror", "table"), default=["mirror", "table"],
                 help="the layouts extracted beside the plain run (default both)"),
        opt.option("--json", type=opt.PATH, default=None, help="also write the figures as JSON"),
        opt.option("--texts-only", is_flag=True,
                   help="instead of the extract runs: read every selected book from the three layouts and compare "
                        "the texts extract would process (no spaCy; minutes, not hours), see texts_check"),
        opt.option("--memory-table", type=float, default=None, metavar="GB",
                   help="instead of the runs above: the memory check on a Parquet table of GB gibibytes of text "
                        "(the selected books repeated), see memory_check"),
        opt.option("--memory-books", type=int, default=6, metavar="K",
                   help="--memory-table: books extract processes from each table (default 6)"),
    ])
    if not args.gutenberg.is_dir():
        print(f"skipped: {args.gutenberg} is absent (the benchmark needs ../shared/corpus)")
        return 0
    books = select_books(args.gutenberg, args.litbank, args.books, args.ids)
    if not books:
        raise SystemExit("no books selected")
    if args.memory_table:
        return memory_check(books, args.memory_table, args.memory_books)
    if args.texts_only:
        return texts_check(books)
    report: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": os.cpu_count(),
                    "books_selected": [b.key for b in books], "subset": len(books) < 118, "runs": {}}
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmpdir:
        tmp = Path(tmpdir)
        inputs = build_inputs(books, tmp)
        sizes = {"plain": sum(p.stat().st_size for p in inputs["plain"].rglob("*") if p.is_file()),
                 "mirror": sum(p.stat().st_size for p in inputs["mirror"].rglob("*") if p.is_file()),
                 "table": inputs["table"].stat().st_size}
        report["input_bytes"] = sizes
        for name in ("plain", "mirror", "table"):
            seconds, n = read_seconds(inputs[name])
            report.setdefault("read", {})[name] = {"seconds": seconds, "books": n}
        figures = {}
        configs = [("plain", "plain", None)]
        configs += [c for c in (("mirror zips", "mirror", None), ("Parquet table", "table", None))
                    if c[1] in args.layouts]
        if not args.skip_dask and "table" in args.layouts:
            configs.append(("Parquet table, Dask", "table", "dask"))
        for label, name, engine in configs:
            out = tmp / f"out-{label.replace(' ', '-').replace(',', '')}"
            cmd = ["extract", "--corpus", str(inputs[name]), "--out", str(out)]
            if engine == "dask":
                import distributed
                import psutil

                before = {p.pid for p in psutil.Process().children(recursive=True)}
                with distributed.LocalCluster(n_workers=WORKERS, threads_per_worker=1, processes=True,
                                              dashboard_address=None) as cluster:
                    res = run_command(cmd + ["--scheduler", cluster.scheduler_address], exclude=before)
            else:
                res = run_command(cmd + ["--workers", str(WORKERS)])
            fig = extract_figures(out, inputs["ids"][name])
            figures[label] = (fig, out)
            run = {k: v for k, v in fig.items() if k != "keys"}
            run.update({k: v for k, v in res.items() if k != "stdout"})
            run["words_per_s_per_core"] = fig["words"] / res["seconds"] / WORKERS
            run["steady_words_per_s_per_core"] = fig["words"] / fig["book_seconds"] if fig["book_seconds"] else 0.0
            report["runs"][label] = run
            print(f"  {label:<22} {res['seconds']:7.1f} s  {fig['books']} books  {fig['words']:,} words  "
                  f"{fig['instances']:,} instances", flush=True)
        plain_keys = figures["plain"][0]["keys"]
        report["identical"] = {label: {"same": fig["keys"] == plain_keys, "missing": len(plain_keys - fig["keys"]),
                                       "extra": len(fig["keys"] - plain_keys)}
                               for label, (fig, _) in figures.items() if label != "plain"}
        for label, same in report["identical"].items():     # printed now: a later step may fail
            print(f"  {label:<22} identical instances to plain: {'yes' if same['same'] else 'NO'} "
                  f"(missing {same['missing']}, extra {same['extra']})", flush=True)
        plain_out = figures["plain"][1]
        gen = run_command(["generate", "--instances", str(plain_out), "--out", str(tmp / "gen")])
        import pandas as pd

        quads = pd.read_parquet(tmp / "gen" / "quadruples.parquet", columns=["quadruple_id"])
        ann = run_command(["annotate-export", "--quadruples", str(tmp / "gen" / "quadruples.parquet"),
                           "--out", str(tmp / "ann")])
        report["generate"] = {"seconds": gen["seconds"], "quadruples": int(quads.quadruple_id.nunique()),
                              "rows": int(len(quads))}
        report["annotate_export"] = {"seconds": ann["seconds"]}
        mean_words = mean_gutenberg_words(args.gutenberg)
    report["mean_gutenberg_words"] = mean_words
    print_report(report, args)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2, default=str), encoding="utf-8")
    return 0


def texts_check(books: list[Source], repeats: int = 3) -> int:
    """Every selected book read from plain files, the mirror of zips and the Parquet table:
    the paragraphs extract would process must be identical (extraction is a function of a
    book's paragraphs, so identical paragraphs give identical instances; the extract runs
    check that directly); the reading times, medians of ``repeats`` rounds alternating the
    three layouts."""
    import hashlib
    import statistics

    from pipeline.formats.books import Book, CorpusSpec, iter_corpus

    with tempfile.TemporaryDirectory(prefix="bench-scale-texts-") as tmpdir:
        inputs = build_inputs(books, Path(tmpdir))
        digests, statuses, times = {}, {}, {name: [] for name in ("plain", "mirror", "table")}
        for r in range(repeats):
            for name in times:
                t0 = time.perf_counter()
                found, other = {}, Counter()
                for item in iter_corpus(CorpusSpec(path=str(inputs[name]))):
                    if isinstance(item, Book):
                        key = inputs["ids"][name].get(item.book_id, "?" + item.book_id)
                        found[key] = hashlib.sha256("\n\n".join(item.paragraphs).encode("utf-8")).hexdigest()
                    else:
                        other[getattr(item, "status", type(item).__name__)] += 1
                times[name].append(time.perf_counter() - t0)
                digests[name], statuses[name] = found, dict(other)
        words = sum(len(t.split()) for t in [b.path.read_bytes().decode("utf-8-sig") for b in books])
    plain = digests["plain"]
    print(f"texts check, {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores: "
          f"{len(books)} books selected, {words:,} words")
    print()
    print("| layout | books read | identical to plain | other entries | read s (median of %d) |" % repeats)
    print("|---|---|---|---|---|")
    for name in times:
        same = sum(1 for k, d in digests[name].items() if plain.get(k) == d)
        print(f"| {name} | {len(digests[name])} | {same} of {len(books)} | {statuses[name] or '-'} | "
              f"{statistics.median(times[name]):.2f} |")
    return 0 if all(digests[n] == plain for n in times) and len(plain) == len(books) else 1


_READ_ALL = """
import sys
from pipeline.formats.books import Book, CorpusSpec, iter_corpus
n = sum(1 for item in iter_corpus(CorpusSpec(path=sys.argv[1])) if isinstance(item, Book))
print(n)
"""


def memory_check(books: list[Source], gb: float, k: int) -> int:
    """Memory with a big table corpus: a Parquet table of ``gb`` GiB of text (the books
    repeated, one book per row group, ids ``KEY~R``) is written row group by row group; then,
    each in a fresh process with its peak RSS sampled: every book of it read (no spaCy), and
    extract ``--workers 2 --limit-books K`` on it and on a table of the books once. Bounded
    memory means the big table's peaks equal the small one's."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    schema = pa.schema([("id", pa.string()), ("title", pa.string()), ("text", pa.string())])
    texts = [(b.key, b.name, b.path.read_bytes().decode("utf-8-sig")) for b in books]
    target = int(gb * 2**30)
    with tempfile.TemporaryDirectory(prefix="bench-scale-mem-") as tmpdir:
        tmp = Path(tmpdir)
        written, rows, rep = 0, 0, 0
        with pq.ParquetWriter(tmp / "small.parquet", schema) as small:
            for key, title, text in texts:
                small.write_table(pa.Table.from_pylist([{"id": key, "title": title, "text": text}], schema))
        with pq.ParquetWriter(tmp / "big.parquet", schema) as big:
            while written < target:
                for key, title, text in texts:
                    big.write_table(pa.Table.from_pylist([{"id": f"{key}~{rep}", "title": title, "text": text}], schema))
                    written += len(text.encode("utf-8"))
                    rows += 1
                    if written >= target:
                        break
                rep += 1
        size = (tmp / "big.parquet").stat().st_size
        print(f"table: {rows:,} books, {written / 2**30:.2f} GiB of text, {size / 2**30:.2f} GiB on disk", flush=True)
        results = {}
        for name in ("small", "big"):
            res = run_command(["extract", "--corpus", str(tmp / f"{name}.parquet"), "--out", str(tmp / f"out-{name}"),
                               "--workers", str(WORKERS), "--limit-books", str(k)])
            results[name] = res
            print(f"extract --limit-books {k} on the {name} table: {res['seconds']:.1f} s, peak RSS main "
                  f"{res['main_mb']:,.0f} MB, largest worker {res['worker_mb']:,.0f} MB", flush=True)
        with RssSampler() as sampler:
            t0 = time.perf_counter()
            proc = subprocess.run([sys.executable, "-c", _READ_ALL, str(tmp / "big.parquet")], capture_output=True,
                                  text=True, check=True)
            seconds = time.perf_counter() - t0
        read_mb = max((rss for _, rss in sampler.peak.values()), default=0.0)
        print(f"read every book of it (no spaCy): {proc.stdout.strip()} books in {seconds:.1f} s, "
              f"peak RSS {read_mb:,.0f} MB", flush=True)
    print()
    print("| table | text | peak MB main | peak MB largest worker |")
    print("|---|---|---|---|")
    for name, res in results.items():
        label = f"{written / 2**30:.2f} GiB, {rows:,} rows" if name == "big" else f"{len(texts)} rows"
        print(f"| {name} | {label} | {res['main_mb']:,.0f} | {res['worker_mb']:,.0f} |")
    return 0


def print_report(r: dict, args) -> None:
    runs = r["runs"]
    plain = runs["plain"]
    print()
    scope = f"SUBSET of {len(r['books_selected'])} book(s): {', '.join(r['books_selected'])}" if r["subset"] \
        else "all 118 books"
    print(f"scale benchmark, {r['date']}, {r['cores']} cores, {WORKERS} workers per run; {scope}")
    print()
    print("| run | books | words | instances | wall s | words/s per core (wall) | words/s per core (books) "
          "| peak MB main | peak MB largest worker |")
    print("|---|---|---|---|---|---|---|---|---|")
    for label, run in runs.items():
        print(f"| {label} | {run['books']} | {run['words']:,} | {run['instances']:,} | {run['seconds']:.1f} | "
              f"{run['words_per_s_per_core']:,.0f} | {run['steady_words_per_s_per_core']:,.0f} | "
              f"{run['main_mb']:,.0f} | {run['worker_mb']:,.0f} |")
    print()
    print(f"generate: {r['generate']['quadruples']:,} quadruples ({r['generate']['rows']:,} rows) in "
          f"{r['generate']['seconds']:.1f} s; annotate-export: {r['annotate_export']['seconds']:.1f} s")
    for label, same in r["identical"].items():
        verdict = "identical" if same["same"] else f"DIFFERENT ({same['missing']} missing, {same['extra']} extra)"
        print(f"instances of {label} vs plain: {verdict}")
    mirror = runs.get("mirror zips", {}).get("statuses", {})
    print(f"mirror statuses: {mirror} (the second copy of each Gutenberg ebook is a duplicate)")
    rd = r["read"]
    mb = r["input_bytes"]["plain"] / 2**20
    print(f"reading alone (no spaCy, one process): plain {rd['plain']['seconds']:.2f} s ({mb / rd['plain']['seconds']:.0f} MB/s "
          f"of text), zips {rd['mirror']['seconds']:.2f} s, Parquet {rd['table']['seconds']:.2f} s; "
          f"read overhead of zips vs plain: {rd['mirror']['seconds'] - rd['plain']['seconds']:+.2f} s = "
          f"{(rd['mirror']['seconds'] - rd['plain']['seconds']) / max(plain['book_seconds'], 1e-9):+.2%} of the "
          f"books' processing time" + (f"; wall time of the zip run vs plain: "
                                       f"{runs['mirror zips']['seconds'] / plain['seconds'] - 1:+.1%}"
                                       if "mirror zips" in runs else ""))
    rates = [(plain["steady_words_per_s_per_core"], "plain run, books' own processing time")]
    if args.rate:
        rates.append((args.rate, "given with --rate"))
    for rate, source in rates:
        if rate:
            print_projection(r, args, rate, source)


def print_projection(r: dict, args, rate: float, source: str) -> None:
    print()
    print(f"projection at {rate:,.0f} words/s per core ({source}), "
          f"{args.cores_per_machine} cores per machine, perfect scaling, USD {args.price_per_core_hour}/core-hour:")
    print()
    corpora = [(f"Gutenberg, {GUTENBERG_BOOKS:,} books x {r['mean_gutenberg_words']:,.0f} words",
                GUTENBERG_BOOKS * r["mean_gutenberg_words"]),
               (f"BookCorpus, {BOOKCORPUS_BOOKS:,} books, {BOOKCORPUS_WORDS:,} words", BOOKCORPUS_WORDS)]
    print("| corpus | core-hours | cost USD | " + " | ".join(f"{n} machine(s)" for n in args.machines) + " |")
    print("|---|---|---|" + "---|" * len(args.machines))
    for name, words in corpora:
        core_hours = words / rate / 3600
        cells = [fmt_time(core_hours / (n * args.cores_per_machine)) for n in args.machines]
        print(f"| {name} | {core_hours:,.1f} | {core_hours * args.price_per_core_hour:,.2f} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
