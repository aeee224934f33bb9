"""Where a sentence really starts: the parser also cuts inside a name after an abbreviated
title ("table.--Mrs." | "Elton, before she ...") and where a hard-wrapped line started in
capitals ("of everything" | "BUT Chad, that Mamie ..."). Extract's windows start and end only
at real starts (:func:`pipeline.core.extract.real_starts`), and prune marks whether the first
sentence of each part it cuts is one (:data:`FIRST_REAL`), so both strategies agree.

May import: the standard library (spaCy Docs are passed in).
"""

from __future__ import annotations

import re

# a Doc's ``user_data`` key: False when the Doc's first sentence is no real start (a part cut
# by prune from a longer Doc); absent or True otherwise
FIRST_REAL = "counter_gap_first_sentence_real"
# what ends a sentence: end punctuation, then closing quotes, brackets or italics marks
_ENDS_SENTENCE = re.compile(r"[.!?…][\"'”’)\]_]*$")
_LAST_WORD_OF = re.compile(r"([A-Za-z]+)\.$")
_LAST_ALPHA = re.compile(r"[A-Za-z]+$")
# titles written abbreviated, before a name (a period after "Sir" or "Lady" may end a sentence)
ABBREVIATED_TITLES = frozenset("""mr mrs ms messrs mssrs mme mlle m mons dr st ste rev revd prof capt col gen lieut lt
sgt maj hon gov esq fr sr jr""".split())     # "Mons." Monsieur (Udolpho: "to Mons." | "Bonnac;")


def abbreviation(word: str) -> bool:
    """An abbreviated title ("Mrs", "Dr") or an initial ("J"): its period ends no sentence."""
    return word.lower() in ABBREVIATED_TITLES or (len(word) == 1 and word.isupper())


def real_start(doc, i: int) -> bool:
    """Whether a sentence starting at token ``i`` of ``doc`` starts a real sentence: at the
    Doc's start (as :data:`FIRST_REAL` says), after a line break (a paragraph's: books are
    unwrapped), or after a token that ends a sentence (end punctuation, closing quotes) and
    is no abbreviated title or initial, at a word that is not in lower case ('“Oh!” she said'
    is one sentence)."""
    while i < len(doc) and doc[i].is_space:
        i += 1
    j = i - 1
    gap = ""
    while j >= 0 and doc[j].is_space:
        gap += doc[j].text
        j -= 1
    if j < 0:
        return bool(doc.user_data.get(FIRST_REAL, True))
    if "\n" in gap or "\n" in doc[j].whitespace_:
        return True
    if i < len(doc) and doc[i].text[:1].islower():
        return False                    # '“Oh!” she said': the sentence goes on
    prev = doc[j].text
    if not _ENDS_SENTENCE.search(prev):
        # a closing quote alone after the end punctuation: '"Oh!" she said'
        if not (doc[j].is_quote or doc[j].is_bracket) or j == 0 or not _ENDS_SENTENCE.search(doc[j - 1].text):
            return False
    word = _LAST_WORD_OF.search(prev)
    if word is not None and abbreviation(word.group(1)):
        return False                    # "Mrs." | "Elton", "J." | "Smith"
    if j > 0 and prev == "." and not doc[j - 1].whitespace_ \
            and (w := _LAST_ALPHA.search(doc[j - 1].text)) is not None and abbreviation(w.group(0)):
        return False                    # "Mrs" "." | "Elton" split by the tokenizer
    return True


# a line of capitals alone: a title, or the poet named under a chapter's epigraph ("BEATTIE",
# "THE MARRIAGE OF FIGARO."): no sentence of the story (read, seed 20261144)
_CAPITALS_LINE = r"[A-Z][A-Z'’\-]+(?:[ .]+[A-Z][A-Z'’\-]*){0,7}\.?"
_CAPITALS_LINE_RE = re.compile(_CAPITALS_LINE)
# a character no line of capitals has
_NOT_CAPITALS = re.compile(r"[^A-Z'’\-. ]")
# a heading standing as a paragraph of its own: "CHAPTER LIV", "Book Eighth", "BOOK II.", "I",
# "XIV.", "12", "BEATTIE"
_HEADING = re.compile(r"^(?:(?:CHAPTER|Chapter|BOOK|Book|VOLUME|Volume|PART|Part|STAVE|Stave|CANTO|Canto"
                      r"|ADVENTURE|Adventure|SECTION|Section)\b[\w\s.,:;'’\-]{0,60}"
                      r"|[IVXLCDM]+\.?|\d{1,3}\.?|" + _CAPITALS_LINE + r")$")


