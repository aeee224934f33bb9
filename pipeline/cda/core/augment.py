"""Counterfactual data augmentation of one tokenized document (pure core of ``cda``).

* a-CDA (anonymization): every gendered word becomes its opposite
  (:func:`pipeline.lang.gendered_words.flip`, which resolves "her" -> "him" (PRP) / "his"
  (PRP$) by the POS tag, refined by a dependency label when one is known:
  :func:`pipeline.lang.gendered_words.pronoun_tag`), and every word of a person's name
  (:func:`name_roles`) becomes a placeholder E1, E2, ... Numbering is per document, in order of
  first appearance; the same word (compared case-insensitively) gets the same placeholder
  throughout the document ("Rev. Cuthbert Eager" -> "Rev. E1 E2", "Eager" -> "E2").
* n-CDA (names): gendered words as in a-CDA; a first name found in the n-CDA name map becomes
  its partner, case kept (JOHN -> MARY, john -> mary); one the map lacks ("Jo") a name of the
  other gender from :class:`NameSwap`'s fallback; a surname ("Miss Bartlett", "Walter Elliot")
  a surname of :class:`NameSwap`'s pool.
* A gendered word right before a name is a title and takes generate's title counterpart
  (:func:`pipeline.lang.gendered_words.flip_title`: "Miss Bartlett" -> "Mr. Bartlett", "Lady"
  -> "Lord", "Sir" -> "Lady"); before a family noun ("the King children") it stays.

A token that is a gendered word is flipped and never treated as a name (so the titles "King",
"Queen", "Prince", which are also in the name list, flip to "Queen", "King", "Princess"). Name
lookup: the token as written, else in the list's capitalisation ("JOHN"/"john" -> "John").

**Persons only.** When ``persons`` (the indices of the tokens inside PERSON spans) is given, a
name is replaced only inside a person span: a month ("born March 1, 1760"), a feast
("Easter"), a place ("in Kent", "London") is in the name list but in no PERSON span, so it
stays. Inside a span the words of a name are replaced (:func:`name_roles`: capitalised words
anchored by a title, the first-name list or the document's other names; not function words --
DT "The" is in the list): the span is the evidence, so the NNP tag is not required there. The
spans come from the file's named-entity column
(OntoNotes) or the project's person detection (:func:`detokenize` rebuilds the text it reads,
:func:`tokens_in_spans` maps its entities back to tokens); ``persons=None`` is the earlier
rule (every NNP/NNPS token in the list, one by one, before only persons were replaced), kept
for the benchmark's "before" figure.

May import: the standard library, :mod:`pipeline.lang`.
"""

from __future__ import annotations

import functools
import re
import zlib
from dataclasses import dataclass, field
from typing import Collection, Mapping, Sequence

from pipeline.lang.gendered_words import flip, flip_title, is_listed, pronoun_tag
from pipeline.lang.names import any_title

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
# Plural nouns naming people: "her" before one is a possessive even after a verb taking two
# objects ("giving her daughters" -> "giving his sons", "showed her friends"); gendered plurals
# (daughters, sisters, nieces) are recognised by the word list.
PERSON_PLURALS = frozenset("""children friends parents guests servants pupils students relations relatives
    cousins companions neighbours neighbors maids attendants admirers lovers suitors visitors babies
    twins charges kinsfolk playmates schoolfellows orphans""".split())
# Lower-case words after "the X" that make X a family name, not a person or a title: "the King
# children", "the March girls", "the Elliot family".
FAMILY_NOUNS = frozenset("""children family families girls boys sisters brothers twins household
    household's clan kids ladies gentlemen cousins""".split())
# Titles before which a lone name is a first name ("Sir Walter", "Aunt March" is the exception
# the surname list decides); after the others ("Mr.", "Miss", "Lady", "Dr.") it is a surname
# unless only the first-name list knows it ("Lady Anne").
GIVEN_NAME_TITLES = frozenset("""sir dame aunt auntie aunty uncle cousin brother sister saint st
    king queen prince princess emperor empress tsar czar""".split())
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
    titles: int = 0                 # gendered titles swapped as titles ("Miss Bartlett" -> "Mr. Bartlett")
    surnames: int = 0               # names replaced as surnames (n-CDA: by a surname)
    fallback_names: int = 0         # n-CDA: first names the map lacks, replaced by the fallback
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
    if i > 0 and words[i - 1].lower() in DITRANSITIVE_FORMS and not names_people(words[j] if j < len(words) else ""):
        return "PRP"
    return tag


