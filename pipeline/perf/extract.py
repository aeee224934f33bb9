"""Extract benchmark (``make bench``): words/s of the strategies and of the worker counts,
measured side by side in one run, the agreement of prune with full, and peak memory.

    python -m pipeline.perf.extract [--corpus DIR] [--repeats N] [--books ID ...] [--memory-book ID]
                                    [--baseline OLD_CHECKOUT [--baseline-python PYTHON]] [--full-repeats N]
                                    [--configs STRATEGY:WORKERS ...] [--old-configs STRATEGY:WORKERS ...]

Every configuration runs ``python -m pipeline extract`` in a fresh subprocess into a fresh
output directory (so nothing is resumed and each pays its own model loading, like a user),
in interleaved order when repeated; the table shows medians. ``--configs`` chooses the
configurations (default ``full:1 prune:1 prune:2``) and ``--old-configs`` those the baseline
code runs (e.g. only ``prune:1`` when only its one-worker speed is compared). Agreement: the share of the
full strategy's instances that prune also finds with the same book, pronoun offset and
candidate names. Peak memory: the maximum resident set size of a single-process run over
one book alone: War and Peace (book 2600), or with ``--books`` the largest book of the subset
(``--memory-book`` chooses another).

The baseline runs with this interpreter unless ``--baseline-python`` names another: the
interpreter of an environment built from the baseline's own pins (its ``pyproject.toml`` and
``resources/constraints.txt``), so that a change of a pinned library counts as part of the
change. The header names each side's interpreter and its spaCy, thinc and numpy.

Profile (first, ``--profile BOOK``, default 434 The Circular Staircase; ``--profile-only``
skips the timed runs): where the time of a prune extraction of one book goes, in one process
with the model loaded — each phase run over the whole book in turn (the book's evidence, the
tokenizer, pass 0, the copies of the regions, each pipeline component by name, the records),
the share of the project's own phases, and a cProfile of the same grouped by where the code
lives (the project, spaCy and thinc, numpy, other libraries, Python).

May import: the standard library, pandas; inside functions: :mod:`pipeline.formats.books`,
from :mod:`pipeline.core` its ``extract``, :mod:`pipeline.lang.book_evidence`,
:mod:`pipeline.lang.doc_arrays`, from :mod:`pipeline.nlp` its ``load`` and ``prune`` (the phases
profiled one by one); the
``extract`` command is run in a subprocess.
"""

from __future__ import annotations

import contextlib
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
PROFILE_BOOK = "434"        # The Circular Staircase, 72k words


def versions(python: str) -> str:
    """"spaCy X, thinc Y, numpy Z" of the environment of interpreter ``python``."""
    script = ("import importlib.metadata as m; "
              "print(', '.join(f'{n} {m.version(n)}' for n in ('spacy', 'thinc', 'numpy')))")
    try:
        res = subprocess.run([python, "-c", script], capture_output=True, text=True)
    except OSError:
        return "versions unknown"
    return res.stdout.strip() if res.returncode == 0 else "versions unknown"


def code_env(code: Path | None) -> tuple[dict, str | None]:
    """(environment, working directory) of a subprocess running the package of checkout
    ``code`` (None: this checkout); the interpreter is the caller's choice (``--baseline-python``)."""
    env = dict(os.environ, TQDM_DISABLE="1")
    if code is None:
        return env, None
    env["PYTHONPATH"] = str(code)
    return env, str(code)


def run_extract(corpus: Path, out: Path, strategy: str, workers: int,
                code: Path | None = None, python: str | None = None) -> tuple[float, int, float]:
    """(seconds, words, peak RSS of the slowest child in MB) of one extract run, with the
    package of checkout ``code`` (default: this one) under interpreter ``python`` (default:
    this one)."""
    cmd = [python or sys.executable, "-m", "pipeline", "extract", "--corpus", str(corpus), "--out", str(out),
           "--strategy", strategy, "--workers", str(workers)]
    env, cwd = code_env(code)
    t0 = time.perf_counter()
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env, cwd=cwd)
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


