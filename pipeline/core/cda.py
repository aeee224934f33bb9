"""Counterfactual data augmentation of one tokenized document (pure core of ``cda``).

* a-CDA (anonymization): every gendered word becomes its opposite
  (:func:`pipeline.lang.gendered_words.flip`, which resolves "her" -> "him" (PRP) / "his"
  (PRP$) by the POS tag, refined by a dependency label when one is known:
  :func:`pipeline.lang.gendered_words.pronoun_tag`), and every personal name -- an NNP/NNPS
  token found in gender-guesser's name list, any class including unisex -- becomes a
  placeholder E1, E2, ... Numbering is per document, in order of first appearance; the same
  name (compared case-insensitively) gets the same placeholder throughout the document.
* n-CDA (names): gendered words as in a-CDA; names found in the n-CDA name map become their
  partner, case kept (JOHN -> MARY, john -> mary). Names the map does not hold (unisex names,
  the unmatched tail of the larger side) stay.

A token that is a gendered word is flipped and never treated as a name (so the titles "King",
"Queen", "Prince", which are also in the name list, flip to "Queen", "King", "Princess"). Name
lookup: the token as written, else in the list's capitalisation ("JOHN"/"john" -> "John").

**Persons only.** When ``persons`` (the indices of the tokens inside PERSON spans) is given, a
name is replaced only inside a person span: a month ("born March 1, 1760"), a feast
("Easter"), a place ("in Kent", "London") is in the name list but in no PERSON span, so it
stays. Inside a span any token found in the list is replaced unless tagged as a function word
(DT "The" is in the list): the span is the evidence, so the NNP tag is not required there. The spans come from the file's named-entity column
(OntoNotes) or the project's person detection (:func:`detokenize` rebuilds the text it reads,
:func:`tokens_in_spans` maps its entities back to tokens); ``persons=None`` is the earlier
rule (every NNP/NNPS token in the list, before only persons were replaced), kept for the
benchmark's "before" figure.

May import: the standard library, :mod:`pipeline.lang`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Collection, Mapping, Sequence

from pipeline.lang.gendered_words import flip, pronoun_tag

# "her" before a noun phrase is an object, not a possessive, after a verb that takes two
# objects ("gave her money", "charged her 1000 dollars", "wished her happy birthday"): the
# tagger reads these as possessives. Word forms, since no lemmatizer runs.
DITRANSITIVE_FORMS = frozenset(
    f"{stem}{end}" for stem, ends in (
        ("give", ("", "s", "n")), ("gave", ("",)), ("giving", ("",)),
        ("offer", ("", "s", "ed", "ing")), ("show", ("", "s", "ed", "n", "ing")),
        ("charg", ("e", "es", "ed", "ing")), ("wish", ("", "es", "ed", "ing")),
        ("hand", ("", "s", "ed", "ing")), ("lend", ("", "s", "ing")), ("lent", ("",)),
        ("teach", ("", "es", "ing")), ("taught", ("",)), ("tell", ("", "s", "ing")), ("told", ("",)),
        ("provid", ("e", "es", "ed", "ing")), ("ask", ("", "s", "ed", "ing")),
        ("mak", ("e", "es", "ing")), ("made", ("",)), ("promis", ("e", "es", "ed", "ing")),
        ("ow", ("e", "es", "ed", "ing")), ("grant", ("", "s", "ed", "ing")),
        ("award", ("", "s", "ed", "ing")), ("send", ("", "s", "ing")), ("sent", ("",)),
        ("feed", ("", "s", "ing")), ("fed", ("",)), ("drove", ("",)), ("driv", ("e", "es", "ing")))
    for end in ends)
# Penn tags that can open the noun phrase a possessive determiner belongs to.
NOMINAL_START = frozenset({"NN", "NNS", "NNP", "NNPS", "JJ", "JJR", "JJS", "CD", "VBG", "VBN",
                           "RBS", "RBR", "FW", "AFX", "HYPH", "``", "''"})
MODES = ("acda", "ncda")
SUFFIX = {"acda": "_a", "ncda": "_n"}
NAME_TAGS = frozenset({"NNP", "NNPS"})
# Tags of words that are never names, even inside a PERSON span: the list holds "The" (?F), and
# a span may start with it ("The Widow Douglas").
FUNCTION_TAGS = frozenset({"DT", "PDT", "WDT", "WP", "WP$", "IN", "CC", "MD", "UH", "TO", "EX", "POS",
                           "PRP", "PRP$"})


def with_case(template: str, word: str) -> str:
    """``word`` in the case pattern of ``template``: all capitals, all lower case, or as the
    list writes it (names are capitalised there)."""
    if len(template) > 1 and template.isupper():
        return word.upper()
    if template.islower():
        return word.lower()
    return word


class NameIndex:
    """Looks up a token in a name collection: as written, else capitalised."""

    def __init__(self, names: Collection[str] | Mapping[str, str]):
        self.names = names
        self._folded: dict[str, str] = {}
        for n in sorted(names):
            self._folded.setdefault(n.casefold(), n)

    def __len__(self) -> int:
        return len(self.names)

    def find(self, token: str) -> str | None:
        if token in self.names:
            return token
        return self._folded.get(token.casefold())


@dataclass
class Counts:
    documents: int = 0
    tokens: int = 0
    gendered: int = 0
    names: int = 0
    her_to_his: int = 0
    her_to_him: int = 0
    tagged_documents: int = 0       # documents whose tags were predicted
    ne_documents: int = 0           # documents whose persons came from the named-entity column
    detected_documents: int = 0     # documents whose persons came from the person detection
    person_spans: int = 0

    def add(self, other: "Counts") -> None:
        for k in self.__dataclass_fields__:
            setattr(self, k, getattr(self, k) + getattr(other, k))


def _is_markup(word: str) -> bool:
    """Italics markers of Gutenberg texts kept as tokens by LitBank ("_ her _ mind")."""
    return bool(word) and set(word) <= {"_", "*"}


def her_tag(words: Sequence[str], tags: Sequence[str], i: int) -> str:
    """The tag deciding "her" at ``i`` when the tags were PREDICTED: the tagger's PRP$ is
    overruled (PRP, an object) when the next token cannot open a noun phrase (a possessive
    needs one: "published the story about her anyways") or when the previous word is a verb
    taking two objects ("gave her money"). Italics markers (``_``) are skipped when looking at
    the next token: "_ her _ mind" is a possessive. Used only for predicted tags."""
    tag = tags[i]
    j = i + 1
    while j < len(words) and _is_markup(words[j]):
        j += 1
    if tag != "PRP$":
        if tag == "PRP" and j > i + 1 and j < len(tags) and tags[j] in ("NN", "NNS", "JJ"):
            return "PRP$"                   # "_ her _ mind": the tagger saw "_" after "her"
        return tag
    nxt = tags[j] if j < len(tags) else "."
    if nxt not in NOMINAL_START:
        return "PRP"
    if i > 0 and words[i - 1].lower() in DITRANSITIVE_FORMS:
        return "PRP"
    return tag


def augment_words(words: Sequence[str], tags: Sequence[str], mode: str, names: NameIndex,
                  name_map: Mapping[str, str] | None = None,
                  deps: Sequence[str] | None = None,
                  persons: Collection[int] | None = None) -> tuple[list[str], Counts]:
    """The augmented words of one document and what changed.

    ``tags``: Penn tags (from the file or predicted); ``deps``: dependency labels when a parser
    ran, which also marks the tags as predicted: "her"/"his" are then decided by the label
    and :func:`her_tag`. ``names``: the list of personal names (a-CDA) or the
    name map's keys (n-CDA); ``name_map`` maps a name to its partner (n-CDA). ``persons``:
    indices of the tokens inside PERSON spans; only those can be names (None: every NNP/NNPS
    token, the earlier rule).
    """
    out, counts, _ = augment_words_detail(words, tags, mode, names, name_map, deps, persons)
    return out, counts


def augment_words_detail(words: Sequence[str], tags: Sequence[str], mode: str, names: NameIndex,
                         name_map: Mapping[str, str] | None = None,
                         deps: Sequence[str] | None = None,
                         persons: Collection[int] | None = None) -> tuple[list[str], Counts, list[int]]:
    """:func:`augment_words`, plus the indices of the tokens replaced as names."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if mode == "ncda" and name_map is None:
        raise ValueError("n-CDA needs a name map")
    out = list(words)
    counts = Counts(documents=1, tokens=len(words))
    placeholders: dict[str, str] = {}
    replaced: list[int] = []
    for i, (word, tag) in enumerate(zip(words, tags)):
        if deps is not None:
            tag = pronoun_tag(word, tag, deps[i])
            if word.lower() == "her":
                tag = her_tag(words, [*tags[:i], tag, *tags[i + 1:]], i)
        flipped = flip(word, tag)
        if flipped is not None:
            if flipped != word:
                out[i] = flipped
                counts.gendered += 1
                if word.lower() == "her":
                    if flipped.lower() == "his":
                        counts.her_to_his += 1
                    elif flipped.lower() == "him":
                        counts.her_to_him += 1
            continue
        if persons is None:
            if tag not in NAME_TAGS:
                continue
        elif i not in persons or tag in FUNCTION_TAGS:
            continue
        key = names.find(word)
        if key is None:
            continue
        if mode == "acda":
            folded = key.casefold()
            if folded not in placeholders:
                placeholders[folded] = f"E{len(placeholders) + 1}"
            out[i] = placeholders[folded]
        else:
            out[i] = with_case(word, name_map[key])
        counts.names += 1
        replaced.append(i)
    return out, counts, replaced


