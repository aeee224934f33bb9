"""The ``humans`` run: analyse human experiment results (``python -m pipeline humans qa|maze``
parses the options into a :class:`QaSettings` or a :class:`MazeSettings` and calls :func:`humans`
with it).

* ``humans qa --results FILE [--results FILE] [--participants FILE ...] [--questions main|all]
  [--benchmark FILE --models PER_ITEM | --models EVAL/metrics.json] [--maze TRIALS ...] --out DIR``:
  the project's export or the study's released QA results (Wino, BUG) and enrollment files
  (one row per worker and batch; answers grouped per (worker, batch));
  ``DIR/qa.json`` (per alpha "0.75", "0.5", "0.25": pro, anti, delta, ignored, filler, other in
  percent, n_pro, n_anti ...), ``qa_participants.csv``, ``qa.md``, ``qa.png``; prints the
  paper's Table 2 (humans per alpha on Wino and BUG, and the models of a metrics.json), once
  one row per alpha and once in the paper's shape (pro / anti / Delta rows per dataset, a
  column per alpha and model, two decimals), with Delta_MAZE per quantile from ``--maze``;
* ``humans maze --results FILE [--results FILE] [--models EVAL/metrics.json] [--benchmark FILE]
  --out DIR``: our export or the study's processed Maze trials (Wino, BUG; detected);
  ``DIR/maze.json`` (quantiles 0.50..1.00, pro, anti, delta in ms, success rate per
  condition, where the human accuracy curve meets each model, and the same ``by_kind`` for
  synthetic and natural sentences), ``maze.md``, ``maze.png``.

May import (inside functions): :mod:`pipeline.errors`, :mod:`pipeline.formats`, :mod:`pipeline.core`,
:mod:`pipeline.report`, :mod:`pipeline.runs.settings`; the room's own formats, cores and report.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.runs.settings import RunResult, as_paths, as_tuple, check_choice

QUESTIONS = ("main", "all")


def _results(s) -> None:
    from pipeline.errors import InputError

    as_tuple(s, "results")
    if isinstance(s.results, (str, Path)):
        object.__setattr__(s, "results", (s.results,))
    as_paths(s, "results", "out", "models", "benchmark")
    if not s.results:
        raise InputError("give at least one --results FILE")


@dataclass(frozen=True)
class QaSettings:
    """What one ``humans qa`` run is given (the command's options)."""
    results: tuple[Path, ...]                   # QA results CSVs, analysed together
    out: Path
    participants: tuple[Path, ...] | None = None    # only these workers (mturk_id lists, enrollment files)
    questions: str = "main"                     # main: Wino questions on the main entity; all: also the other
    min_filler_accuracy: float | None = None    # percent: batches below it are left out
    benchmark: Path | None = None               # benchmark.parquet of the sentences (with a per_item --models)
    models: Path | None = None                  # per_item.parquet or metrics.json of `evaluate`
    maze: tuple[Path, ...] | None = None        # Maze trials CSVs: Delta_MAZE under Table 2

    def __post_init__(self):
        from pipeline.errors import InputError

        _results(self)
        as_paths(self, "participants", "maze")
        check_choice("--questions", self.questions, QUESTIONS)
        if self.models is not None and self.models.suffix.lower() != ".json" and self.benchmark is None:
            raise InputError("--models needs --benchmark (to find the QA sentences among its items)")


@dataclass(frozen=True)
class MazeSettings:
    """What one ``humans maze`` run is given (the command's options)."""
    results: tuple[Path, ...]                   # Maze trials CSVs, analysed together
    out: Path
    models: Path | None = None                  # metrics.json of `evaluate` on a benchmark
    benchmark: Path | None = None               # benchmark.parquet: synthetic vs natural by item source

    def __post_init__(self):
        _results(self)


def _run_qa(args: QaSettings) -> RunResult:
    from pipeline.core.benchmark_scoring import normalise_text
    from pipeline.humans.core.compare import analyse_qa, classify_answers, models_by_dataset, models_on_items
    from pipeline.errors import InputError
    from pipeline.formats.files import staged_outputs, write_csv_rows, write_json, write_text
    from pipeline.humans.formats.results import read_participant_rows, read_qa_results
    from pipeline.humans.report import plot_qa, qa_markdown, table2_markdown, table2_paper_markdown

    rows = []
    for f in args.results:
        got = read_qa_results(f)
        for r in got:
            r["_file"] = str(f)
        rows.extend(got)
    results_path = args.results[0] if len(args.results) == 1 else None
    enrollment = [e for p in args.participants for e in read_participant_rows(p)] if args.participants else None
    participants = {e["mturk_id"] for e in enrollment} if enrollment is not None else None
    result = analyse_qa(rows, participants, args.min_filler_accuracy, path=results_path,
                        questions=args.questions, enrollment=enrollment)
    maze = None
    if args.maze:
        from pipeline.humans.core.compare import maze_table2, trial_kind
        from pipeline.humans.formats.results import read_maze_trials

        trials = [t for f in args.maze for t in read_maze_trials(f)]
        maze = maze_table2(trials, [trial_kind(t) for t in trials])
        if not maze:
            raise InputError("no Maze trial is of a known dataset (the study's Wino or BUG layout, or a "
                             "sentence_id starting winobias-/winogender-/bug-...)", args.maze[0])
        result["table2_maze"] = maze
    table2_models = None
    if args.models is not None and args.models.suffix.lower() == ".json":
        from pipeline.formats.files import read_json

        data = read_json(args.models)
        if not isinstance(data, dict) or not all(isinstance(m, dict) and "per_source" in m
                                                 for m in data.values()):
            raise InputError("not the metrics.json of a benchmark evaluation (system -> per_source)",
                             args.models)
        table2_models = models_by_dataset(data)
        result["table2_models"] = table2_models
    elif args.models is not None:             # a per_item table; QaSettings checked --benchmark is given
        from pipeline.formats.benchmarks import read_benchmark
        from pipeline.formats.tables import read_table

        items = read_benchmark(args.benchmark)
        table = read_table(args.models)
        missing = [c for c in ("id", "system", "correct") if c not in table.column_names]
        if missing:
            raise InputError(f"not a per_item table: missing column(s) {', '.join(missing)}", args.models)
        by_id = {it["id"]: it for it in items}
        by_text = {normalise_text(it["text"]): it["id"] for it in items}
        kept = {p["mturk_id"] for p in result["participants"]}
        ids = set()
        for r in classify_answers([r for r in rows if r["mturk_id"] in kept], results_path, args.questions):
            if r["kind"] == "filler":
                continue
            key = str(r["id_sentence"]).strip()
            ids.add(key if key in by_id else by_text.get(normalise_text(r["sentence"]), ""))
        ids.discard("")
        stereotype = {i: by_id[i]["stereotype"] for i in ids}
        result["models"] = models_on_items(table.select(["id", "system", "correct"]).to_pylist(),
                                           ids, stereotype)
        result["n_sentences_matched"] = len(ids)

    summary = dict(result["alphas"])
    with staged_outputs(args.out) as stage:
        write_json(stage / "qa.json", {**summary, "models": result.get("models", {}),
                                       "table2_models": table2_models or {},
                                       "table2_maze": maze or {},
                                       "layout": result["layout"], "questions": result["questions"],
                                       "excluded": result["excluded"],
                                       "n_answers": result["n_answers"],
                                       "n_participants": result["n_participants"],
                                       "n_batches": result["n_batches"],
                                       "n_answers_unenrolled_batch": result["n_answers_unenrolled_batch"]})
        write_csv_rows(stage / "qa_participants.csv", result["participants"])
        paper = table2_paper_markdown(result, table2_models, maze)
        write_text(stage / "qa.md", qa_markdown(result) + "\n" + table2_markdown(result, table2_models)
                   + "\n" + paper)
        plot_qa(result, stage / "qa.png")
    print(qa_markdown(result))
    print(table2_markdown(result, table2_models))
    print(paper)
    print(f"{result['n_participants']} worker(s) in {result['n_batches']} (worker, batch) group(s)")
    if result["n_answers_unenrolled_batch"]:
        print(f"{result['n_answers_unenrolled_batch']} answer(s) of enrolled workers are in a batch the "
              "enrollment does not list (kept: the worker is enrolled)")
    rescored = sum(s["n_filler_rescored"] for s in summary.values())
    if rescored:
        print(f"{rescored} filler answer(s) scored by matching the filler answer differ from the "
              "recorded is_correct")
    print(f"-> {args.out}/qa.json, qa_participants.csv, qa.md, qa.png")
    return RunResult(0, tuple(args.out / n for n in ("qa.json", "qa_participants.csv", "qa.md", "qa.png")))


def _run_maze(args: MazeSettings) -> RunResult:
    from pipeline.core.benchmark_scoring import normalise_text
    from pipeline.humans.core.compare import analyse_maze_by_kind, trial_kind
    from pipeline.errors import InputError
    from pipeline.formats.files import read_json, staged_outputs, write_json, write_text
    from pipeline.humans.formats.results import read_maze_trials
    from pipeline.humans.report import maze_markdown, plot_maze

    files = list(args.results)
    rows = []
    for f in files:
        rows.extend(read_maze_trials(f))
    models = None
    if args.models is not None:
        data = read_json(args.models)
        if not isinstance(data, dict) or not all(isinstance(m, dict) and "pro" in m and "anti" in m
                                                 for m in data.values()):
            raise InputError("not the metrics.json of a benchmark evaluation (system -> pro, anti)",
                             args.models)
        models = {s: {"pro": m["pro"], "anti": m["anti"]} for s, m in data.items()}
    sources = {}
    if args.benchmark is not None:
        from pipeline.formats.benchmarks import read_benchmark

        for it in read_benchmark(args.benchmark):
            sources[it["id"]] = sources[normalise_text(it["text"])] = it["source"]
    kinds = [trial_kind(r, sources.get(str(r["sentence_id"]).strip())
                        or (sources.get(normalise_text(r["sentence"])) if sources else None))
             for r in rows]
    layouts = sorted({r["_layout"] for r in rows})
    result = analyse_maze_by_kind(rows, kinds, models)
    with staged_outputs(args.out) as stage:
        write_json(stage / "maze.json", result)
        write_text(stage / "maze.md", maze_markdown(result))
        plot_maze(result, stage / "maze.png")
    print(maze_markdown(result))
    print(f"{len(rows)} trial(s) of {len(files)} file(s), layout {', '.join(layouts)}; "
          f"-> {args.out}/maze.json, maze.md, maze.png")
    return RunResult(0, tuple(args.out / n for n in ("maze.json", "maze.md", "maze.png")))


def humans(s: QaSettings | MazeSettings) -> RunResult:
    """``humans qa`` for a :class:`QaSettings`, ``humans maze`` for a :class:`MazeSettings`."""
    if isinstance(s, QaSettings):
        return _run_qa(s)
    return _run_maze(s)