def peak_memory_mb(corpus: Path, book: str, tmp: Path, code: Path | None = None, tag: str = "",
                   python: str | None = None) -> float | None:
    src = corpus / f"{book}.txt"
    if not src.exists():
        return None
    one = tmp / f"only-{book}"
    if not one.exists():
        one.mkdir()
        shutil.copy(src, one / src.name)
    script = ("import resource, sys; from pipeline.cli import main; rc = main(sys.argv[1:]); "
              "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)")
    env, cwd = code_env(code)
    res = subprocess.run([python or sys.executable, "-c", script, "extract", "--corpus", str(one),
                          "--out", str(tmp / f"out-{book}{tag}")],
                         check=True, capture_output=True, text=True, env=env, cwd=cwd)
    return int(res.stdout.strip().splitlines()[-1]) / 1024


# ------------------------------------------------------------------ profile --------------

# cProfile's functions by where their code lives (a built-in function counts for its callers).
PROFILE_GROUPS = (("project", ()),           # files of this package (see _PROJECT_DIR)
                  ("spacy", ("spacy", "thinc", "cymem", "preshed", "srsly", "blis", "murmurhash")),
                  ("numpy", ("numpy",)),
                  ("other libraries", ("site-packages", "dist-packages")))
PROJECT_COMPONENTS = ("paragraph_breaks", "stop_dash_joins", "space_attrs", "person_layer")
PROJECT_PHASES = ("book evidence", "pass 0", "parse cut (project)", "records")
# Project functions that consume a component's ``pipe`` generator: the compiled generators of
# the parser and NER are not seen by cProfile, so their time shows as these functions' own.
PIPE_DRIVERS = ("parsed_docs", "_processed", "_run_component")
_PROJECT_DIR = str(Path(__file__).resolve().parents[1]) + "/"


def _group(filename: str, funcname: str) -> str | None:
    """Group of a cProfile entry; None for a built-in function or one of spaCy's Doc, Token and
    Span accessors (``spacy/tokens``: building a ``Token``, ``Doc.text``): their time counts
    for their callers (the project's loops over tokens are the project's cost)."""
    if filename.startswith(_PROJECT_DIR):
        return "spacy" if funcname in PIPE_DRIVERS else "project"
    where = f"{filename} {funcname}"
    if filename == "~" and not any(k in funcname for k in ("spacy", "thinc")):
        return None
    if "spacy/tokens/" in filename or "spacy/strings" in filename or "spacy/lexeme" in filename:
        return None
    for name, keys in PROFILE_GROUPS[1:]:
        if any(k in where for k in keys):
            return name
    return "python" if filename != "~" else "spacy"


def profile_groups(stats) -> dict[str, float]:
    """Own time (seconds) per group of a ``pstats.Stats``: the project's code, spaCy and
    thinc (their Cython code included where it is profiled), numpy, other libraries, Python's
    standard library. The time of a built-in function or a spaCy accessor goes to the groups
    of its callers (through accessors calling accessors), in proportion to what each caller
    spent in it."""
    table = stats.stats
    memo: dict = {}

    def where(func, depth: int = 0) -> dict[str, float]:
        if func in memo:
            return memo[func]
        group = _group(func[0], func[2])
        if group is not None:
            memo[func] = {group: 1.0}
            return memo[func]
        callers = table.get(func, (0, 0, 0.0, 0.0, {}))[4]
        total = sum(c[2] for c in callers.values())
        if depth > 20 or not total:
            out = {"spacy" if "spacy" in func[0] else "python": 1.0}
        else:
            memo[func] = {"python": 1.0}             # a cycle of accessors: cut it here
            out = {}
            for caller, c in callers.items():
                for g, share in where(caller, depth + 1).items():
                    out[g] = out.get(g, 0.0) + share * c[2] / total
        memo[func] = out
        return out

    groups: dict[str, float] = {}
    for func, (_, _, tottime, _, _) in table.items():
        for g, share in where(func).items():
            groups[g] = groups.get(g, 0.0) + tottime * share
    return groups


