"""Persons stage: books -> the cast of every book (``python -m pipeline persons``).

One book: read it as extract does (:mod:`pipeline.formats.books`), gather the book's evidence
over its whole text (:mod:`pipeline.lang.book_evidence`, with the researcher's ``--cast``
overrides), run the spaCy pipeline with the person layer over every chunk, and keep the person
mentions exactly as extract keeps them (:func:`pipeline.core.cast.doc_mentions`); then group
them into persons (:func:`pipeline.core.cast.cast_rows`). Writes ``OUT/persons.parquet`` (one
row per mention), ``OUT/cast.parquet`` and ``OUT/cast.tsv`` (one row per person per book; edit
its gender column and give it back with ``--cast``).

Resume: each book's rows are kept in ``OUT/parts/<partition>/``; ``OUT/manifest.json`` holds
the settings (model, pipeline components, cast file hash); a rerun with other settings is
refused unless ``--overwrite``.

May import: every layer except other commands.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import re
import shutil
import time
from pathlib import Path

COMMAND = "persons"
HELP = "books -> every book's persons, their genders and evidence (persons.parquet, cast.parquet, cast.tsv)"
MANIFEST = "manifest.json"
KIND = "persons"

log = logging.getLogger(__name__)


def process_unit(unit, spec, model: str | None, cast_file: str | None) -> list:
    """Read one unit of the corpus (as extract does) and find the persons of each of its books
    -> a list of (book row, mention rows, cast rows); never raises for bad data."""
    from pipeline.formats.books import Skip, read_unit

    out = []
    for item in read_unit(unit, spec):
        if isinstance(item, Skip):
            values = item.row_values()
            out.append(({"book_id": values["book_id"], "path": values["path"], "status": values["status"],
                         "skip_reason": values["skip_reason"], "n_words": 0, "n_mentions": 0, "n_persons": 0,
                         "seconds": 0.0}, [], []))
        else:
            out.append(process_book(item, model, cast_file))
    return out


def process_book(book, model: str | None, cast_file: str | None):
    """-> (book row, mention rows, cast rows) of one book that was read."""
    from pipeline.core.cast import cast_rows, doc_mentions, resolve_in_context
    from pipeline.core.extract import CHUNK_CHARS, chunk_paragraphs, count_words
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp.prune import run_components

    t0 = time.perf_counter()
    row = {"book_id": book.book_id, "path": book.path, "status": "ok", "skip_reason": "", "n_words": 0,
           "n_mentions": 0, "n_persons": 0, "seconds": 0.0}
    try:
        overrides = _overrides(cast_file)
        nlp = nlp_mod.load(model)
        evidence = book_evidence(book.text, book.book_id, overrides)
        chunks = chunk_paragraphs(book.paragraphs, CHUNK_CHARS)
        comps = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
        docs = run_components(nlp, (nlp.make_doc(text) for _, text in chunks), comps)
        found, words = [], 0
        for (offset, _), doc in zip(chunks, docs):
            words += count_words(doc)
            for m in doc_mentions(doc, evidence):
                m.start, m.end = offset + m.start, offset + m.end
                found.append(m)
        records = [{"book_id": book.book_id, "start": m.start, "end": m.end, "text": m.text, "name": m.name,
                    "title": m.title, "gender": m.gender, "gender_source": m.gender_source}
                   for m in resolve_in_context(found)]
        mentions, cast = cast_rows(book.book_id, records)
    except Exception as exc:  # noqa: BLE001 -- one bad book must not stop the corpus
        log.debug("book %s failed", book.path, exc_info=True)
        row.update(status="skipped", skip_reason=f"error: {type(exc).__name__}: {exc}")
        return row, [], []
    if not mentions:
        log.warning("%s: no person found", book.path)
    row.update(n_words=words, n_mentions=len(mentions), n_persons=len(cast), seconds=time.perf_counter() - t0)
    return row, mentions, cast


def _overrides(cast_file: str | None):
    if not cast_file:
        return None
    from pipeline.formats.cast import read_cast_overrides

    return read_cast_overrides(Path(cast_file))


def _unit_book_id(unit) -> str:
    from pipeline.formats.corpus.walk import unit_book_id

    if unit.kind == "variants":
        return unit_book_id(unit.alternatives[0])
    return unit_book_id(unit) if unit.kind in ("file", "member") else unit.key


def partition(rel: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", rel).strip("._")[:60] or "book"
    return f"{slug}-{hashlib.sha256(rel.encode('utf-8')).hexdigest()[:12]}"


def add_arguments(p: argparse.ArgumentParser) -> None:
    from pipeline import options as opt
    from pipeline.formats.books import add_corpus_arguments

    opt.out_dir(p, "resumable; see --overwrite")
    opt.model(p)
    opt.workers(p)
    p.add_argument("--cast", type=Path, default=None,
                   help="overrides: an edited cast.tsv, or book_id<TAB>form<TAB>masculine|feminine|not-a-person")
    opt.overwrite(p, "a previous persons run in OUT")
    add_corpus_arguments(p)


def run(args) -> int:
    import spacy

    from pipeline import engines
    from pipeline.errors import InputError
    from pipeline.formats import run_record, schemas
    from pipeline.formats.books import corpus_spec, plan_corpus
    from pipeline.formats.cast import cast_fingerprint, check_books, read_cast_overrides, write_cast_tsv
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.fingerprint import check_fingerprint, run_fingerprint
    from pipeline.formats.tables import read_table, write_records
    from pipeline.nlp import load as nlp_mod

    if args.workers < 1:
        raise InputError("--workers must be at least 1")
    plan = plan_corpus(corpus_spec(args))
    spec = plan.spec
    if args.cast is not None:
        overrides = read_cast_overrides(args.cast)
        if all(u.kind in ("file", "member", "variants") for u in plan.units):   # ids known before reading
            check_books(overrides, {_unit_book_id(u) for u in plan.units}, args.cast)
    out: Path = args.out
    if out.exists() and not out.is_dir():
        raise InputError("not a directory", out)
    nlp = nlp_mod.load(args.model)
    name, version = nlp_mod.model_id(nlp)
    run_record.note(model=nlp_mod.resolve_model_name(args.model))
    settings = {"kind": KIND, "model": f"{name}-{version}", "components": nlp.pipe_names,
                "spacy_version": spacy.__version__, "cast_sha256": cast_fingerprint(args.cast),
                "corpus": spec.settings(), "fingerprint": run_fingerprint(nlp_mod.resolve_model_name(args.model))}
    manifest = out / MANIFEST
    if out.exists() and args.overwrite:
        shutil.rmtree(out / "parts", ignore_errors=True)
        manifest.unlink(missing_ok=True)
    if manifest.exists():
        try:
            old = json.loads(manifest.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise InputError(f"unreadable manifest: {exc}", manifest) from exc
        changed = [k for k in settings if k != "fingerprint" and old.get(k) != settings[k]]
        if changed:
            raise InputError(f"a persons run with other settings is here ({', '.join(changed)} differ): "
                             "use --overwrite or another --out", out)
        check_fingerprint(old.get("fingerprint"), settings["fingerprint"], manifest)
    out.mkdir(parents=True, exist_ok=True)
    manifest.write_text(json.dumps(settings, indent=2) + "\n", encoding="utf-8")

    def done(key: str) -> bool:
        return (out / "parts" / partition(key) / "books.json").exists()

    todo = [(u, spec, args.model, str(args.cast) if args.cast else None) for u in plan.units if not done(u.key)]

    def write(task, results) -> int:
        d = out / "parts" / partition(task[0].key)
        d.mkdir(parents=True, exist_ok=True)
        with staged_outputs(d) as stage:
            write_records([m for _, ms, _ in results for m in ms], stage / "persons.parquet", schemas.PERSONS)
            write_records([c for _, _, cs in results for c in cs], stage / "cast.parquet", schemas.CAST)
        (d / "books.json").write_text(json.dumps([r for r, _, _ in results]) + "\n", encoding="utf-8")
        for row, _, _ in results:
            if row["status"] not in ("ok", "duplicate", "excluded"):
                log.warning("%s: %s (%s)", row["path"], row["status"], row["skip_reason"])
        return sum(r["n_words"] for r, _, _ in results)

    def lost(task, reason):
        return [({"book_id": _unit_book_id(task[0]), "path": task[0].rel, "status": "skipped",
                  "skip_reason": reason, "n_words": 0, "n_mentions": 0, "n_persons": 0, "seconds": 0.0}, [], [])]

    t0 = time.perf_counter()
    words = engines.run_books(todo, process_unit, write, lost=lost, workers=args.workers,
                              label=lambda t: t[0].rel)
    elapsed = time.perf_counter() - t0
    persons, cast, books = [], [], []
    for u in plan.units:
        d = out / "parts" / partition(u.key)
        if not (d / "books.json").exists():
            continue
        books += json.loads((d / "books.json").read_text(encoding="utf-8"))
        persons += read_table(d / "persons.parquet").to_pylist()
        cast += read_table(d / "cast.parquet").to_pylist()
    with staged_outputs(out) as stage:
        write_records(persons, stage / "persons.parquet", schemas.PERSONS)
        write_records(cast, stage / "cast.parquet", schemas.CAST)
        write_cast_tsv(cast, stage / "cast.tsv")
    by_gender = {g: sum(1 for c in cast if c["gender"] == g) for g in ("masculine", "feminine", "unknown")}
    lines = ["", "persons summary", "---------------",
             f"books            {sum(b['status'] == 'ok' for b in books)} read ({len(todo)} this run), "
             f"{sum(b['status'] != 'ok' for b in books)} skipped",
             f"person mentions  {len(persons):,}",
             f"persons          {len(cast):,} (masculine {by_gender['masculine']:,}, feminine "
             f"{by_gender['feminine']:,}, unknown {by_gender['unknown']:,})"]
    lines += [f"{b['status']:<16} {b['path']}: {b['skip_reason']}" for b in books if b["status"] != "ok"]
    lines += [f"no person        {b['path']}" for b in books if b["status"] == "ok" and not b["n_persons"]]
    rate = words / elapsed if elapsed > 0 else 0.0
    lines += [f"elapsed          {elapsed:.1f} s, {rate:,.0f} words/s this run",
              f"output           {out}/persons.parquet, cast.parquet, cast.tsv, {MANIFEST}"]
    print("\n".join(lines))
    return 0
