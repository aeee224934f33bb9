"""Extract run: books -> GAP-pattern original instances (the per-book pipeline).

The corpus (:mod:`pipeline.formats.books`: folders, zips, compressed files, tables, sentence
files) is cut into units of work by :func:`pipeline.formats.books.plan_corpus`: a file, a zip
member (small members in batches: one opening, one partition), the Gutenberg copies of one
ebook, a range of table rows or sentence lines.
:func:`process_unit` reads one unit (the worker reads the source itself) and runs
:func:`process_book` on each of its books: cut into chunks, parsed, turned into records
(:mod:`pipeline.core.extract`, with spaCy run by :mod:`pipeline.nlp.prune`). It never raises: a
book that cannot be read or processed comes back as skipped with its reason, one left out by
the selection options as excluded. The engines (:mod:`pipeline.engines`: this process, a
local process pool, a Dask cluster) run it once per unit; this process alone writes each
unit's partition ``OUT/parts/<partition>/`` (:func:`write_part`, partitions as
:mod:`pipeline.runs.partitions` lays them out), then :func:`consolidate` merges the partitions
of the current corpus, and the rows of the files not read, into
``OUT/{books,mentions,instances,evidence,refused}.parquet``. :func:`extract` is the whole run
(``python -m pipeline extract`` parses its options and calls it).

Identity and resume: a book's id is given by where it is (:mod:`pipeline.formats.corpus.base`);
a unit's partition directory is a readable slug of its key (for a file: its corpus-relative
path) plus a hash of it (:func:`pipeline.runs.partitions.partition_name`), so no two units
share one. ``OUT/manifest.json`` records the settings that change results, the reader options
among them, and the run's fingerprint (:func:`pipeline.formats.fingerprint.run_fingerprint`:
the code's sha256, spaCy, the model, gender-guesser); a rerun into the same OUT with other
settings or other code is refused (exit 2, one line naming what changed) unless
``overwrite``. The whole run holds OUT's lock (:func:`pipeline.formats.files.output_lock`): a
second run into the same OUT is refused while the first is alive.

May import: :mod:`pipeline.errors`, :mod:`pipeline.vocab`, :mod:`pipeline.formats`,
:mod:`pipeline.lang`, :mod:`pipeline.nlp`, :mod:`pipeline.core`, :mod:`pipeline.engines`,
:mod:`pipeline.report`, :mod:`pipeline.runs.partitions`, :mod:`pipeline.runs.progress` (its
display: bars on a terminal, a line every 30 s elsewhere).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.partitions import Partitions, partition_name, unit_books, unit_label  # noqa: F401 (re-exported)

COMMAND = "extract"       # the manifest's command field

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
OUTPUTS = ("books.parquet", "mentions.parquet", "instances.parquet", "evidence.parquet", "refused.parquet")
PART_FILES = ("instances.parquet", "mentions.parquet", "evidence.parquet", "refused.parquet", "book.parquet")   # book.parquet: done marker
FAILED_FILE = "failed.parquet"    # a unit whose worker died twice: listed, not done (a rerun retries it)
FAILED = "failed"
MANIFEST_FORMAT = 2
# The settings compared on a rerun; the other manifest fields are for information.
COMPARED = ("model", "model_name", "model_version", "components", "spacy_version", "strategy",
            "chunk_chars", "max_sentences", "prune_margin", "prune_slack", "book_id_rule",
            "corpus", "cast_sha256", "window_rules")


@dataclass(frozen=True)
class ExtractSettings:
    """What one extract run is given (the command's options)."""
    out: Path
    corpus: object                  # a pipeline.formats.books.CorpusSpec
    model: str | None = None
    workers: int = 1
    strategy: str = "prune"
    scheduler: str | None = None
    overwrite: bool = False
    cast: Path | None = None        # or the CastFile already read (build reads it once for both stages)


# ------------------------------------------------------------------ one unit -------------

def process_unit(unit, spec, model: str | None = None, strategy: str = "prune", batch_size: int = 16,
                 cast: dict | None = None) -> list:
    """Read one unit of the corpus and extract each of its books -> a list of
    :class:`pipeline.core.extract.BookResult` (one per book, skipped/excluded/duplicate ones
    included). Never raises for bad data: a bad book or row is a skipped result with the
    reason. Runs in worker processes too (it reads the source itself and loads the model
    once per process). ``cast``: the ``--cast`` overrides, read once by the run
    (:func:`pipeline.runs.partitions.check_cast`), not the file."""
    from pipeline.formats.books import DUPLICATE, IdGuard, Skip, read_unit

    results, guard = [], IdGuard()
    t0 = time.perf_counter()
    for item in read_unit(unit, spec):
        if not isinstance(item, Skip):
            why = guard.check(item.book_id, f"{item.path}, row {item.row}" if item.row else item.path)
            if why:
                item = Skip.of(item, DUPLICATE, why)
        if isinstance(item, Skip):
            results.append(skip_result(item, strategy, time.perf_counter() - t0))
        else:
            results.append(process_book(item, model, strategy, batch_size, cast))
        t0 = time.perf_counter()
    return results


def skip_result(skip, strategy: str, seconds: float = 0.0):
    from pipeline.core import extract as core

    values = skip.row_values()
    return core.skipped_book(values.pop("path"), values.pop("book_id"), values.pop("skip_reason"),
                             status=values.pop("status"), strategy=strategy, seconds=seconds, **values)


def process_book(book, model: str | None = None, strategy: str = "prune", batch_size: int = 16,
                 cast: dict | None = None):
    """Parse and extract one book that was read -> :class:`pipeline.core.extract.BookResult`
    (``cast``: the run's ``--cast`` overrides, ``{book_id or "*": {form: gender}}``).

    Never raises for a bad book (KeyboardInterrupt aside): any error while processing it
    gives a skipped book with its reason."""
    from pipeline.core import extract as core

    t0 = time.perf_counter()
    info = dict(title=book.title, author=book.author, format=book.format, ebook=book.ebook,
                encoding=book.encoding, encoding_source=book.encoding_source, language=book.language,
                row=book.row, n_paragraphs=len(book.paragraphs), strategy=strategy)
    try:
        import spacy

        from pipeline.nlp import load as nlp_mod
        from pipeline.nlp.prune import parsed_docs

        nlp = nlp_mod.load(model)
        name, version = nlp_mod.model_id(nlp)
        meta = core.BookMeta(book.book_id, book.title, book.author, name, version, spacy.__version__)
        from pipeline.lang.book_evidence import book_evidence

        evidence = book_evidence(book.text, book.book_id, cast)
        chunks, owns = core.with_leads(core.chunk_paragraphs(book.paragraphs, core.CHUNK_CHARS), book.text)
        from pipeline.engines import report_progress

        instances, mentions, n = core.extract_chunks(
            parsed_docs(nlp, chunks, strategy, batch_size, evidence, owns), meta, evidence=evidence, progress=report_progress,
            owns=owns)
    except Exception as exc:    # noqa: BLE001 -- one bad book must not stop the corpus
        log.debug("book %s failed", book.path, exc_info=True)
        return core.skipped_book(book.path, book.book_id, f"error: {type(exc).__name__}: {exc}",
                                 seconds=time.perf_counter() - t0, **info)
    row = core.book_row(book_id=book.book_id, path=book.path, status="ok", n_words=n["words"],
                        n_name_mentions=n["names"], n_pronouns=n["pronouns"], n_instances=len(instances),
                        seconds=time.perf_counter() - t0, model=f"{name}-{version}",
                        rejected_windows=n.get("rejected", {}), **info)
    from pipeline.lang.evidence_json import dumps

    return core.BookResult(row, mentions, instances, refused=n.get("refused", []), evidence=dumps(evidence))



# ------------------------------------------------------------------ partitions -----------

def part_dir(out: Path, key: str) -> Path:
    return Partitions(out, PART_FILES).dir(key)


def is_done(out: Path, key: str) -> bool:
    return Partitions(out, PART_FILES).is_done(key)


def write_part(out: Path, key: str, results: list) -> None:
    """Write one unit's partition: the instances and mentions of its books together (staged),
    then ``book.parquet`` (one row per book), which marks the unit done. A crash leaves the
    unit not done. A failed unit (status ``failed``: its worker died twice) gets only
    ``failed.parquet``: listed in the merged ``books.parquet`` with its reason, but not done, so
    a rerun retries it. The caller holds OUT's lock (:func:`run`)."""
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.tables import write_records

    d = part_dir(out, key)
    (d / "book.parquet").unlink(missing_ok=True)
    if any(r.book["status"] == FAILED for r in results):
        d.mkdir(parents=True, exist_ok=True)
        write_records([r.book for r in results], d / FAILED_FILE, schemas.BOOKS)
        return
    (d / FAILED_FILE).unlink(missing_ok=True)
    with staged_outputs(d, lock=False) as stage:
        write_records([i for r in results for i in r.instances], stage / "instances.parquet", schemas.INSTANCES)
        write_records([m for r in results for m in r.mentions], stage / "mentions.parquet", schemas.MENTIONS)
        write_records(evidence_rows(results), stage / "evidence.parquet", schemas.EVIDENCE)
        write_records([x for r in results for x in r.refused], stage / "refused.parquet", schemas.REFUSED)
    write_records([r.book for r in results], d / "book.parquet", schemas.BOOKS)


def evidence_rows(results: list) -> list[dict]:
    """The ``EVIDENCE`` rows of a unit's results: one per book extracted (skipped books have none)."""
    from pipeline.lang.evidence_json import VERSION

    return [{"book_id": r.book["book_id"], "version": VERSION, "evidence": r.evidence}
            for r in results if r.evidence]


def consolidate(out: Path, keys: list[str], not_read: list[dict] | None = None,
                batches: tuple = ()) -> dict:
    """Merge the partitions of the units ``keys`` (the current corpus, in this order) and the
    rows ``not_read`` (files not read, sorted by path; placed in path order among the books)
    into ``OUT/{books,mentions,instances,evidence,refused}.parquet``, streaming one partition at a time (memory
    does not grow with the corpus). A book id already merged (a table whose id column repeats
    a value in another range of rows) makes the later book a duplicate: its row says so and its
    instances and mentions are left out. The three files are staged and published together.
    Partitions of units no longer in the corpus are left out. Returns summary counts."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from pipeline.errors import InputError
    from pipeline.formats import schemas
    from pipeline.formats.books import DUPLICATE, IdGuard
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.tables import read_table, table_streams

    def part_table(path: Path, schema) -> pa.Table:
        """A partition's table through the formats reader: a damaged one is one line naming it."""
        try:
            return read_table(path, schema=schema)
        except InputError as exc:
            raise InputError(f"{str(exc).removeprefix(f'{path}: ')}; remove the folder {path.parent.name} "
                             "to extract that unit again", path) from None

    parts = [part_dir(out, key) for key in keys if is_done(out, key)]
    batched = {part_dir(out, key).name for key in batches}      # keys of batches of zip members
    failed = [part_dir(out, key) / FAILED_FILE for key in keys
              if not is_done(out, key) and (part_dir(out, key) / FAILED_FILE).exists()]
    pending = list(not_read or [])
    for f in failed:
        pending.extend(part_table(f, schemas.BOOKS).to_pylist())
    pending.sort(key=lambda r: r["path"])
    pending.reverse()                                  # pop() from the smallest path
    counts: dict = {"patterns": Counter(), "names": Counter(), "pronouns": 0, "books": []}
    guard = IdGuard()
    merged = {"books.parquet": schemas.BOOKS, "mentions.parquet": schemas.MENTIONS,
              "instances.parquet": schemas.INSTANCES, "evidence.parquet": schemas.EVIDENCE,
              "refused.parquet": schemas.REFUSED}
    with staged_outputs(out) as stage, table_streams(stage, merged) as write:

        def emit_rows(rows: list[dict]) -> None:
            if rows:
                write["books.parquet"](pa.Table.from_pylist(rows, schema=schemas.BOOKS))
                counts["books"].extend(rows)

        for p in parts:
            rows = part_table(p / "book.parquet", schemas.BOOKS).to_pylist()
            if p.name in batched and pending:
                # a batch of zip members: a member not read (x.zip/b.png) goes between the
                # books (x.zip/a.txt, x.zip/c.txt) as it did when each member had its partition
                merged = []
                for row in rows:
                    while pending and pending[-1]["path"] < row["path"]:
                        merged.append(pending.pop())
                    merged.append(row)
                rows = merged
            first_path = rows[0]["path"] if rows else ""
            before = []
            while pending and pending[-1]["path"] < first_path:
                before.append(pending.pop())
            emit_rows(before)
            dropped = set()
            for row in rows:
                if row["status"] != "ok":
                    continue
                why = guard.check(row["book_id"], f"{row['path']}, row {row['row']}" if row["row"] else row["path"])
                if why:
                    dropped.add(row["book_id"])
                    row.update(status=DUPLICATE, skip_reason=why, n_instances=0, n_name_mentions=0,
                               n_pronouns=0, n_words=0)
            emit_rows(rows)
            keep = None if not dropped else (lambda t: t.filter(pc.invert(pc.is_in(t.column("book_id"),
                                                                                  pa.array(sorted(dropped))))))
            mentions = part_table(p / "mentions.parquet", schemas.MENTIONS)
            instances = part_table(p / "instances.parquet", schemas.INSTANCES)
            evidence = part_table(p / "evidence.parquet", schemas.EVIDENCE)
            refused = part_table(p / "refused.parquet", schemas.REFUSED)
            if keep:
                mentions, instances, evidence, refused = keep(mentions), keep(instances), keep(evidence), keep(refused)
            write["refused.parquet"](refused)
            write["mentions.parquet"](mentions)
            write["instances.parquet"](instances)
            write["evidence.parquet"](evidence)
            for pat, gen in zip(instances.column("pattern").to_pylist(), instances.column("pronoun_gender").to_pylist()):
                counts["patterns"][(pat, gen)] += 1
            kinds = mentions.column("kind")
            counts["names"].update(mentions.filter(pc.equal(kinds, "name")).column("gender").to_pylist())
            counts["pronouns"] += int(pc.sum(pc.equal(kinds, "pronoun")).as_py() or 0)
        pending.reverse()
        emit_rows(pending)
    counts["not_done"] = len(keys) - len(parts) - len(failed)
    return counts


# ------------------------------------------------------------------ manifest -------------

def run_settings(model: str, strategy: str, nlp=None, spec=None, cast=None) -> dict:
    """The settings of a run that change its results (``nlp``: the loaded pipeline; without it
    only the settings known before loading; ``spec``: the corpus options, whose reader
    settings are compared too; ``cast``: the run's :class:`pipeline.formats.cast.CastFile`,
    read once, or None)."""
    from pipeline.core import extract as core
    from pipeline.formats.books import BOOK_ID_RULE, CorpusSpec
    from pipeline.nlp import prune
    from pipeline.vocab import MAX_SENTENCES

    settings = {"model": model, "strategy": strategy,
                "chunk_chars": core.CHUNK_CHARS, "lead_chars": core.LEAD_CHARS, "max_sentences": MAX_SENTENCES,
                "prune_margin": prune.MARGIN, "prune_slack": prune.SLACK,
                "book_id_rule": BOOK_ID_RULE, "corpus": (spec or CorpusSpec(path="")).settings(),
                "window_rules": "fifth-person-v1"}
    from pipeline.formats.cast import cast_fingerprint
    settings["cast_sha256"] = cast_fingerprint(cast)
    if nlp is not None:
        import spacy

        from pipeline.nlp import load as nlp_mod

        settings["model_name"], settings["model_version"] = nlp_mod.model_id(nlp)
        settings["components"] = list(nlp.pipe_names)
        settings["spacy_version"] = spacy.__version__
        from pipeline.nlp import blas

        settings["blas"] = blas.ops_name(nlp)       # for information: same results either way
    return settings


def _differences(old: dict, new: dict) -> list[str]:
    diff = []
    for key in COMPARED:
        if key not in new or old.get(key) == new[key]:
            continue
        if isinstance(old.get(key), dict) and isinstance(new[key], dict):
            diff += [f"{key}.{k} {old[key].get(k)!r} -> {new[key].get(k)!r}"
                     for k in sorted(set(old[key]) | set(new[key])) if old[key].get(k) != new[key].get(k)]
        else:
            diff.append(f"{key} {old.get(key)!r} -> {new[key]!r}")
    return diff


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


def check_manifest(out: Path, old: dict | None, settings: dict, fingerprint: dict | None = None) -> None:
    """Refuse to resume ``old`` with other ``settings`` or, when given, another ``fingerprint``
    (one line naming what changed)."""
    from pipeline.errors import InputError
    from pipeline.formats.fingerprint import check_fingerprint

    if old is None:
        return
    diff = _differences(old["settings"], settings)
    if diff:
        raise InputError(f"settings differ from the run already in this directory: {'; '.join(diff)} "
                         "(use --overwrite to start afresh, or another --out)", out / MANIFEST)
    if fingerprint is not None:
        check_fingerprint(old.get("fingerprint"), fingerprint, out / MANIFEST)


def check_extract_out(out: Path) -> None:
    """Refuse an ``out`` holding another command's run (:func:`pipeline.formats.out_guard.check_out`,
    the guard every command with ``--overwrite`` shares): its manifest, or partitions with files
    extract does not write."""
    from pipeline.formats.out_guard import check_out as guard
    from pipeline.formats.unit_input import INPUT_FILE

    guard(out, COMMAND, "parts", PART_FILES + (FAILED_FILE, INPUT_FILE))


def clear_output(out: Path) -> None:
    """Remove what extract wrote into ``out`` (partitions, merged files, manifest, staging and
    temporary files), nothing else. The partitions are first renamed away, so a crash half-way
    never leaves a mix of old and new partitions under ``parts/``."""
    import shutil

    from pipeline.formats.out_guard import remove_own

    remove_own(out, OUTPUTS + (MANIFEST,), ("parts",))
    from pipeline.formats.files import JOURNAL, remove_stale_stages

    (out / JOURNAL).unlink(missing_ok=True)       # a half-published set of the old run: dropped
    remove_stale_stages(out)                      # the caller holds OUT's lock
    for stale in out.glob(".trash-*"):
        shutil.rmtree(stale, ignore_errors=True)
    for stale in out.glob(".tmp-*"):
        stale.unlink(missing_ok=True)


def write_manifest(out: Path, settings: dict, corpus: Path, fingerprint: dict) -> None:
    from datetime import datetime, timezone

    import pipeline
    from pipeline.formats.files import write_json

    write_json(out / MANIFEST, {
        "command": COMMAND, "format": MANIFEST_FORMAT, "settings": settings,
        "compared": list(COMPARED), "fingerprint": fingerprint,
        "info": {"package_version": pipeline.__version__, "corpus": str(Path(corpus).resolve()),
                 "created": datetime.now(timezone.utc).isoformat(timespec="seconds")},
    })


# ------------------------------------------------------------------ the run --------------

def extract(s: ExtractSettings):
    """The whole extract run into ``s.out`` (holding its lock) -> a
    :class:`~pipeline.runs.settings.RunResult`: the exit status (1 when a unit failed, else 0)
    and run.json's settings (the resolved model and the strategy)."""
    from pipeline.formats.books import check_out_outside
    from pipeline.formats.files import output_lock
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.settings import RunResult

    out: Path = s.out
    if out.exists() and not out.is_dir():
        from pipeline.errors import InputError

        raise InputError("not a directory", out)
    check_out_outside(s.corpus.path, out)          # its outputs would be read as books next time
    with output_lock(out, remove_if_created=True):      # re-entrant: the CLI may hold it already
        status = _run_locked(s, out)
    return RunResult(status, settings={"model": resolve_model_name(s.model), "strategy": s.strategy})


def _run_locked(s: ExtractSettings, out: Path) -> int:
    from pipeline import engines
    from pipeline.core.extract import skipped_book
    from pipeline.formats.books import plan_corpus
    from pipeline.formats.fingerprint import run_fingerprint
    from pipeline.nlp import load as nlp_mod
    from pipeline.runs.partitions import check_cast, check_workers, unit_cast

    check_workers(s.workers)
    plan = plan_corpus(s.corpus)
    spec = plan.spec
    cast = check_cast(s.cast, plan)       # read once (hashed and parsed), checked before anything is written
    model = nlp_mod.resolve_model_name(s.model)
    fingerprint = run_fingerprint(model)
    old = None
    check_extract_out(out)    # another command's manifest or partitions stop the run, --overwrite or not
    if (out / MANIFEST).exists() or (out / "parts").exists() or any((out / f).exists() for f in OUTPUTS):
        if s.overwrite:
            clear_output(out)
        else:
            old = read_manifest(out)
            check_manifest(out, old, run_settings(model, s.strategy, spec=spec, cast=cast), fingerprint)
    nlp = nlp_mod.load(model)      # fail fast with a one-line error when the model is missing
    settings = run_settings(model, s.strategy, nlp, spec=spec, cast=cast)
    check_manifest(out, old, settings)
    out.mkdir(parents=True, exist_ok=True)
    if old is None:
        write_manifest(out, settings, Path(spec.path), fingerprint)

    keys = [u.key for u in plan.units]
    from pipeline.formats.unit_input import check_inputs, record_input
    inputs, changed = check_inputs(plan.units, lambda k: part_dir(out, k), lambda k: is_done(out, k))
    if changed:            # edited in place since they were extracted: their partitions were removed
        print(f"{len(changed)} book file(s) changed since extracted (size or sha256), extracted again: "
              + ", ".join(changed[:5]) + (" ..." if len(changed) > 5 else ""))
    todo = [(u, spec, model, s.strategy, 16, unit_cast(cast, u)) for u in plan.units if not is_done(out, u.key)]
    done_before = len(keys) - len(todo)
    if s.workers > 1 or s.scheduler:
        todo.sort(key=lambda t: -t[0].size)   # biggest first: no long tail

    def write(task, results) -> int:
        record_input(part_dir(out, task[0].key), inputs[task[0].key])      # before the done marker
        write_part(out, task[0].key, results)
        for r in results:
            if r.book["status"] == FAILED:
                log.warning("%s: failed (%s); a rerun retries it", r.book["path"], r.book["skip_reason"])
            elif r.book["status"] == "skipped":
                where = f"{r.book['path']}, row {r.book['row']}" if r.book["row"] else r.book["path"]
                log.warning("%s: skipped (%s)", where, r.book["skip_reason"])
        return sum(r.book["n_words"] or 0 for r in results)

    def lost(task, reason):
        results = []
        for path, book_id in unit_books(task[0]):          # a batch of zip members: each member
            result = skipped_book(path, book_id, reason, strategy=s.strategy)
            result.book["status"] = FAILED
            results.append(result)
        return results

    t0 = time.perf_counter()
    from pipeline.runs import progress

    def bar(**kw):
        return progress.bar(**{**kw, "desc": f"extract: {kw.get('desc', '')}"})

    words = engines.run_books(todo, process_unit, write, lost=lost, workers=s.workers,
                              scheduler=s.scheduler, label=lambda t: t[0].key, bar=bar, books=lambda t: t[0].books)
    elapsed = time.perf_counter() - t0
    from pipeline.core.extract import book_row
    from pipeline.report.extract import summary

    not_read = [book_row(**k.row_values(), strategy=s.strategy) for k in plan.skips]
    counts = consolidate(out, keys, not_read, batches=tuple(u.key for u in plan.units if u.kind == "members"))
    print(summary(counts, elapsed, words, done_before, len(todo), out, language=spec.language))
    return 1 if any(b["status"] == FAILED for b in counts["books"]) else 0
