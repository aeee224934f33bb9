"""The summary of a generate run (rendered from its counts; nothing read here).

May import: the standard library, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from pipeline.vocab import FEMININE, MASCULINE

RECHECK_FILE = "recheck.json"


def summary(path, out_dir, n_quads, stats, originals, words, name_swaps, constructed,
            nodot: bool = False, recheck: dict | None = None) -> str:
    """The summary a generate run prints."""
    extra = ", quadruples-nodot.parquet, quadruples-nodot.tsv" if nodot else ""
    extra += f", {RECHECK_FILE}" if recheck is not None else ""
    extra += ", rejected.tsv" if "refused" in stats else ""
    lines = [f"generate: {path} -> {out_dir}/quadruples.parquet, quadruples.tsv{extra}",
             f"gendered words    {' + '.join(stats['word_lists'])}"]
    if "books" in stats:
        lines.append(f"books             {stats['books']:,} ({stats['books_resumed']:,} done before: resumed), "
                     f"{stats.get('seconds', 0.0):.1f} s for the rest")
    if "rows" in stats:
        lines.append(f"GAP rows          {stats['rows']:,} read, {stats['bad_rows']:,} bad rows skipped")
        if stats.get("variant_rows"):
            lines.append(f"                  {stats['variant_rows']:,} are counterfactual variants (-control, -swap-N): "
                         "generated from the originals only")
        lines.append(f"qualified         {stats['qualified']:,}")
        lines.append("rejected (each row in rejected.tsv, with the persons found):")
        for reason, n in stats["reasons"].most_common():
            lines.append(f"  {n:6,}  {reason}")
        lines.append(f"mentions added by string match (NER misses) in qualified rows: {stats['added_mentions']:,}")
    elif stats.get("bad_rows"):
        lines.append(f"bad instances skipped: {stats['bad_rows']:,}")
    if recheck is not None:
        lines.append(f"re-check          {recheck['checked']:,} quadruples through the person detection again, "
                     f"{recheck['kept']:,} kept, {recheck['checked'] - recheck['kept']:,} dropped:")
        for reason, n in recheck["dropped"].items():
            lines.append(f"  {n:6,}  {reason}")
        if "with_book_cast" in recheck:
            lines.append("  persons judged with " + ("the book's cast (extract's evidence.parquet)"
                                                     if recheck["with_book_cast"] else
                                                     "the sentence rules only: no evidence.parquet beside the instances"))
    else:
        lines.append("re-check          off (--no-recheck)")
    lines.append(f"quadruples        {n_quads:,} ({4 * n_quads:,} instances)")
    lines.append("originals by pronoun gender and pattern:")
    patterns = sorted({p for _, p in originals})
    lines.append(f"  {'pattern':<12}{'masculine':>10}{'feminine':>10}{'total':>8}")
    for p in patterns:
        m, f = originals[(MASCULINE, p)], originals[(FEMININE, p)]
        lines.append(f"  {p or '(none)':<12}{m:>10,}{f:>10,}{m + f:>8,}")
    tm, tf = sum(v for (g, _), v in originals.items() if g == MASCULINE), sum(v for (g, _), v in originals.items() if g == FEMININE)
    lines.append(f"  {'all':<12}{tm:>10,}{tf:>10,}{tm + tf:>8,}")
    lines.append(f"gendered words substituted per swap variant (swap-2 makes the same): {sum(words.values()):,}; top 20:")
    for w, n in words.most_common(20):
        lines.append(f"  {n:6,}  {w}")
    total = sum(name_swaps.values())
    lines.append(f"name mentions swapped: {total:,} (control {name_swaps['control']:,}, "
                 f"swap-1 {name_swaps['swap-1']:,}, swap-2 {name_swaps['swap-2']:,}); "
                 f"{constructed:,} written in a form not seen for that person in the context")
    return "\n".join(lines)
