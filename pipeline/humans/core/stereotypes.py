"""Stereotype categories of pro/anti-stereotype benchmark items.

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


def gender_from_label(word: str) -> str:
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
    entity: str | None = None   # synthetic: "main" / "other" when the category says which is asked about
    layout: str = "project"     # "released" when spelt as the study's released files spell it


_BUG_PREFIX = {"pro-stereotype": PRO, "anti-stereotype": ANTI, "neutral-stereotype": NEUTRAL,
               "pro": PRO, "anti": ANTI, "neutral": NEUTRAL}
_LABELS = {"pro-stereotype", "anti-stereotype", "neutral-stereotype", "pro-stereotypical",
           "anti-stereotypical"}
ENTITIES = ("main", "other")


def parse_question_category(value: str, path=None, row=None) -> QuestionCategory:
    """Parse a QA ``question_category``:

    * ``filler``;
    * WinoBias/Winogender, dot-separated parts in any order, each stripped: exactly one
      fine-grained TYPE (which decides pro/anti/neutral), optionally which entity is asked about
      (``main`` / ``other``) and a label (the original ``pro-stereotype``, or the project's main
      stereotype ``masculine``): ``pro-stereotype.pro-anti.main``, ``anti-stereotype.main.anti-neutral``,
      ``masculine.pro-anti``, ``pro.developer|designer.pro-anti``;
    * BUG: ``pro-stereotype_Male``, ``anti-stereotype_Female``: the part before ``_`` decides.

    Anything else is an :class:`InputError` naming ``path`` and ``row``.
    """
    v = (value or "").strip()
    if v.lower() == "filler":
        return QuestionCategory(True, "filler", None, None, None)
    if "." in v:
        parts = [p.strip().lower() for p in v.split(".")]
        fines = [p for p in parts if p in FINE_CATEGORIES]
        entities = [p for p in parts if p in ENTITIES]
        if len(fines) == 1 and len(entities) <= 1:
            fine = fines[0]
            released = bool(entities) or any(p in _LABELS for p in parts)
            return QuestionCategory(False, "synthetic", fine, coarse(fine), None,
                                    entities[0] if entities else None,
                                    "released" if released else "project")
    elif "_" in v:
        head, _, tail = v.partition("_")
        c = _BUG_PREFIX.get(head.strip().lower())
        if c is not None:
            try:
                g = gender_from_label(tail)
            except ValueError:
                g = None
            return QuestionCategory(False, "natural", None, c, g, None,
                                    "released" if head.strip().lower() in _LABELS else "project")
    elif v.lower() in FINE_CATEGORIES:
        return QuestionCategory(False, "synthetic", v.lower(), coarse(v.lower()), None)
    raise InputError(f"unknown question_category {value!r} (expected filler, dot-separated "
                     f"TYPE[.main|other][.LABEL] in any order with TYPE one of {', '.join(FINE_CATEGORIES)}, "
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


# ------------------------------------------------------------------------------ Table 4's rule

# How an item's fine-grained category is decided (``benchmark --categories``):
# * ``entity`` -- ours: each entity's relation to the pronoun from its occupation's stereotype
#   (:func:`categorize`);
# * ``table4`` -- the rule that reproduces the counts of the paper's Table 4 (see
#   :func:`table4_winobias_category`); the same as ``entity`` outside WinoBias;
# * ``table4-pair`` -- the other rule that gives those counts: a WinoBias line's entities are
#   those of the ``anti`` file's line with the same type, split and number (the pronoun its own).
CATEGORY_RULES = ("entity", "table4", "table4-pair")


def table4_winobias_category(bracketed: str, pronoun_gender: str, stereotypes: dict[str, str]) -> str:
    """A WinoBias sentence's category as the study's Table 4 counts it.

    The main entity is the bracketed mention as written, lower-cased, with a leading ``"the "``
    removed (and nothing else: no other determiner, no whitespace); it is looked up in the
    occupation lists (``stereotypes``: occupation -> masculine / feminine). It is ``pro`` when
    its stereotype is the pronoun's gender and ``anti`` otherwise -- also when the lookup
    finds nothing (``"a housekeeper"``, ``" physician"``); the other entity is then the
    opposite (every WinoBias sentence pairs one occupation of each list).
    """
    occ = bracketed.lower()
    if occ.startswith("the "):
        occ = occ[4:]
    main = PRO if stereotypes.get(occ) == pronoun_gender else ANTI
    return f"{main}-{ANTI if main == PRO else PRO}"


def apply_category_rule(items: list[dict], rule: str, winobias_stereotypes: dict[str, str] | None = None
                        ) -> list[dict]:
    """Categorise ``items`` in place by ``rule`` (one of :data:`CATEGORY_RULES`)."""
    if rule not in CATEGORY_RULES:
        raise ValueError(f"unknown category rule {rule!r} (known: {', '.join(CATEGORY_RULES)})")
    categorize(items)
    for it in items:            # a WinoBias item's coarse label follows its category, whatever rule ran before
        if it["source"] == "winobias":
            it["stereotype"] = coarse(it["category"])
    if rule == "table4":
        if winobias_stereotypes is None and any(it["source"] == "winobias" for it in items):
            raise ValueError("the table4 rule needs the WinoBias occupation lists")
        for it in items:
            if it["source"] == "winobias" and it["pronoun_gender"] in (MASCULINE, FEMININE):
                it["category"] = table4_winobias_category(it["main_entity"], it["pronoun_gender"],
                                                          winobias_stereotypes)
                it["stereotype"] = coarse(it["category"])
    elif rule == "table4-pair":
        by_id = {it["id"]: it for it in items}
        for it in items:
            parts = it["id"].split("-")
            if it["source"] != "winobias" or len(parts) != 5:
                continue
            anti = by_id.get("-".join([parts[0], "anti"] + parts[2:]), it)
            it["category"] = fine_category(it["pronoun_gender"], anti["main_stereotype"],
                                           anti.get("other_stereotype") if anti.get("other_entity") is not None
                                           else None)
            it["stereotype"] = coarse(it["category"])
    return items


def compare_categories(items: list[dict], study: list[dict], key) -> dict:
    """Sentence by sentence: our items' categories against a study list's (``study``: dicts
    with ``id``, ``text``, ``category``), matched by ``key(text)`` (identical keys are paired
    in order). Returns ``rows`` (one per sentence of either side: id, study_id, text, ours,
    study, agree), ``n_agree``, ``n_matched``, ``n_only_ours``, ``n_only_study`` and
    ``confusion`` ({"ours -> study": n} over the disagreements)."""
    by_key: dict[str, list[dict]] = {}
    for s in study:
        by_key.setdefault(key(s["text"]), []).append(s)
    used: set[str] = set()
    rows, confusion = [], {}
    for it in items:
        cands = [s for s in by_key.get(key(it["text"]), []) if s["id"] not in used]
        if not cands:
            rows.append({"id": it["id"], "study_id": "", "text": it["text"], "ours": it["category"],
                         "study": "", "agree": False})
            continue
        s = cands[0]
        used.add(s["id"])
        agree = s["category"] == it["category"]
        if not agree:
            k = f"{it['category']} -> {s['category']}"
            confusion[k] = confusion.get(k, 0) + 1
        rows.append({"id": it["id"], "study_id": s["id"], "text": it["text"], "ours": it["category"],
                     "study": s["category"], "agree": agree})
    only_study = [s for s in study if s["id"] not in used]
    rows += [{"id": "", "study_id": s["id"], "text": s["text"], "ours": "", "study": s["category"],
              "agree": False} for s in only_study]
    matched = [r for r in rows if r["id"] and r["study_id"]]
    return {"rows": rows, "n_agree": sum(r["agree"] for r in matched), "n_matched": len(matched),
            "n_only_ours": sum(1 for r in rows if not r["study_id"]), "n_only_study": len(only_study),
            "confusion": dict(sorted(confusion.items(), key=lambda kv: -kv[1]))}
