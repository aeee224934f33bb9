"""Tables and plots of the human experiment analysis.

* :func:`qa_markdown`, :func:`plot_qa`: pro vs anti accuracy per alpha, models as points
  (the paper's Figure 4);
* :func:`maze_markdown`, :func:`plot_maze`: the Maze response-time quantile curves of pro and
  anti trials and Delta_MAZE per quantile (its Figure 5).

May import: matplotlib, :mod:`pipeline.vocab`, :mod:`pipeline.formats.figures` (which writes the
figures).
"""

from __future__ import annotations

import os


def _p(x, signed: bool = False) -> str:
    """A number already in percent."""
    if x is None:
        return "–"
    return f"{x:+.2f}" if signed else f"{x:.2f}"


def _ms(x, signed: bool = False) -> str:
    if x is None:
        return "–"
    return f"{x:+.0f}" if signed else f"{x:.0f}"


def qa_markdown(result: dict) -> str:
    lines = ["# QA experiment: accuracy per alpha", "",
             f"Layout: {result.get('layout', 'project')}; pro/anti count "
             f"{'main-entity questions only' if result.get('questions', 'main') == 'main' else 'questions on either entity'}.", "",
             f"{result['n_answers']} answers of {result['n_participants']} participants"
             + (f" in {result['n_batches']} (worker, batch) groups"
                if result.get("n_batches", result["n_participants"]) != result["n_participants"] else "")
             + " "
             f"(left out: {result['excluded']['not_in_list']} not in the participant list, "
             f"{result['excluded']['low_filler_accuracy']} with low filler accuracy). Percent; "
             "Delta_QA = pro - anti; ignored: answers that are no coreference decision.", "",
             "| alpha | pro | anti | Delta_QA | ignored | filler | n pro | n anti | participants |",
             "|---|---|---|---|---|---|---|---|---|"]
    for a, s in result["alphas"].items():
        lines.append(f"| {a} | {_p(s['pro'])} | {_p(s['anti'])} | {_p(s['delta'], True)} | "
                     f"{_p(s['ignored'])} | {_p(s['filler'])} | {s['n_pro']} | {s['n_anti']} | "
                     f"{s['n_participants']} |")
    kinds = [(a, k, v) for a, s in result["alphas"].items() for k, v in (s.get("by_kind") or {}).items()]
    if kinds:
        lines += ["", "## Synthetic (WinoBias/Winogender) and natural (BUG) questions", "",
                  "| alpha | sentences | pro | anti | Delta_QA | ignored | n pro | n anti |",
                  "|---|---|---|---|---|---|---|---|"]
        for a, k, v in kinds:
            lines.append(f"| {a} | {k} | {_p(v['pro'])} | {_p(v['anti'])} | {_p(v['delta'], True)} | "
                         f"{_p(v['ignored'])} | {v['n_pro']} | {v['n_anti']} |")
    models = result.get("models") or {}
    if models:
        lines += ["", "## Models on the same sentences", "",
                  "| system | pro | anti | Delta | n pro | n anti |", "|---|---|---|---|---|---|"]
        for name, m in models.items():
            lines.append(f"| {name} | {_p(m['pro'])} | {_p(m['anti'])} | {_p(m['delta'], True)} | "
                         f"{m['n_pro']} | {m['n_anti']} |")
    return "\n".join(lines) + "\n"


def _d(x, signed: bool = False) -> str:
    """One decimal, as the paper's Table 2."""
    if x is None:
        return "–"
    return f"{x:.1f}"


def table2_markdown(result: dict, models: dict | None = None) -> str:
    """The paper's Table 2: humans per alpha and models, pro / anti / Delta on Wino and BUG
    (percent, one decimal; Delta = pro - anti; for humans Delta_QA)."""
    lines = ["# Table 2, one row per time fraction and model (one decimal)", "",
             "| | Wino pro | Wino anti | Wino Delta | BUG pro | BUG anti | BUG Delta |",
             "|---|---|---|---|---|---|---|"]
    for a, s in result["alphas"].items():
        bk = s.get("by_kind") or {}
        cells = []
        for kind in ("synthetic", "natural"):
            k = bk.get(kind) or {}
            cells += [_d(k.get("pro")), _d(k.get("anti")), _d(k.get("delta"))]
        lines.append(f"| humans, alpha = {float(a):.2f} | " + " | ".join(cells) + " |")
    for name, m in (models or {}).items():
        cells = []
        for ds in ("wino", "bug"):
            k = m.get(ds) or {}
            cells += [_d(k.get("pro")), _d(k.get("anti")), _d(k.get("delta"))]
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


