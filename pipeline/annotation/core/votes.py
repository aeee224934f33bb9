"""Vote aggregation, filters and balancing of annotate-import: answers in, dataset out (pure).

1. an answer to an id that is neither a row of the quadruples nor a check item is an error
   (``ValueError``, the stage turns it into exit 2); a second answer of one annotator to one
   instance is ignored (counted; check items may recur across tasks and every answer to
   them is scored);
2. each answer is checked (:func:`pipeline.annotation.core.questions.check_answer`); a failing answer
   is counted and not voted; check-item answers score the annotators (``min_check_accuracy``
   optionally drops every answer of an annotator below it);
3. an instance with fewer valid answers than ``assignments`` is not voted; otherwise the
   majority label is the single most frequent of A / B / neither (a tie means no majority)
   and the instance's agreement is the share of its answers that agree with the most
   frequent label (stored in percent); the reported agreement is the mean over instances;
4. funnel over quadruples: originals -> annotated (all four instances voted) -> consistent
   (all four have a majority, and it is the same label) -> no flags (no annotator wrote a
   commonsense contradiction for any of the four) -> [optional: no real-world people's names]
   -> balanced (seeded downsampling of the larger of the masculine/feminine originals);
5. the final dataset: the rows of the balanced quadruples with the majority label.

Each step is one function (:func:`unique_answers`, :func:`check_answers`, :func:`vote`,
:func:`funnel`, :func:`final_dataset`); :func:`aggregate` runs them and gathers the statistics.

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.annotation.core.questions`.
"""

from __future__ import annotations

import collections
import math
import random
from dataclasses import dataclass, field

from pipeline.annotation.core.questions import (AnswerError, Question, check_answer, check_correct,
                                     coref_of, label_of, question_from_row)
from pipeline.vocab import FEMININE, MASCULINE, VARIANT_ORDER

GENDERS = (MASCULINE, FEMININE)


@dataclass
class Answer:
    annotator: str
    item: str                       # instance id or check id
    spans: list[tuple[int, int]]
    none: bool
    contradiction: str = ""
    where: str = ""                 # "row 7" -- for reports



# ----------------------------------------------------------------- real people -------------

def normalise_name(name: str) -> str:
    return " ".join(name.replace("’", "'").casefold().split())


def real_people_set(lines: list[tuple[int, list[str]]]) -> set[str]:
    """Normalised names from the (line number, fields) rows of a real-people list
    (:func:`pipeline.formats.resources.read_commented`; the first field is the name)."""
    return {normalise_name(fields[0]) for _, fields in lines if fields[0].strip()}


def real_people_in(rows: list[dict], people: set[str]) -> list[str]:
    """Names of the rows (canonical names, and mentions without their title) on the list."""
    hits = set()
    for row in rows:
        for name in row.get("names") or []:
            forms = [name.get("name") or ""]
            for m in name.get("mentions") or []:
                text, title = m.get("text") or "", m.get("title") or ""
                if title and text.startswith(title):
                    text = text[len(title):]
                forms.append(text)
            for form in forms:
                if form.strip() and normalise_name(form) in people:
                    hits.add(form.strip())
    return sorted(hits)


# ----------------------------------------------------------------- pure core ---------------

@dataclass
class Result:
    dataset: list[dict]                    # rows of kept quadruples, labels filled
    votes: list[dict]                      # one per input row
    funnel: dict[str, int | None]
    stats: dict = field(default_factory=dict)


def _qkey(qid: str):
    return (0, int(qid), "") if str(qid).isdigit() else (1, 0, str(qid))


# 1. duplicates
def unique_answers(answers: list[Answer], questions: dict, check_by_id: dict) -> tuple[list[Answer], int]:
    """Step 1: (the answers kept, the number of duplicates ignored). An answer to an unknown id
    raises ``ValueError``; a second answer of one annotator to one instance is ignored, a check
    item may recur across tasks (every answer to it is kept)."""
    seen, unique, duplicates = set(), [], 0
    for a in answers:
        if a.item not in questions and a.item not in check_by_id:
            raise ValueError(f"{a.where}: answer to unknown instance {a.item!r}")
        key = (a.annotator, a.item)
        if key in seen and a.item not in check_by_id:      # a check item may recur across tasks
            duplicates += 1
            continue
        seen.add(key)
        unique.append(a)
    return unique, duplicates


# 2. answer checks; check-item scores
@dataclass
class Checked:
    valid: list[tuple[Answer, str]]            # (instance answer, its label A / B / neither)
    invalid: collections.Counter               # failure kind -> count
    invalid_examples: list[str]                # the first 10 failures, for the report
    check_scores: dict                         # annotator -> [correct, total] on check items
    excluded: set                              # annotators below min_check_accuracy


