"""The pronoun table: gendered third-person pronouns, their gender and case.

Target pronouns (extract) are the non-reflexive ones; reflexives are still gendered words
(generate flips them through the gendered word list).

May import: :mod:`pipeline.vocab` (the genders and ``opposite``, re-exported here).
"""

from __future__ import annotations

from pipeline.vocab import FEMININE, MASCULINE, UNGENDERED, opposite  # noqa: F401 (re-exported)

# pronoun (lower case) -> (gender, case)
PRONOUNS: dict[str, tuple[str, str]] = {
    "he": (MASCULINE, "subject"),
    "him": (MASCULINE, "object"),
    "his": (MASCULINE, "possessive"),   # determiner (PRP$) or independent (PRP)
    "she": (FEMININE, "subject"),
    "her": (FEMININE, "object-or-possessive"),  # PRP -> object, PRP$ -> determiner
    "hers": (FEMININE, "possessive-independent"),
}
REFLEXIVES: dict[str, str] = {"himself": MASCULINE, "herself": FEMININE}


def target_pronoun_gender(text: str) -> str | None:
    """Gender of a target (non-reflexive) pronoun, or None if ``text`` is not one."""
    entry = PRONOUNS.get(text.lower())
    return entry[0] if entry else None