def names_people(word: str) -> bool:
    """A plural noun naming people ("daughters", "children", "friends"): "her" before it is a
    possessive even after a verb taking two objects ("giving her daughters")."""
    w = word.lower()
    if w in PERSON_PLURALS:
        return True
    return is_listed(w) and ((w.endswith("s") and not w.endswith("ss")) or w.endswith("men"))


GIVEN, SURNAME = "given", "surname"
_NAME_PART = re.compile(r"[^\W\d_][\w'’\-]*")
_OPPOSITE_GENDER = {"masculine": "feminine", "feminine": "masculine"}


@dataclass
class NameSwap:
    """The lists that replace whole names (the command fills them; empty lists: a surname and a
    first name the map lacks stay as written).

    ``surnames``: known surnames, case-folded (is a lone name after "Mrs." a surname?);
    ``surname_pool``: n-CDA's replacement surnames, paired in order (0 <-> 1, 2 <-> 3, ...) so
    that the swap is its own inverse; a surname outside the pool gets the pool's name at the
    CRC-32 of its case-folded form (deterministic, the same in every run and document);
    ``fallback``: target gender ("masculine", "feminine", or "" when the person's gender is
    unknown) -> names, for first names the n-CDA map lacks ("Jo"), chosen the same way;
    ``first_names``: every first name of the name list, case-folded (n-CDA's index holds only
    the map's names; a name "Jo" of the list says a run of words is a person's name)."""
    surnames: frozenset = frozenset()
    surname_pool: tuple = ()
    first_names: frozenset = frozenset()
    fallback: Mapping[str, Sequence[str]] = field(default_factory=dict)

    def __post_init__(self):
        pool = list(self.surname_pool)
        self._pairs = {}
        for a, b in zip(pool[0::2], pool[1::2]):
            self._pairs[a.casefold()] = b
            self._pairs[b.casefold()] = a
        self._paired = [n for n in pool if n.casefold() in self._pairs]

    def surname_for(self, name: str) -> str | None:
        """The surname that replaces ``name`` (title case), or None without a pool."""
        if not self.surname_pool:
            return None
        f = name.casefold()
        if f in self._pairs:
            return self._pairs[f]
        return pick(self._paired, f)

    def fallback_for(self, name: str, gender: str) -> str | None:
        """The name of ``gender`` that replaces ``name`` the map lacks, or None (never ``name``
        itself: the pick moves to the next name of the pool)."""
        pool = self.fallback.get(gender) or ()
        f = name.casefold()
        if not pool or (len(pool) == 1 and pool[0].casefold() == f):
            return None
        k = zlib.crc32(f.encode("utf-8")) % len(pool)
        return pool[k] if pool[k].casefold() != f else pool[(k + 1) % len(pool)]


def pick(pool: Sequence[str], key: str) -> str | None:
    """A deterministic choice from ``pool`` for ``key`` (CRC-32, not Python's salted hash)."""
    if not pool:
        return None
    return pool[zlib.crc32(key.encode("utf-8")) % len(pool)]


def is_name_part(word: str, tag: str = "") -> bool:
    """A word of a personal name as written: capitalised, letters first (apostrophes and hyphens
    inside: "O'Brien", "Jean-Paul"); not a function word, not a gendered word or a title
    (those flip or stay), not an initial ("J.")."""
    return bool(word) and tag not in FUNCTION_TAGS and tag != "WRB" and _name_word(word)


@functools.lru_cache(maxsize=65536)
def _name_word(word: str) -> bool:
    return (word[0].isupper() and _NAME_PART.fullmatch(word) is not None and flip(word) is None
            and not any_title(word))


@functools.lru_cache(maxsize=65536)
def _title_word(word: str) -> bool:
    return any_title(word) or flip(word) is not None


def family_name(words: Sequence[str], i: int) -> bool:
    """``words[i]`` names a family, not a person or a title: "the King children", "the March
    girls", "the Elliot family" (after "the", before a lower-case family noun)."""
    if i + 1 >= len(words) or words[i + 1] not in FAMILY_NOUNS:
        return False
    return any(words[j].lower() == "the" for j in (i - 1, i - 2) if j >= 0)