DATASETS = (("Wino", "synthetic", "wino"), ("BUG", "natural", "bug"))


def table2_paper_markdown(result: dict, models: dict | None = None, maze: dict | None = None) -> str:
    """The paper's Table 2 in its shape: per dataset (Wino, BUG) the rows pro, anti and Delta
    (Delta_QA = pro - anti, percent, two decimals); a column per time fraction for humans
    (0.75, 0.50, 0.25) and one per model of a metrics.json. ``maze``: Delta_MAZE of the trials
    of each dataset ({"synthetic": {"n_trials", "delta": {"0.50": ms, ...}, "positive_from"}}, as
    :func:`pipeline.humans.core.compare.maze_table2` gives it): anti - pro (ms) per quantile."""
    alphas = list(result["alphas"])
    models = models or {}
    head = [f"alpha = {float(a):.2f}" for a in alphas] + list(models)
    lines = ["# Table 2: pro / anti / Delta per dataset, humans per time fraction (QA) and models", "",
             "Percent, two decimals; Delta = pro - anti (for humans Delta_QA).", "",
             "| dataset | | " + " | ".join(head) + " |", "|---|---|" + "---|" * len(head)]
    for name, kind, ds in DATASETS:
        if not any((result["alphas"][a].get("by_kind") or {}).get(kind) for a in alphas) and \
                not any(m.get(ds) for m in models.values()):
            continue
        for field, label in (("pro", "pro"), ("anti", "anti"), ("delta", "Delta")):
            signed = field == "delta"
            cells = [_p(((result["alphas"][a].get("by_kind") or {}).get(kind) or {}).get(field), signed)
                     for a in alphas]
            cells += [_p((m.get(ds) or {}).get(field), signed) for m in models.values()]
            lines.append(f"| {name} | {label} | " + " | ".join(cells) + " |")
    if maze:
        qs = None
        rows = []
        for name, kind, _ in DATASETS:
            sub = maze.get(kind)
            if not sub:
                continue
            qs = list(sub["delta"])
            pos = sub.get("positive_from")
            rows.append(f"| {name} | {sub['n_trials']} | "
                        + " | ".join(_ms(v, True) for v in sub["delta"].values())
                        + f" | {'–' if pos is None else f'{pos:.2f}'} |")
        if rows:
            lines += ["", "Delta_MAZE = anti - pro response time at the pronoun (ms), per quantile of "
                      "the correct trials (outliers removed):", "",
                      "| dataset | pro + anti trials | " + " | ".join(f"q = {q}" for q in qs)
                      + " | positive from |", "|---|---|" + "---|" * (len(qs) + 1)] + rows
    return "\n".join(lines) + "\n"


