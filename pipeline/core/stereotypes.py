"""Stereotype categories of pro/anti-stereotype benchmark items (issue 15).

The method of "Comparing Humans and Models on a Similar Scale" (Lior & Stanovsky):

* an occupation's *stereotype* is ``masculine``, ``feminine`` or ``neutral`` (from the
  datasets' own labels: WinoBias's male/female occupation lists, Winogender's BLS share of
  women, see :func:`pipeline.lang.benchmarks.stereotype_from_share`; a participant such as "the customer" or
  "someone" is ``neutral``);
* the *relation* of an entity to the pronoun: ``pro`` when the entity's stereotype is the
  pronoun's gender, ``anti`` when it is the other binary gender, ``neutral`` when the entity
  is neutral (or absent);
* the *fine-grained category* is ``<relation of the main entity>-<relation of the other>``
  (``pro-anti``, ``anti-pro``, ``neutral-pro`` ...), or ``pronoun-neutral`` when the pronoun
  itself is neutral ("they");
* the *coarse* category: pro-stereotypical = {pro-anti, neutral-anti, pro-neutral},
  anti-stereotypical = {anti-pro, neutral-pro, anti-neutral}, everything else neutral.

Also the QA experiment's ``question_category`` strings (:func:`parse_question_category`) and
Maze eligibility (:func:`maze_eligible_by_verbs`, :func:`maze_eligible_by_order`).

Pure: may import the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.errors`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from pipeline.errors import InputError
from pipeline.vocab import FEMININE, MASCULINE, NEUTRAL

PRO, ANTI = "pro", "anti"
COARSE = (PRO, ANTI, NEUTRAL)
PRONOUN_NEUTRAL = "pronoun-neutral"
RELATIONS = (PRO, ANTI, NEUTRAL)

PRO_CATEGORIES = frozenset({"pro-anti", "neutral-anti", "pro-neutral"})
ANTI_CATEGORIES = frozenset({"anti-pro", "neutral-pro", "anti-neutral"})
# every category an item can get: main x other relations, plus pronoun-neutral
FINE_CATEGORIES = tuple([f"{m}-{o}" for m in RELATIONS for o in RELATIONS] + [PRONOUN_NEUTRAL])
# the eight that WinoBias + Winogender produce, in the paper's order of frequency
PAPER_CATEGORIES = ("anti-pro", "pro-anti", PRONOUN_NEUTRAL, "anti-neutral", "pro-neutral",
                    "neutral-anti", "neutral-pro", "neutral-neutral")

GENDER_WORDS = {
    "male": MASCULINE, "masculine": MASCULINE, "m": MASCULINE, "man": MASCULINE,
    "female": FEMININE, "feminine": FEMININE, "f": FEMININE, "woman": FEMININE,
    "neutral": NEUTRAL, "they": NEUTRAL, "nonbinary": NEUTRAL,
}


def gender_of(word: str) -> str:
    """``male``/``female``/``neutral`` (and the vocab words) -> masculine/feminine/neutral."""
    g = GENDER_WORDS.get((word or "").strip().lower())
    if g is None:
        raise ValueError(f"not a gender: {word!r}")
    return g


def relation(stereotype: str | None, pronoun_gender: str) -> str:
    """pro / anti / neutral of an entity's stereotype towards a binary pronoun gender."""
    if stereotype is None or stereotype == NEUTRAL or pronoun_gender == NEUTRAL:
        return NEUTRAL
    if stereotype not in (MASCULINE, FEMININE):
        raise ValueError(f"not a stereotype: {stereotype!r}")
    return PRO if stereotype == pronoun_gender else ANTI


def fine_category(pronoun_gender: str, main_stereotype: str | None,
                  other_stereotype: str | None) -> str:
    """The fine-grained category of an item (``other_stereotype`` None: no other entity)."""
    if pronoun_gender == NEUTRAL:
        return PRONOUN_NEUTRAL
    if pronoun_gender not in (MASCULINE, FEMININE):
        raise ValueError(f"not a pronoun gender: {pronoun_gender!r}")
    return f"{relation(main_stereotype, pronoun_gender)}-{relation(other_stereotype, pronoun_gender)}"


