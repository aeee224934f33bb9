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
