"""Pro/anti-stereotype benchmark results rendered: the Markdown table and the plot (the run that
reads and scores them is :mod:`pipeline.runs.eval_benchmark`).

May import: numpy, matplotlib, :mod:`pipeline.vocab`, :mod:`pipeline.formats.figures` (which writes the
figure).
"""

from __future__ import annotations

import os

from pipeline.vocab import pct


# ------------------------------------------------------------------------------ report

def _ci(block: dict, key: str) -> str:
    ci = block.get(f"ci_{key}")
    if not ci or ci[0] is None:
        return ""
    signed = key == "delta"
    return f" [{pct(ci[0], signed)}, {pct(ci[1], signed)}]"


def markdown(metrics: dict, title: str = "Pro/anti-stereotype benchmark") -> str:
    """One row per system: pro, anti, Delta (strict rule, 99 % interval, p), loose rule."""
    lines = [f"# {title}", "",
             "Strict rule: the pronoun's cluster holds the main entity and not the other entity. "
             "Loose rule: the main entity's words and the pronoun share a cluster. Delta = pro - anti.",
             "", "| system | pro | anti | Delta (99 % CI) | p | pro (loose) | anti (loose) | Delta (loose) | n pro | n anti |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, m in metrics.items():
        lo = m["loose"]
        p = m.get("p_delta")
        lines.append(f"| {name} | {pct(m['pro'])} | {pct(m['anti'])} | {pct(m['delta'], True)}{_ci(m, 'delta')} "
                     f"| {'' if p is None else f'{p:.4f}'} | {pct(lo['pro'])} | {pct(lo['anti'])} "
                     f"| {pct(lo['delta'], True)} | {m['n_pro']} | {m['n_anti']} |")
    missing = [(name, m["n_missing"]) for name, m in metrics.items() if m.get("n_missing")]
    if missing:
        lines += ["", "Items without a prediction, counted as wrong (`--allow-missing`): "
                  + ", ".join(f"{name} {n:,}" for name, n in missing) + "."]
    cats = sorted({c for m in metrics.values() for c in m["per_category"]})
    if cats:
        lines += ["", "## Accuracy per fine-grained category (strict rule)", "",
                  "| system | " + " | ".join(f"{c} (n={next(iter(metrics.values()))['per_category'].get(c, {}).get('n', 0)})"
                                          for c in cats) + " |",
                  "|---|" + "---|" * len(cats)]
        for name, m in metrics.items():
            lines.append(f"| {name} | " + " | ".join(pct(m["per_category"].get(c, {}).get("accuracy"))
                                                    for c in cats) + " |")
    sources = sorted({s for m in metrics.values() for s in m["per_source"]})
    if len(sources) > 1:
        lines += ["", "## Per source (strict rule)", "", "| system | source | pro | anti | Delta |",
                  "|---|---|---|---|---|"]
        for name, m in metrics.items():
            for s in sources:
                b = m["per_source"].get(s)
                if b:
                    lines.append(f"| {name} | {s} | {pct(b['pro'])} | {pct(b['anti'])} | {pct(b['delta'], True)} |")
    return "\n".join(lines) + "\n"


def plot(metrics: dict, target: str | os.PathLike) -> None:
    """Pro vs anti accuracy of each system (strict rule, filled; loose, hollow)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.formats.figures import save_figure

    fig, ax = plt.subplots(figsize=(5, 5))
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    for i, (name, m) in enumerate(metrics.items()):
        color = f"C{i % 10}"
        if m["pro"] is not None and m["anti"] is not None:
            ax.scatter(100 * m["anti"], 100 * m["pro"], color=color, label=name)
        lo = m["loose"]
        if lo["pro"] is not None and lo["anti"] is not None:
            ax.scatter(100 * lo["anti"], 100 * lo["pro"], facecolors="none", edgecolors=color)
    ax.set_xlabel("anti-stereotypical accuracy (%)")
    ax.set_ylabel("pro-stereotypical accuracy (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_title("Models on the benchmark (hollow: loose rule)")
    if metrics:
        ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    save_figure(fig, target, dpi=120)