def work_title(words: Sequence[str], start: int, end: int, reach: int = 8) -> bool:
    """The tokens ``start:end`` (a name) lie inside an italicised run of more words than the name,
    the way Gutenberg texts write the title of a book: "_ Undine and Sintran _" names two
    books, not two persons. The other words of the run are capitalised or small words of a
    title ("and", "of", "the"). An emphasised name alone ("_ Jo _ did it") or inside an
    italicised phrase ("_ Good night , Sir John _") is still a name."""
    o = start - 1
    while o >= 0 and start - o <= reach and not _is_markup(words[o]):
        if words[o] in (".", "!", "?", "“", "”", '"'):
            return False
        o -= 1
    c = end
    while c < len(words) and c - end < reach and not _is_markup(words[c]):
        if words[c] in (".", "!", "?", "“", "”", '"'):
            return False
        c += 1
    if o < 0 or c >= len(words) or not _is_markup(words[o]) or not _is_markup(words[c]):
        return False
    k, opened = o, 0                    # the marker at o opens a run: an odd number of markers
    while k >= 0 and words[k] not in (".", "!", "?"):   # since the sentence began
        opened += _is_markup(words[k])
        k -= 1
    others = [words[k] for k in range(o + 1, c) if not start <= k < end]
    return (opened % 2 == 1 and bool(others)
            and all(w[:1].isupper() or w in TITLE_SMALL_WORDS for w in others))  # not "_ Good night , Sir John _"


# Lower-case words inside a title of a work ("The Mill on the Floss", "Undine and Sintran").
TITLE_SMALL_WORDS = frozenset({"and", "of", "the", "a", "an", "in", "on", "to", "or", "with", "at", "for"})


def _title_key(word: str) -> str:
    return word.rstrip(".").lower()


def _title_before(words: Sequence[str], i: int) -> str:
    """The title right before the name part at ``i`` (lower case, no period), or ""."""
    j = i - 1
    while j >= 0 and _is_markup(words[j]):
        j -= 1
    if j < 0 or not words[j][:1].isupper():
        return ""
    w = words[j]
    return _title_key(w) if _title_word(w) else ""


def _titled_role(title: str, word: str, names: NameIndex, swap: NameSwap) -> str:
    """First name or surname of a lone name after a title: a first name after "Sir", "Aunt"
    ("Sir Walter"), unless only the surname list knows it ("Aunt March"); a surname after the
    others ("Miss Bartlett", "Lady Russell"), unless only the first-name list knows it ("Lady
    Anne")."""
    first = names.find(word) is not None
    sur = word.casefold() in swap.surnames
    if title in GIVEN_NAME_TITLES:
        return SURNAME if sur and not first else GIVEN
    return GIVEN if first and not sur else SURNAME


def name_roles(words: Sequence[str], tags: Sequence[str], persons: Collection[int], names: NameIndex,
               swap: NameSwap) -> dict[int, str]:
    """token index -> GIVEN or SURNAME for the name parts inside person spans.

    A *name* is a run of name parts (:func:`is_name_part`; "de", "van" may stand between; a
    change between ALL CAPITALS and not ends it: "Helen HOWARDS END"). It is replaced only when
    something says it is a person's name: a title before it ("Rev. Cuthbert Eager"), a part in
    the first-name list, or a part this document already names a person with; a run of words
    no list knows ("Selby and Nuttall", "Beggarlee") stays as the old rule left it, and so does
    one only the document's other names vouch for when a preposition or "the" stands before it
    ("the Earl of Burlesdon", "the old Benbow"). In a name
    of several parts the last is the surname and the others are first names; a lone part after
    a title is decided by :func:`_titled_role`; a lone untitled part is a surname when this
    document uses that form as a surname (and never as a first name) or when only the surname
    list knows it, else a first name. A family name ("the King children") or a place's name
    ("the Admiral Benbow inn") gets no role."""
    def first_name(w: str) -> bool:
        return names.find(w) is not None or w.casefold() in swap.first_names

    groups: list[list[int]] = []
    run: list[int] = []
    last = None
    for i in sorted(persons):
        if i >= len(words):
            continue
        w = words[i]
        part = is_name_part(w, tags[i]) or (w.isalpha() and first_name(w) and tags[i] not in FUNCTION_TAGS
                                            and flip(w) is None)         # "john", as the list finds it
        if not (part and not family_name(words, i) and not place_name(words, i)):
            if not (last is not None and words[i].lower() in NAME_PARTICLES):
                last = None
            continue
        between = range(last + 1, i) if last is not None else range(0)
        joined = (last is not None and all(j in persons and words[j].lower() in NAME_PARTICLES for j in between)
                  and _caps(words[i]) == _caps(words[last]))
        if not joined:
            if run:
                groups.append(run)
            run = []
        run.append(i)
        last = i
    if run:
        groups.append(run)

    roles: dict[int, str] = {}
    seen = {GIVEN: set(), SURNAME: set()}
    pending: list[int] = []

    def assign(group: list[int]) -> None:
        if len(group) >= 2:
            for k in group:
                roles[k] = GIVEN if k != group[-1] else SURNAME
                seen[roles[k]].add(words[k].casefold())
            return
        k = group[0]
        title = _title_before(words, k)
        if title:
            roles[k] = _titled_role(title, words[k], names, swap)
            seen[roles[k]].add(words[k].casefold())
        else:
            pending.append(k)

    later = []
    for group in groups:
        if _title_before(words, group[0]) or any(first_name(words[k]) for k in group):
            assign(group)
        else:
            later.append(group)
    known = seen[GIVEN] | seen[SURNAME]
    for group in later:                 # "Eager" alone after "Rev. Cuthbert Eager"
        if any(words[k].casefold() in known for k in group) and not _place_context(words, group[0]):
            assign(group)
    for k in pending:
        f = words[k].casefold()
        if f in seen[SURNAME] and f not in seen[GIVEN]:
            roles[k] = SURNAME
        elif f not in seen[GIVEN] and not first_name(words[k]) and f in swap.surnames:
            roles[k] = SURNAME
        else:
            roles[k] = GIVEN
    return roles


