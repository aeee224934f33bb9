"""Gendered word-list files: the project's TSV and the plain two-column files of WinoBias and
Counter-GAP.

Two forms, told apart by the first non-comment line:

* **project TSV** (``resources/gendered_words.tsv``): a header ``masculine<TAB>feminine[<TAB>
  category]``, then one pair a line, lower case. Both directions, except category
  ``marked-feminine`` (only the feminine form flips: "authoress" -> "author"). Each word has the
  gender of its column. Within the file the FIRST pair listing a word decides its opposite.
* **plain pairs** (WinoBias's ``generalized_swaps.txt``, Counter-GAP's list): ``word<TAB>
  opposite`` a line, spaces around the tab allowed. Read in both directions, unless the first
  line is ``# direction: one-way``: then each line maps only its first word to its second.
  No gender is given. Within the file the first line listing a word decides.

In both: UTF-8 (a BOM is ignored), CRLF or LF, blank lines and ``#`` lines skipped, words are
lower-cased and curly apostrophes made straight. An entry of several words cannot match a
token and is skipped with a warning; a line with no tab, with an empty side, or with more than
two fields (plain form) is bad input naming the file and line (``FILE, row N: ...``, N counting
every line), and so are: a word mapped to itself, a category that is not one of
:data:`CATEGORIES` (project form), a ``# direction:`` line other than ``# direction: one-way``
(or ``both``) as the first line, a NUL byte, and a file with no pair at all.

    masculine	feminine	category          |  # direction: one-way
    actor	actress	occupation                |  waiter	waitress

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.errors`,
:mod:`pipeline.formats.resources`.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats.resources import read_text
from pipeline.vocab import FEMININE, MASCULINE

log = logging.getLogger(__name__)

PROJECT = "project-tsv"
PLAIN = "plain-pairs"
ONE_WAY_MARK = "# direction: one-way"
DIRECTION_PREFIX = "# direction:"
DIRECTIONS = ("one-way", "both")
MARKED_FEMININE = "marked-feminine"
# the categories of the project's lists; only marked-feminine changes how a pair is read
CATEGORIES = frozenset({"", "abstract", "adjective", "animal", "general", "kinship", MARKED_FEMININE,
                        "occupation", "possessive", "pronoun", "title"})


@dataclass
class WordListFile:
    """One file read: its form, whether it is one-way, and word -> (opposite, gender, category)."""

    source: str
    form: str
    one_way: bool = False
    table: dict[str, tuple[str, str | None, str]] = field(default_factory=dict)
    skipped: int = 0      # multi-word entries


def _word(w: str) -> str:
    return w.strip().lower().replace("’", "'")


def read_word_list(source: str | os.PathLike) -> WordListFile:
    """Read a word-list file of either form (see the module doc)."""
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.is_file():
            raise InputError("file not found", path)
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(f"not UTF-8 text ({exc})", path) from None
    else:
        text = read_text(source)      # a shipped resource
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.splitlines()
    for lineno, line in enumerate(lines, start=1):
        if "\0" in line:
            raise InputError("a NUL byte (binary data, not a word list)", source, lineno)
        low = line.strip().lower()
        if low.startswith(DIRECTION_PREFIX):
            direction = low[len(DIRECTION_PREFIX):].strip()
            if direction not in DIRECTIONS:
                raise InputError(f"unknown direction {direction!r} (one-way or both)", source, lineno)
            if lineno != 1:
                raise InputError("a '# direction:' line belongs on the first line, where it applies "
                                 "to the whole file", source, lineno)
    first = next((ln for ln in lines if ln.strip() and not ln.lstrip().startswith("#")), "")
    head = [_word(f) for f in first.split("\t")]
    form = PROJECT if head[:2] == ["masculine", "feminine"] else PLAIN
    one_way = bool(lines) and lines[0].strip().lower() == ONE_WAY_MARK
    out = WordListFile(str(source), form, one_way)
    header_seen = False
    for lineno, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        fields = [_word(f) for f in line.split("\t")]
        if form == PROJECT and not header_seen:
            header_seen = True
            continue
        if len(fields) < 2:
            raise InputError("expected two words separated by a tab", source, lineno)
        if form == PLAIN and len(fields) > 2:
            raise InputError(f"expected two tab-separated words, got {len(fields)} fields", source, lineno)
        a, b = fields[0], fields[1]
        if not a or not b:
            raise InputError("empty word", source, lineno)
        if a == b:
            raise InputError(f"{a!r} is mapped to itself", source, lineno)
        if " " in a or " " in b:
            out.skipped += 1
            log.warning("%s, line %d: %r / %r has several words and cannot match a token; skipped",
                        source, lineno, a, b)
            continue
        if form == PROJECT:
            cat = fields[2] if len(fields) > 2 else ""
            if cat not in CATEGORIES:
                raise InputError(f"unknown category {cat!r} (one of {', '.join(sorted(c for c in CATEGORIES if c))}, "
                                 "or none)", source, lineno)
            if cat != MARKED_FEMININE:
                out.table.setdefault(a, (b, MASCULINE, cat))
            out.table.setdefault(b, (a, FEMININE, cat))
        else:
            out.table.setdefault(a, (b, None, ""))
            if not one_way:
                out.table.setdefault(b, (a, None, ""))
    if not out.table and not out.skipped:
        raise InputError("no word pairs in the file", source)
    return out
