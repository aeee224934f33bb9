"""``evaluate --report``: one page per run, ``report.md`` and ``report.html`` (the plot
embedded), with the metrics table, the tested statistics with their 99 % intervals and
p-values, and the quadruples each system answers inconsistently, side by side.

A quadruple is *inconsistent* for a system when the system is right on some of its four
variants and wrong on others (what I_within / I_across count).

May import: the standard library, numpy, :mod:`pipeline.core.answers`,
:mod:`pipeline.report.evaluation`, :mod:`pipeline.formats.files`, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

import numpy as np

from pipeline.vocab import VARIANTS

MAX_ROWS = 100


def _answer(a: bool, b: bool) -> str:
    from pipeline.core.answers import ab_label

    return ab_label(bool(a), bool(b))


def inconsistent_quadruples(gold, systems: dict) -> list[dict]:
    """One record per quadruple some system answers inconsistently: the quadruple id, gold of
    each variant, and per system its four answers (``-`` unanswered) and whether inconsistent."""
    from pipeline.core.answers import is_labelled

    if not gold.quadruples:
        return []
    labelled = is_labelled(gold)
    P = gold.positions
    f = gold.frame
    out = []
    for q, rows in zip(gold.quadruple_ids, P):
        rec = {"quadruple": q, "gold": [_answer(f["A-coref"].iat[r], f["B-coref"].iat[r]) for r in rows],
               "systems": {}}
        if not labelled:
            rec["gold"] = ["?"] * len(rows)
        any_bad = False
        for name, s in systems.items():
            present = s.present if s.present is not None else np.ones(len(f), bool)
            answers = [_answer(s.frame["A-coref"].iat[r], s.frame["B-coref"].iat[r]) if present[r] else "-"
                       for r in rows]
            if labelled:
                c = s.correct[rows]
                bad = bool(np.ptp(c) > 0)
                correct = [float(x) for x in c]
            else:       # no gold: inconsistent = the answered variants do not all agree
                given = [a for a in answers if a != "-"]
                bad = len(given) == len(answers) and len(set(given)) > 1
                correct = [None] * len(rows)
            any_bad |= bad
            rec["systems"][name] = {"answers": answers, "correct": correct, "inconsistent": bad}
        if any_bad:
            out.append(rec)
    return out


def _interval_rows(metrics: dict) -> list[list[str]]:
    from pipeline.report.evaluation import interval_rows

    return interval_rows(metrics)


def _md_table(header, rows) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return "\n".join(lines)


def _html_table(header, rows) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _quad_rows(records: list[dict], names: list[str]) -> list[list[str]]:
    rows = []
    for rec in records[:MAX_ROWS]:
        row = [rec["quadruple"], " ".join(rec["gold"])]
        for n in names:
            s = rec["systems"][n]
            marks = "".join("" if c is None else "✓" if c == 1 else "✗" if c == 0 else "~" for c in s["correct"])
            row.append(f"{' '.join(s['answers'])}{' ' + marks if marks else ''}" + (" ≠" if s["inconsistent"] else ""))
        rows.append(row)
    return rows


def write_report(out_dir: str | Path, metrics: dict, gold, systems: dict, table_md: str, png: bytes) -> None:
    """``report.md`` (with ``metrics.png`` beside it) and ``report.html`` (self-contained)."""
    from pipeline.formats.files import write_text

    out = Path(out_dir)
    names = list(metrics)
    records = inconsistent_quadruples(gold, systems)
    interval_rows = _interval_rows(metrics)
    quad_header = ["quadruple", "gold (" + " / ".join(VARIANTS) + ")"] + names
    quad_rows = _quad_rows(records, names)
    counts = ", ".join(f"{n}: {sum(r['systems'][n]['inconsistent'] for r in records)}" for n in names)
    title = f"Evaluation of {', '.join(names)} on {gold.path.name}"
    quad_note = (f"{len(records)} quadruple(s) answered inconsistently by at least one system ({counts}); "
                 + (f"the first {MAX_ROWS} are listed. " if len(records) > MAX_ROWS else "")
                 + "each cell: the system's answers on the four variants (A, B, both, neither; - unanswered), "
                   "then right (✓) or wrong (✗) per variant; ≠ marks an inconsistent quadruple.")
    from pipeline.core.answers import is_labelled

    if gold.quadruples and not is_labelled(gold):
        quad_note = (f"{len(records)} quadruple(s) answered differently across their variants by at least one "
                     f"system ({counts}); "
                     + (f"the first {MAX_ROWS} are listed. " if len(records) > MAX_ROWS else "")
                     + "no gold labels (?): each cell is the system's answers on the four variants (A, B, "
                       "both, neither; - unanswered); ≠ marks a quadruple whose answers differ.")
    if not gold.quadruples:
        quad_note = "No quadruples in this dataset (GAP-style view): no consistency to show."
    md = [f"# {title}", "", gold.describe() + ".", "", "## Metrics", "", table_md.rstrip(), "",
          "![Acc_Diff and ΔI with the tests' one-sided 99 % bounds](metrics.png)", "",
          "" if interval_rows else "No bootstrap (--resamples 0).", "",
          "## Inconsistent quadruples", "", quad_note, ""]
    if quad_rows:
        md += [_md_table(quad_header, quad_rows), ""]
    write_text(out / "report.md", "\n".join(md))
    img = base64.b64encode(png).decode("ascii")
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             "<style>body{font-family:sans-serif;max-width:1100px;margin:2em auto}table{border-collapse:collapse;"
             "margin:1em 0}td,th{border:1px solid #ccc;padding:3px 7px;font-size:13px}th{background:#eee}"
             "pre{white-space:pre-wrap}img{max-width:100%}</style></head><body>",
             f"<h1>{html.escape(title)}</h1><p>{html.escape(gold.describe())}.</p>",
             "<h2>Metrics</h2>", _md_to_html(table_md),
             f"<img alt='Acc_Diff and ΔI with the tests&#39; one-sided 99 % bounds' "
             f"src='data:image/png;base64,{img}'>",
             "" if interval_rows else "<p>No bootstrap.</p>",
             "<h2>Inconsistent quadruples</h2>", f"<p>{html.escape(quad_note)}</p>"]
    if quad_rows:
        parts.append(_html_table(quad_header, quad_rows))
    parts.append("</body></html>")
    write_text(out / "report.html", "\n".join(parts))


def _md_to_html(md: str) -> str:
    """The metrics Markdown (tables, paragraphs, bullet lines) as HTML."""
    out, table = [], []

    def flush():
        if table:
            rows = [[c.strip() for c in ln.strip().strip("|").split("|")] for ln in table
                    if not set(ln.replace("|", "").strip()) <= {"-"}]
            out.append(_html_table(rows[0], rows[1:]))
            table.clear()

    for line in md.splitlines():
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("- "):
            out.append(f"<li>{html.escape(line[2:])}</li>")
        elif line.startswith("#"):
            out.append(f"<h3>{html.escape(line.lstrip('#').strip())}</h3>")
        elif line.strip():
            out.append(f"<p>{html.escape(line.replace(chr(92) + '*', '*'))}</p>")
    flush()
    return "\n".join(out)
