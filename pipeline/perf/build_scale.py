"""``build`` at scale: one corpus end to end on N local workers and on a Dask cluster, and what
a big corpus would cost (a perf script, not a test; ``make perf-build-scale``).

    python -m pipeline.perf.build_scale [--corpus DIR ...] [--books N] [--work DIR] [--workers N]
                                        [--dask] [--machines 1 16 64] [--words-per-book W]
                                        [--json FILE] [--markdown FILE]

1. The books of every ``--corpus`` folder (default: ``../shared/corpus/gutenberg``, 18 novels,
   and ``../shared/corpus/litbank``, 100) are copied into ``WORK/corpus/<folder name>/``, one
   corpus for one ``build``; ``--books N`` keeps the first N (the folders in the order given,
   each smallest file first) for a quick run.
2. ``python -m pipeline build --corpus WORK/corpus --out WORK/local --workers N --overwrite``
   runs in a fresh process, as a user runs it (progress as plain lines, relayed here). The
   script records the wall time end to end (start-up and model loading included) and each
   stage's (``build.json``), the words (spaCy words, extract's ``n_words``), the quadruples, the
   peak resident memory of every process of the run (sampled every 0.2 s with psutil: the
   build's main process, each worker, with the stage it was first seen in) and the CPU seconds
   of the run (``RUSAGE_CHILDREN``: the process and its workers, user + system).
3. With ``--dask``: the same build with ``--scheduler`` on a ``distributed.LocalCluster`` of N
   single-threaded worker processes on 127.0.0.1 started by this script (the scheduler runs in
   this process), and its outputs compared with the local run's: extract's Parquet files and
   generate's ``quadruples.parquet``, ``quadruples.tsv`` and ``recheck.json`` byte for byte
   (``books.parquet`` row for row without its ``seconds`` column, the books' timings).
4. Projections for 1,575 books and for Project Gutenberg's catalogue (about 70,000 texts): the
   words they hold (books x words per book: the mean of the corpora's books, or
   ``--words-per-book``; for the catalogue also the SPGC mean of about 60,000 words per text),
   the core-hours at the measured cost per word (two estimates: the local run's wall time x its
   workers, what one pays for; its CPU seconds, the work itself), and the wall time on
   ``--machines`` machines of this machine's size (its cores each, as many workers), assuming
   perfect scaling; beside it the serial floor no number of machines goes below (the build's
   main process CPU seconds per word after its start-up: it alone writes every part and merges
   the outputs).

It prints a summary table at the end and writes it as JSON and Markdown (``--json``,
``--markdown``; with ``--work`` also ``WORK/build_scale.json`` and ``.md``). Exit 0 when every
build succeeded and (with ``--dask``) the outputs are identical, 1 otherwise; skips (exit 0)
when no corpus is there.

May import: the standard library, :mod:`pipeline.formats.books` (inside functions: the
corpora's mean words per book); the build runs in a subprocess.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from pipeline.perf.machine import machine_info

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
DEFAULT_CORPORA = (SHARED / "corpus" / "gutenberg", SHARED / "corpus" / "litbank")
GUTENBERG_BOOKS = 1_575
CATALOGUE_TEXTS = 70_000
# Gerlach & Font-Clos 2020, "A Standardized Project Gutenberg Corpus" (Entropy 22(1), 126): more
# than 50,000 books and more than 3e9 word tokens, so about 60,000 words per text (all
# languages and kinds: poetry, plays, pamphlets as well as novels).
SPGC_WORDS_PER_TEXT = 60_000
GENERATE_FILES = ("quadruples.parquet", "quadruples.tsv", "recheck.json")
TIMING_COLUMNS = {"books.parquet": ("seconds",)}


# ---------------------------------------------------------------- the corpus ---------------

def select_book_files(corpora: list[Path], n: int | None) -> list[tuple[Path, Path]]:
    """(corpus folder, file) of every book file, the folders in the order given, each smallest
    file first; the first ``n`` when given."""
    books = []
    for corpus in corpora:
        files = [p for p in corpus.rglob("*") if p.is_file() and not p.name.startswith(".")]
        books += [(corpus, p) for p in sorted(files, key=lambda p: (p.stat().st_size, str(p)))]
    return books[:n] if n is not None else books


def assemble(books: list[tuple[Path, Path]], dest: Path) -> Path:
    """Copy the books into ``dest/<folder name>/<path in its folder>`` (a fresh folder)."""
    if dest.exists():
        shutil.rmtree(dest)
    names: dict[Path, str] = {}
    for corpus, path in books:
        if corpus not in names:
            name = corpus.name or "corpus"
            names[corpus] = name if name not in names.values() else f"{name}-{len(names)}"
        target = dest / names[corpus] / path.relative_to(corpus)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    dest.mkdir(parents=True, exist_ok=True)
    return dest


def corpus_words(corpora: list[Path]) -> tuple[int, int]:
    """(books, whitespace words) of every book of the corpora as extract reads them (Gutenberg
    header and licence stripped, duplicate copies left out), without spaCy."""
    from pipeline.formats.books import Book, CorpusSpec, iter_corpus

    books = words = 0
    for corpus in corpora:
        for item in iter_corpus(CorpusSpec(path=str(corpus)), skips=False):
            if isinstance(item, Book):
                books += 1
                words += item.n_words
    return books, words


# ---------------------------------------------------------------- the processes ------------

class Sampler:
    """Peak RSS (MB) and last CPU seconds of every process under this one (and of this one),
    sampled every ``interval`` seconds, each with the stage it was first seen in."""

    def __init__(self, interval: float = 0.2):
        import psutil

        self.me = psutil.Process()
        self.interval = interval
        self.stage = "start"
        self.procs: dict[int, dict] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _sample(self) -> None:
        import psutil

        for p in [self.me, *self.me.children(recursive=True)]:
            try:
                with p.oneshot():
                    rss = p.memory_info().rss / 2**20
                    cpu = p.cpu_times()
                    rec = self.procs.get(p.pid)
                    if rec is None:
                        rec = self.procs[p.pid] = {"pid": p.pid, "ppid": p.ppid(), "cmdline": " ".join(p.cmdline()),
                                                   "stage": self.stage, "peak_mb": 0.0, "cpu_s": 0.0}
            except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
                continue
            rec["peak_mb"] = max(rec["peak_mb"], rss)
            rec["cpu_s"] = cpu.user + cpu.system

    def _run(self) -> None:
        while not self._stop.is_set():
            self._sample()
            self._stop.wait(self.interval)

    def __enter__(self) -> "Sampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def role(rec: dict, main_pid: int, me: int) -> str:
    cmd = rec["cmdline"]
    if rec["pid"] == me:
        return "this script (Dask scheduler and nannies)"
    if rec["pid"] == main_pid:
        return "build, main process"
    if "resource_tracker" in cmd:
        return "resource tracker"
    if "multiprocessing" in cmd or "spawn_main" in cmd or "forkserver" in cmd:
        return "Dask worker" if rec["ppid"] == me else "worker"
    return "other: " + cmd[:60]


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of a running process so far, 0 when it is gone."""
    import psutil

    try:
        t = psutil.Process(pid).cpu_times()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return 0.0
    return t.user + t.system


