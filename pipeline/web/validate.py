"""The checks of JSON request values shared by the two web apps: each value has its JSON type
(an integer is a JSON integer, not ``0.9``, ``"3"``, ``true`` or ``1e400``; a text is a
string, not a list), is finite and in its range, or the request is refused with 400 (the
caller's error type, raised with one sentence).

May import: the standard library.
"""

from __future__ import annotations

import math

MAX_INDEX = 10_000_000          # no position, word index or offset of a page is larger


def integer(value, name: str, error=ValueError, lo: int = 0, hi: int = MAX_INDEX) -> int:
    """A JSON integer in ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise error(f"{name} must be a whole number, got {_show(value)}")
    if not lo <= value <= hi:
        raise error(f"{name} must be between {lo} and {hi}, got {value}")
    return value


def number(value, name: str, error=ValueError, lo: float = 0.0, hi: float = math.inf) -> float:
    """A finite JSON number in ``lo..hi``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise error(f"{name} must be a number, got {_show(value)}")
    x = float(value)
    if not math.isfinite(x) or not lo <= x <= hi:
        raise error(f"{name} must be a finite number between {lo:g} and {hi:g}, got {_show(value)}")
    return x


def text(value, name: str, error=ValueError, max_len: int = 2000, optional: bool = True) -> str:
    """A JSON string (``None`` gives "" when ``optional``) of at most ``max_len`` characters."""
    if value is None and optional:
        return ""
    if not isinstance(value, str):
        raise error(f"{name} must be a string, got {_show(value)}")
    if len(value) > max_len:
        raise error(f"{name} of at most {max_len:,} characters, please")
    return value


def boolean(value, name: str, error=ValueError) -> bool:
    """A JSON boolean (``None``: false)."""
    if value is None:
        return False
    if not isinstance(value, bool):
        raise error(f"{name} must be true or false, got {_show(value)}")
    return value


def spans(value, name: str, error=ValueError, length: int = MAX_INDEX, max_spans: int = 100) -> list:
    """A JSON list of ``[start, end]`` (or ``[start, end, text]`` / ``{"start", "end"}``) with
    integer offsets ``0 <= start < end <= length``."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > max_spans:
        raise error(f"{name} must be a list of at most {max_spans} [start, end] pairs")
    out = []
    for item in value:
        if isinstance(item, dict):
            s, e = item.get("start"), item.get("end")
        elif isinstance(item, list) and 2 <= len(item) <= 3:
            s, e = item[0], item[1]
        else:
            raise error(f"{name}: bad span {_show(item)}")
        s, e = integer(s, f"{name} start", error, 0, length), integer(e, f"{name} end", error, 0, length)
        if e <= s:
            raise error(f"{name}: a span ends after it starts, got [{s}, {e}]")
        out.append([s, e])
    return out


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
