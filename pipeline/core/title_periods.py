"""The evaluation text without title periods (pure): the variant Counter-GAP scored, "Mr" for
"Mr.", every offset recomputed (``generate --no-title-period``).

May import: the standard library, :mod:`pipeline.lang.names` (the titles),
:mod:`pipeline.core.quadruples` (its offset check).
"""

from __future__ import annotations

import bisect
import re

from pipeline.core.quadruples import check_offsets


def _title_period_re() -> re.Pattern:
    from pipeline.lang.names import titles

    words = sorted((t for t in titles() if len(t) > 1), key=len, reverse=True)
    alternation = "|".join(re.escape(w[:1].upper() + w[1:]) for w in words)
    # a title of two letters or more, capitalised, its period, then white space and a word
    return re.compile(r"(?<![\w.])(?:" + alternation + r")(\.)(?=\s+\S)")


def strip_title_periods(text: str, spans: list[tuple[int, int]] = ()) -> tuple[str, list[tuple[int, int]]]:
    """The evaluation variant Counter-GAP scored: the period after a title removed ("Mr" for
    "Mr.", "Mrs" for "Mrs."), for every title of ``resources/titles.tsv`` of two letters or
    more, written with a capital and followed by a word. Returns the new text and each
    (start, end) span of ``spans`` moved onto it (a removed period inside a span shortens it)."""
    cuts = [m.start(1) for m in _title_period_re().finditer(text)]
    if not cuts:
        return text, list(spans)
    out, pos = [], 0
    for c in cuts:
        out.append(text[pos:c])
        pos = c + 1
    out.append(text[pos:])

    def shift(x: int) -> int:
        return x - bisect.bisect_left(cuts, x)

    return "".join(out), [(shift(s), shift(e)) for s, e in spans]


def strip_title_periods_row(row: dict) -> dict:
    """A QUADRUPLES row (text, pronoun/a/b with offsets, names with mentions) in the variant
    without title periods, every offset and string recomputed and checked."""
    keys = [("pronoun", "pronoun_offset"), ("a", "a_offset"), ("b", "b_offset")]
    spans = [(row[o], row[o] + len(row[k])) for k, o in keys]
    mentions = [m for n in row.get("names") or [] for m in n["mentions"]]
    spans += [(m["start"], m["end"]) for m in mentions]
    text, moved = strip_title_periods(row["text"], spans)
    out = {**row, "text": text}
    for (k, o), (s, e) in zip(keys, moved[:3]):
        out[k], out[o] = text[s:e], s
    names = []
    it = iter(moved[3:])
    for n in row.get("names") or []:
        ms = []
        for m in n["mentions"]:
            s, e = next(it)
            title = m.get("title") or ""
            if title.endswith(".") and not text[s:e].startswith(title):
                title = title[:-1]
            ms.append({**m, "start": s, "end": e, "text": text[s:e], "title": title})
        names.append({**n, "mentions": ms})
    if "names" in row:
        out["names"] = names
    check_offsets({**out, "id": row.get("id", ""), "names": names})
    return out


def strip_title_periods_gap(row: dict) -> dict:
    """A GAP TSV row (Text, Pronoun, A, B and their offsets) without title periods."""
    keys = [("Pronoun", "Pronoun-offset"), ("A", "A-offset"), ("B", "B-offset")]
    spans = [(int(row[o]), int(row[o]) + len(row[k])) for k, o in keys]
    text, moved = strip_title_periods(row["Text"], spans)
    out = {**row, "Text": text}
    for (k, o), (s, e) in zip(keys, moved):
        out[k], out[o] = text[s:e], s
    return out