def run_build(label: str, corpus: Path, out: Path, engine: list[str], sampler: Sampler, log: Path) -> dict:
    """``python -m pipeline build`` in a fresh process, its progress lines relayed to stderr;
    the wall time, the main process's pid, the exit status and its ``build.json``."""
    env = dict(os.environ, PIPELINE_PROGRESS="lines", TQDM_DISABLE="1")
    cmd = [sys.executable, "-m", "pipeline", "build", "--corpus", str(corpus), "--out", str(out), "--overwrite",
           *engine]
    print(f"build_scale: [{label}] {' '.join(cmd[1:])}", file=sys.stderr, flush=True)
    sampler.stage = "build start-up"
    t0 = time.perf_counter()
    with open(log, "w", encoding="utf-8") as stdout:
        proc = subprocess.Popen(cmd, stdout=stdout, stderr=subprocess.PIPE, text=True, env=env)
        tail, startup_cpu = [], 0.0
        for line in proc.stderr:
            line = line.rstrip("\n")
            if line.startswith("build: stage"):
                sampler.stage = line.split()[3]            # "build: stage 1/2 extract -> OUT"
                if line.startswith("build: stage 1/"):
                    startup_cpu = _cpu_of(proc.pid)
            tail = (tail + [line])[-20:]
            print(f"  [{label}] {line}", file=sys.stderr, flush=True)
        status = proc.wait()
    seconds = time.perf_counter() - t0
    sampler.stage = "end"
    summary = out / "build.json"
    if status not in (0, 1) or not summary.exists():
        raise SystemExit(f"build_scale: [{label}] build failed (exit {status}):\n" + "\n".join(tail))
    return {"seconds": seconds, "pid": proc.pid, "status": status, "startup_cpu": startup_cpu,
            "summary": json.loads(summary.read_text(encoding="utf-8"))}


