"""Persons run: books -> the cast of every book.

One book: read it as extract does (:mod:`pipeline.formats.books`), gather the book's evidence
over its whole text (:mod:`pipeline.lang.book_evidence`, with the researcher's ``--cast``
overrides), run the spaCy pipeline with the person layer over every chunk, and keep the person
mentions exactly as extract keeps them (:func:`pipeline.core.cast.doc_mentions`); then group
them into persons (:func:`pipeline.core.cast.cast_rows`). Writes ``OUT/persons.parquet`` (one
row per mention), ``OUT/cast.parquet`` and ``OUT/cast.tsv`` (one row per person per book; edit
its gender column and give it back with ``--cast``).

Resume: each unit's rows are kept in its partition ``OUT/parts/<partition>/``
(:mod:`pipeline.runs.partitions`, as extract lays them out; ``books.json`` marks it done);
``OUT/manifest.json`` holds the settings (model, pipeline components, cast file hash); a rerun
with other settings is refused unless ``overwrite``. The run holds OUT's lock; ``overwrite``
removes only what persons writes (its manifest, partitions and merged files) and a folder
holding another command's manifest or partitions (extract's) is refused with or without it;
the partition markers and the manifest are written atomically (and read) by
:mod:`pipeline.formats.persons_output`; a partition whose marker is missing, cut or garbled is
done again, and a manifest that is cut or garbled stops the run with one line naming it
(exit 2). An ``--out`` inside the corpus folder is refused.

May import: :mod:`pipeline.errors`, :mod:`pipeline.formats` (its manifest and markers:
:mod:`pipeline.formats.persons_output`), :mod:`pipeline.lang`,
:mod:`pipeline.nlp`, :mod:`pipeline.core`, :mod:`pipeline.engines`, :mod:`pipeline.runs.partitions`; also :mod:`pipeline.report.persons`.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from pathlib import Path

from pipeline.formats.persons_output import DONE, KIND, MANIFEST
from pipeline.runs.partitions import Partitions, unit_books, unit_cast

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PersonsSettings:
    """What one persons run is given (the command's options): ``out`` and ``cast`` become
    :class:`Path`, ``corpus`` a :class:`pipeline.formats.books.CorpusSpec` (a path given is read
    with the default reader options); checked when built (one
    :class:`pipeline.errors.InputError` line, the command's messages)."""
    out: Path | None
    corpus: object                  # a pipeline.formats.books.CorpusSpec, or the corpus path
    model: str | None = None
    workers: int = 1
    cast: Path | None = None
    overwrite: bool = False
    explain: str | None = None      # --explain FORM: print the decisions about FORM, write nothing
    book: str | None = None         # with explain: only this book

    def __post_init__(self):
        from pipeline.errors import InputError
        from pipeline.runs.partitions import check_workers
        from pipeline.runs.settings import as_paths

        as_paths(self, "out", "cast")
        object.__setattr__(self, "corpus", as_corpus(self.corpus))
        if self.explain is not None:
            explained_form(self.explain)
            return
        if self.out is None or self.book is not None:
            raise InputError("--out DIR is needed (and --book only goes with --explain)")
        check_workers(self.workers)


def as_corpus(corpus):
    """A :class:`pipeline.formats.books.CorpusSpec` as given, or one of a corpus path (str or
    os.PathLike) with the default reader options."""
    import os

    from pipeline.errors import InputError
    from pipeline.formats.books import CorpusSpec

    if isinstance(corpus, CorpusSpec):
        return corpus
    if isinstance(corpus, (str, os.PathLike)):
        return CorpusSpec(path=os.fspath(corpus))
    raise InputError(f"corpus must be a CorpusSpec or a path, got {type(corpus).__name__}")


def explained_form(form: str) -> str:
    """The form of ``--explain FORM`` with its spaces made single; an empty one is refused."""
    from pipeline.errors import InputError

    form = " ".join(form.split())
    if not form:
        raise InputError("--explain needs a form (a name as written, e.g. Diamond)")
    return form


def _book_row(book_id: str, path: str, status: str = "ok", skip_reason: str = "") -> dict:
    return {"book_id": book_id, "path": path, "status": status, "skip_reason": skip_reason, "n_words": 0,
            "n_mentions": 0, "n_persons": 0, "seconds": 0.0}


def process_unit(unit, spec, model: str | None, cast: dict | None) -> list:
    """Read one unit of the corpus (as extract does) and find the persons of each of its books
    -> a list of (book row, mention rows, cast rows); never raises for bad data. ``cast``: the
    ``--cast`` overrides, read once by the run (:func:`pipeline.runs.partitions.check_cast`)."""
    from pipeline.formats.books import Skip, read_unit

    out = []
    for item in read_unit(unit, spec):
        if isinstance(item, Skip):
            values = item.row_values()
            out.append((_book_row(values["book_id"], values["path"], values["status"], values["skip_reason"]),
                        [], []))
        else:
            out.append(process_book(item, model, cast))
    return out


def process_book(book, model: str | None, overrides: dict | None):
    """-> (book row, mention rows, cast rows) of one book that was read."""
    from pipeline.core.cast import cast_rows, doc_mentions, resolve_in_context
    from pipeline.core.extract import CHUNK_CHARS, chunk_paragraphs, count_words
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp.prune import run_components

    t0 = time.perf_counter()
    row = _book_row(book.book_id, book.path)
    try:
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
        mentions, cast = cast_rows(book.book_id, records, getattr(evidence, "aliases", None))
    except Exception as exc:  # noqa: BLE001 -- one bad book must not stop the corpus
        log.debug("book %s failed", book.path, exc_info=True)
        row.update(status="skipped", skip_reason=f"error: {type(exc).__name__}: {exc}")
        return row, [], []
    if not mentions:
        log.warning("%s: no person found", book.path)
    row.update(n_words=words, n_mentions=len(mentions), n_persons=len(cast), seconds=time.perf_counter() - t0)
    return row, mentions, cast


def _settings(s: PersonsSettings, spec, cast) -> dict:
    """The manifest's settings (``cast``: the run's :class:`pipeline.formats.cast.CastFile`, read
    once, or None); loads the model: a missing one stops the run before anything is written."""
    import spacy

    from pipeline.formats.cast import cast_fingerprint
    from pipeline.formats.fingerprint import run_fingerprint
    from pipeline.nlp import load as nlp_mod

    nlp = nlp_mod.load(s.model)
    name, version = nlp_mod.model_id(nlp)
    return {"kind": KIND, "model": f"{name}-{version}", "components": nlp.pipe_names,
            "spacy_version": spacy.__version__, "cast_sha256": cast_fingerprint(cast),
            "corpus": spec.settings(), "fingerprint": run_fingerprint(nlp_mod.resolve_model_name(s.model))}


OUTPUTS = ("persons.parquet", "cast.parquet", "cast.tsv")     # the merged files in OUT
PART_FILES = ("persons.parquet", "cast.parquet", DONE)           # the files of one partition


def _open_output(out: Path, settings: dict, overwrite: bool) -> None:
    """Start afresh (``overwrite``) or check that the run already in ``out`` has these settings;
    then write the manifest. ``overwrite`` removes only what a persons run writes (its
    manifest, its partitions, its merged files): a folder holding another command's manifest or
    partitions is refused, with or without it (the guard extract has)."""
    from pipeline.errors import InputError
    from pipeline.formats.fingerprint import check_fingerprint
    from pipeline.formats.out_guard import check_out, remove_own
    from pipeline.formats.persons_output import read_persons_manifest, write_persons_manifest

    manifest = out / MANIFEST
    check_out(out, KIND, "parts", PART_FILES)       # the guard every command with --overwrite shares
    old = read_persons_manifest(manifest) if manifest.exists() else None
    if old is None and not overwrite and (out / "parts").is_dir() and any((out / "parts").iterdir()):
        raise InputError("holds persons partitions without a manifest (an interrupted start or an older "
                         "version): use --overwrite to start afresh, or another --out", out / "parts")
    if out.exists() and overwrite:
        remove_own(out, OUTPUTS + (MANIFEST,), ("parts",))
        old = None
    if old is not None:
        changed = [k for k in settings if k != "fingerprint" and old.get(k) != settings[k]]
        if changed:
            raise InputError(f"a persons run with other settings is here ({', '.join(changed)} differ): "
                             "use --overwrite or another --out", out)
        check_fingerprint(old.get("fingerprint"), settings["fingerprint"], manifest)
    out.mkdir(parents=True, exist_ok=True)
    write_persons_manifest(manifest, settings)


def _done_rows(d: Path) -> list | None:
    """The book rows of a done partition; None when its marker is missing, cut or garbled, or a
    file of the partition is missing (a partition to redo, never a traceback)."""
    from pipeline.errors import InputError
    from pipeline.formats.persons_output import read_done

    try:
        rows = read_done(d / DONE)
    except InputError:
        return None
    return rows if all((d / f).exists() for f in PART_FILES) else None


def persons(s: PersonsSettings):
    """The whole persons run -> a :class:`pipeline.runs.settings.RunResult`: the exit status,
    the merged files written in ``s.out`` and ``run.json``'s settings (the resolved spaCy
    model). ``explain``: :func:`explain` instead (nothing written, the same settings)."""
    from pipeline.nlp.load import resolve_model_name
    from pipeline.runs.settings import RunResult

    recorded = {"model": resolve_model_name(s.model)}        # run.json's settings
    if s.explain is not None:
        status = explain(ExplainSettings(form=s.explain, corpus=s.corpus, book=s.book, model=s.model, cast=s.cast))
        return RunResult(status, settings=recorded)
    status = _persons(s)
    return RunResult(status, outputs=tuple(s.out / name for name in OUTPUTS), settings=recorded)


def _persons(s: PersonsSettings) -> int:
    from pipeline.errors import InputError
    from pipeline.formats.books import check_out_outside, plan_corpus
    from pipeline.formats.files import output_lock
    from pipeline.runs.partitions import check_cast

    plan = plan_corpus(s.corpus)
    spec = plan.spec
    cast = check_cast(s.cast, plan)          # read once per run: hashed and parsed
    out: Path = s.out
    if out.exists() and not out.is_dir():
        raise InputError("not a directory", out)
    check_out_outside(spec.path, out)          # its outputs would be read as books next time
    settings = _settings(s, spec, cast)
    with output_lock(out, remove_if_created=True):      # one persons run per OUT
        return _run(s, plan, spec, cast, out, settings)


def _run(s: PersonsSettings, plan, spec, cast, out: Path, settings: dict) -> int:
    from pipeline import engines
    from pipeline.errors import InputError
    from pipeline.formats import schemas
    from pipeline.formats.cast import write_cast_tsv
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.persons_output import read_done, write_done
    from pipeline.formats.tables import read_table, write_records

    _open_output(out, settings, s.overwrite)
    parts = Partitions(out, (DONE,))
    todo = [(u, spec, s.model, unit_cast(cast, u)) for u in plan.units if _done_rows(parts.dir(u.key)) is None]

    def write(task, results) -> int:
        d = parts.dir(task[0].key)
        d.mkdir(parents=True, exist_ok=True)
        with staged_outputs(d) as stage:
            write_records([m for _, ms, _ in results for m in ms], stage / "persons.parquet", schemas.PERSONS)
            write_records([c for _, _, cs in results for c in cs], stage / "cast.parquet", schemas.CAST)
        write_done(d / DONE, [r for r, _, _ in results])       # atomic: the done marker, written last
        for row, _, _ in results:
            if row["status"] not in ("ok", "duplicate", "excluded"):
                log.warning("%s: %s (%s)", row["path"], row["status"], row["skip_reason"])
        return sum(r["n_words"] for r, _, _ in results)

    def lost(task, reason):          # a batch of zip members: a row for each member
        return [(_book_row(book_id, path, "skipped", reason), [], []) for path, book_id in unit_books(task[0])]

    t0 = time.perf_counter()
    words = engines.run_books(todo, process_unit, write, lost=lost, workers=s.workers,
                              label=lambda t: t[0].rel)
    elapsed = time.perf_counter() - t0
    persons_rows, cast, books = [], [], []
    for d in parts.done(u.key for u in plan.units):
        try:
            rows = read_done(d / DONE)
        except InputError as exc:       # done a moment ago: written by another process meanwhile?
            raise InputError(f"{str(exc).removeprefix(f'{d / DONE}: ')} (changed since it was written?); "
                             "run again", d / DONE) from None
        books += rows
        persons_rows += read_table(d / "persons.parquet").to_pylist()
        cast += read_table(d / "cast.parquet").to_pylist()
    with staged_outputs(out) as stage:
        write_records(persons_rows, stage / "persons.parquet", schemas.PERSONS)
        write_records(cast, stage / "cast.parquet", schemas.CAST)
        write_cast_tsv(cast, stage / "cast.tsv")
    from pipeline.report.persons import summary

    print(summary(books, persons_rows, cast, len(todo), words, elapsed, out))
    return 0


# ------------------------------------------------------------------ --explain ---------------

MAX_EXPLAINED_PARAGRAPHS = 400      # the paragraphs holding the form that go through spaCy


@dataclass(frozen=True)
class ExplainSettings:
    """``persons --explain FORM [--book ID]``: what the pipeline decided about a form (its
    spaces made single; an empty form refused when built)."""
    form: str
    corpus: object                  # a pipeline.formats.books.CorpusSpec, or the corpus path
    book: str | None = None
    model: str | None = None
    cast: Path | None = None

    def __post_init__(self):
        from pipeline.runs.settings import as_paths

        as_paths(self, "cast")
        object.__setattr__(self, "corpus", as_corpus(self.corpus))
        object.__setattr__(self, "form", explained_form(self.form))


def explain(s: ExplainSettings) -> int:
    """Print every decision about ``s.form`` in each book of the corpus that writes it (or in
    ``s.book``): the book's evidence and its rules' decisions (:func:`pipeline.core.book_cast.
    form_facts`), then each occurrence's NER label and decision (:func:`pipeline.core.book_cast.
    explain_occurrences`), and how to override it. A form no book writes: one line, exit 0."""
    import re

    from pipeline.core.book_cast import explain_occurrences, form_facts
    from pipeline.core.extract import CHUNK_CHARS, chunk_paragraphs
    from pipeline.errors import InputError
    from pipeline.formats.books import Skip, plan_corpus, read_unit
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp import load as nlp_mod
    from pipeline.report.persons import explanation
    from pipeline.runs.partitions import check_cast

    form = s.form
    plan = plan_corpus(s.corpus)
    cast = check_cast(s.cast, plan)
    overrides = cast.overrides if cast is not None else None
    word = re.compile(rf"(?<![\w]){re.escape(form)}(?![\w])")
    nlp, shown, seen_book = None, 0, False
    for unit in plan.units:
        for book in read_unit(unit, plan.spec):
            if isinstance(book, Skip) or (s.book and book.book_id != s.book):
                continue
            seen_book = True
            if not word.search(book.text):
                continue
            nlp = nlp or nlp_mod.load(s.model)
            evidence = book_evidence(book.text, book.book_id, overrides)
            paragraphs = [(o, c) for o, c in chunk_paragraphs(book.paragraphs, CHUNK_CHARS // 4)
                          if word.search(c)][:MAX_EXPLAINED_PARAGRAPHS]
            occurrences = []
            for (offset, _), doc in zip(paragraphs, nlp.pipe(c for _, c in paragraphs)):
                occurrences += explain_occurrences(doc, form.split()[0] if " " in form else form, evidence, offset)
            print(explanation(book.book_id, book.title, form, form_facts(form, evidence), occurrences,
                              len(word.findall(book.text))))
            shown += 1
    if s.book and not seen_book:
        raise InputError(f"no book {s.book!r} in this corpus", getattr(s.corpus, "path", None))
    if not shown:
        where = f"book {s.book}" if s.book else "any book of the corpus"
        print(f"{form!r} does not occur in {where}: nothing was decided about it")
    return 0
