"""The annotation import run: answers -> votes -> filters -> balanced final dataset + dataset card
(``python -m pipeline annotate-import`` parses its options and calls :func:`annotate_import`).

``--quadruples`` is the file that was annotated: ``quadruples.parquet`` or a GAP TSV file
(converted as at export, :mod:`pipeline.annotation.runs.rows`, with the same ``--model``).

Answers come from an MTurk results CSV or from the web app's SQLite file (detected by the
file's first bytes).

MTurk results CSV (what MTurk's "Download CSV" returns for a batch made by annotate-export):
``HITId``, ``AssignmentId``, ``WorkerId``, ``AssignmentStatus`` (optional; ``Rejected`` rows
are skipped), ``Input.qI_id`` / ``Input.qI_text`` / ``Input.qI_spans`` (the batch values,
HTML-escaped as exported) and ``Answer.qI_spans`` (JSON ``[[start, end, text], ...]``),
``Answer.qI_none`` (``true``/``false``; ``on``/empty accepted), ``Answer.qI_contradiction``
for every question I. Required: ``WorkerId``, ``AssignmentId``, ``Input.qI_id`` and the
three ``Answer.qI_*`` columns of every question. Other columns are ignored.

SQLite (``annotate-serve``): table ``answers(annotator, instance_id, spans, no_names,
contradiction, ...)``, see :mod:`pipeline.annotation.formats.store`.

Aggregation, filters and balancing are the pure core :mod:`pipeline.annotation.core.votes`; the SQLite
file is checked by :func:`pipeline.annotation.formats.store.read_answers` (same quadruples hash,
every stored highlight still reads the same text); the dataset card is
:mod:`pipeline.annotation.report`.

Annotator ids (names typed into annotate-serve, MTurk WorkerIds) are never published: every
id is replaced by a pseudonym ``a-<12 hex digits>``, an HMAC-SHA256 of the id with a private
salt -- kept in the SQLite file (``meta.annotator_salt``) or, for an MTurk CSV, in a private
file beside it (``RESULTS.salt``, mode 0600; ``--salt-file`` names another). The same salt
gives the same pseudonyms on every run. ``--annotator-ids FILE`` writes the private key
(pseudonym, raw id) to FILE (mode 0600; not inside ``--out``).

Outputs in ``--out``, written all-or-nothing (:func:`pipeline.formats.files.staged_outputs`):
a Hugging Face dataset directory (:mod:`pipeline.annotation.formats.hf_dataset`) -- ``README.md`` (YAML
metadata: configs ``default`` = ``dataset.parquet`` and ``votes`` = ``votes.parquet``, split
``test``, features, license; then the dataset card), ``dataset.parquet`` (schema QUADRUPLES,
labels filled), ``votes.parquet`` (schema ANNOTATION_VOTES) -- plus ``dataset.tsv`` (GAP TSV)
and ``summary.json``.

The MTurk layout and its reader are :mod:`pipeline.annotation.formats.mturk_csv`; the salt and the key
files :mod:`pipeline.annotation.formats.annotator_key`; the pseudonyms :mod:`pipeline.annotation.core.pseudonyms`.

May import: the standard library; inside functions: :mod:`pipeline.core`,
:mod:`pipeline.formats`, :mod:`pipeline.annotation.report`, :mod:`pipeline.annotation.formats.store`
(read_answers, annotator_salt),
:mod:`pipeline.annotation.runs.rows`, :mod:`pipeline.errors`, :mod:`pipeline.runs.settings`; also
:mod:`pipeline.vocab`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError

REAL_PEOPLE_RESOURCE = "real_people.txt"          # resources/real_people.txt
LICENSE = "unknown"


# ----------------------------------------------------------------- answers -----------------

def results_salt(results, kind: str, salt_file=None) -> str:
    """The private salt: the SQLite file's own, else the salt file (``RESULTS.salt`` or
    ``--salt-file``; created when missing)."""
    from pipeline.annotation.formats.annotator_key import salt_file as read_salt_file

    if kind == "sqlite" and salt_file is None:
        from pipeline.annotation.formats.store import annotator_salt

        return annotator_salt(results)
    return read_salt_file(Path(salt_file) if salt_file else Path(str(results) + ".salt"))


def read_answer_file(path, quadruples, known: dict) -> tuple[list, str, int]:
    """(answers, kind, rejected) from a results CSV or the annotate-serve SQLite file (told
    apart by the first bytes): the store's and the layout's readers, their records made
    :class:`pipeline.annotation.core.votes.Answer`."""
    from pipeline.annotation.core.questions import parse_spans
    from pipeline.annotation.core.votes import Answer
    from pipeline.annotation.formats.store import read_answers
    from pipeline.formats.files import read_head, sha256_file
    from pipeline.annotation.formats.mturk_csv import read_results as read_mturk_results

    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    magic = read_head(path, 16)
    texts = {k: q.text for k, q in known.items()}
    if magic.startswith(b"SQLite format 3"):
        records, rejected, kind = [], 0, "sqlite"
        for rec in read_answers(path, quadruples, sha256_file(quadruples), texts):
            try:
                records.append({**rec, "spans": parse_spans(rec["spans"])})
            except (ValueError, KeyError, TypeError) as exc:
                raise InputError(f"spans is not a JSON list of spans ({exc})", path, rec["row"]) from None
    else:
        records, rejected, encoding = read_mturk_results(path, texts, parse_spans)
        kind = "mturk-csv" if encoding == "UTF-8" else f"mturk-csv, read as {encoding}"
    answers = [Answer(r["annotator"], r["item"], r["spans"], r["none"], r["contradiction"], f"row {r['row']}")
               for r in records]
    return answers, kind, rejected


# ----------------------------------------------------------------- outputs -----------------

def publish(result, out, provenance: dict, license: str = LICENSE, fingerprint: dict | None = None) -> None:
    """Write the Hugging Face dataset directory, the GAP TSV and summary.json, all-or-nothing."""
    from pipeline.annotation.core.votes import dataset_gap_rows
    from pipeline.formats import schemas
    from pipeline.formats.files import staged_outputs, write_json
    from pipeline.formats.gap_tsv import write_gap_tsv
    from pipeline.annotation.formats.hf_dataset import Config, Split, write_hf_dataset
    from pipeline.formats.tables import records_to_table
    from pipeline.annotation.report import FILES, dataset_card

    dataset = records_to_table(result.dataset, schemas.QUADRUPLES)
    votes = records_to_table(result.votes, schemas.ANNOTATION_VOTES)
    configs = [Config("default", [Split("test", FILES["dataset"], dataset)],
                      "the final dataset: four instances per quadruple, labels by majority vote"),
               Config("votes", [Split("test", FILES["votes"], votes)],
                      "every annotated instance: answers per label, majority, agreement, flags")]
    summary = {"funnel": result.funnel, "provenance": provenance,
               **({"fingerprint": fingerprint} if fingerprint else {}),
               **{k: v for k, v in result.stats.items() if k != "invalid_examples"}}
    with staged_outputs(out) as stage:
        write_hf_dataset(stage, configs, dataset_card(result, provenance, license), license=license,
                         pretty_name="Counter-GAP-style counterfactual coreference test set",
                         language=["en"], task_categories=["token-classification"],
                         tags=["coreference-resolution", "gender-bias", "counterfactual"])
        write_gap_tsv(dataset_gap_rows(result.dataset), stage / FILES["tsv"], extra_columns=["Book"])
        write_json(stage / FILES["summary"], summary)


@dataclass(frozen=True)
class ImportSettings:
    """What one annotation import is given (``annotate-import``'s options): paths become
    :class:`Path`; checked when built (one :class:`pipeline.errors.InputError` line, the
    command's messages)."""
    results: Path
    quadruples: Path
    out: Path
    assignments: int = 3
    seed: int = 0
    drop_real_people: bool = False
    real_people: Path | None = None
    check_items: Path | None = None
    min_check_accuracy: float | None = None
    license: str = LICENSE
    model: str | None = None
    salt_file: Path | None = None
    annotator_ids: Path | None = None

    def __post_init__(self):
        from pipeline.runs.settings import as_paths

        as_paths(self, "results", "quadruples", "out", "real_people", "check_items", "salt_file", "annotator_ids")
        if self.assignments < 1:
            raise InputError("assignments must be at least 1", self.results)
        if self.annotator_ids is not None and self.annotator_ids.resolve().is_relative_to(self.out.resolve()):
            raise InputError("--annotator-ids must lie outside --out (the published directory)", self.annotator_ids)


def annotate_import(args: ImportSettings):
    """The whole import -> a :class:`pipeline.runs.settings.RunResult`: the exit status, the
    outputs written (``out``, the private key file), the counts reported (``summary``: the
    funnel, the answers and annotators counted); ``run.json``'s settings: none of its own."""
    from pipeline.runs.settings import RunResult

    status, summary = _import(args)
    return RunResult(status, outputs=(args.out,) + ((args.annotator_ids,) if args.annotator_ids else ()),
                     summary=summary)


def _import(args: ImportSettings) -> tuple[int, dict]:
    from pipeline.annotation.core.questions import CHECKS_RESOURCE, parse_checks, question_from_row
    from pipeline.annotation.core.votes import aggregate, real_people_set
    from pipeline.annotation.core.pseudonyms import pseudonymise
    from pipeline.annotation.formats.annotator_key import write_annotator_ids
    from pipeline.formats.files import sha256_file
    from pipeline.formats.resources import read_commented, resource
    from pipeline.vocab import pct
    from pipeline.annotation.runs.rows import GAP_TSV, annotation_rows, conversion_report

    rows, conversion = annotation_rows(args.quadruples, args.model)
    check_source = args.check_items or resource(CHECKS_RESOURCE)
    checks = parse_checks(read_commented(check_source), check_source)
    known = {r["id"]: question_from_row(r) for r in rows}
    known.update({q.id: q for q in checks})
    answers, kind, rejected = read_answer_file(args.results, args.quadruples, known)
    if not answers:
        raise InputError("no answers" + (f" ({rejected} rejected assignment(s) skipped)" if rejected else "")
                         + ": nothing to publish", args.results)
    if args.annotator_ids:
        write_annotator_ids(args.annotator_ids, {}, args.out)       # refused before any work
    from pipeline.annotation.report import LABELS_BY, labels_by

    who = labels_by(kind, [a.annotator for a in answers])     # from the raw ids, before pseudonyms
    answers, ids = pseudonymise(answers, results_salt(args.results, kind, args.salt_file))
    people_source = args.real_people or resource(REAL_PEOPLE_RESOURCE)
    people = real_people_set(read_commented(people_source)) if args.drop_real_people else None
    try:
        result = aggregate(rows, answers, assignments=args.assignments, checks=checks,
                           seed=args.seed, real_people=people,
                           min_check_accuracy=args.min_check_accuracy)
    except ValueError as exc:
        raise InputError(str(exc), args.results) from None
    if not result.dataset:
        raise InputError("no quadruple is left to publish (funnel: " + " -> ".join(
            f"{k.replace('_', ' ')} {v}" for k, v in result.funnel.items() if v is not None) + ")", args.results)
    provenance = {
        "quadruples": str(args.quadruples), "quadruples sha256": sha256_file(args.quadruples),
        "results": f"{args.results} ({kind})", "results sha256": sha256_file(args.results),
        "assignments": args.assignments, "balancing seed": args.seed,
        "real-people filter": (f"on ({args.real_people or 'resources/' + REAL_PEOPLE_RESOURCE})"
                               if people is not None else "off"),
        "min check accuracy": args.min_check_accuracy if args.min_check_accuracy is not None else "off",
        "command": "python -m pipeline annotate-import --results ... --quadruples ... --out ...",
    }
    if conversion["kind"] == GAP_TSV:
        provenance["quadruples"] += " (GAP TSV)"
        provenance["persons found with"] = conversion["model"]
        provenance["GAP rows kept"] = f"{conversion['rows_kept']} of {conversion['rows']}"
    provenance["annotators"] = "pseudonymised (salted HMAC-SHA256); raw ids are not published"
    provenance[LABELS_BY] = who
    from pipeline.formats.fingerprint import run_fingerprint

    publish(result, args.out, provenance, args.license, run_fingerprint(args.model))
    if args.annotator_ids:
        write_annotator_ids(args.annotator_ids, ids, args.out)
        print(f"wrote the private key of {len(ids)} pseudonym(s) to {args.annotator_ids}")
    s, f = result.stats, result.funnel
    for line in conversion_report(conversion):
        print(line)
    agreement = "n/a" if s["agreement_all"] is None else pct(s["agreement_all"] / 100, digits=1) + "%"
    if rejected:
        print(f"skipped {rejected} rejected assignment(s)")
    if s["duplicates"]:
        print(f"ignored {s['duplicates']} duplicate answer(s)")
    if s["invalid"]:
        print(f"{sum(s['invalid'].values())} answer(s) failed the checks and were not counted: "
              + ", ".join(f"{k} {v}" for k, v in sorted(s["invalid"].items())))
        for line in s["invalid_examples"]:
            print(f"  {line}")
    if s["too_few_answers"]:
        ids = s["too_few_answers"]
        print(f"{len(ids)} instance(s) with fewer than {args.assignments} answers, left out: "
              + ", ".join(ids[:10]) + (" ..." if len(ids) > 10 else ""))
    print(f"labels by {who} (from the annotator ids; the dataset card says so)")
    print(f"{len(answers)} answers from {len(s['annotators'])} annotators ({kind}); "
          f"mean agreement {agreement} over {s['voted_instances']} voted instances")
    print("funnel (quadruples): " + " -> ".join(
        f"{k.replace('_', ' ')} {v}" for k, v in f.items() if v is not None))
    print(f"wrote {len(result.dataset)} instances to {Path(args.out) / 'dataset.parquet'}, "
          "votes.parquet, README.md (a Hugging Face dataset directory), dataset.tsv, summary.json")
    return 0, {"funnel": dict(f), "answers": len(answers), "annotators": len(s["annotators"]),
               "instances": len(result.dataset), "rejected": rejected}
