"""The evaluate report: the Markdown table laid out like the Counter-GAP paper's, and the plot
of Acc_Diff / Delta-I with bootstrap intervals. Each tested statistic is shown with the
one-sided 99 % bound of its one-sided test (it excludes 0 exactly when the value is starred)
and, labelled apart, the two-sided 99 % interval. A dataset without gold labels gets the
figures that need none (:func:`render_unlabelled`) and the names of those that need labels.

``gold`` is the evaluate stage's validated dataset (attributes ``quadruples`` and ``path``);
``metrics`` the dict keyed by system name of :mod:`pipeline.core.metrics` plus the stage's
notes (``n_missing``, ``n_unaligned``, ``format``, ``matched_by``, ``expected_scores``,
``weighted``).

May import: the standard library, numpy, matplotlib, :mod:`pipeline.vocab`,
:mod:`pipeline.formats.figures` (the figure's PNG bytes).
"""

from __future__ import annotations

import numpy as np

from pipeline.vocab import pct

FORMAT_NAMES = {"gap-tsv": "GAP TSV predictions", "jsonl-clusters": "JSON-lines clusters",
                "conll": "CoNLL-2012 response"}
MINUS = "\u2212"
SIGNIFICANT = 0.01


def _pct(x, signed: bool = False) -> str:
    """:func:`pipeline.vocab.pct` in the paper's typography: a true minus sign, no sign on a
    value that rounds to zero unless ``signed`` (then "+"), "n/a" for undefined."""
    if x is None or x != x:
        return "n/a"
    s = pct(x, signed)
    body = s.lstrip("+-")
    if s.startswith("-") and body.strip("0."):
        return MINUS + body
    return ("+" if signed else "") + body


def _mark(m: dict, key: str) -> str:
    """"*" where p < 0.01 and the dataset has units enough for a test to reach that
    (``testable``, :func:`pipeline.core.metrics.can_be_significant`)."""
    p = m.get(f"p_{key}")
    return "*" if p is not None and p < SIGNIFICANT and m.get("testable", True) else ""


TESTED = (("acc_diff", "Acc_Diff", "acc_diff"), ("delta_i", "ΔI", "delta_i"),
          ("original_counterfactual", "orig − counter", "original_counterfactual_diff"))


def _bound_cell(b: dict | None) -> str:
    """The one-sided bound as an interval: [L, +∞) for H1 > 0, (−∞, U] for H1 < 0."""
    if not b or b.get("bound") is None:
        return "n/a"
    v = _pct(b["bound"], True)
    return f"[{v}, +∞)" if b["side"] == "lower" else f"(−∞, {v}]"


def _ci_cell(ci) -> str:
    ci = ci or [None, None]
    return "n/a" if ci[0] is None else f"[{_pct(ci[0], True)}, {_pct(ci[1], True)}]"


def interval_rows(metrics: dict) -> list[list[str]]:
    """One row per system and tested statistic: value (with the star of :func:`_mark`), the
    one-sided 99 % bound that matches the one-sided test (it excludes 0 exactly when p < 0.01),
    the two-sided 99 % percentile interval, and p."""
    rows = []
    for name, m in metrics.items():
        for key, title, point in TESTED:
            if f"p_{key}" not in m:
                continue
            value = _pct(m[point], True) if m.get(point) is not None else "n/a"
            h1 = {"lower": "H1 > 0", "upper": "H1 < 0"}.get((m.get(f"bound99_{key}") or {}).get("side"), "")
            rows.append([name, title + (f" ({h1})" if h1 else ""), value + _mark(m, key),
                         _bound_cell(m.get(f"bound99_{key}")), _ci_cell(m.get(f"ci99_{key}")),
                         f"{m[f'p_{key}']:.4f}"])
    return rows


INTERVAL_HEADER = ["model", "statistic", "value", "one-sided 99 % bound (the test's)",
                   "two-sided 99 % interval", "p (one-sided)"]