# Words before a name that make it a place or a thing: "the Earl of Burlesdon", "at Burlesdon",
# "the old Benbow" (an inn). Only for a name the document's other names alone vouch for.
PLACE_BEFORE = frozenset({"of", "at", "in", "from", "to", "into", "near", "the"})


def _place_context(words: Sequence[str], i: int) -> bool:
    j = i - 1
    while j >= 0 and _is_markup(words[j]):
        j -= 1
    if j < 0:
        return False
    if words[j] in PLACE_BEFORE:
        return True
    return words[j].islower() and j > 0 and words[j - 1] == "the"      # "the old Benbow"


def _caps(word: str) -> bool:
    return len(word) > 1 and word.isupper()


# Lower-case nouns after a name that make it a place's: "the Admiral Benbow inn", "Kellynch Hall"
# is written with a capital and is not a person span anyway.
PLACE_NOUNS = frozenset("""inn hotel tavern hall street road lane square park house church chapel college
    station bridge court castle abbey manor farm mill arms""".split())


def place_name(words: Sequence[str], i: int) -> bool:
    """``words[i]`` names a place: a lower-case place noun follows ("the Admiral Benbow inn")."""
    return i + 1 < len(words) and words[i + 1] in PLACE_NOUNS


NAME_PARTICLES = frozenset({"de", "du", "des", "van", "von", "der", "den", "di", "da", "del", "della", "le", "la"})


def _next_word(words: Sequence[str], i: int) -> int:
    j = i + 1
    while j < len(words) and _is_markup(words[j]):
        j += 1
    return j


_PRONOUN_VOTES = {"he": "masculine", "him": "masculine", "his": "masculine", "himself": "masculine",
                  "she": "feminine", "her": "feminine", "hers": "feminine", "herself": "feminine"}
_SENTENCE_END = frozenset({".", "!", "?", ";"})


def gender_by_pronouns(words: Sequence[str], roles: Mapping[int, str], form: str, reach: int = 8) -> str:
    """The gender the document's pronouns give the person named ``form`` when nothing else
    does ("cried Jo, pulling off her net"): after each occurrence of the form as a name, the
    first personal pronoun within ``reach`` words, before the sentence ends or another name
    comes; the gender of at least two thirds of these votes, else ""."""
    votes = {"masculine": 0, "feminine": 0}
    folded = form.casefold()
    for i, role in roles.items():
        if words[i].casefold() != folded:
            continue
        for j in range(i + 1, min(len(words), i + 1 + reach)):
            w = words[j]
            if w in _SENTENCE_END or (j in roles and words[j].casefold() != folded):
                break
            g = _PRONOUN_VOTES.get(w.lower())
            if g:
                votes[g] += 1
                break
    n = votes["masculine"] + votes["feminine"]
    for g, k in votes.items():
        if n and 3 * k >= 2 * n:
            return g
    return ""


