"""Annotator pseudonyms: a raw annotator id (a name typed into annotate-serve, an MTurk
WorkerId) -> ``a-`` and 12 hex digits of HMAC-SHA256(salt, id). Pure: the salt is given.

May import: the standard library.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac

PSEUDONYM_PREFIX = "a-"


def pseudonym(salt: str, annotator: str) -> str:
    """``a-`` and 12 hex digits of HMAC-SHA256(salt, annotator id)."""
    return PSEUDONYM_PREFIX + hmac.new(salt.encode(), annotator.encode("utf-8"), hashlib.sha256).hexdigest()[:12]


def pseudonymise(answers: list, salt: str) -> tuple[list, dict[str, str]]:
    """(the answers with their ``annotator`` replaced by its pseudonym, pseudonym -> raw id)."""
    key: dict[str, str] = {}
    out = []
    for a in answers:
        p = pseudonym(salt, a.annotator)
        key[p] = a.annotator
        out.append(dataclasses.replace(a, annotator=p))
    return out, key