def plot_qa(result: dict, target: str | os.PathLike) -> None:
    """Pro (y) vs anti (x) accuracy: one point per alpha for humans, one per model."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.formats.figures import save_figure

    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 100], [0, 100], color="grey", lw=0.8, ls="--")
    xs, ys = [], []
    for a, s in result["alphas"].items():
        if s["pro"] is None or s["anti"] is None:
            continue
        xs.append(s["anti"])
        ys.append(s["pro"])
        ax.annotate(f"humans, alpha={a}", (s["anti"], s["pro"]), textcoords="offset points",
                    xytext=(4, -10), fontsize=7)
    ax.plot(xs, ys, "o-", color="black", label="humans (per alpha)")
    for i, (name, m) in enumerate((result.get("models") or {}).items()):
        if m["pro"] is not None and m["anti"] is not None:
            ax.scatter(m["anti"], m["pro"], marker="s", color=f"C{i % 10}", label=name)
    ax.set_xlabel("anti-stereotypical accuracy (%)")
    ax.set_ylabel("pro-stereotypical accuracy (%)")
    ax.set_xlim(0, 100)
    ax.set_ylim(0, 100)
    ax.set_title("QA: pro vs anti accuracy")
    ax.legend(loc="lower right", fontsize=7)
    fig.tight_layout()
    save_figure(fig, target, dpi=120)


def maze_markdown(result: dict) -> str:
    lines = ["# Maze experiment: response times at the pronoun", "",
             f"{result['n_participants']} participants. Correct trials only, outliers removed per "
             "condition by the 1.5 x IQR rule; times in ms; Delta_MAZE = anti - pro.", "",
             "| condition | trials | success rate (%) | correct kept | outliers |", "|---|---|---|---|---|"]
    for c, n in result["n_trials"].items():
        sr = result["success_rate"].get(c)
        lines.append(f"| {c} | {n} | {_p(None if sr is None else 100 * sr)} | "
                     f"{result['n_correct_kept'].get(c, 0)} | {result['n_outliers'].get(c, 0)} |")
    lines += ["", f"Delta_MAZE positive from quantile: {result['delta_positive_from']}", "",
              "| quantile | pro | anti | Delta_MAZE |", "|---|---|---|---|"]
    for i, q in enumerate(result["quantiles"]):
        if i % 5 == 0 or i == len(result["quantiles"]) - 1:
            lines.append(f"| {q:.2f} | {_ms(result['pro'][i])} | {_ms(result['anti'][i])} | "
                         f"{_ms(result['delta'][i], True)} |")
    for kind, sub in (result.get("by_kind") or {}).items():
        lines += ["", f"## {kind.capitalize()} sentences", "",
                  "Success rate: " + ", ".join(f"{c} {_p(None if v is None else 100 * v)} %"
                                                for c, v in sub["success_rate"].items())
                  + f"; Delta_MAZE positive from quantile: {sub['delta_positive_from']}", "",
                  "| quantile | pro | anti | Delta_MAZE |", "|---|---|---|---|"]
        for i, q in enumerate(sub["quantiles"]):
            if i % 10 == 0:
                lines.append(f"| {q:.2f} | {_ms(sub['pro'][i])} | {_ms(sub['anti'][i])} | "
                             f"{_ms(sub['delta'][i], True)} |")
    models = result.get("models") or {}
    if models:
        lines += ["", "## Where humans meet the models", "",
                  "Smallest response-time quantile at which human accuracy reaches the model's "
                  "(–: humans never reach it within the correct trials).", "",
                  "| system | pro accuracy | quantile (pro) | anti accuracy | quantile (anti) |",
                  "|---|---|---|---|---|"]
        for name, m in models.items():
            def acc(c):
                a = m[c]["accuracy"]
                return _p(None if a is None else 100 * a)
            def where(c):
                q = m[c]["quantile"]
                return "–" if q is None else ("<= 0.50" if m[c].get("at_start") else f"{q:.2f}")
            lines.append(f"| {name} | {acc('pro')} | {where('pro')} | {acc('anti')} | {where('anti')} |")
    return "\n".join(lines) + "\n"


def plot_maze(result: dict, target: str | os.PathLike) -> None:
    """Left: quantile curves of pro and anti times; right: Delta_MAZE per quantile."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.formats.figures import save_figure

    q = result["quantiles"]
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    for key, color in (("pro", "C0"), ("anti", "C3")):
        pts = [(x, y) for x, y in zip(q, result[key]) if y is not None]
        if pts:
            left.plot(*zip(*pts), color=color, label=key)
    left.set_xlabel("quantile")
    left.set_ylabel("response time (ms)")
    left.set_title("Maze: response-time quantiles")
    left.legend()
    pts = [(x, y) for x, y in zip(q, result["delta"]) if y is not None]
    if pts:
        right.plot(*zip(*pts), color="black", label="all")
    for (kind, sub), style in zip((result.get("by_kind") or {}).items(), ("--", ":")):
        pts = [(x, y) for x, y in zip(q, sub["delta"]) if y is not None]
        if pts:
            right.plot(*zip(*pts), color="black", ls=style, label=kind)
    if result.get("by_kind"):
        right.legend()
    right.axhline(0, color="grey", lw=0.8, ls="--")
    right.set_xlabel("quantile")
    right.set_ylabel("Delta_MAZE = anti - pro (ms)")
    right.set_title("Delta_MAZE")
    fig.tight_layout()
    save_figure(fig, target, dpi=120)