def coarse(category: str) -> str:
    """pro / anti / neutral of a fine-grained category (unknown: ValueError)."""
    if category not in FINE_CATEGORIES:
        raise ValueError(f"unknown category {category!r} (known: {', '.join(FINE_CATEGORIES)})")
    if category in PRO_CATEGORIES:
        return PRO
    if category in ANTI_CATEGORIES:
        return ANTI
    return NEUTRAL


# ------------------------------------------------------------------------------ QA categories

@dataclass(frozen=True)
class QuestionCategory:
    filler: bool
    kind: str             # "filler" | "synthetic" (WinoBias/Winogender) | "natural" (BUG)
    fine: str | None      # fine-grained category (synthetic) or None
    coarse: str | None    # pro | anti | neutral; None for fillers
    gender: str | None    # BUG: the pronoun's gender from the label, else None


_BUG_PREFIX = {"pro-stereotype": PRO, "anti-stereotype": ANTI, "neutral-stereotype": NEUTRAL,
               "pro": PRO, "anti": ANTI, "neutral": NEUTRAL}


def parse_question_category(value: str, path=None, row=None) -> QuestionCategory:
    """Parse a QA ``question_category``:

    * ``filler``;
    * WinoBias/Winogender: ``STEREOTYPE.main|other.TYPE`` or ``STEREOTYPE.TYPE``: the last
      dot-separated part is the fine-grained TYPE, which decides pro/anti/neutral;
    * BUG: ``pro-stereotype_Male``, ``anti-stereotype_Female``: the part before ``_`` decides.

    Anything else is an :class:`InputError` naming ``path`` and ``row``.
    """
    v = (value or "").strip()
    if v.lower() == "filler":
        return QuestionCategory(True, "filler", None, None, None)
    if "." in v:
        fine = v.rsplit(".", 1)[1].strip().lower()
        if fine in FINE_CATEGORIES:
            return QuestionCategory(False, "synthetic", fine, coarse(fine), None)
    elif "_" in v:
        head, _, tail = v.partition("_")
        c = _BUG_PREFIX.get(head.strip().lower())
        if c is not None:
            try:
                g = gender_of(tail)
            except ValueError:
                g = None
            return QuestionCategory(False, "natural", None, c, g)
    elif v.lower() in FINE_CATEGORIES:
        return QuestionCategory(False, "synthetic", v.lower(), coarse(v.lower()), None)
    raise InputError(f"unknown question_category {value!r} (expected filler, "
                     f"STEREOTYPE[.main|other].TYPE with TYPE one of {', '.join(FINE_CATEGORIES)}, "
                     f"or pro-stereotype_Male / anti-stereotype_Female ...)", path, row)


# ------------------------------------------------------------------------------ Maze

def maze_eligible_by_verbs(token_starts: Sequence[int], token_tags: Sequence[str],
                           pronoun_end: int) -> bool:
    """WinoBias/Winogender/SoWinoBias: the pronoun comes after every verb (no token tagged
    as a verb or auxiliary, Penn ``VB*``/``MD``, starts at or after the pronoun's end), so a
    reader can resolve it when reading it."""
    return not any(start >= pronoun_end and (tag.startswith("VB") or tag == "MD")
                   for start, tag in zip(token_starts, token_tags))


def maze_eligible_by_order(pronoun_start: int, main_start: int) -> bool:
    """BUG: the pronoun comes after its antecedent."""
    return pronoun_start > main_start


def count_categories(categories: Iterable[str]) -> dict[str, int]:
    """Category -> count, in the order of :data:`PAPER_CATEGORIES`, then any others."""
    counts: dict[str, int] = {}
    for c in categories:
        counts[c] = counts.get(c, 0) + 1
    ordered = {c: counts[c] for c in PAPER_CATEGORIES if c in counts}
    ordered.update({c: n for c, n in sorted(counts.items()) if c not in ordered})
    return ordered


def categorize(items: list[dict]) -> list[dict]:
    """Fill ``category`` and ``stereotype`` of benchmark items in place (and return them).

    The fine-grained category comes from the pronoun's gender and the two entities'
    stereotypes; the coarse label from the category, unless the item already has one (the
    SoWinoBias set labels its "they" sentences pro or anti itself).
    """
    for it in items:
        it["category"] = fine_category(it["pronoun_gender"], it["main_stereotype"],
                                       it.get("other_stereotype") if it.get("other_entity") is not None
                                       else None)
        if it.get("stereotype") is None:
            it["stereotype"] = coarse(it["category"])
    return items