# ------------------------------------------------------------------------------ persons

# Tokens written without a space before them (closing punctuation, clitics) and after them
# (opening brackets) when the text of a tokenized document is rebuilt for person detection.
_NO_SPACE_BEFORE = frozenset({",", ".", ";", ":", "!", "?", ")", "]", "}", "%", "'s", "’s", "'S", "n't",
                              "N'T", "'re", "'ve", "'ll", "'d", "'m", "''", "”", "’", "...", "…"})
_NO_SPACE_AFTER = frozenset({"(", "[", "{", "``", "“", "‘", "$", "#"})
_QUOTES = frozenset({'"'})


def detokenize(words: Sequence[str], sentences: Sequence[tuple[int, int]]) -> tuple[str, list[tuple[int, int]]]:
    """The text of a tokenized document for a pipeline that tokenizes by itself, and the
    character span of every token in it: one line per sentence (the project's pipeline starts
    a sentence after a line break), tokens separated by one space except before closing
    punctuation and clitics ("Elliot 's" -> "Elliot's", "him ." -> "him.") and after opening
    brackets and quotes; a straight double quote opens and closes in turn."""
    parts: list[str] = []
    offsets: list[tuple[int, int]] = [(0, 0)] * len(words)
    pos = 0
    for s, e in sentences:
        if s >= e:
            continue
        if parts:
            parts.append("\n")
            pos += 1
        glue = True                     # no space before the sentence's first token
        quote_open = False
        for i in range(s, e):
            w = words[i]
            if w in _QUOTES:
                closing = quote_open
                quote_open = not quote_open
            else:
                closing = w in _NO_SPACE_BEFORE
            if not glue and not closing:
                parts.append(" ")
                pos += 1
            parts.append(w)
            offsets[i] = (pos, pos + len(w))
            pos += len(w)
            glue = w in _NO_SPACE_AFTER or (w in _QUOTES and quote_open)
    return "".join(parts), offsets


def tokens_in_spans(offsets: Sequence[tuple[int, int]], spans: Sequence[tuple[int, int]]) -> set[int]:
    """Indices of the tokens (character ``offsets``) that overlap one of the character
    ``spans``: the file's tokens inside the entities a pipeline found in :func:`detokenize`'s text."""
    import bisect

    order = sorted(range(len(offsets)), key=lambda i: offsets[i])
    starts = [offsets[i][0] for i in order]
    found: set[int] = set()
    for a, b in spans:
        k = bisect.bisect_left(starts, a)
        if k > 0:
            k -= 1                      # a token starting before the span may reach into it
        while k < len(order) and starts[k] < b:
            i = order[k]
            s, e = offsets[i]
            if s < b and a < e and e > s:
                found.add(i)
            k += 1
    return found


def span_tokens(spans: Sequence[tuple[int, int]]) -> set[int]:
    """Token indices inside inclusive token ``spans`` (the named-entity column's PERSON spans)."""
    return {i for s, e in spans for i in range(s, e + 1)}
