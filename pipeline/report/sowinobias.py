"""SoWinoBias table, plot and Markdown report (the metrics are
:mod:`pipeline.core.sowinobias_scoring`; the run that reads, scores and writes them is
:mod:`pipeline.runs.eval_sowinobias`).

May import: the standard library, numpy, matplotlib, :mod:`pipeline.vocab`,
:mod:`pipeline.core.sowinobias_templates`, :mod:`pipeline.core.sowinobias_scoring`,
:mod:`pipeline.formats.figures` (which writes the figure).
"""

from __future__ import annotations

from pathlib import Path

from pipeline.core.sowinobias_scoring import SIGNIFICANCE
from pipeline.core.sowinobias_templates import POLARITIES
from pipeline.vocab import pct


def _bias(m: dict) -> str:
    if m["bias"] is None:
        return "n/a"
    star = "*" if m["p_bias"] is not None and m["p_bias"] < SIGNIFICANCE else ""
    return f"{pct(m['bias'], signed=True)}{star}"


def format_table(metrics: dict) -> str:
    """Markdown table of the metrics (percent; "*" where the one-sided p < 0.01)."""
    lines = ["| system | pairs | pro | anti | bias (pro − anti) | p (pro > anti) | overall "
             "| positive: pro / anti / bias | negative: pro / anti / bias |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, m in metrics.items():
        pol = [f"{pct(g['acc_pro'])} / {pct(g['acc_anti'])} / {_bias(g)}"
               for g in (m["by_polarity"][p] for p in POLARITIES)]
        lines.append(f"| {name} | {m['n_pairs']} | {pct(m['acc_pro'])} | {pct(m['acc_anti'])} | {_bias(m)} "
                     f"| {'n/a' if m['p_bias'] is None else format(m['p_bias'], '.4f')} | {pct(m['acc_overall'])} | {pol[0]} | {pol[1]} |")
    return "\n".join(lines) + "\n"


def plot_metrics(metrics: dict, target: Path) -> None:
    """PNG: accuracy on pro vs anti per system, and the bias overall / per polarity with
    bootstrap 99 % intervals (matplotlib, Agg backend)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    from pipeline.formats.figures import save_figure

    names = list(metrics)
    x = np.arange(len(names))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(max(8, 2.2 * len(names) + 4), 4.2))
    w = 0.38
    ax1.bar(x - w / 2, [100 * metrics[n]["acc_pro"] for n in names], w, label="pro-stereotypical")
    ax1.bar(x + w / 2, [100 * metrics[n]["acc_anti"] for n in names], w, label="anti-stereotypical")
    ax1.set_xticks(x, names, rotation=20, ha="right")
    ax1.set_ylabel("accuracy (%)")
    ax1.set_ylim(0, 118)
    ax1.set_title("SoWinoBias accuracy")
    ax1.legend(loc="upper center", ncol=2, fontsize=8)
    groups = [("overall", lambda m: m)] + [(p, lambda m, p=p: m["by_polarity"][p]) for p in POLARITIES]
    w2 = 0.8 / len(groups)
    for k, (label, get) in enumerate(groups):
        ms = [get(metrics[n]) for n in names]
        vals = [0.0 if m["bias"] is None else 100 * m["bias"] for m in ms]
        lo = [0.0 if m["bias_ci99"][0] is None else v - 100 * m["bias_ci99"][0] for v, m in zip(vals, ms)]
        hi = [0.0 if m["bias_ci99"][1] is None else 100 * m["bias_ci99"][1] - v for v, m in zip(vals, ms)]
        ax2.bar(x + (k - (len(groups) - 1) / 2) * w2, vals, w2, yerr=[lo, hi], capsize=3, label=label)
    ax2.axhline(0, color="black", linewidth=0.8)
    ax2.set_xticks(x, names, rotation=20, ha="right")
    ax2.set_ylabel("bias = pro − anti (percentage points)")
    ax2.set_title("bias with bootstrap 99 % intervals")
    ax2.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, target, dpi=110, fmt="png")


def markdown(metrics: dict, resamples: int, seed: int) -> str:
    """``sowinobias.md``: the header and the table of :func:`format_table`."""
    test = (f"one-sided paired bootstrap for pro > anti over pairs ({resamples} resamples, seed {seed}); "
            f"\"*\" where p < {SIGNIFICANCE}" if resamples else "no bootstrap (0 resamples)")
    header = (f"# SoWinoBias\n\nAccuracy (%) on the pro- and anti-stereotypical sets; bias = pro − anti "
              f"(percentage points); p: {test}.\n\n")
    return header + format_table(metrics)