def augment_words(words: Sequence[str], tags: Sequence[str], mode: str, names: NameIndex,
                  name_map: Mapping[str, str] | None = None,
                  deps: Sequence[str] | None = None,
                  persons: Collection[int] | None = None, *, swap: NameSwap | None = None,
                  genders: Mapping[int, str] | None = None) -> tuple[list[str], Counts]:
    """The augmented words of one document and what changed.

    ``tags``: Penn tags (from the file or predicted); ``deps``: dependency labels when a parser
    ran, which also marks the tags as predicted: "her"/"his" are then decided by the label
    and :func:`her_tag`. ``names``: the list of personal names (a-CDA) or the
    name map's keys (n-CDA); ``name_map`` maps a name to its partner (n-CDA). ``persons``:
    indices of the tokens inside PERSON spans; only those can be names (None: every NNP/NNPS
    token, the earlier rule). ``swap``: the surname and fallback lists (:class:`NameSwap`);
    ``genders``: token index -> the gender of the person it names, when the detection knows it
    (the fallback for a first name the map lacks takes the opposite one).
    """
    out, counts, _ = augment_words_detail(words, tags, mode, names, name_map, deps, persons,
                                          swap=swap, genders=genders)
    return out, counts


def augment_words_detail(words: Sequence[str], tags: Sequence[str], mode: str, names: NameIndex,
                         name_map: Mapping[str, str] | None = None,
                         deps: Sequence[str] | None = None,
                         persons: Collection[int] | None = None, *, swap: NameSwap | None = None,
                         genders: Mapping[int, str] | None = None) -> tuple[list[str], Counts, list[int]]:
    """:func:`augment_words`, plus the indices of the tokens replaced as names.

    With ``persons`` given, every part of a person's name is replaced, not only the parts the
    name list holds (:func:`name_roles`): a-CDA gives each distinct part its placeholder ("Rev.
    Cuthbert Eager" -> "Rev. E1 E2"); n-CDA replaces a first name by its partner in the map (or
    by the fallback of :class:`NameSwap` when the map lacks it) and a surname by a surname. A
    gendered word right before a name is swapped as a title, as generate does
    (:func:`pipeline.lang.gendered_words.flip_title`: "Miss Bartlett" -> "Mr. Bartlett", "Lady
    Elliot" -> "Lord ...", "Sir Walter" -> "Lady ..."); one naming a family ("the King
    children") stays."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    if mode == "ncda" and name_map is None:
        raise ValueError("n-CDA needs a name map")
    swap = swap or NameSwap()
    out = list(words)
    counts = Counts(documents=1, tokens=len(words))
    placeholders: dict[str, str] = {}
    replaced: list[int] = []
    roles = name_roles(words, tags, persons, names, swap) if persons is not None else {}
    voted: dict[str, str] = {}          # form -> the gender its pronouns give (gender_by_pronouns)
    period = any(w in ("Mr.", "Mrs.", "MR.", "MRS.") for w in words) or not any(w in ("Mr", "Mrs") for w in words)
    for i, (word, tag) in enumerate(zip(words, tags)):
        if deps is not None:
            tag = pronoun_tag(word, tag, deps[i])
            if word.lower() == "her":
                tag = her_tag(words, [*tags[:i], tag, *tags[i + 1:]], i)
        flipped = flip(word, tag)
        if flipped is not None:
            if word[:1].isupper() and family_name(words, i):
                continue                        # "the King children": a family, no title
            j = _next_word(words, i)
            if (word[:1].isupper() and j < len(words) and words[j][:1].isupper()
                    and (j in roles or (persons is None and tags[j] in NAME_TAGS))):
                titled = flip_title(word, period)   # a title before a name: "Miss Bartlett" -> "Mr. Bartlett"
                if titled is not None and titled != flipped:
                    flipped = titled
                    counts.titles += 1
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
            key = names.find(word)
            if key is None:
                continue
        elif i not in roles:
            continue
        else:
            key = names.find(word)
        if mode == "acda":
            folded = (key or word).casefold()
            if folded not in placeholders:
                placeholders[folded] = f"E{len(placeholders) + 1}"
            out[i] = placeholders[folded]
            counts.surnames += roles.get(i) == SURNAME
        elif roles.get(i) == SURNAME:
            new = swap.surname_for(word)
            if new is None:
                continue
            out[i] = with_case(word, new)
            counts.surnames += 1
        elif key is not None and key in name_map:
            out[i] = with_case(word, name_map[key])
        else:
            own = (genders or {}).get(i)
            if not own:
                if word.casefold() not in voted:
                    voted[word.casefold()] = gender_by_pronouns(words, roles, word)
                own = voted[word.casefold()]
            gender = _OPPOSITE_GENDER.get(own, "")
            new = swap.fallback_for(word, gender)
            if new is None:
                continue
            out[i] = with_case(word, new)
            counts.fallback_names += 1
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
