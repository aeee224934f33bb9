"""The dataset card (README.md text) of the annotated dataset: who produced the labels
(people, a simulator's scripted workers, a model: :func:`labels_by`, read from the raw
annotator ids at import and carried as the provenance item ``labels by``), provenance, funnel,
agreement, counts per label, pattern, gender and book, as Markdown tables.

May import: the standard library, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import collections
import re

from pipeline.vocab import pct

FILES = {"dataset": "dataset.parquet", "votes": "votes.parquet", "tsv": "dataset.tsv",
         "summary": "summary.json"}


def _table(header: list[str], rows: list[list]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _pct(x) -> str:
    """A percentage stored as 0-100 (agreement, funnel shares), shown with one decimal."""
    return "n/a" if x is None else pct(x / 100, digits=1) + "%"


LABELS_BY = "labels by"       # the provenance item naming who produced the labels
SIMULATED_WORKER = re.compile(r"SIMW\d{4}")      # tests/annotation/simulate.py's scripted workers
MODEL_WORKER = "model:"                          # WorkerId / annotator "model:NAME": a model's answers


def labels_by(kind: str, annotators) -> str:
    """Who produced the answers, from the results' raw annotator ids (before they are
    pseudonymised) and the results' kind: ``people``, ``simulator`` (every id is one of the
    scripted workers of tests/annotation/simulate.py, a rehearsal: ``SIMW0001`` ...) or
    ``model`` (every id ``model:NAME``); a mix is ``mixed``."""
    ids = [str(a) for a in annotators]
    if ids and all(SIMULATED_WORKER.fullmatch(a) for a in ids):
        return "simulator"
    if ids and all(a.startswith(MODEL_WORKER) for a in ids):
        return "model:" + ",".join(sorted({a[len(MODEL_WORKER):] for a in ids}))
    if any(SIMULATED_WORKER.fullmatch(a) or a.startswith(MODEL_WORKER) for a in ids):
        return "mixed"
    return "people"


def labels_sentence(provenance: dict) -> str:
    """The card's sentence on where the labels come from (``provenance[LABELS_BY]``)."""
    who = str(provenance.get(LABELS_BY, ""))
    if who == "people":
        return "Labels (A-coref, B-coref) are the majority vote of human annotators."
    if who == "simulator":
        return ("Labels (A-coref, B-coref) are the majority vote of **simulated annotators** (the scripted "
                "workers of `tests/annotation/simulate.py`): a rehearsal of the annotation round trip. The "
                "labels are made up; do not use them as gold.")
    if who.startswith("model:"):
        return (f"Labels (A-coref, B-coref) are the majority vote of answers produced by a **model** "
                f"({who[len('model:'):]}), not by people.")
    if who == "mixed":
        return ("Labels (A-coref, B-coref) are the majority vote of answers from a **mix** of human, "
                "simulated and/or model annotators; check the provenance before using them as gold.")
    return ("Labels (A-coref, B-coref) are the majority vote of annotators; who they were (people, a "
            "simulator, a model) was not recorded.")


