"""The ``label`` run (``python -m pipeline label`` parses the options into a
:class:`LabelSettings` and calls :func:`label`):
gold A-coref/B-coref for extracted instances (or generated quadruples) whose
context lies in coreference-annotated text (CoNLL-2012 clusters: LitBank, OntoNotes).

    python -m pipeline label --instances OUT_OR_FILE --coref DIR_OR_FILE --out DIR

Flow: arguments -> :mod:`pipeline.formats.tables` (instances.parquet or quadruples.parquet)
and :mod:`pipeline.formats.conll` (the annotated documents) -> :mod:`pipeline.core.label`
(locate each context, read the gold clusters) -> ``DIR/labelled.parquet`` (the input's columns
plus ``label``, ``a_coref``, ``b_coref``) and ``DIR/label_summary.json``, written together ->
the label distribution and the precision with its 95 % Wilson interval. Manual: docs/label.md.

May import: :mod:`pipeline.formats`, :mod:`pipeline.core`, :mod:`pipeline.errors`; also :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths


CONLL_SUFFIXES = (".conll", ".gold_conll", ".v4_gold_conll", ".conllu")


INPUT_NAMES = ("instances.parquet", "quadruples.parquet")


def input_file(path: Path) -> Path:
    from pipeline.errors import InputError

    if path.is_dir():
        for name in INPUT_NAMES:
            if (path / name).is_file():
                return path / name
        raise InputError(f"no {' or '.join(INPUT_NAMES)} in this directory", path)
    if not path.is_file():
        raise InputError("file not found", path)
    return path


def conll_files(path: Path) -> list[Path]:
    from pipeline.errors import InputError

    if path.is_file():
        return [path]
    if not path.is_dir():
        raise InputError("file or directory not found", path)
    files = sorted(p for p in path.rglob("*") if p.is_file() and p.name.endswith(CONLL_SUFFIXES))
    if not files:
        raise InputError(f"no CoNLL-2012 files ({', '.join(CONLL_SUFFIXES)}) in this directory", path)
    return files


def read_coref_documents(files: list[Path]):
    from tqdm import tqdm

    from pipeline.core.label import CorefDocument
    from pipeline.formats.conll import document_clusters, read_documents

    docs = []
    for f in tqdm(files, desc="CoNLL files", unit="file", disable=len(files) < 20):
        for d in read_documents(f):
            docs.append(CorefDocument(d.doc_id, list(d.words), document_clusters(d)))
    return docs


@dataclass(frozen=True)
class LabelSettings:
    """What one ``label`` run is given (the command's options)."""
    instances: Path             # instances.parquet or quadruples.parquet, or the directory holding one
    coref: Path                 # a CoNLL-2012 file with coreference clusters, or a directory of them
    out: Path

    def __post_init__(self):
        as_paths(self, "instances", "coref", "out")


def label(args: LabelSettings) -> RunResult:
    from tqdm import tqdm

    from pipeline.core.label import label_records, label_summary
    from pipeline.errors import InputError
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.tables import read_table, write_records
    from pipeline.vocab import pct

    source = input_file(Path(args.instances))
    table = read_table(source)
    names = set(table.column_names)
    quadruples = "variant" in names
    needed = {"text", "pronoun", "pronoun_offset", "a", "a_offset", "b", "b_offset"}
    missing = sorted(needed - names)
    if missing:
        raise InputError(f"not an instances or quadruples table: missing column(s) {', '.join(missing)}", source)
    if not table.num_rows:
        raise InputError("no rows: nothing to label", source)
    docs = read_coref_documents(conll_files(Path(args.coref)))
    if not docs:
        raise InputError("no '#begin document' in the CoNLL-2012 input: nothing to label against",
                         args.coref)
    records = table.to_pylist()
    labelled = label_records(tqdm(records, desc="labelling", unit="inst", disable=len(records) < 200), docs)
    schema = schemas.LABELLED_QUADRUPLES if quadruples else schemas.LABELLED_INSTANCES
    if not quadruples:
        for rec in labelled:          # instances from older runs may lack newer columns
            for f in schema.names:
                rec.setdefault(f, None)
    originals = [r for r in labelled if r.get("variant", "original") == "original"]
    summary = label_summary(r["label"] for r in originals)
    summary.update(input=str(source), coref=str(args.coref), documents=len(docs),
                   unit="quadruple originals" if quadruples else "instances")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with staged_outputs(out) as stage:
        write_records([{k: r.get(k) for k in schema.names} for r in labelled], stage / "labelled.parquet", schema)
        write_json(stage / "label_summary.json", summary)
    c = summary["counts"]
    unit = summary["unit"]
    print(f"label: {len(originals)} {unit} against {len(docs)} annotated documents")
    print("  " + ", ".join(f"{k} {c[k]}" for k in ("A", "B", "both", "neither", "unlabelled")))
    if summary["labelled"]:
        lo, hi = summary["interval_95"]
        print(f"  precision (pronoun refers to exactly one of A, B): {summary['valid']}/{summary['labelled']} = "
              f"{pct(summary['precision'])} % (95 % Wilson interval {pct(lo)} to {pct(hi)} %)")
    else:
        print("  no instance lies in annotated text: precision undefined")
    print(f"wrote {out / 'labelled.parquet'} and {out / 'label_summary.json'}")
    return RunResult(0, (out / "labelled.parquet", out / "label_summary.json"))