def _book_input(path: Path):
    from pipeline.formats.books import read_book

    return read_book(path, path.parent)


def profile_phases(paragraphs: list[str], strategy: str = "prune", model: str | None = None,
                   book_id: str = "book") -> tuple[dict[str, float], dict]:
    """Wall seconds of each phase of extracting one book, each phase run over the whole book
    before the next: the book's evidence, the tokenizer, pass 0 (prune: spellings, rough
    sentences, regions; with the copies of the regions as Docs), each pipeline component by
    name (prune: the components before NER on the regions, then the parse cut of
    :func:`pipeline.nlp.prune.ner_ranges` and the copies of its sentences, then NER and the
    components after it on those), and the records (mentions, windows, instances). Returns (phase -> seconds, the
    extraction's counts: words, names, pronouns, instances)."""
    import time as _time

    from pipeline.core import extract as core
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp import prune

    nlp = nlp_mod.load(model)
    text = "\n\n".join(paragraphs)
    phases: dict[str, float] = {}

    def timed(name, fn, *a):
        t0 = _time.perf_counter()
        out = fn(*a)
        phases[name] = phases.get(name, 0.0) + _time.perf_counter() - t0
        return out

    evidence = timed("book evidence", book_evidence, text, book_id)
    chunks, owns = core.with_leads(core.chunk_paragraphs(paragraphs, core.CHUNK_CHARS), text)
    wholes = timed("tokenizer", lambda: [nlp.make_doc(t) for _, t in chunks])
    if strategy == "full":
        parts = [[(offset, doc, None)] for (offset, _), doc in zip(chunks, wholes)]
    else:
        def pass0():
            return [prune._pass0(nlp, offset, text, evidence, own - offset, whole)[1:]
                    for (offset, text), own, whole in zip(chunks, owns, wholes)]

        found = timed("pass 0", pass0)
        parts = [p for p, _ in found]
    docs = [d for ps in parts for _, d, _ in ps]
    batch = 16
    components = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    first, then = prune.stages(nlp, components) if strategy != "full" else (components, [])
    for name, proc in nlp.pipeline:
        if name in first:
            docs = timed(name, _run_component, proc, docs, batch)
    if then:
        it = iter(docs)
        parts = [[(o, next(it), t) for o, _, t in ps] for ps in parts]

        def cut():
            return [[(o, d, prune.ner_ranges(d, promising, region_marks))
                     for (o, d, promising), region_marks in zip(ps, marks)]
                    for ps, (_, marks) in zip(parts, found)]

        cuts = timed("parse cut (project)", cut)

        def copies():
            return [[piece for o, d, ranges in ps for piece in prune.sentence_docs(d, o, ranges)] for ps in cuts]

        parts = timed("sentence copies", copies)
        docs = [d for ps in parts for _, d, _ in ps]
        for name, proc in nlp.pipeline:
            if name in then:
                docs = timed(name, _run_component, proc, docs, batch)
    it = iter(docs)
    processed = [[(o, next(it), t) for o, _, t in ps] for ps in parts]
    meta = core.BookMeta(book_id, "", "")
    parsed = [(offset, whole, ps) for (offset, _), whole, ps in zip(chunks, wholes, processed)]
    instances, _, counts = timed("records", core.extract_chunks, iter(parsed), meta, evidence, None, owns)
    counts["instances"] = len(instances)
    return phases, counts


def _run_component(proc, docs: list, batch_size: int) -> list:
    return list(proc.pipe(docs, batch_size=batch_size) if hasattr(proc, "pipe") else map(proc, docs))