INTERVAL_NOTE = ("The star and the one-sided bound come from the same one-sided test: a starred value's "
                 "bound excludes 0. The two-sided 99 % interval (0.5 % in each tail) is wider and may "
                 "include 0 beside a star.")


def _interval_table(metrics: dict) -> list[str]:
    rows = interval_rows(metrics)
    if not rows:
        return []
    lines = ["", "### Tested statistics", "", "| " + " | ".join(INTERVAL_HEADER) + " |",
             "|" + "---|" * len(INTERVAL_HEADER)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines + ["", INTERVAL_NOTE]


def untestable_note(some: dict) -> str | None:
    """Why no result is marked, when the dataset is too small for any test to reach p < 0.01."""
    if some.get("testable", True) or not some.get("resamples"):
        return None
    n, unit = (some.get("n_quadruples_scored", some["n_quadruples"]), "quadruple") if "n_quadruples" in some \
        else (some["n_instances"], "instance")
    return (f"No result is marked: with {n} {unit}(s) even an exact paired test cannot reach p < 0.01 "
            f"(its smallest p is 0.5^{n} = {0.5 ** n:.3g}); the bootstrap p-values in metrics.json are "
            f"not meaningful at this size.")


def _ratio_cell(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


def _rho(x) -> str:
    if x is None:
        return "n/a"
    s = f"{abs(x):.3f}"
    return (MINUS if x < 0 and s != "0.000" else "") + s


def _dist(d: dict) -> str:
    return " / ".join(_pct(d[k]) for k in ("A", "B", "both", "neither"))


def render_unlabelled(metrics: dict, gold) -> list[str]:
    """The table of a dataset without gold labels: what needs no gold, and what does."""
    from pipeline.vocab import VARIANTS

    some = next(iter(metrics.values()))
    lines = ["| model | I_within (M / F) | I_across (M2F / F2M) | ΔI | ρ | quadruples scored |",
             "|---|---|---|---|---|---|"]
    for name, m in metrics.items():
        lines.append(f"| {name} | {_pct(m['i_within'])} ({_pct(m['i_within_m'])} / {_pct(m['i_within_f'])}) "
                     f"| {_pct(m['i_across'])} ({_pct(m['i_across_m2f'])} / {_pct(m['i_across_f2m'])}) "
                     f"| {_pct(m['delta_i'], True)}{_mark(m, 'delta_i')} | {_rho(m['spearman_rho'])} "
                     f"| {m['n_quadruples_scored']} of {m['n_quadruples']} |")
    lines += ["", f"No gold labels in `{gold.path.name}` ({some['n_quadruples']} quadruples, "
              f"{some['n_instances']} instances): an inconsistency is a pair of variants the system answers "
              "differently (A, B, both or neither), which needs no gold, since a quadruple's four variants share "
              "one label by construction. A quadruple with an unanswered variant is left out of the system's "
              "figures. **Need labels** (not computed): " + ", ".join(some["need_gold"]) + " (docs/label.md).",
              "", "Answers per variant, percent of answered rows, A / B / both / neither:", "",
              "| model | " + " | ".join(VARIANTS) + " | masculine pronoun | feminine pronoun | unanswered rows |",
              "|---|" + "---|" * (len(VARIANTS) + 3)]
    for name, m in metrics.items():
        byv, byg = m["answers_by_variant"], m["answers_by_gender"]
        unanswered = sum(d["n_unanswered"] for d in byv.values())
        lines.append(f"| {name} | " + " | ".join(_dist(byv[v]) for v in VARIANTS)
                     + f" | {_dist(byg['masculine'])} | {_dist(byg['feminine'])} | {unanswered} |")
    return lines + [""]


def render_markdown(metrics: dict, gold) -> str:
    """The report table (percent), laid out like the Counter-GAP paper's table."""
    some = next(iter(metrics.values()))
    lines = []
    unlabelled = some.get("labelled") is False
    if unlabelled:
        lines += render_unlabelled(metrics, gold)
        tests = "ΔI (H1: I_across > I_within), resampling each system's scored quadruples"
    elif gold.quadruples:
        lines += ["| model | Acc_M | Acc_F | Acc_Diff | I_within (M / F) | I_across (M2F / F2M) | ΔI "
                  "| overall | orig / counter | ρ | our-GAP M / F / overall |",
                  "|---|---|---|---|---|---|---|---|---|---|---|"]
        for name, m in metrics.items():
            lines.append(
                f"| {name} | {_pct(m['acc_m'])} | {_pct(m['acc_f'])} "
                f"| {_pct(m['acc_diff'], True)}{_mark(m, 'acc_diff')} "
                f"| {_pct(m['i_within'])} ({_pct(m['i_within_m'])} / {_pct(m['i_within_f'])}) "
                f"| {_pct(m['i_across'])} ({_pct(m['i_across_m2f'])} / {_pct(m['i_across_f2m'])}) "
                f"| {_pct(m['delta_i'], True)}{_mark(m, 'delta_i')} | {_pct(m['acc_overall'])} "
                f"| {_pct(m['acc_original'])} / {_pct(m['acc_counterfactual'])}"
                f"{_mark(m, 'original_counterfactual')} "
                f"| {_rho(m['spearman_rho'])} "
                f"| {_pct(m['gap_acc_m'])} / {_pct(m['gap_acc_f'])} / {_pct(m['gap_acc_overall'])} |")
        unit = f"{some['n_quadruples']} quadruples ({some['n_instances']} instances)"
        tests = ("Acc_Diff (H1: the observed sign), ΔI (H1: I_across > I_within) and "
                 "orig − counter (H1: the observed sign)")
        lines.append("")
        lines.append(f"Percent on {unit} of `{gold.path.name}`. ρ: Spearman between a quadruple's "
                     "across-gender inconsistency and its original gender (+1 masculine, −1 feminine). "
                     "our-GAP: the originals x_o alone.")
    else:
        lines += ["| model | Acc_M | Acc_F | Acc_Diff | overall | Bias (F/M) |",
                  "|---|---|---|---|---|---|"]
        for name, m in metrics.items():
            lines.append(f"| {name} | {_pct(m['acc_m'])} | {_pct(m['acc_f'])} "
                         f"| {_pct(m['acc_diff'], True)}{_mark(m, 'acc_diff')} | {_pct(m['acc_overall'])} "
                         f"| {_ratio_cell(m['acc_bias'])} |")
        tests = "Acc_Diff (H1: the observed sign), resampling instances"
        lines.append("")
        lines.append(f"GAP-style view (no quadruples in `{gold.path.name}`): percent on "
                     f"{some['n_instances']} instances; Bias = Acc_F / Acc_M.")
    if some.get("resamples"):
        lines.append(f"\\* p < 0.01, one-sided paired bootstrap ({some['resamples']} resamples, "
                     f"seed {some['seed']}) for {tests}.")
        if untestable_note(some):
            lines.append(untestable_note(some))
        lines += _interval_table(metrics)
    fate = "their quadruples left out (answers.parquet says why)" if unlabelled else "counted as wrong"
    notes = [f"{n}: {m['n_missing']} missing ID(s) {fate}" for n, m in metrics.items()
             if m.get("n_missing")]
    notes += [f"{n}: {m['n_unaligned']} row(s) whose pronoun or candidates could not be aligned with the "
              f"system's tokens, {fate}" for n, m in metrics.items() if m.get("n_unaligned")]
    notes += [f"{n}: {m['n_failed']} document(s) the system failed on, {fate}"
              for n, m in metrics.items() if m.get("n_failed")]
    notes += [f"{n}: {FORMAT_NAMES.get(m['format'], m['format'])}, rows matched by {m.get('matched_by', 'ID')}"
              for n, m in metrics.items() if m.get("format") and m["format"] != "gap-tsv"]
    notes += [f"{n}: exact expected scores (A-prob/B-prob)" for n, m in metrics.items()
              if m.get("expected_scores")]
    if notes:
        lines.append("")
        lines += [f"- {t}" for t in notes]

    weighted = {n: m["weighted"] for n, m in metrics.items() if m.get("weighted")}
    if weighted:
        lines += ["", "### Weighted scores", ""]
        keys = []
        for per_w in weighted.values():
            for res in per_w.values():
                keys += [k for k in res if k not in keys and not isinstance(res[k], (dict, list))]
        lines.append("| model | weights | " + " | ".join(keys) + " |")
        lines.append("|---|---|" + "---|" * len(keys))
        for n, per_w in weighted.items():
            for wname, res in per_w.items():
                cells = []
                for k in keys:
                    v = res.get(k)
                    if isinstance(v, float):
                        cells.append(f"{v:.0f}" if v.is_integer() and abs(v) >= 10 else f"{v:.4f}")
                    else:
                        cells.append("" if v is None else str(v))
                lines.append(f"| {n} | {wname} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def render_plot(metrics: dict, gold) -> bytes:
    """PNG: Acc_Diff (and Delta-I for quadruples) per system with bootstrap 99 % intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from pipeline.formats.figures import figure_png

    unlabelled = next(iter(metrics.values())).get("labelled") is False
    panels = [] if unlabelled else [("acc_diff", "Acc_Diff = Acc_M − Acc_F (%)")]
    if gold.quadruples:
        panels.append(("delta_i", "ΔI = I_across − I_within (%)" + (" (no gold: answer disagreement)"
                                                                      if unlabelled else "")))
    names = list(metrics)
    y = np.arange(len(names))[::-1]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(7.0, 5.2 * len(panels)), 1.6 + 0.55 * len(names)),
                             squeeze=False, sharey=True)
    for ax, (key, title) in zip(axes[0], panels):
        vals = np.array([np.nan if metrics[n][key] is None else 100 * metrics[n][key] for n in names])
        colors = ["tab:red" if _mark(metrics[n], key) else "tab:gray" for n in names]
        ax.axvline(0, color="black", lw=0.8)
        for n, yi, v, c in zip(names, y, vals, colors):
            ci = metrics[n].get(f"ci99_{key}") or [None, None]
            if ci[0] is not None and np.isfinite(v):       # two-sided interval: thin, light
                ax.plot([100 * ci[0], 100 * ci[1]], [yi - 0.18, yi - 0.18], color="lightgray", lw=1.2,
                        solid_capstyle="butt")
            b = metrics[n].get(f"bound99_{key}") or {}
            if b.get("bound") is not None and np.isfinite(v):   # the test's one-sided bound: thick, capped
                x0 = 100 * b["bound"]
                ax.plot([x0, v], [yi, yi], color=c, lw=2.5, solid_capstyle="butt")
                ax.plot([x0], [yi], marker="|", color=c, ms=12, mew=2.5)
            ax.plot([v], [yi], "o", color=c, ms=6)
            ax.annotate(f"{v:+.2f}{'*' if c == 'tab:red' else ''}", (v, yi), xytext=(0, 7),
                        textcoords="offset points", ha="center", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.7, len(names) - 0.3)
    axes[0][0].set_yticks(y, names)
    some = metrics[names[0]]
    note = (f"thick bar to |: the one-sided 99 % bound of the one-sided test (open towards H1); it excludes 0\n"
            f"exactly when red * (p < 0.01). Thin grey line: two-sided 99 % interval ({some['resamples']} resamples)"
            if some.get("resamples") else "no bootstrap (--resamples 0)")
    fig.text(0.01, 0.01, note, ha="left", va="bottom", fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.04 if not some.get("resamples") else 0.09, 1, 1))
    return figure_png(fig, dpi=120)
