"""The summary of a persons run (rendered from its merged rows; nothing read here).

May import: the standard library.
"""

from __future__ import annotations

from pathlib import Path


def summary(books: list[dict], persons: list[dict], cast: list[dict], processed: int, words: int,
            elapsed: float, out: Path) -> str:
    by_gender = {g: sum(1 for c in cast if c["gender"] == g) for g in ("masculine", "feminine", "unknown")}
    lines = ["", "persons summary", "---------------",
             f"books            {sum(b['status'] == 'ok' for b in books)} read ({processed} this run), "
             f"{sum(b['status'] != 'ok' for b in books)} skipped",
             f"person mentions  {len(persons):,}",
             f"persons          {len(cast):,} (masculine {by_gender['masculine']:,}, feminine "
             f"{by_gender['feminine']:,}, unknown {by_gender['unknown']:,})"]
    lines += [f"{b['status']:<16} {b['path']}: {b['skip_reason']}" for b in books if b["status"] != "ok"]
    lines += [f"no person        {b['path']}" for b in books if b["status"] == "ok" and not b["n_persons"]]
    rate = words / elapsed if elapsed > 0 else 0.0
    lines += [f"elapsed          {elapsed:.1f} s, {rate:,.0f} words/s this run",
              f"output           {out}/persons.parquet, cast.parquet, cast.tsv, manifest.json"]
    return "\n".join(lines)


def explanation(book_id: str, title: str, form: str, facts: dict, occurrences: list[dict], n_written: int,
                examples: int = 12) -> str:
    """What ``persons --explain`` prints for one book: the evidence and decisions about
    ``form``, its occurrences' decisions counted and a few shown, and how to override them."""
    from collections import Counter

    lines = [f"{form!r} in book {book_id}" + (f" ({title})" if title else "") + f": written {n_written:,} times",
             "", "what the whole book says, and the book-level decisions:"]
    width = max((len(k) for k in facts), default=0)
    lines += [f"  {k:<{width}}  {v}" for k, v in facts.items()]
    kinds = Counter((o["decision"], o["why"].split(":")[0] if o["decision"] == "person" else o["why"])
                    for o in occurrences)
    lines += ["", f"occurrences parsed: {len(occurrences):,} (NER: "
              + ", ".join(f"{k} {n}" for k, n in Counter(o["entity"] for o in occurrences).most_common()) + ")"]
    lines += [f"  {n:6,}  {d}: {w}" for (d, w), n in kinds.most_common()]
    if occurrences:
        lines += ["", "examples (book offset, decision, why, sentence):"]
        step = max(1, len(occurrences) // examples)
        for o in occurrences[::step][:examples]:
            lines.append(f"  {o['at']:>9,}  {o['decision']:<9}  {o['why']}  | {o['sentence']}")
    lines += ["", "to override: a cast file (--cast FILE) with the line", f"  {book_id}\t{form}\tnot-a-person",
              "  (or masculine / feminine), given to extract, persons and generate", ""]
    return "\n".join(lines)
