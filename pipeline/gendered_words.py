"""The gendered word list (resources/gendered_words.tsv) and flipping a word to the opposite
gender: the one place generate (issue 3) and CDA (issue 4) take gendered words from.

API
---
``flip(word, tag=None) -> str | None``: the opposite-gender form of ``word`` with its case
kept (He -> She, HE -> SHE), or None when the word is not gendered. ``tag`` is the word's
fine-grained POS tag and resolves the ambiguous pronouns: "her" -> "him" as an object (PRP)
and "his" as a possessive determiner (PRP$); "his" -> "her" as a determiner (PRP$) and "hers"
when independent (PRP).
``gender_of(word) -> str | None``: "masculine" / "feminine" for a listed word.
"""

from __future__ import annotations

import functools
from pathlib import Path

from pipeline.pronouns import FEMININE, MASCULINE

RESOURCE = Path(__file__).resolve().parent.parent / "resources" / "gendered_words.tsv"


@functools.lru_cache(maxsize=1)
def pairs() -> list[tuple[str, str, str]]:
    """(masculine, feminine, category) rows of the list, lower case, in file order."""
    out = []
    for line in RESOURCE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#") or line.startswith("masculine\t"):
            continue
        cols = line.split("\t")
        out.append((cols[0].strip().lower(), cols[1].strip().lower(), cols[2].strip() if len(cols) > 2 else ""))
    return out


@functools.lru_cache(maxsize=1)
def _table() -> tuple[dict[str, str], dict[str, str]]:
    opposite: dict[str, str] = {}
    gender: dict[str, str] = {}
    for m, f, _ in pairs():
        opposite.setdefault(m, f)
        opposite.setdefault(f, m)
        gender.setdefault(m, MASCULINE)
        gender.setdefault(f, FEMININE)
    for w, g in (("his", MASCULINE), ("him", MASCULINE), ("her", FEMININE), ("hers", FEMININE)):
        gender[w] = g
    return opposite, gender


def gender_of(word: str) -> str | None:
    return _table()[1].get(word.lower())


def _with_case(template: str, word: str) -> str:
    if template.isupper() and len(template) > 1:
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def flip_lower(word: str, tag: str | None = None) -> str | None:
    """Opposite of a lower-case word (see module doc), ignoring case."""
    w = word.lower()
    if w == "her":
        return "his" if tag == "PRP$" else "him"
    if w == "his":
        return "hers" if tag == "PRP" else "her"
    if w == "him":
        return "her"
    if w == "hers":
        return "his"
    return _table()[0].get(w)


def flip(word: str, tag: str | None = None) -> str | None:
    """Opposite-gender form of ``word``, case kept; None if the word is not gendered."""
    out = flip_lower(word, tag)
    return None if out is None else _with_case(word, out)
