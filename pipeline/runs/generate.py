"""Generate run: instances (extract output) or a GAP TSV -> counterfactual quadruples.

Read (instances Parquet / GAP TSV, spaCy for GAP texts) -> the pure cores
(:mod:`pipeline.core.quadruples`, :mod:`pipeline.core.gap_rows`, :mod:`pipeline.core.recheck`,
:mod:`pipeline.core.title_periods`) -> write ``quadruples.parquet`` + ``quadruples.tsv`` (and
with ``no_title_period`` their evaluation variant ``quadruples-nodot.*``) together through
:func:`pipeline.formats.files.staged_outputs` -> a summary (:mod:`pipeline.report.generate`).
``dataset`` with ``no_title_period`` writes the variant without title periods of any dataset we
made (a quadruples / dataset Parquet or a GAP TSV). Manual: ``docs/generate.md``.

May import: :mod:`pipeline.errors`, :mod:`pipeline.vocab`, :mod:`pipeline.formats`,
:mod:`pipeline.lang`, :mod:`pipeline.nlp`, :mod:`pipeline.core`, :mod:`pipeline.report`.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field
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


def _gap_instances(path: Path, args, stats: dict) -> list[tuple]:
    from tqdm import tqdm

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
    nlp = nlp_mod.load(args.model)
    reasons: Counter = Counter()
    out = []
    # the whole pipeline: tags and dependencies decide her/his, NER finds the names
    docs = nlp.pipe((r["Text"] for r in rows), batch_size=args.batch_size)
    added_total = 0
    refused = stats["refused"] = []
    overrides = _cast(args)
    for row, doc in tqdm(zip(rows, docs), total=len(rows), desc="generate: NER on GAP texts", unit="row"):
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


def tsv_rows(rows: list[dict]) -> list[dict]:
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
    write_gap_tsv(tsv_rows(rows), stage / f"{stem}.tsv", extra_columns=["Book"])


def _run_dataset(args) -> int:
    """--dataset FILE --no-title-period: the evaluation variant of an existing dataset."""
    from pipeline.core.instances import GenerateError
    from pipeline.core.title_periods import strip_title_periods_gap, strip_title_periods_row
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs
    from pipeline.formats.gap_tsv import GAP_COLUMNS, read_gap_tsv, write_gap_tsv
    from pipeline.formats.tables import read_table, records_to_table, write_table

    if not args.no_title_period:
        raise InputError("--dataset is only used with --no-title-period")
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
            write_gap_tsv(tsv_rows(new), stage / f"{stem}.tsv", extra_columns=["Book"])
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
    ``gap_tsv`` and ``dataset``."""
    out: str
    instances: str | None = None
    gap_tsv: str | None = None
    dataset: str | None = None
    gendered_words: list[str] = field(default_factory=list)
    name_forms: str = "person"
    no_title_period: bool = False
    skip_bad_rows: bool = False
    model: str | None = None
    batch_size: int = 64
    cast: Path | None = None
    no_recheck: bool = False