def dataset_card(result, provenance: dict, license: str = "unknown") -> str:
    """The card's Markdown (the YAML metadata block is added by the dataset writer).
    ``result``: a :class:`pipeline.annotation.core.votes.Result`; ``provenance``: item -> value."""
    f, s = result.funnel, result.stats
    originals = [r for r in result.dataset if r["variant"] == "original"]
    steps = [("originals (quadruples exported)", f["originals"]),
             (f"annotated (all four instances have >= {s['assignments']} valid answers)", f["annotated"]),
             ("consistent (same majority label position in all four)", f["consistent"]),
             ("no flags (no commonsense contradiction reported)", f["no_flags"])]
    if f["no_real_people"] is not None:
        steps.append(("no real-world people's names", f["no_real_people"]))
    steps.append(("balanced (as many masculine as feminine originals)", f["balanced"]))
    funnel_rows = [[name, n, _pct(100.0 * n / f["originals"]) if f["originals"] else "n/a"]
                   for name, n in steps]

    def counts(key):
        c = collections.Counter(r.get(key) or "" for r in originals)
        return [[k or "(empty)", v, 4 * v] for k, v in sorted(c.items(), key=lambda kv: (-kv[1], kv[0]))]

    label_c = collections.Counter("A" if r["a_coref"] else "B" if r["b_coref"] else "neither"
                                  for r in originals)
    checks = s["check_scores"]
    check_total = sum(v["total"] for v in checks.values())
    check_correct_n = sum(v["correct"] for v in checks.values())
    parts = [
        "# Counter-GAP-style dataset",
        "",
        "Counterfactual gender-bias test set for coreference resolution: every *original* "
        "instance (a passage from a book, a gendered pronoun and two candidate names A and B of "
        "the pronoun's gender) comes with three counterfactual variants (`N-control`, "
        "`N-swap-1`, `N-swap-2`), and the four form a *quadruple*. " + labels_sentence(provenance),
        "",
        "## Files",
        "",
        "A Hugging Face dataset directory: `datasets.load_dataset(DIR)` returns the final "
        "dataset (config `default`, split `test`), `datasets.load_dataset(DIR, \"votes\")` "
        "the votes.",
        "",
        _table(["file", "config", "what"], [
            [f"`{FILES['dataset']}`", "default", "the final dataset, schema QUADRUPLES of "
             "`pipeline/formats/schemas.py`, labels filled"],
            [f"`{FILES['votes']}`", "votes", "every input instance: answers per label, majority, "
             "agreement, flags, why its quadruple left"],
            [f"`{FILES['tsv']}`", "", "the final dataset in GAP TSV format (Counter-GAP IDs; "
             "extra column `Book`)"],
            [f"`{FILES['summary']}`", "", "the funnel and statistics below, machine-readable"],
        ]),
        "",
        f"License: `{license}`.",
        "",
        "## Provenance",
        "",
        _table(["item", "value"], [[k, f"`{v}`"] for k, v in provenance.items()]),
        "",
        "## Filtering funnel (quadruples)",
        "",
        _table(["step", "quadruples", "of originals"], funnel_rows),
        "",
        f"Final dataset: {len(result.dataset)} instances = {len(originals)} quadruples, "
        f"{s['balanced_per_gender']} with a masculine and {s['balanced_per_gender']} with a "
        "feminine original pronoun.",
        "",
        "## Annotation",
        "",
        _table(["figure", "value"], [
            ["answers read", s["answers"]],
            ["annotators", len(s["annotators"])],
            ["answers needed per instance", s["assignments"]],
            ["duplicate answers ignored", s["duplicates"]],
            ["answers failing the checks (not counted)",
             sum(s["invalid"].values()) if s["invalid"] else 0],
            ["instances with too few answers (not voted)", len(s["too_few_answers"])],
            ["instances without a majority (tie)", len(s["no_majority"])],
            ["instances flagged as contradicting common sense", len(s["flagged_instances"])],
            ["mean agreement with the majority, all voted instances "
             f"({s['voted_instances']})", _pct(s["agreement_all"])],
            ["mean agreement with the majority, final dataset", _pct(s["agreement_final"])],
            ["check questions answered correctly",
             f"{check_correct_n}/{check_total}" if check_total else "n/a"],
            ["annotators excluded by check accuracy", len(s["excluded_annotators"])],
        ]),
        "",
        "Agreement of an instance is the percentage of its answers that agree with its most "
        "frequent label (A, B or neither); the figures are means over instances.",
        "",
        "## Counts (final dataset)",
        "",
        "Majority label of the originals (the same in all four variants by construction):",
        "",
        _table(["label", "quadruples"], [[k, label_c[k]] for k in ("A", "B", "neither")]),
        "",
        "Per pattern:",
        "",
        _table(["pattern", "quadruples", "instances"], counts("pattern")),
        "",
        "Per gender of the original pronoun:",
        "",
        _table(["gender", "quadruples", "instances"], counts("original_gender")),
        "",
        "Per book:",
        "",
        _table(["book", "quadruples", "instances"], counts("book")),
        "",
    ]
    return "\n".join(parts)
