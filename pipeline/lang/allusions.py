"""Well-known real and legendary people a novel alludes to ("or Don Juan be popular", "a
sort of infantine Guy Fawkes"): ``resources/real_people.txt``, the list ``annotate-import
--drop-real-people`` uses too. :mod:`pipeline.core.cast` takes such a name for no person of the
story when the book never shows it as one.

May import: :mod:`pipeline.formats.resources` (to read the list), the standard library.
"""

from __future__ import annotations

import functools

RESOURCE = "real_people.txt"
# figures of the Bible and of myth, whose names also name characters: an allusion only where
# the book never shows the name as a person (pipeline.core.cast decides that)
ALLUSION_RESOURCE = "allusion_names.txt"


def _key(name: str) -> str:
    return " ".join(name.lower().split())


@functools.lru_cache(maxsize=1)
def names() -> frozenset[str]:
    """The listed names, lower case, spaces collapsed."""
    from pipeline.formats.resources import read_commented, resource

    return frozenset(_key(" ".join(f)) for _, f in read_commented(resource(RESOURCE)))


def famous(name: str) -> bool:
    """``name`` (a whole name, without its title) is listed."""
    return _key(name) in names()


@functools.lru_cache(maxsize=1)
def alluded_names() -> frozenset[str]:
    """The names of ``ALLUSION_RESOURCE``, lower case, spaces collapsed."""
    from pipeline.formats.resources import read_commented, resource

    return frozenset(_key(" ".join(f)) for _, f in read_commented(resource(ALLUSION_RESOURCE)))


def alluded(name: str) -> bool:
    """``name`` (a whole name, without its title) is a figure of the Bible or of myth that
    novels allude to ("the offending Adam", "Paul and Silas's prison")."""
    return _key(name) in alluded_names()