def heading(doc, start: int, end: int, arrays=None) -> bool:
    """Whether tokens ``start:end`` of ``doc`` (a sentence) are a heading on a line of their own
    ("CHAPTER LIV", "Book Eighth", "I", a line of capitals alone: "BEATTIE" under an epigraph):
    no window reads across one (the text before it is another chapter's), unless it is a
    :func:`chapter_break` and no window inside the chapter fits. ``arrays``: the Doc's
    :class:`pipeline.lang.doc_arrays.DocArrays`, when the caller reads every sentence (the same
    answer without a ``Token`` per token)."""
    if arrays is not None:
        return _heading_arrays(arrays, start, end)
    while start < end and doc[start].is_space:
        start += 1
    while end > start and doc[end - 1].is_space:
        end -= 1
    if start >= end:
        return False
    before = start == 0 or "\n" in doc[start - 1].text_with_ws
    after = end >= len(doc) or "\n" in doc[end - 1].whitespace_ or doc[end].is_space and "\n" in doc[end].text
    text = doc[start:end].text
    if before and after:
        return bool(_HEADING.match(text.strip()))
    if _NOT_CAPITALS.search(text):
        return False                    # its line can be no line of capitals: no need to read it
    # the parser cut a line of capitals ("MRS." | "GREY GIVES A DINNER", a chapter's title):
    # every piece of it is the heading (read, seed 20261152)
    lo, hi = start, end
    while lo > 0 and "\n" not in doc[lo - 1].text_with_ws:
        lo -= 1
    while hi < len(doc) and not ("\n" in doc[hi - 1].whitespace_ or (doc[hi].is_space and "\n" in doc[hi].text)):
        hi += 1
    return bool(_CAPITALS_LINE_RE.fullmatch(doc[lo:hi].text.strip()))


def _line_text(a, start: int, end: int) -> str:
    """``doc[start:end].text`` from the arrays (a token's whitespace is one space or none)."""
    return "".join(a.texts[i] + (" " if a.space_after[i] and i < end - 1 else "") for i in range(start, end))


def _heading_arrays(a, start: int, end: int) -> bool:
    """:func:`heading` read from a Doc's :class:`pipeline.lang.doc_arrays.DocArrays`."""
    texts, space = a.texts, a.space
    while start < end and space[start]:
        start += 1
    while end > start and space[end - 1]:
        end -= 1
    if start >= end:
        return False
    before = start == 0 or "\n" in texts[start - 1]
    after = end >= a.n or (space[end] and "\n" in texts[end])
    text = _line_text(a, start, end)
    if before and after:
        return bool(_HEADING.match(text.strip()))
    if _NOT_CAPITALS.search(text):
        return False
    lo, hi = start, end
    while lo > 0 and "\n" not in texts[lo - 1]:
        lo -= 1
    while hi < a.n and not (space[hi] and "\n" in texts[hi]):
        hi += 1
    return bool(_CAPITALS_LINE_RE.fullmatch(_line_text(a, lo, hi).strip()))


# the first word of a heading: what :func:`heading_lead` looks for before reading a line
_HEADING_FIRST = re.compile(r"^(?:CHAPTER|Chapter|BOOK|Book|VOLUME|Volume|PART|Part|STAVE|Stave|CANTO|Canto"
                            r"|ADVENTURE|Adventure|SECTION|Section|[IVXLCDM]+\.?|\d{1,3}\.?|[A-Z][A-Z'’\-]+)$")


# a chapter's break: a heading line that is a division word and its number, or a numeral alone,
# and nothing more: "CHAPTER XI", "Book Eighth", "CHAPTER THE FIRST", "XIV."; a title on the same
# line is the story's text a reader would meet inside the window ("CHAPTER VII THE SECRET
# ORCHARD", read of seed 20261188)
_NUMBER_WORD = (r"(?:the\s+)?(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)[-\s]?)?"
                r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth"
                r"|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth"
                r"|thirtieth|fortieth|fiftieth|sixtieth|seventieth|eightieth|ninetieth|last|one|two|three"
                r"|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen"
                r"|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)")