def check_answers(unique: list[Answer], questions: dict, check_by_id: dict,
                  min_check_accuracy: float | None = None) -> Checked:
    """Step 2: each answer checked; a failing one counted and not voted; check-item answers
    score their annotator; with ``min_check_accuracy`` every answer of an annotator below it
    is dropped."""
    invalid = collections.Counter()
    invalid_examples = []
    valid: list[tuple[Answer, str]] = []
    check_scores = collections.defaultdict(lambda: [0, 0])      # annotator -> [correct, total]
    for a in unique:
        q = questions.get(a.item) or check_by_id[a.item]
        try:
            person = check_answer(q, a.spans, a.none)
        except AnswerError as exc:
            invalid[exc.kind] += 1
            if len(invalid_examples) < 10:
                invalid_examples.append(f"{a.where} ({a.annotator}, {a.item}): {exc}")
            continue
        if a.item in check_by_id:
            score = check_scores[a.annotator]
            score[0] += check_correct(q, person)
            score[1] += 1
            continue
        valid.append((a, label_of(q, person)))
    excluded = set()
    if min_check_accuracy is not None:
        excluded = {w for w, (c, t) in check_scores.items() if t and c / t < min_check_accuracy}
        valid = [(a, lab) for a, lab in valid if a.annotator not in excluded]
    return Checked(valid, invalid, invalid_examples, check_scores, excluded)


# 3. votes per instance
def vote(rows: list[dict], valid: list[tuple[Answer, str]], assignments: int) -> tuple[list[dict], dict]:
    """Step 3: one vote record per row, and id -> its record. Fewer valid answers than
    ``assignments``: ``too-few-answers``; a tie for the most frequent label: ``no-majority``;
    else ``voted`` with that label. Agreement: the share (%) of answers agreeing with the most
    frequent label."""
    per_instance = collections.defaultdict(list)
    for a, lab in valid:
        per_instance[a.item].append((a, lab))
    votes, vote_of = [], {}
    for row in rows:
        got = per_instance.get(row["id"], [])
        counts = collections.Counter(lab for _, lab in got)
        flags = [a.contradiction for a, _ in got if a.contradiction]
        rec = {"id": row["id"], "quadruple_id": str(row["quadruple_id"]), "variant": row["variant"],
               "n_answers": len(got), "n_a": counts["A"], "n_b": counts["B"],
               "n_neither": counts["neither"], "majority": None, "agreement": None,
               "flagged": bool(flags), "contradictions": flags,
               "annotators": [a.annotator for a, _ in got]}
        if len(got) < assignments:
            rec["status"] = "too-few-answers"
        else:
            top = counts.most_common()
            rec["agreement"] = 100.0 * top[0][1] / len(got)
            if len(top) > 1 and top[1][1] == top[0][1]:
                rec["status"] = "no-majority"
            else:
                rec["status"] = "voted"
                rec["majority"] = top[0][0]
        votes.append(rec)
        vote_of[row["id"]] = rec
    return votes, vote_of


# 4. funnel over quadruples
@dataclass
class Funnel:
    by_quad: dict[str, list[dict]]             # quadruple id -> its rows
    originals: list[str]
    annotated: list[str]
    consistent: list[str]
    unflagged: list[str]
    real_hits: dict[str, list[str]]            # quadruple id -> real people's names in it
    no_real: list[str]
    groups: dict[str, list[str]]               # original gender -> quadruples before balancing
    n_keep: int                                # quadruples kept per gender
    balanced: list[str]

    def counts(self, real_people_checked: bool) -> dict[str, int | None]:
        return {"originals": len(self.originals), "annotated": len(self.annotated),
                "consistent": len(self.consistent), "no_flags": len(self.unflagged),
                "no_real_people": len(self.no_real) if real_people_checked else None,
                "balanced": len(self.balanced)}


def funnel(rows: list[dict], votes: list[dict], vote_of: dict, real_people: set[str] | None,
           seed: int) -> Funnel:
    """Step 4: originals -> annotated -> consistent -> no flags -> [no real people] ->
    balanced (seeded downsampling of the larger gender); sets each vote's
    ``quadruple_status`` (the stage where its quadruple left, or ``kept``)."""
    by_quad = collections.defaultdict(list)
    for row in rows:
        by_quad[str(row["quadruple_id"])].append(row)
    originals = sorted(by_quad, key=_qkey)
    annotated = [k for k in originals
                 if all(vote_of[r["id"]]["status"] != "too-few-answers" for r in by_quad[k])]
    consistent = [k for k in annotated
                  if all(vote_of[r["id"]]["status"] == "voted" for r in by_quad[k])
                  and len({vote_of[r["id"]]["majority"] for r in by_quad[k]}) == 1]
    unflagged = [k for k in consistent if not any(vote_of[r["id"]]["flagged"] for r in by_quad[k])]
    real_hits = {}
    if real_people is not None:
        for k in unflagged:
            hit = real_people_in(by_quad[k], real_people)
            if hit:
                real_hits[k] = hit
        no_real = [k for k in unflagged if k not in real_hits]
    else:
        no_real = unflagged
    gender_of = {}
    for k in no_real:
        first = [r for r in by_quad[k] if r["variant"] == "original"] or by_quad[k]
        gender_of[k] = first[0].get("original_gender")
    groups = {g: [k for k in no_real if gender_of[k] == g] for g in GENDERS}
    n_keep = min(len(v) for v in groups.values())
    rng = random.Random(seed)
    kept = set()
    for g in GENDERS:
        kept.update(rng.sample(groups[g], n_keep))
    balanced = [k for k in no_real if k in kept]
    stages = [("kept", kept), ("balancing", set(no_real)), ("real-person", set(real_hits)),
              ("flagged", set(consistent)), ("inconsistent", set(annotated))]
    quad_status = {k: next((name for name, members in stages if k in members), "not-annotated")
                   for k in originals}
    for rec in votes:
        rec["quadruple_status"] = quad_status[rec["quadruple_id"]]
    return Funnel(by_quad, originals, annotated, consistent, unflagged, real_hits, no_real, groups,
                  n_keep, balanced)