def generate(args: GenerateSettings) -> int:
    """The whole generate run -> the exit status."""
    from tqdm import tqdm

    from pipeline.core.instances import GenerateError
    from pipeline.core.quadruples import quadruple
    from pipeline.core.title_periods import strip_title_periods_row
    from pipeline.formats.files import staged_outputs
    from pipeline.lang import gendered_words as gw

    if args.dataset:
        return _run_dataset(args)
    _cast(args)                     # a bad cast file stops the run before anything is read
    words = gw.load(args.gendered_words)
    out_dir = Path(args.out)
    stats: dict = {"word_lists": words.sources}
    from pipeline.formats import run_record
    from pipeline.nlp.load import resolve_model_name
    run_record.note(word_lists=list(words.sources), name_forms=args.name_forms)
    if args.gap_tsv or not args.no_recheck:
        run_record.note(model=resolve_model_name(args.model))
    if args.instances:
        path = instances_path(args.instances)
        insts, bad = _read_instances(path, args.skip_bad_rows)
        stats["bad_rows"] = bad
        # extract completed the mentions NER missed (pipeline.core.instances.completed)
        items = [(inst, inst.get("instance_id") or str(k), None, None, None, "extract")
                 for k, inst in enumerate(insts, start=1)]
    else:
        path = Path(args.gap_tsv)
        items = [(inst, qid, ac, bc, url, f"gap-tsv:{path.name}")
                 for inst, qid, ac, bc, url in _gap_instances(path, args, stats)]

    rows: list[dict] = []
    words_count: Counter = Counter()
    name_swaps: Counter = Counter()
    constructed = 0
    originals: Counter = Counter()
    from pipeline.errors import InputError

    made = []
    for k, (inst, qid, ac, bc, url, source) in enumerate(tqdm(items, desc="generate: quadruples", unit="quadruple"), 1):
        try:
            recs, edits = quadruple(inst, qid, source, url, ac, bc, words=words, name_forms=args.name_forms)
        except GenerateError as exc:      # a guard on what is written: never half a file
            if not args.skip_bad_rows:
                raise InputError(f"cannot generate quadruple {qid}: {exc}", path) from None
            log.warning("%s: quadruple %s skipped: %s", path, qid, exc)
            stats["bad_rows"] = stats.get("bad_rows", 0) + 1
            continue
        made.append((inst, recs, edits))
    casts = None
    if args.instances and not args.no_recheck:
        casts = _book_casts(path, {inst.get("book_id") or "" for inst, _, _ in made})
    recheck = None if args.no_recheck else _recheck(made, args, words, casts)
    if recheck is not None:
        recheck["with_book_cast"] = casts is not None
    if recheck is not None:
        made = [m for m, ok in zip(made, recheck["ok"]) if ok]
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

            write_json(stage / RECHECK_FILE, {k: v for k, v in recheck.items() if k != "ok"})

    from pipeline.report.generate import summary

    print(summary(path, out_dir, len(rows) // 4, stats, originals, words_count, name_swaps, constructed,
                  nodot is not None, recheck))
    return 0



def _cast(args) -> dict | None:
    """The cast file's overrides (``--cast``), or None."""
    if getattr(args, "cast", None) is None:
        return None
    from pipeline.formats.cast import read_cast_overrides

    from pipeline.lang.names import title_gender

    return read_cast_overrides(args.cast, title_gender)


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
    from pipeline.formats.tables import read_table
    from pipeline.lang.evidence_json import EvidenceVersionError, loads

    ev_path, men_path = path.parent / "evidence.parquet", path.parent / "mentions.parquet"
    if not ev_path.is_file():
        return None
    mentions: dict[str, list[dict]] = {b: [] for b in book_ids}
    wanted = [("book_id", "in", sorted(book_ids))]
    if men_path.is_file():
        t = read_table(men_path, columns=["book_id", "kind", "text", "title", "gender"],
                       filters=wanted + [("kind", "=", "name")])
        for m in t.to_pylist():
            mentions[m["book_id"]].append(m)
    casts = {}
    for i, row in enumerate(read_table(ev_path, filters=wanted).to_pylist(), start=1):
        try:
            ev = loads(row["evidence"])
        except (EvidenceVersionError, ValueError) as exc:
            raise InputError(str(exc), ev_path, i) from None
        casts[row["book_id"]] = BookCast.from_mentions(row["book_id"], ev, mentions.get(row["book_id"], []))
    return casts


def _recheck(made: list[tuple], args, words, book_casts: dict | None = None) -> dict:
    """Run the person detection again on the four texts of every quadruple (nlp.pipe in
    batches) and check them (:func:`pipeline.core.recheck.recheck_quadruple`). Returns
    ``ok`` (one bool per quadruple), ``checked``, ``dropped`` (reason -> quadruples) and
    ``quadruples`` (id, variant, reason, words of each dropped one)."""
    from tqdm import tqdm

    from pipeline.core.cast import EVIDENCE_KEY
    from pipeline.core.recheck import recheck_quadruple
    from pipeline.lang.book_evidence import overrides_only
    from pipeline.nlp import load as nlp_mod

    nlp = nlp_mod.load(args.model)
    texts = (r["text"] for _, recs, _ in made for r in recs)
    docs = nlp.pipe(texts, batch_size=args.batch_size)
    ok, dropped, listed = [], Counter(), []
    overrides = _cast(args)
    casts = book_casts if book_casts is not None else {}
    for inst, recs, edits in tqdm(made, desc="generate: re-check", unit="quadruple"):
        four = [next(docs) for _ in recs]
        cast = casts.get(inst.get("book_id") or "")
        if cast is not None:
            ev = cast.evidence
            if overrides:
                import dataclasses

                ev = with_overrides(ev, inst.get("book_id") or "", overrides)
                cast = dataclasses.replace(cast, evidence=ev)
            for d in four:
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
            "quadruples": listed}