_CHAPTER_BREAK = re.compile(r"^(?:(?:CHAPTER|Chapter|BOOK|Book|VOLUME|Volume|PART|Part|STAVE|Stave|CANTO|Canto"
                            r"|SECTION|Section)\s+(?:[IVXLCDM]+|[ivxlcdm]+|\d{1,3}|(?i:" + _NUMBER_WORD + r"))"
                            r"|[IVXLCDM]+|\d{1,3})[.:]?$")


def chapter_break(doc, start: int, end: int) -> bool:
    """Whether tokens ``start:end`` of ``doc`` are a :func:`heading` that only divides the text
    ("CHAPTER XI", "Book Eighth", "XIV.", "12"): no title, no poet under an epigraph, no line of
    capitals. A window may read across one when no window inside the chapter fits
    (:func:`pipeline.core.extract.instances_from_doc`)."""
    if not heading(doc, start, end):
        return False
    return bool(_CHAPTER_BREAK.match(doc[start:end].text.strip()))


_BLANK_BEFORE = re.compile(r"\n[ \t]*\n[ \t]*$")
_BLANK_AFTER = re.compile(r"^[ \t]*(?:\n[ \t]*\n|$)")
_TITLE_WORDS = 30
# how the older novels' chapter titles start ("In which ...", "Containing ...", "Wherein ...")
_OLD_TITLE_START = re.compile(r"(?:In which|In Which|Containing|Wherein|Which|Shewing|Showing|Treating|Being)\b")


def chapter_title_end(doc, start: int) -> int | None:
    """The character offset where a chapter's title ends when token ``start`` of ``doc`` begins
    a paragraph of its own that reads as one: at most 30 words set off by blank lines, no
    quotation, no final stop unless it starts as the older titles do ("In which", "Containing")
    or is in title case ("The Pequod Meets The Albatross."), as the line after a chapter's break
    ("CHAPTER XII" / "Quite a Sentimental Chapter"; *Tom Jones*' "Chapter vii." / "In which Mr
    Allworthy appears on a sick-bed."); else None. :func:`heading` reads no such line (it is no
    line of capitals); a window reading across the break would hold it (read of seed 20261188)."""
    text = doc.text
    begin = doc[start].idx
    if not _BLANK_BEFORE.search(text[max(0, begin - 40):begin]) and begin > 0:
        return None
    stop = text.find("\n\n", begin)
    stop = len(text) if stop < 0 else stop
    para = text[begin:stop]
    if len(para.split()) > _TITLE_WORDS or re.search(r"[\"“”‘]|(?:^|\s)'", para):
        return None
    long_words = re.findall(r"[^\W\d_]{4,}", para)
    title_case = len(long_words) >= 2 and all(w[0].isupper() for w in long_words)
    if re.search(r"[.!?]\s*$", para) and not (_OLD_TITLE_START.match(para) or title_case):
        return None                 # a short first paragraph of the story, no title
    return stop if _BLANK_AFTER.match(text[stop:]) else None


def heading_lead(doc, start: int, end: int) -> int | None:
    """Where the rest of a sentence starts when the parser glued a heading line to it
    ("V" on a line of its own, then '"How do I look to-night, Liddy?" said Bathsheba'): the
    token after the heading's line, or None when tokens ``start:end`` begin with no heading
    line (or are nothing but one: :func:`heading`). The heading must stand after a line break
    (or at the Doc's start) and be followed by one."""
    while start < end and doc[start].is_space:
        start += 1
    if start >= end or not _HEADING_FIRST.match(doc[start].text):
        return None
    if not (start == 0 or "\n" in doc[start - 1].text_with_ws):
        return None
    for i in range(start, end):
        tok = doc[i]
        if "\n" in tok.whitespace_ or (tok.is_space and "\n" in tok.text):
            rest = i + 1
            while rest < end and doc[rest].is_space:
                rest += 1
            if rest >= end:
                return None
            line = doc[start:i + (0 if tok.is_space else 1)].text.strip()
            return rest if _HEADING.match(line) else None
        if i - start > 12:
            return None
    return None
