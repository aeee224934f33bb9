"""The rows to annotate (a run: it reads the file and may load spaCy), from either input the annotation commands take as ``--quadruples``:

* ``quadruples.parquet`` of ``generate`` (schema QUADRUPLES: the persons and their name
  mentions are in its ``names`` column), or
* a GAP TSV file -- GAP's files, or Counter-GAP's csv-quoted releases with their ``Book``
  column, read by :func:`pipeline.formats.gap_tsv.read_gap_tsv` -- whose persons are found
  with the project's spaCy pipeline (:func:`pipeline.nlp.load.load`, person layer included)
  and converted by the pure :func:`pipeline.annotation.core.gap_persons.gap_records`.

The kind is decided by content: a file that starts with Parquet's magic bytes ``PAR1`` is
Parquet, anything else is read as GAP TSV. ``annotate-export``, ``annotate-serve`` and
``annotate-import`` all read through :func:`annotation_rows`, so the three see the same rows and
persons for the same file and ``--model``; the SQLite guard still ties answers to the file's
sha256.

Used by the annotation commands and served by :mod:`pipeline.annotation.web.app` (web apps only
serve: the reading and the spaCy run are here).

May import: the standard library, tqdm, :mod:`pipeline.errors`, :mod:`pipeline.annotation.core.questions`,
:mod:`pipeline.annotation.core.gap_persons`, :mod:`pipeline.formats`, :mod:`pipeline.nlp.load` (inside
functions); also :mod:`pipeline.nlp`.
"""

from __future__ import annotations

from pathlib import Path

from pipeline.errors import InputError

PARQUET_MAGIC = b"PAR1"
PARQUET, GAP_TSV = "parquet", "gap-tsv"
SHOW_IDS = 10


def input_kind(path) -> str:
    """``parquet`` or ``gap-tsv``, by the file's first bytes."""
    from pipeline.formats.files import read_head

    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path)
    return PARQUET if read_head(path, 4) == PARQUET_MAGIC else GAP_TSV


def annotation_rows(path, model: str | None = None, batch_size: int = 64) -> tuple[list[dict], dict]:
    """(rows, conversion info) of a quadruples Parquet file or a GAP TSV file.

    The rows are QUADRUPLES records checked by :func:`pipeline.annotation.core.questions.check_rows`.
    The info says ``kind``; for a GAP TSV also ``model``, ``rows``, ``quadruples``,
    ``quadruples_kept``, ``rows_kept``, ``rejected`` (row id, reason) and
    ``dropped_with_quadruple`` (converted rows left out with their quadruple), ``reasons``.
    A GAP TSV of which no row can be converted is bad input."""
    from pipeline.annotation.core.questions import check_rows, quadruple_rows

    path = Path(path)
    if input_kind(path) == PARQUET:
        from pipeline.formats.tables import read_table

        return quadruple_rows(read_table(path), path), {"kind": PARQUET}

    from tqdm import tqdm

    from pipeline.annotation.core.gap_persons import gap_records
    from pipeline.formats.gap_tsv import read_gap_tsv
    from pipeline.nlp import load as nlp_load

    gap, _ = read_gap_tsv(path)
    if not gap:
        raise InputError("no rows", path)
    seen: set[str] = set()
    for row in gap:
        if str(row["ID"]) in seen:
            raise InputError(f"duplicate ID {row['ID']!r}", path)
        seen.add(str(row["ID"]))
    nlp = nlp_load.load(model)
    name, version = nlp_load.model_id(nlp)
    docs = tqdm(nlp.pipe((r["Text"] for r in gap), batch_size=batch_size), total=len(gap),
                desc="annotation: persons of the GAP texts", unit="row", disable=len(gap) < 50)
    conv = gap_records(gap, docs, source=f"gap-tsv:{path.name}")
    info = {"kind": GAP_TSV, "model": f"{name} {version}", "rows": conv.rows,
            "quadruples": conv.quadruples, "quadruples_kept": conv.quadruples_kept,
            "rows_kept": len(conv.records), "rejected": conv.rejected,
            "dropped_with_quadruple": conv.dropped_with_quadruple, "reasons": conv.reasons()}
    if not conv.records:
        raise InputError(f"none of the {conv.rows} rows could be converted ("
                         + "; ".join(f"{r}: {n}" for r, n in info["reasons"].items()) + ")", path)
    return check_rows(conv.records, path), info


def conversion_report(info: dict) -> list[str]:
    """Summary lines of a GAP TSV conversion (empty for Parquet input)."""
    if info.get("kind") != GAP_TSV:
        return []
    lines = [f"GAP TSV: {info['rows']} rows in {info['quadruples']} quadruple(s); persons found with "
             f"{info['model']}; {info['rows_kept']} rows of {info['quadruples_kept']} quadruple(s) kept"]
    rejected = info["rejected"]
    if rejected:
        ids = [i for i, _ in rejected]
        lines.append(f"{len(rejected)} row(s) could not be converted and were left out ("
                     + "; ".join(f"{r}: {n}" for r, n in info["reasons"].items()) + "): "
                     + ", ".join(ids[:SHOW_IDS]) + (" ..." if len(ids) > SHOW_IDS else ""))
    dropped = info["dropped_with_quadruple"]
    if dropped:
        lines.append(f"{len(dropped)} other row(s) of those quadruples left out with them: "
                     + ", ".join(dropped[:SHOW_IDS]) + (" ..." if len(dropped) > SHOW_IDS else ""))
    return lines