def process_figures(sampler: Sampler, main_pid: int, pids: set[int] | None = None) -> list[dict]:
    """The run's processes (those of ``pids``, else the build's main process and its
    descendants) with their role, first stage, peak RSS and CPU seconds."""
    me = sampler.me.pid
    procs = dict(sampler.procs)
    if pids is None:
        pids, grew = {main_pid}, True
        while grew:
            more = {pid for pid, r in procs.items() if r["ppid"] in pids} - pids
            pids |= more
            grew = bool(more)
    return [{"pid": r["pid"], "role": role(r, main_pid, me), "stage": r["stage"], "peak_mb": round(r["peak_mb"], 1),
             "cpu_s": round(r["cpu_s"], 1)} for pid, r in sorted(procs.items()) if pid in pids]


def run_figures(label: str, run: dict, procs: list[dict], cpu_s: float, workers: int, engine: str) -> dict:
    s = run["summary"]
    workers_mb = [p["peak_mb"] for p in procs if p["role"] in ("worker", "Dask worker")]
    main = next((p for p in procs if p["role"] == "build, main process"), {"peak_mb": 0.0, "cpu_s": 0.0})
    return {"label": label, "engine": engine, "workers": workers, "status": run["status"],
            "books": s["books"], "books_ok": s["books_ok"], "words": s["words"], "quadruples": s["quadruples"],
            "wall_seconds": round(run["seconds"], 1), "extract_seconds": s["extract_seconds"],
            "generate_seconds": s["generate_seconds"], "stages_seconds": s["seconds"],
            "startup_seconds": round(run["seconds"] - s["seconds"], 1),
            "words_per_second": round(s["words"] / run["seconds"]) if run["seconds"] else 0,
            "cpu_seconds": round(cpu_s, 1), "main_cpu_seconds": main["cpu_s"],
            "main_startup_cpu_seconds": round(run["startup_cpu"], 1),
            "peak_mb_main": main["peak_mb"], "peak_mb_workers": workers_mb,
            "peak_mb_worker_max": max(workers_mb, default=0.0), "processes": procs}


# ---------------------------------------------------------------- comparing outputs --------

def _json_rows(table) -> list[dict]:
    """The rows with every JSON text cell parsed (objects compare whatever their key order)."""
    rows = table.to_pylist()
    for row in rows:
        for k, v in row.items():
            if isinstance(v, str) and v[:1] in "{[":
                try:
                    row[k] = json.loads(v)
                except ValueError:
                    pass
    return rows


def compare_outputs(a: Path, b: Path) -> dict[str, str]:
    """file -> 'bytes' (identical bytes), 'rows' (identical rows, the timing columns left out),
    'DIFFERENT: ...' -- or 'DIFFERENT: JSON key order only', when the rows' JSON cells hold the
    same objects with keys in another order --, for extract's Parquet files and generate's
    outputs of two builds."""
    import pyarrow.parquet as pq

    files = sorted({p.name for d in (a, b) for p in (d / "extract").glob("*.parquet")})
    files = [f"extract/{f}" for f in files] + [f"generate/{f}" for f in GENERATE_FILES]
    result = {}
    for f in files:
        fa, fb = a / f, b / f
        if not (fa.exists() and fb.exists()):
            result[f] = "DIFFERENT: missing in " + ("both" if not fa.exists() and not fb.exists()
                                                    else str(a if not fa.exists() else b))
        elif fa.read_bytes() == fb.read_bytes():
            result[f] = "bytes"
        elif f.endswith(".parquet"):
            drop = TIMING_COLUMNS.get(Path(f).name, ())
            ta, tb = pq.read_table(fa), pq.read_table(fb)
            ta, tb = (t.drop([c for c in drop if c in t.column_names]) for t in (ta, tb))
            if ta.equals(tb):
                result[f] = "rows"
            elif ta.num_rows == tb.num_rows and _json_rows(ta) == _json_rows(tb):
                result[f] = "DIFFERENT: JSON key order only"
            else:
                result[f] = f"DIFFERENT: {ta.num_rows} / {tb.num_rows} rows"
        else:
            result[f] = "DIFFERENT: bytes"
    return result


