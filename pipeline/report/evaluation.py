"""The evaluate report: the Markdown table laid out like the Counter-GAP paper's, and the plot
of Acc_Diff / Delta-I with bootstrap intervals.

``gold`` is the evaluate stage's validated dataset (attributes ``quadruples`` and ``path``);
``metrics`` the dict keyed by system name of :mod:`pipeline.core.metrics` plus the stage's
notes (``n_missing``, ``n_unaligned``, ``format``, ``matched_by``, ``expected_scores``,
``weighted``).

May import: the standard library, numpy, matplotlib, :mod:`pipeline.vocab`.
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


def untestable_note(some: dict) -> str | None:
    """Why no result is marked, when the dataset is too small for any test to reach p < 0.01."""
    if some.get("testable", True) or not some.get("resamples"):
        return None
    n, unit = (some["n_quadruples"], "quadruple") if "n_quadruples" in some else (some["n_instances"], "instance")
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


def render_markdown(metrics: dict, gold) -> str:
    """The report table (percent), laid out like the Counter-GAP paper's table."""
    some = next(iter(metrics.values()))
    lines = []
    if gold.quadruples:
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
    notes = [f"{n}: {m['n_missing']} missing ID(s) counted as wrong" for n, m in metrics.items()
             if m.get("n_missing")]
    notes += [f"{n}: {m['n_unaligned']} row(s) whose pronoun or candidates could not be aligned with the "
              f"system's tokens, counted as wrong" for n, m in metrics.items() if m.get("n_unaligned")]
    notes += [f"{n}: {m['n_failed']} document(s) the system failed on, counted as wrong"
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
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("acc_diff", "Acc_Diff = Acc_M − Acc_F (%)")]
    if gold.quadruples:
        panels.append(("delta_i", "ΔI = I_across − I_within (%)"))
    names = list(metrics)
    y = np.arange(len(names))[::-1]
    fig, axes = plt.subplots(1, len(panels), figsize=(max(7.0, 5.2 * len(panels)), 1.3 + 0.55 * len(names)),
                             squeeze=False, sharey=True)
    for ax, (key, title) in zip(axes[0], panels):
        vals = np.array([np.nan if metrics[n][key] is None else 100 * metrics[n][key] for n in names])
        lo, hi = [], []
        for n, v in zip(names, vals):
            ci = metrics[n].get(f"ci99_{key}") or [None, None]
            lo.append(v - 100 * ci[0] if ci[0] is not None else 0.0)
            hi.append(100 * ci[1] - v if ci[1] is not None else 0.0)
        colors = ["tab:red" if _mark(metrics[n], key) else "tab:gray" for n in names]
        ax.axvline(0, color="black", lw=0.8)
        for yi, v, l, h, c in zip(y, vals, lo, hi, colors):
            ax.errorbar(v, yi, xerr=[[l], [h]], fmt="o", color=c, capsize=4, ms=6)
            ax.annotate(f"{v:+.2f}{'*' if c == 'tab:red' else ''}", (v, yi), xytext=(0, 7),
                        textcoords="offset points", ha="center", fontsize=8)
        ax.set_title(title, fontsize=10)
        ax.grid(axis="x", alpha=0.3)
        ax.set_ylim(-0.7, len(names) - 0.3)
    axes[0][0].set_yticks(y, names)
    some = metrics[names[0]]
    note = (f"bars: bootstrap 99 % intervals ({some['resamples']} resamples); red *: one-sided p < 0.01"
            if some.get("resamples") else "no bootstrap (--resamples 0)")
    fig.text(0.01, 0.01, note, ha="left", va="bottom", fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120)
    plt.close(fig)
    return buf.getvalue()