def profile_book(paragraphs: list[str], strategy: str = "prune", model: str | None = None,
                 book_id: str = "book") -> dict:
    """Where the time of extracting one book goes (the model loaded and the book run once
    beforehand, so the process's one-time loads are not counted):
    ``phases`` (wall seconds per phase, :func:`profile_phases`), ``project_share`` (the share
    of the phases that run the project's own code: the evidence, pass 0, the records and the
    project's components ``paragraph_breaks`` and ``person_layer``), and ``groups`` (own
    seconds per group of code in a cProfile run of the same, :func:`profile_groups`) with
    ``group_shares``."""
    import cProfile
    import pstats

    from pipeline.nlp import load as nlp_mod

    nlp_mod.load(model)
    # once untimed: what a process loads once (the place names, word frequencies, the name
    # list, the models' first allocations) is not the cost of a book
    profile_phases(paragraphs, strategy, model, book_id)
    phases, counts = profile_phases(paragraphs, strategy, model, book_id)
    total = sum(phases.values())
    project = sum(v for k, v in phases.items() if k in PROJECT_PHASES + PROJECT_COMPONENTS)
    prof = cProfile.Profile()
    prof.enable()
    profile_phases(paragraphs, strategy, model, book_id)
    prof.disable()
    groups = profile_groups(pstats.Stats(prof))
    g_total = sum(groups.values()) or 1.0
    return {"strategy": strategy, "phases": phases, "total": total, "counts": counts,
            "project_share": project / total if total else 0.0,
            "groups": groups, "group_shares": {k: v / g_total for k, v in groups.items()}}


def print_profile(path: Path, strategy: str = "prune", model: str | None = None) -> dict:
    """Profile one book file (:func:`profile_book`) and print its tables."""
    book = _book_input(path)
    prof = profile_book(book.paragraphs, strategy, model, book.book_id)
    c = prof["counts"]
    print(f"profile of {path.name} ({c['words']:,} words, {c['instances']} instances), {strategy}, "
          f"one process, model and caches loaded beforehand (one untimed run): {prof['total']:.1f} s")
    print()
    print("| phase | seconds | share |")
    print("|---|---|---|")
    for name, sec in prof["phases"].items():
        who = "project" if name in PROJECT_PHASES + PROJECT_COMPONENTS else "spaCy"
        print(f"| {name.replace(' (project)', '')} ({who}) | {sec:.2f} | {sec / prof['total']:.1%} |")
    print()
    print(f"project's own phases: {prof['project_share']:.1%} of the time (target <= 25 %)")
    print("cProfile, own time by code (built-ins and spaCy's Doc/Token accessors counted for their callers; "
          "cProfile slows every profiled call, so these shares only say where to look): " + ", ".join(f"{k} {v:.1%}" for k, v in
                                                  sorted(prof["group_shares"].items(), key=lambda kv: -kv[1])))
    return prof


def _sides(baseline: Path | None, baseline_python: str | None = None) -> list[tuple[str, Path | None, str]]:
    """(side, checkout or None for this one, interpreter) of each side of the benchmark."""
    return [("new", None, sys.executable)] + (
        [("old", baseline, baseline_python or sys.executable)] if baseline else [])


def parse_configs(values: list[str]) -> list[tuple[str, int]]:
    """``["full:1", "prune:2"]`` -> [("full", 1), ("prune", 2)] (ValueError on anything else)."""
    out = []
    for v in values:
        strategy, _, workers = v.partition(":")
        if strategy not in ("full", "prune") or not workers.isdigit() or int(workers) < 1:
            raise ValueError(f"{v!r} is no configuration (STRATEGY:WORKERS, e.g. prune:2)")
        if (strategy, int(workers)) not in out:
            out.append((strategy, int(workers)))
    return out