# 5. the final dataset
def final_dataset(balanced: list[str], by_quad: dict[str, list[dict]], vote_of: dict) -> list[dict]:
    """Step 5: the rows of the kept quadruples (quadruple order, then variant order) with the
    majority label as ``a_coref`` / ``b_coref``."""
    dataset = []
    for k in sorted(balanced, key=_qkey):
        for row in sorted(by_quad[k], key=lambda r: VARIANT_ORDER.get(r["variant"], 9)):
            out = dict(row)
            out["a_coref"], out["b_coref"] = coref_of(vote_of[row["id"]]["majority"])
            dataset.append(out)
    return dataset


def aggregate(rows: list[dict], answers: list[Answer], *, assignments: int = 3,
              checks: list[Question] = (), seed: int = 0, real_people: set[str] | None = None,
              min_check_accuracy: float | None = None) -> Result:
    """The five steps (module docstring) and their statistics."""
    if assignments < 1:
        raise ValueError("assignments must be at least 1")
    questions = {r["id"]: question_from_row(r) for r in rows}
    check_by_id = {q.id: q for q in checks}
    unique, duplicates = unique_answers(answers, questions, check_by_id)
    checked = check_answers(unique, questions, check_by_id, min_check_accuracy)
    votes, vote_of = vote(rows, checked.valid, assignments)
    f = funnel(rows, votes, vote_of, real_people, seed)
    dataset = final_dataset(f.balanced, f.by_quad, vote_of)
    voted = [v for v in votes if v["agreement"] is not None]
    final_ids = [r["id"] for r in dataset]             # a list: sums in a fixed order
    stats = {
        "answers": len(answers), "duplicates": duplicates,
        "invalid": dict(checked.invalid), "invalid_examples": checked.invalid_examples,
        "valid_instance_answers": len(checked.valid),
        "annotators": sorted({a.annotator for a in unique}),
        "check_scores": {w: {"correct": c, "total": t} for w, (c, t) in sorted(checked.check_scores.items())},
        "excluded_annotators": sorted(checked.excluded),
        "too_few_answers": [v["id"] for v in votes if v["status"] == "too-few-answers"],
        "no_majority": [v["id"] for v in votes if v["status"] == "no-majority"],
        "flagged_instances": [v["id"] for v in votes if v["flagged"]],
        "real_people": f.real_hits,
        "agreement_all": (math.fsum(v["agreement"] for v in voted) / len(voted)) if voted else None,
        "voted_instances": len(voted),
        "agreement_final": (math.fsum(vote_of[i]["agreement"] for i in final_ids) / len(final_ids))
        if final_ids else None,
        "balanced_per_gender": f.n_keep,
        "gender_before_balancing": {g: len(v) for g, v in f.groups.items()},
        "assignments": assignments, "seed": seed,
    }
    return Result(dataset, votes, f.counts(real_people is not None), stats)


# ----------------------------------------------------------------- GAP rows ----------------

def dataset_gap_rows(dataset: list[dict]) -> list[dict]:
    """GAP TSV rows (for :func:`pipeline.formats.gap_tsv.write_gap_tsv`) of the final dataset:
    Counter-GAP IDs, labels, URL from the ``url`` column or else the Gutenberg page of a
    numeric book id, and the extra column ``Book``."""
    out = []
    for r in dataset:
        book_id = str(r.get("book_id") or "")
        out.append({"ID": r["id"], "Text": r["text"], "Pronoun": r["pronoun"],
                    "Pronoun-offset": r["pronoun_offset"], "A": r["a"], "A-offset": r["a_offset"],
                    "A-coref": r["a_coref"], "B": r["b"], "B-offset": r["b_offset"],
                    "B-coref": r["b_coref"],
                    "URL": r.get("url") or (f"https://www.gutenberg.org/ebooks/{book_id}"
                                            if book_id.isdigit() else ""),
                    "Book": r.get("book") or ""})
    return out
