"""The ``benchmark`` run: WinoBias / Winogender / BUG / SoWinoBias into one pro/anti benchmark
(``python -m pipeline benchmark`` parses the options and calls :func:`benchmark`).

Reads each ``--source NAME --path PATH`` pair with :mod:`pipeline.formats.benchmarks`, fills
the stereotype categories (:mod:`pipeline.humans.core.stereotypes`), tags the sentences with spaCy to
decide Maze eligibility (the pronoun after every verb; BUG: the pronoun after its antecedent)
and writes ``OUT/benchmark.parquet`` and ``OUT/benchmark.tsv`` together.

With the study's Wino list (``--compare LIST``, or ``--source cog-wino`` given next to
WinoBias/Winogender, which then compares instead of adding the same sentences twice), our
categories are compared with the list's sentence by sentence: ``OUT/category_comparison.tsv``,
and the sentences where they disagree printed one per line.

May import (inside :func:`benchmark`): :mod:`pipeline.errors`, :mod:`pipeline.formats`,
:mod:`pipeline.core`, :mod:`pipeline.nlp`, :mod:`pipeline.runs.settings`; also :mod:`pipeline.lang.benchmarks`;
the room's own cores.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError
from pipeline.runs.settings import RunResult, as_paths, as_tuple, check_choice

SOURCES = ("winobias", "winogender", "bug", "sowinobias", "cog-wino", "cog-bug")
CATEGORY_RULES = ("entity", "table4", "table4-pair")


ORDER_SOURCES = ("bug", "cog-bug")       # Maze eligibility by the order of antecedent and pronoun


@dataclass(frozen=True)
class BenchmarkSettings:
    """What one ``benchmark`` run is given (the command's options): ``sources[i]`` read from
    ``paths[i]``."""
    sources: tuple[str, ...]
    paths: tuple[Path, ...]
    out: Path
    categories: str = "entity"
    compare: Path | None = None         # the study's Wino list
    model: str | None = None

    def __post_init__(self):
        as_tuple(self, "sources")
        as_paths(self, "paths", "out", "compare")
        if len(self.sources) != len(self.paths):
            raise InputError(f"give one --path per --source ({len(self.sources)} sources, "
                             f"{len(self.paths)} paths)")
        for source in self.sources:
            check_choice("--source", source, SOURCES)
        check_choice("--categories", self.categories, CATEGORY_RULES)


def benchmark(s: BenchmarkSettings) -> RunResult:
    from pipeline.core.benchmark_scoring import normalise_text
    from pipeline.humans.core.stereotypes import apply_category_rule, compare_categories, count_categories, \
        maze_eligible_by_order, maze_eligible_by_verbs
    from pipeline.formats.benchmarks import write_benchmark
    from pipeline.lang.benchmarks import load_cog_wino, load_source, winobias_list_stereotypes
    from pipeline.formats.files import staged_outputs

    pairs = pairs_given = list(zip(s.sources, s.paths))
    compare = s.compare
    if {"winobias", "winogender"} & set(s.sources) and "cog-wino" in s.sources:
        # the study's Wino list holds the WinoBias/Winogender sentences again: it is compared
        lists = [p for src, p in pairs if src == "cog-wino"]
        if len(lists) > 1 or (compare is not None and str(compare) != str(lists[0])):
            raise InputError("give the study's Wino list once (as --source cog-wino or --compare)")
        compare = lists[0]
        pairs = [(src, p) for src, p in pairs if src != "cog-wino"]
        print(f"--source cog-wino next to WinoBias/Winogender: the list {compare} is compared with our "
              "categories (as --compare), not added to the benchmark")
    items: list[dict] = []
    for source, path in pairs:
        items.extend(load_source(source, path))
    ids = [it["id"] for it in items]
    if len(set(ids)) != len(ids):
        raise InputError("the same item id comes from two inputs (one source given twice?)")
    lists = None
    if s.categories == "table4":
        wb = [p for src, p in pairs_given if src == "winobias"]
        lists = winobias_list_stereotypes(wb[0]) if wb else None
    apply_category_rule(items, s.categories, lists)
    comparison = None
    if compare:
        comparison = compare_categories(items, load_cog_wino(compare), normalise_text)

    verb_items = [it for it in items if it["source"] not in ORDER_SOURCES]
    if verb_items:
        from tqdm import tqdm

        from pipeline.nlp.load import load

        nlp = load(s.model, exclude=("ner", "lemmatizer", "parser"))
        docs = nlp.pipe((it["text"] for it in verb_items), batch_size=256)
        for it, doc in tqdm(zip(verb_items, docs), total=len(verb_items), desc="tagging",
                            unit="sent", leave=False):
            it["maze_eligible"] = maze_eligible_by_verbs([t.idx for t in doc], [t.tag_ for t in doc],
                                                         it["pronoun_end"])
    for it in items:
        if it["source"] in ORDER_SOURCES:
            it["maze_eligible"] = maze_eligible_by_order(it["pronoun_start"], it["main_start"])

    with staged_outputs(s.out) as stage:
        write_benchmark(items, stage)
        if comparison is not None:
            from pipeline.formats.gap_tsv import write_tsv

            write_tsv([{**r, "agree": "TRUE" if r["agree"] else "FALSE"} for r in comparison["rows"]],
                      stage / "category_comparison.tsv", ["id", "study_id", "text", "ours", "study", "agree"])
    counts = count_categories(it["category"] for it in items)
    coarse = count_categories(it["stereotype"] for it in items)
    n_maze = sum(bool(it["maze_eligible"]) for it in items)
    print(f"{len(items)} items -> {s.out}/benchmark.parquet, benchmark.tsv")
    print("categories: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    print(f"category rule: {s.categories}")
    print("coarse: " + ", ".join(f"{k} {v:,}" for k, v in coarse.items()) + f"; Maze-eligible {n_maze:,}")
    if comparison is not None:
        c = comparison
        print(f"study list {compare}: our category agrees on {c['n_agree']:,} of {c['n_matched']:,} "
              f"matched sentences ({c['n_only_ours']:,} of ours and {c['n_only_study']:,} of the list "
              f"unmatched) -> {s.out}/category_comparison.tsv")
        if c["confusion"]:
            print("disagreements (ours -> study): " + ", ".join(f"{k} {v:,}" for k, v in c["confusion"].items()))
        print(disagreement_lines(c["rows"]))
    outputs = ("benchmark.parquet", "benchmark.tsv") + (("category_comparison.tsv",) if comparison else ())
    return RunResult(0, tuple(s.out / name for name in outputs))


def disagreement_lines(rows: list[dict]) -> str:
    """The sentences where our category and the study's list disagree, one per line: both
    categories, both ids and the text; then the sentences only one side has."""
    differ = [r for r in rows if r["id"] and r["study_id"] and not r["agree"]]
    only = [r for r in rows if not (r["id"] and r["study_id"])]
    lines = [f"{len(differ):,} sentence(s) where our rule and the list disagree (ours -> study):"]
    lines += [f"  {r['id']} / list {r['study_id']}: {r['ours']} -> {r['study']}: {r['text']}" for r in differ]
    if only:
        lines.append(f"{len(only):,} sentence(s) only one side has:")
        lines += [f"  {'ours ' + r['id'] if r['id'] else 'list ' + r['study_id']} "
                  f"({r['ours'] or r['study']}): {r['text']}" for r in only]
    return "\n".join(lines)
