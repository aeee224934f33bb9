"""The ``experiment-plan`` run: a seeded, balanced plan of the timed QA or Maze experiment (the
command parses the options into an :class:`ExperimentPlanSettings` and calls
:func:`experiment_plan`).

Reads a benchmark (``benchmark.parquet``, the ``BENCHMARK`` schema, through
:mod:`pipeline.formats.benchmarks`), parses its sentences with spaCy (filler questions from
the dependency parse for QA; the true words' tags for Maze distractors), and writes
``OUT/plan.parquet`` (``EXPERIMENT_PLAN``) and a readable ``OUT/plan.tsv``
(:func:`pipeline.formats.files.write_csv_rows`), all-or-nothing. A benchmark without
Maze-eligible items is refused for Maze.

May import: the standard library; inside :func:`experiment_plan`: :mod:`pipeline.errors`,
:mod:`pipeline.formats`, :mod:`pipeline.core`, :mod:`pipeline.nlp`, :mod:`pipeline.runs.settings`, tqdm;
the room's own cores and :mod:`pipeline.humans.nlp`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths, check_at_least, check_choice

EXPERIMENTS = ("qa", "maze")


@dataclass(frozen=True)
class ExperimentPlanSettings:
    """What one ``experiment-plan`` run is given (the command's options)."""
    benchmark: Path                 # benchmark.parquet (command benchmark)
    experiment: str                 # qa or maze
    participants: int               # participant slots
    out: Path
    seed: int = 0
    targets: int = 20               # QA: target questions per participant, as many fillers
    calibration: int = 4            # QA: calibration sentences per participant
    items: int = 10                 # Maze: sentences per participant
    lexicon_size: int = 20_000      # Maze: distractors from this many most frequent English words
    model: str | None = None

    def __post_init__(self):
        as_paths(self, "benchmark", "out")
        check_choice("--experiment", self.experiment, EXPERIMENTS)
        check_at_least("--participants", self.participants, 1)
        for name in ("targets", "calibration", "items"):
            check_at_least(f"--{name}", getattr(self, name), 0)


def read_plan_items(path) -> list[dict]:
    """The benchmark's items (:func:`pipeline.formats.benchmarks.read_benchmark`), each with the
    id, text and pronoun offsets a plan needs."""
    from pipeline.errors import InputError
    from pipeline.formats.benchmarks import read_benchmark as read_items

    rows = read_items(path)
    for i, r in enumerate(rows, start=1):
        if not r["id"] or not r["text"] or r["pronoun_start"] is None:
            raise InputError("an item without id, text or pronoun offsets", path, i)
    return rows


def tsv_lines(rows: list[dict]) -> list[list[str]]:
    """plan.tsv: one line per trial, the Maze words as ``word|distractor`` (true word first)."""
    head = ["participant", "position", "kind", "item_id", "alpha", "question", "correct_answer",
            "question_category", "text_or_maze"]
    out = [head]
    for r in rows:
        if r["experiment"] == "maze":
            cells = [r["tokens"][0]] + [f"{w}|{d}" for w, d in zip(r["tokens"][1:], r["distractors"][1:])]
            last = " ".join(cells)
        else:
            last = r["text"]
        out.append([r["participant"], str(r["position"]), r["kind"], r["item_id"],
                    "" if r["alpha"] is None else str(r["alpha"]), r["question"] or "",
                    r["correct_answer"] or "", r["question_category"] or "", last])
    return out


def experiment_plan(args: ExperimentPlanSettings) -> RunResult:
    import random
    from collections import Counter

    from tqdm import tqdm

    from pipeline.humans.core import plan as plan_core
    from pipeline.humans.core import maze as maze_core
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs, write_csv_rows
    from pipeline.formats.schemas import EXPERIMENT_PLAN
    from pipeline.formats.tables import write_records
    from pipeline.humans import nlp as parse
    from pipeline.nlp.load import load

    items = read_plan_items(args.benchmark)
    if args.experiment == "maze" and not any(r["maze_eligible"] for r in items):
        raise InputError("no Maze-eligible items (maze_eligible is false for every item): "
                         "the Maze needs sentences whose pronoun comes after its antecedent",
                         args.benchmark)
    nlp = load(args.model)
    try:
        if args.experiment == "qa":
            docs = parse.parse_texts(nlp, [r["text"] for r in tqdm(items, desc="parse", unit="item",
                                                                  disable=len(items) < 500)])
            fillers = {}
            for r, doc in zip(items, docs):
                spans = {"pronoun": (r["pronoun_start"], r["pronoun_end"]),
                         "main": (r["main_start"], r["main_end"]) if r["main_start"] is not None else None,
                         "other": ((r["other_start"], r["other_end"])
                                   if r["other_entity"] and r["other_start"] is not None else None)}
                fillers[r["id"]] = [f.__dict__ for f in parse.filler_questions(doc, spans)]
            rows = plan_core.qa_plan(items, fillers, args.participants, args.seed,
                                     targets=args.targets, calibration=args.calibration)
            extra = f"{sum(bool(v) for v in fillers.values())} of {len(items)} items have a filler question"
        else:
            eligible = [r for r in items if r["maze_eligible"]]
            words = maze_core.distractor_candidates(args.lexicon_size)
            tags = parse.tag_words(nlp, [w for w, _ in words])
            lexicon = maze_core.Lexicon([maze_core.Entry(w, z, maze_core.coarse_pos(t))
                                         for (w, z), t in zip(words, tags)])
            docs = parse.parse_texts(nlp, [r["text"] for r in eligible])
            distractors = {}
            for r, doc in tqdm(list(zip(eligible, docs)), desc="distractors", unit="item",
                               disable=len(eligible) < 200):
                tokens = list(r["tokens"] or r["text"].split())
                distractors[r["id"]] = maze_core.distractors(
                    tokens, parse.tokens_tags(doc, tokens), lexicon, random.Random(f"{args.seed}:{r['id']}"))
            rows = plan_core.maze_plan(items, distractors, args.participants, args.seed,
                                       per_participant=args.items)
            extra = f"{len(eligible)} Maze-eligible items, lexicon of {len(lexicon.entries)} words"
    except plan_core.PlanError as exc:
        raise InputError(str(exc), args.benchmark) from None
    with staged_outputs(args.out) as stage:
        write_records(rows, stage / "plan.parquet", EXPERIMENT_PLAN)
        head, *lines = tsv_lines(rows)
        write_csv_rows(stage / "plan.tsv", [dict(zip(head, line)) for line in lines], head, delimiter="\t")
    kinds = Counter(r["kind"] for r in rows)
    alphas = Counter(r["alpha"] for r in rows if r["alpha"] is not None)
    print(f"{args.experiment} plan: {args.participants} participant(s), {len(rows)} trials "
          f"({', '.join(f'{k} {n}' for k, n in sorted(kinds.items()))}); {extra}")
    if alphas:
        print("alpha: " + ", ".join(f"{a} x{n}" for a, n in sorted(alphas.items(), reverse=True)))
    print(f"wrote {args.out}/plan.parquet and {args.out}/plan.tsv")
    return RunResult(0, (args.out / "plan.parquet", args.out / "plan.tsv"))