# ---------------------------------------------------------------- projections --------------

def projections(words: int, wall_s: float, workers: int, cpu_s: float, serial_cpu_s: float, cores: int,
                machines: list[int], words_per_book: float) -> list[dict]:
    """Core-hours and wall hours on each number of machines, for 1,575 books and the catalogue.

    Cost per word, two estimates: ``wall_s * workers / words`` core-seconds (the cores the run
    held, start-up and idle time included) and ``cpu_s / words`` (the CPU work). A machine of
    ``cores`` cores runs as many workers; wall on M machines = core-seconds / (M * cores)
    (perfect scaling). The serial floor: ``serial_cpu_s / words`` seconds per word (the build's
    main process, which alone writes the parts and merges), below which no number of machines
    brings the wall time.
    """
    per_word = {"wall": wall_s * workers / words, "cpu": cpu_s / words}
    serial = serial_cpu_s / words
    targets = [(f"{GUTENBERG_BOOKS:,} books", GUTENBERG_BOOKS, words_per_book, "measured mean"),
               (f"Gutenberg catalogue, {CATALOGUE_TEXTS:,} texts", CATALOGUE_TEXTS, words_per_book, "measured mean"),
               (f"Gutenberg catalogue, {CATALOGUE_TEXTS:,} texts", CATALOGUE_TEXTS, SPGC_WORDS_PER_TEXT, "SPGC mean")]
    rows = []
    for name, books, per_book, source in targets:
        total = books * per_book
        for basis, cost in per_word.items():
            core_s = total * cost
            rows.append({"target": name, "books": books, "words_per_book": round(per_book),
                         "words_per_book_source": source, "words": round(total), "basis": basis,
                         "core_hours": core_s / 3600, "serial_floor_hours": total * serial / 3600,
                         "wall_hours": {m: core_s / (m * cores) / 3600 for m in machines}})
    return rows


def fmt_hours(h: float) -> str:
    if h < 1:
        return f"{h * 60:.0f} min"
    return f"{h:,.1f} h" if h < 48 else f"{h / 24:,.1f} days"


# ---------------------------------------------------------------- the report ---------------