def table_lines(times: dict[tuple, list[float]], words: int, sides: list[str]) -> list[str]:
    """The benchmark's tables (Markdown) from ``times`` ((side, strategy, workers) -> seconds
    of each run): medians, words/s, each side's prune against its full and its workers against
    its one worker, and new against old for every configuration both ran. A configuration
    that did not run is not shown, nor a ratio that needs it."""
    med = {c: statistics.median(v) for c, v in times.items() if v}
    wps = {c: words / s for c, s in med.items()}
    lines = []
    for side in sides:
        if len(sides) > 1:
            lines.append(f"{side} code:")
        lines += ["| configuration | median s | runs | words/s | ratio |", "|---|---|---|---|---|"]
        for (_, strategy, workers) in sorted((c for c in med if c[0] == side), key=lambda c: (c[1], c[2])):
            c = (side, strategy, workers)
            ratio = ""
            if workers > 1 and (side, strategy, 1) in wps:
                ratio = f"{wps[c] / wps[(side, strategy, 1)]:.2f} x its 1 worker (target >= 1.8)"
            elif strategy == "prune" and (side, "full", workers) in wps:
                ratio = f"{wps[c] / wps[(side, 'full', workers)]:.2f} x full"
            lines.append(f"| {strategy}, {workers} worker{'s' if workers > 1 else ''} | {med[c]:.1f} "
                         f"| {len(times[c])} | {wps[c]:,.0f} | {ratio} |")
        lines.append("")
    both = [c for c in med if c[0] == "new" and ("old",) + c[1:] in med]
    if both:
        lines.append("new / old, words/s (medians, side by side in this run):")
        for c in sorted(both, key=lambda c: (c[1], c[2])):
            old = ("old",) + c[1:]
            lines.append(f"  {c[1]}, {c[2]} worker(s): {wps[c]:,.0f} / {wps[old]:,.0f} = {wps[c] / wps[old]:.2f}")
    return lines


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.extract", __doc__.split("\n\n")[0], [
        opt.option("--corpus", type=opt.PATH, default=DEFAULT_CORPUS),
        opt.option("--repeats", type=int, default=1),
        opt.option("--full-repeats", type=int, default=None,
                   help="repeats of the full strategy (default: --repeats; full is the slowest run)"),
        opt.many("--configs", default=[f"{s}:{w}" for s, w in CONFIGS], metavar="STRATEGY:WORKERS",
                 help="configurations to time (default: full:1 prune:1 prune:2)"),
        opt.many("--old-configs", default=None, metavar="STRATEGY:WORKERS",
                 help="configurations the --baseline code runs (default: --configs)"),
        opt.many("--books", default=None, help="Gutenberg ids (default: every book)"),
        opt.option("--memory-book", default=None,
                   help="book id for the peak-memory run (default: 2600, or the largest of --books)"),
        opt.option("--profile", default=None, metavar="BOOK",
                   help="also print where the time goes for this book id (default 434; 'none': no profile)"),
        opt.option("--profile-only", is_flag=True, help="only the profile (no timed runs)"),
        opt.option("--keep", type=opt.PATH, default=None, metavar="DIR",
                   help="keep every run's output in DIR (a new directory) instead of a temporary one"),
        opt.option("--baseline", type=opt.PATH, default=None, metavar="CHECKOUT",
                   help="another checkout of the project (e.g. `git worktree add /tmp/old COMMIT`): every "
                        "configuration also runs its code, interleaved with this one, and the table compares them"),
        opt.option("--baseline-python", default=None, metavar="PYTHON",
                   help="the interpreter the --baseline code runs with (default: this one): that of an "
                        "environment built from the baseline's own pins, so that a changed pin counts"),
    ])
    try:
        configs = {"new": parse_configs(args.configs),
                   "old": parse_configs(args.old_configs if args.old_configs is not None else args.configs)}
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if not args.corpus.is_dir():
        print(f"skipped: {args.corpus} is absent (the benchmark needs ../shared/corpus/gutenberg)")
        return 0
    if args.baseline is not None and not (args.baseline / "pipeline" / "__main__.py").is_file():
        print(f"error: --baseline: {args.baseline} is no checkout of this project (no pipeline/__main__.py)",
              file=sys.stderr)
        return 2
    if args.baseline_python is not None and (args.baseline is None or not os.access(args.baseline_python, os.X_OK)):
        print(f"error: --baseline-python: {args.baseline_python} "
              + ("needs --baseline" if args.baseline is None else "is no executable interpreter"), file=sys.stderr)
        return 2
    profile = args.profile or PROFILE_BOOK
    if profile != "none":
        if (args.corpus / f"{profile}.txt").exists():
            print_profile(args.corpus / f"{profile}.txt")
        else:
            print(f"profile skipped: {profile}.txt is not in {args.corpus}")
        print()
    if args.profile_only:
        return 0
    sides = _sides(args.baseline, args.baseline_python)
    full_repeats = args.repeats if args.full_repeats is None else args.full_repeats
    if args.keep is not None and args.keep.exists():
        print(f"error: --keep: {args.keep} exists (give a new directory)", file=sys.stderr)
        return 2
    with (contextlib.nullcontext(str(args.keep)) if args.keep else tempfile.TemporaryDirectory(prefix="bench-extract-")) \
            as tmpdir:
        tmp = Path(tmpdir)
        tmp.mkdir(parents=True, exist_ok=True)
        corpus = args.corpus
        if args.books:
            corpus = tmp / "corpus"
            corpus.mkdir()
            for b in args.books:
                shutil.copy(args.corpus / f"{b}.txt", corpus / f"{b}.txt")
        runs = [(side, code, python, strategy, workers) for side, code, python in sides
                for strategy, workers in configs[side]]
        times: dict[tuple, list[float]] = {(side, s, w): [] for side, _, _, s, w in runs}
        words = 0
        outs = {}
        for r in range(max(args.repeats, full_repeats)):
            order = runs if r % 2 == 0 else runs[::-1]
            for side, code, python, strategy, workers in order:
                if r >= (full_repeats if strategy == "full" else args.repeats):
                    continue
                out = tmp / f"{side}-{strategy}-{workers}-{r}"
                seconds, words, _ = run_extract(corpus, out, strategy, workers, code, python)
                times[(side, strategy, workers)].append(seconds)
                outs[(side, strategy, workers)] = out
                print(f"  run {r + 1}: {side} {strategy:<5} workers={workers}: {seconds:7.1f} s, "
                      f"{words / seconds:7.0f} words/s", flush=True)
        keys = {}
        for (side, strategy, _), out in outs.items():
            if (side, strategy) not in keys:        # one output per strategy is enough
                keys[(side, strategy)] = instance_keys(out)
        memory_book = args.memory_book or (
            max(args.books, key=lambda b: (args.corpus / f"{b}.txt").stat().st_size) if args.books else "2600")
        peaks = {side: peak_memory_mb(args.corpus, memory_book, tmp, code, f"-{side}", python)
                 for side, code, python in sides}

    print()
    print(f"extract benchmark: {words:,} words, {args.repeats} repeat(s) ({full_repeats} of full), "
          f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d %H:%M')}"
          + (f"; old = {args.baseline}" if args.baseline else ""))
    for side, code, python in sides:
        print(f"  {side}: {code or 'this checkout'}, {python} ({versions(python)})")
    print()
    for line in table_lines(times, words, [side for side, _, _ in sides]):
        print(line)
    print()
    for side, _, _ in sides:
        if (side, "full") in keys and (side, "prune") in keys:
            full, prune = keys[(side, "full")], keys[(side, "prune")]
            agreement = len(full & prune) / len(full) if full else 1.0
            print(f"{side}: agreement of prune with full: {agreement:.2%} of {len(full)} full instances "
                  f"({len(full - prune)} missed, {len(prune - full)} only in prune) (target 100 %)")
        for strategy in ("full", "prune"):
            if (side, strategy) in keys:
                print(f"{side}: {strategy} instances: {len(keys[(side, strategy)])}")
        if peaks[side] is not None:
            print(f"{side}: peak memory, book {memory_book} alone, prune, 1 worker: {peaks[side]:,.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
