"""Markdown table and histograms of the dataset diagnostics (:mod:`pipeline.diagnostics.core.analysis`).

May import: the standard library, matplotlib, :mod:`pipeline.vocab`, :mod:`pipeline.formats.figures`
(which writes the figures).
"""

from __future__ import annotations

import math
from pathlib import Path

from pipeline.vocab import FEMININE, GENDERS, MASCULINE


def mean_sd_text(m: float, sd: float) -> str:
    return "n/a" if math.isnan(m) else f"{m:.2f} ± {sd:.2f}"


def markdown_summary(summary: dict, dataset: str, names_source: str) -> str:
    lines = [f"# Dataset diagnostics: {dataset}", "",
             f"Names: {names_source}. A name is a personal-name mention; distance = spaCy tokens "
             "between the name and the pronoun; rank 1 = the closest name (ties: the name before "
             "the pronoun first); a candidate's name = the name mention overlapping it the most. "
             "The rank statistic leaves out examples without a correct candidate; a correct "
             "candidate that is not a name is ranked by its own span (counted in brackets). "
             "Mean ± population standard deviation.",
             "",
             "| gender | examples | names per example | with correct candidate (not a name) | "
             "rank of correct candidate (n) | rank of A | rank of B |",
             "|---|---|---|---|---|---|---|"]
    for g in GENDERS:
        e = summary[g]
        lines.append(f"| {g} | {e['examples']} | {mean_sd_text(e['names']['mean'], e['names']['sd'])} | "
                     f"{e['with_correct_candidate']} ({e['correct_candidate_not_a_name']}) | "
                     f"{mean_sd_text(e['rank']['mean'], e['rank']['sd'])} ({e['rank']['n']}) | "
                     f"{mean_sd_text(e['rank_a']['mean'], e['rank_a']['sd'])} | "
                     f"{mean_sd_text(e['rank_b']['mean'], e['rank_b']['sd'])} |")
    lines += ["", "Histograms: `names.png`, `rank.png`; numbers: `summary.json`.", ""]
    for key, title in (("names", "Names per example"), ("rank", "Rank of the correct candidate")):
        lines += [f"## {title}", "", "| value | " + " | ".join(GENDERS) + " |", "|---|---|---|"]
        values = sorted(set(summary[MASCULINE][key]["histogram"]) | set(summary[FEMININE][key]["histogram"]))
        for v in values:
            lines.append(f"| {v} | " + " | ".join(str(summary[g][key]["histogram"].get(v, 0)) for g in GENDERS) + " |")
        lines.append("")
    return "\n".join(lines)


def plot_histograms(summary: dict, key: str, title: str, target: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.formats.figures import save_figure

    values = sorted(set(summary[MASCULINE][key]["histogram"]) | set(summary[FEMININE][key]["histogram"]))
    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=110)
    width = 0.4
    for i, (g, colour) in enumerate(((MASCULINE, "tab:blue"), (FEMININE, "tab:orange"))):
        e = summary[g][key]
        total = max(e["n"], 1)
        xs = [v + (i - 0.5) * width for v in values]
        ys = [e["histogram"].get(v, 0) / total for v in values]
        label = f"{g} (n={e['n']}, {mean_sd_text(e['mean'], e['sd'])})"
        ax.bar(xs, ys, width=width, color=colour, label=label)
    ax.set_xlabel(title)
    ax.set_ylabel("share of examples")
    ax.set_xticks(values)
    if len(values) > 25:
        ax.set_xticks(values[::2])
    ax.legend()
    ax.set_title(title + " by pronoun gender")
    fig.tight_layout()
    save_figure(fig, target, fmt="png")