def markdown(r: dict) -> str:
    m = r["machine"]
    scope = (f"SUBSET: {r['books_selected']} of {r['books_available']} books (--books)" if r["subset"]
             else f"all {r['books_selected']} books")
    lines = [f"# build_scale, {r['date']}",
             "",
             f"Machine: {m['cores']} cores ({m['cpu']}), {m['ram_gb']:.0f} GB RAM, {m['system']}, Python "
             f"{m['python']}; load average {m['load_before']} before, {m['load_after']} after. Code: {r['code']}.",
             f"Corpora: {', '.join(r['corpora'])}; {scope}.",
             "",
             "| run | books | words | quadruples | wall s (end to end) | extract s | generate s | start-up s "
             "| words/s end to end | CPU s | peak MB main | peak MB per worker |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for run in r["runs"]:
        lines.append(f"| {run['label']} | {run['books_ok']:,} | {run['words']:,} | {run['quadruples']:,} "
                     f"| {run['wall_seconds']:.1f} | {run['extract_seconds']:.1f} | {run['generate_seconds']:.1f} "
                     f"| {run['startup_seconds']:.1f} | {run['words_per_second']:,} | {run['cpu_seconds']:.1f} "
                     f"| {run['peak_mb_main']:,.0f} | {', '.join(f'{x:,.0f}' for x in run['peak_mb_workers']) or '-'} |")
    if r.get("identical") is not None:
        same = "yes" if r["identical"] else "NO"
        detail = ", ".join(f"{f}: {v}" for f, v in r["comparison"].items())
        lines += ["", f"Dask outputs identical to the local run's: **{same}** ({detail})."]
        if not r["identical"] and r.get("same_content"):
            lines.append("Every difference is the order of keys in JSON cells: the same content.")
    p = r["projection"]
    lines += ["",
              f"Projection: perfect scaling on machines of {p['cores']} cores each running as many workers. "
              f"Cost per word measured on the local run: {p['wall_s_per_word'] * 1e6:,.1f} core-µs (basis "
              f"'wall': its wall time x {p['workers']} workers, start-up included) and "
              f"{p['cpu_s_per_word'] * 1e6:,.1f} CPU µs (basis 'cpu': its processes' CPU seconds). Serial floor: "
              f"the build's main process, {p['serial_s_per_word'] * 1e6:,.1f} CPU µs per word after its start-up "
              f"(an upper bound: its imports and set-up inside the stages count, which dominate a short run); "
              f"no number of machines is faster. Words per book: measured mean {p['words_per_book']:,.0f} "
              f"({p['words_per_book_source']}); SPGC mean {SPGC_WORDS_PER_TEXT:,} (more than 3e9 word tokens in "
              f"more than 50,000 texts, Gerlach & Font-Clos 2020).",
              "",
              "| target | words per book | words | basis | core-hours | " +
              " | ".join(f"wall, {n} machine{'s' if n > 1 else ''}" for n in p["machines"]) + " | serial floor |",
              "|---|---|---|---|---|" + "---|" * len(p["machines"]) + "---|"]
    for row in p["rows"]:
        lines.append(f"| {row['target']} | {row['words_per_book']:,} ({row['words_per_book_source']}) "
                     f"| {row['words']:,} | {row['basis']} | {row['core_hours']:,.1f} | " +
                     " | ".join(fmt_hours(h) for h in row["wall_hours"].values()) +
                     f" | {fmt_hours(row['serial_floor_hours'])} |")
    lines += ["", "Processes (peak RSS MB, CPU s, the stage each was first seen in):", ""]
    for run in r["runs"]:
        procs = "; ".join(f"{p['role']} {p['pid']} ({p['stage']}): {p['peak_mb']:,.0f} MB, {p['cpu_s']:.1f} s"
                          for p in run["processes"])
        lines.append(f"- {run['label']}: {procs}")
    return "\n".join(lines) + "\n"


def code_version() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "pipeline"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    return f"git {head}" + (" with local changes in pipeline/" if dirty else "") if head else f"{ROOT} (not a checkout)"


# ---------------------------------------------------------------- main ---------------------

def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    a = opt.parse_script(argv, "python -m pipeline.perf.build_scale",
                         "build end to end on N workers (and a Dask cluster with --dask): words/s, peak memory per "
                         "process, quadruples, identical outputs, projections for 1,575 books and Project "
                         "Gutenberg's catalogue.", [
        opt.many("--corpus", type=opt.PATH, default=None, metavar="DIR",
                 help="corpus folder(s), repeatable (default: ../shared/corpus/gutenberg and litbank)"),
        opt.option("--books", type=int, default=None, metavar="N",
                   help="only the first N books (the folders in order, each smallest first): a quick run"),
        opt.option("--work", type=opt.PATH, default=None, metavar="DIR",
                   help="where the corpus copy and the builds go, kept (default: a temporary folder, deleted)"),
        opt.option("--workers", type=int, default=2, metavar="N", help="local workers and Dask workers (default 2)"),
        opt.option("--dask", is_flag=True,
                   help="also build on a LocalCluster of N workers on 127.0.0.1 and compare the outputs"),
        opt.many("--machines", type=int, default=[1, 16, 64], metavar="M",
                 help="projection: wall time on M machines of this one's size (default 1 16 64)"),
        opt.option("--words-per-book", type=float, default=None, metavar="W",
                   help="projection: spaCy words per book (default: the mean of every book of the corpora)"),
        opt.option("--json", type=opt.PATH, default=None, metavar="FILE", help="also write the figures as JSON"),
        opt.option("--markdown", type=opt.PATH, default=None, metavar="FILE", help="also write the summary as Markdown"),
    ])
    if a.workers < 1 or (a.books is not None and a.books < 1):
        opt.script_usage_error("python -m pipeline.perf.build_scale", "--workers and --books must be at least 1")
    corpora = [c.resolve() for c in (a.corpus or [c for c in DEFAULT_CORPORA if c.is_dir()])]
    missing = [str(c) for c in corpora if not c.is_dir()]
    if not corpora or missing:
        print(f"skipped: no corpus at {', '.join(missing) or ', '.join(map(str, DEFAULT_CORPORA))}")
        return 0
    every = select_book_files(corpora, None)
    books = every[:a.books] if a.books is not None else every
    if not books:
        print("skipped: no book files in the corpora")
        return 0
    report: dict = {"date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "machine": machine_info(python=True),
                    "code": code_version(), "corpora": [str(c) for c in corpora],
                    "books_selected": len(books), "books_available": len(every), "subset": len(books) < len(every),
                    "workers": a.workers, "runs": []}
    temporary = a.work is None
    work = Path(tempfile.mkdtemp(prefix="cg-build-scale-")) if temporary else a.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    n = a.workers
    steps = 3 + a.dask
    try:
        print(f"build_scale: [1/{steps}] {len(books)} of {len(every)} books -> {work / 'corpus'}", file=sys.stderr,
              flush=True)
        corpus = assemble(books, work / "corpus")
        with Sampler() as sampler:
            print(f"build_scale: [2/{steps}] build, {n} local workers", file=sys.stderr, flush=True)
            cpu0 = _cpu_children()
            local = run_build("local", corpus, work / "local", ["--workers", str(n)], sampler, work / "local.log")
            cpu = _cpu_children() - cpu0
            sampler._sample()
            report["runs"].append(run_figures(f"build, {n} workers", local, process_figures(sampler, local["pid"]),
                                              cpu, n, "local"))
            if a.dask:
                print(f"build_scale: [3/{steps}] build on a {n}-worker Dask LocalCluster on 127.0.0.1",
                      file=sys.stderr, flush=True)
                import distributed

                before = set(sampler.procs)
                sampler.stage = "cluster start"
                cpu0 = _cpu_children()
                with distributed.LocalCluster(n_workers=n, threads_per_worker=1, processes=True, host="127.0.0.1",
                                              dashboard_address=None) as cluster:
                    dask = run_build("dask", corpus, work / "dask", ["--scheduler", cluster.scheduler_address],
                                     sampler, work / "dask.log")
                    sampler._sample()
                cpu = _cpu_children() - cpu0
                pids = (set(sampler.procs) - before) | {sampler.me.pid}
                report["runs"].append(run_figures(f"build, Dask {n} workers", dask,
                                                  process_figures(sampler, dask["pid"], pids), cpu, n, "dask"))
                report["comparison"] = compare_outputs(work / "local", work / "dask")
                report["identical"] = not any(v.startswith("DIFFERENT") for v in report["comparison"].values())
                report["same_content"] = all(v in ("bytes", "rows", "DIFFERENT: JSON key order only")
                                             for v in report["comparison"].values())
        print(f"build_scale: [{steps}/{steps}] projections", file=sys.stderr, flush=True)
        run = report["runs"][0]
        serial = max(run["main_cpu_seconds"] - run["main_startup_cpu_seconds"], 0.0)
        if a.words_per_book:
            per_book, source = a.words_per_book, "given with --words-per-book"
        else:
            n_books, ws_words = corpus_words(corpora)
            ws_run = sum(corpus_words([corpus])[1:])          # the same count on the books run
            ratio = run["words"] / ws_run if ws_run else 1.0
            per_book = ws_words / n_books * ratio if n_books else 0.0
            source = (f"mean of the {n_books} books of the corpora: {ws_words / max(n_books, 1):,.0f} whitespace "
                      f"words x {ratio:.3f} spaCy words per whitespace word measured on the books run")
        report["projection"] = {
            "cores": report["machine"]["cores"], "workers": n, "machines": a.machines,
            "words_per_book": per_book, "words_per_book_source": source,
            "wall_s_per_word": run["wall_seconds"] * n / run["words"], "cpu_s_per_word": run["cpu_seconds"] / run["words"],
            "serial_s_per_word": serial / run["words"],
            "rows": projections(run["words"], run["wall_seconds"], n, run["cpu_seconds"], serial,
                                report["machine"]["cores"], a.machines, per_book)}
    finally:
        if temporary:
            shutil.rmtree(work, ignore_errors=True)
    report["machine"]["load_after"] = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    text = markdown(report)
    print()
    print(text)
    payload = json.dumps(report, indent=2, default=str)
    for path, content in ((a.json, payload), (a.markdown, text)) + \
            (((work / "build_scale.json", payload), (work / "build_scale.md", text)) if not temporary else ()):
        if path:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(content, encoding="utf-8")
    ok = all(r["status"] == 0 for r in report["runs"]) and report.get("identical", True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
