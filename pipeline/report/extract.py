"""The summary of an extract run (rendered from the merged counts; nothing read here).

May import: the standard library, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

FAILED = "failed"               # the status of a unit whose worker died twice
MANIFEST = "manifest.json"

LISTED = 50          # the summary lists up to this many rows of one status one by one


def summary(counts: dict, elapsed: float, words_this_run: int, resumed: int, processed: int, out: Path,
            language: str = "") -> str:
    """The summary an extract run prints (``counts``: :func:`pipeline.runs.extract.consolidate`'s)."""
    from pipeline.vocab import FEMININE, MASCULINE, PATTERNS, UNGENDERED

    books = counts["books"]
    ok = [b for b in books if b["status"] == "ok"]
    by_status: dict[str, list] = {}
    for b in books:
        if b["status"] != "ok":
            by_status.setdefault(b["status"], []).append(b)
    names, pats = counts["names"], counts["patterns"]
    n_inst = sum(pats.values())
    others = ", ".join(f"{len(by_status.get(s, []))} {s if s != FAILED else 'FAILED'}"
                       for s in ("skipped", FAILED, "excluded", "duplicate", "not-read")
                       if s == "skipped" or by_status.get(s))
    lines = ["", "extract summary", "---------------",
             f"books            {len(ok)} read ({processed} unit(s) this run, {resumed} already done), {others}",
             f"words            {sum(b['n_words'] for b in ok):,}",
             f"name mentions    {sum(names.values()):,} (masculine {names[MASCULINE]:,}, "
             f"feminine {names[FEMININE]:,}, ungendered {names[UNGENDERED]:,})",
             f"pronouns         {counts['pronouns']:,}",
             f"instances        {n_inst:,}"]
    encodings = Counter(f"{b['encoding']} ({b['encoding_source'].split(';')[0]})" for b in ok if b["encoding"])
    if encodings:
        lines.append("encodings        " + ", ".join(f"{e} {n}" for e, n in encodings.most_common()))
    if language:
        unknown = sum(1 for b in ok if not b["language"])
        lines.append(f"language         --language {language}: {unknown} book(s) of unknown language kept")
    lines += ["", f"{'pattern':<12}{'masculine':>10}{'feminine':>10}{'total':>8}"]
    for pat in PATTERNS:
        m, f = pats[(pat, MASCULINE)], pats[(pat, FEMININE)]
        lines.append(f"{pat:<12}{m:>10}{f:>10}{m + f:>8}")
    m = sum(v for (_, g), v in pats.items() if g == MASCULINE)
    f = sum(v for (_, g), v in pats.items() if g == FEMININE)
    lines += [f"{'total':<12}{m:>10}{f:>10}{n_inst:>8}", ""]
    rejected: Counter = Counter()
    for b in ok:
        rejected.update(dict(b.get("rejected_windows") or {}))
    if rejected:
        lines.append(f"windows refused  {sum(rejected.values()):,} pronouns whose windows were all refused, for a "
                     "fifth person-like mention or an ambiguous name (each in refused.parquet with its words):")
        lines += [f"  {n:6,}  {reason}" for reason, n in rejected.most_common()]
        lines.append("")
    for b in by_status.get(FAILED, []):
        lines.append(f"FAILED           {b['path']}: {b['skip_reason']} (exit status 1; rerun to retry it)")
    for status in ("skipped", "excluded", "duplicate", "not-read"):
        rows = by_status.get(status, [])
        if len(rows) <= LISTED:
            for b in rows:
                where = f"{b['path']}, row {b['row']}" if b["row"] else b["path"]
                lines.append(f"{status:<17}{where}: {b['skip_reason']}")
            continue
        groups: dict[str, list] = {}
        for b in rows:
            groups.setdefault(b["skip_reason"].split(":")[0], []).append(b["path"] + (f", row {b['row']}" if b["row"] else ""))
        for reason, paths in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            lines.append(f"{status:<17}{len(paths):,} × {reason}: {'; '.join(paths[:3])}{' …' if len(paths) > 3 else ''}")
        lines.append(f"{'':<17}(all {len(rows):,} {status} rows with their reasons: books.parquet, status = '{status}')")
    if counts.get("not_done"):
        lines.append(f"not done         {counts['not_done']} unit(s): rerun to complete them")
    rate = words_this_run / elapsed if elapsed > 0 else 0.0
    lines.append(f"elapsed          {elapsed:.1f} s, {rate:,.0f} words/s this run")
    lines.append(f"output           {out}/books.parquet, mentions.parquet, instances.parquet, evidence.parquet, refused.parquet, {MANIFEST}")
    return "\n".join(lines)
