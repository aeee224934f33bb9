"""A name's span in a text, trimmed: shared by the GAP rows of generate and the annotation
questions (a highlighted answer, a GAP name "John Abdy's").

Pure: may import the standard library.
"""

from __future__ import annotations

import re

_LEAD = re.compile(r"^[\W_]+")
_TRAIL = re.compile(r"[\W_]+$")
_POSSESSIVE = re.compile(r"['’][sS]?$")


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """Trim whitespace/punctuation and a possessive ('s, ') from both ends of a span."""
    start, end = max(0, int(start)), min(len(text), int(end))
    piece = text[start:end]
    start += len(piece) - len(_LEAD.sub("", piece))
    piece = _TRAIL.sub("", text[start:end])
    piece = _TRAIL.sub("", _POSSESSIVE.sub("", piece))
    return start, max(start, start + len(piece))
