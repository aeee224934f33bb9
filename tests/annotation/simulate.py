"""Scripted MTurk workers: turn an annotate-export batch into a results CSV (a test helper,
also run by hand from a checkout to rehearse the annotation round trip, docs/annotate.md).

``python -m tests.annotation.simulate --batch OUT/annotation/batch.csv --quadruples Q
--out results.csv [--workers 3] [--accuracy 0.9] [--flag-rate 0.01] [--drop-rate 0] [--seed 0]``

Not annotation: a rehearsal of the round trip. Every quadruple gets a hidden label drawn from
its id and the seed (A 45 %, B 45 %, neither 10 %), the same for its four variants; each
worker gives it with probability ``--accuracy``, else one of the two other labels. A is
answered by highlighting the A mention, B the B mention, neither by ticking the box; check
questions are answered from their known answer with the same accuracy. ``--flag-rate`` is the
chance that an answer carries a commonsense-contradiction comment, ``--drop-rate`` the chance
that an assignment never comes back. The CSV has the columns MTurk returns
(:mod:`pipeline.annotation.formats.mturk_csv`).

A test helper, not a command: its answers are made up, so it stays out of the installed
package and the CLI (a simulated results file must never be taken for annotation); the tests
run it between annotate-export and annotate-import (tests/annotation/test_annotate_simulate.py).
"""

from __future__ import annotations

import csv
import html
import json
import random
import re
import sys
import zlib
from pathlib import Path

import click

from pipeline.annotation.core.questions import CHECKS_RESOURCE, parse_checks, question_from_row, quadruple_rows
from pipeline.annotation.formats import mturk_csv as layout

_BATCH_ID = re.compile(r"q(\d+)_id")


def results_header(batch_columns: list[str], numbers) -> list[str]:
    """A results header as MTurk writes it: the assignment columns, the batch columns as
    ``Input.*``, the answer boxes of the questions ``numbers``."""
    return list(layout.ASSIGNMENT_COLUMNS) + [f"Input.{h}" for h in batch_columns] + layout.answer_columns(numbers)


def batch_question_numbers(header) -> list[int]:
    """The question numbers I of a batch header (its ``qI_id`` columns), in order."""
    return sorted({int(m.group(1)) for h in header if (m := _BATCH_ID.fullmatch(h))})


def hidden_label(quadruple_id: str, seed: int) -> str:
    r = random.Random(zlib.crc32(f"{seed}:{quadruple_id}".encode())).random()
    return "A" if r < 0.45 else "B" if r < 0.9 else "neither"


def simulate(batch_csv, quadruples, out, workers=3, accuracy=0.9, flag_rate=0.01,
             drop_rate=0.0, seed=0, check_items=None) -> dict:
    from pipeline.errors import InputError
    from pipeline.formats.files import atomic_path
    from pipeline.formats.resources import read_commented, resource
    from pipeline.formats.tables import read_table

    rows = {r["id"]: r for r in quadruple_rows(read_table(quadruples), quadruples)}
    questions = {i: question_from_row(r) for i, r in rows.items()}
    check_source = check_items or resource(CHECKS_RESOURCE)
    checks = {q.id: q for q in parse_checks(read_commented(check_source), check_source)}
    rng = random.Random(seed)
    with open(batch_csv, encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header = reader.fieldnames or []
        batch = list(reader)
    nums = batch_question_numbers(header)
    pool = [f"SIMW{i:04d}" for i in range(1, max(workers * 3, workers) + 1)]
    out_header = results_header(header, nums)
    results, dropped = [], 0
    for h, task in enumerate(batch, start=1):
        for w in rng.sample(pool, workers):
            if rng.random() < drop_rate:
                dropped += 1
                continue
            rec = {"HITId": f"SIMHIT{h:05d}", "AssignmentId": f"SIMA{h:05d}{w}", "WorkerId": w,
                   "AssignmentStatus": "Submitted"}
            rec.update({f"Input.{k}": v for k, v in task.items()})
            for i in nums:
                qid = html.unescape(task[layout.batch_column(i, "id")])
                spans, none, flag = [], False, ""
                if qid in checks:
                    q = checks[qid]
                    truth = q.gold
                    if rng.random() >= accuracy:
                        truth = rng.choice([n for n in q.person_names + ["none"] if n != truth])
                    if truth == "none":
                        none = True
                    else:
                        s, e = q.persons[q.person_names.index(truth)][0]
                        spans = [[s, e, q.text[s:e]]]
                elif qid:
                    if qid not in questions:
                        raise InputError(f"unknown instance {qid!r}", batch_csv, h + 1)
                    row = rows[qid]
                    truth = hidden_label(str(row["quadruple_id"]), seed)
                    if rng.random() >= accuracy:
                        truth = rng.choice([lab for lab in ("A", "B", "neither") if lab != truth])
                    if truth == "neither":
                        none = True
                    else:
                        key = truth.lower()
                        s = row[f"{key}_offset"]
                        e = s + len(row[key])
                        spans = [[s, e, row["text"][s:e]]]
                    if rng.random() < flag_rate:
                        flag = "simulated: this does not make sense"
                rec[layout.answer_column(i, "spans")] = json.dumps(spans) if qid else ""
                rec[layout.answer_column(i, "none")] = ("true" if none else "false") if qid else ""
                rec[layout.answer_column(i, "contradiction")] = flag
            results.append(rec)
    with atomic_path(out) as tmp:
        with open(tmp, "w", encoding="utf-8", newline="") as fh:
            writer = csv.DictWriter(fh, fieldnames=out_header)
            writer.writeheader()
            writer.writerows(results)
    return {"tasks": len(batch), "assignments": len(results), "dropped": dropped}


@click.command(help=__doc__.split("\n")[0], context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--batch", required=True, help="batch.csv of annotate-export")
@click.option("--quadruples", required=True)
@click.option("--out", required=True, help="results CSV to write")
@click.option("--workers", type=int, default=3, help="assignments per task (default 3)")
@click.option("--accuracy", type=float, default=0.9)
@click.option("--flag-rate", type=float, default=0.01)
@click.option("--drop-rate", type=float, default=0.0)
@click.option("--seed", type=int, default=0)
@click.option("--check-items")
def command(batch, quadruples, out, workers, accuracy, flag_rate, drop_rate, seed, check_items) -> None:
    from pipeline.errors import InputError

    try:
        s = simulate(batch, quadruples, out, workers, accuracy, flag_rate, drop_rate, seed, check_items)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        click.get_current_context().exit(2)
    print(f"{s['tasks']} tasks -> {s['assignments']} scripted assignments "
          f"({s['dropped']} dropped) in {Path(out)}")


def main(argv=None) -> None:
    """Parse ``argv`` and run; exits with the status (2: a usage or input error)."""
    command.main(argv, prog_name="python -m tests.annotation.simulate")


if __name__ == "__main__":
    main()
