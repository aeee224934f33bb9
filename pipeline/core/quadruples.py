"""Counterfactual quadruples: an instance -> its four variants (pure: records in, records out).

For an original x_o = s(P, C1, C2, O1, O2) (P the target pronoun, C1/C2 the two names of P's
gender in order of first appearance, O1/O2 the two others) four instances are made:

=========  ==============================  =========================================
variant    definition                      person placed at the positions (slots) of
=========  ==============================  =========================================
original   s(P, C1, C2, O1, O2)            C1 C2 O1 O2 (unchanged)
control    s(P, C2, C1, O2, O1)            C2 C1 O2 O1
swap-1     s~(P~, O1, O2, C1, C2)          O1 O2 C1 C2, every gendered word flipped
swap-2     s~(P~, O2, O1, C2, C1)          O2 O1 C2 C1, every gendered word flipped
=========  ==============================  =========================================

Roles are positional: in every variant the ``names`` entry with role C1 is the person now at
the original C1's positions (which is also that variant's own C1: the first-appearing name of
the variant's pronoun gender). A and B are the mentions at the original A and B positions, so
the original's gold label applies to the whole quadruple.

Names: by default each person is written everywhere in one form, their shortest mention in
the context, title included (Counter-GAP's convention; ``name_forms="shape"`` takes the shape
of the replaced mention instead). See ``docs/generate.md``.

API: :func:`make_variant`, :func:`quadruple` (the four rows, typed
:class:`pipeline.formats.records.QuadrupleRow`, their offsets checked by :func:`check_offsets`
before they are returned), :func:`word_edits`, :class:`PersonForms`. The gendered words come
from a :class:`pipeline.lang.gendered_words.WordList` (``words=``; default: the built-in list).
The instance itself is :mod:`pipeline.core.instances`; GAP rows become instances in
:mod:`pipeline.core.gap_rows`; the re-check of the variants is :mod:`pipeline.core.recheck`; the
evaluation text without title periods :mod:`pipeline.core.title_periods`.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.errors`, :mod:`pipeline.lang`,
:mod:`pipeline.formats.records`, :mod:`pipeline.core.instances`. Never loads a pipeline or
touches a file.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from dataclasses import dataclass

from pipeline.core.instances import GenerateError, split_title as _split_title
from pipeline.formats.records import QuadrupleRow
from pipeline.lang import gendered_words as gw
from pipeline.lang.names import glued_pieces, guess, one_given_name, title_case
from pipeline.lang.pronouns import PRONOUNS, UNGENDERED, opposite
from pipeline.vocab import ID_SUFFIX, ROLES, VARIANTS


# variant -> slot -> role (in the original) of the person placed at that slot's positions
SOURCE_ROLE = {
    "original": {"C1": "C1", "C2": "C2", "O1": "O1", "O2": "O2"},
    "control": {"C1": "C2", "C2": "C1", "O1": "O2", "O2": "O1"},
    "swap-1": {"C1": "O1", "C2": "O2", "O1": "C1", "O2": "C2"},
    "swap-2": {"C1": "O2", "C2": "O1", "O1": "C2", "O2": "C1"},
}
# How a person is written at the positions of another (docs/generate.md, "Names"):
# "person": always the person's one form, the shortest mention as written in the context
# (Counter-GAP's convention); "shape": a form of the replaced mention's shape (full name,
# first name, surname, with or without title), built when the context never shows it.
NAME_FORMS = ("person", "shape")
FLIPS_WORDS = {"original": False, "control": False, "swap-1": True, "swap-2": True}
# Non-PERSON entity labels whose gendered nouns are part of a proper name ("Prince Edward
# Island", "the King's Arms") and are kept; pronouns inside them still flip.
_KEEP_ENTS = {"GPE", "LOC", "ORG", "FAC", "WORK_OF_ART", "NORP", "EVENT", "PRODUCT", "LAW", "LANGUAGE"}


@dataclass
class Edit:
    start: int          # character span in the ORIGINAL text
    end: int
    new: str
    kind: str           # name | word | article
    old: str
    role: str = ""      # names: the slot
    index: int = -1     # names: mention index in the slot; words: token index
    title: str = ""     # names: the title of the rendered form
    constructed: bool = False  # names: the form was built and never seen for that person


# ---------------------------------------------------------------------- name rendering -----

def _is_upper(s: str) -> bool:
    letters = [c for c in s if c.isalpha()]
    return len(letters) > 1 and all(c.isupper() for c in letters)


def _uncapitalised(s: str) -> str:
    """A name written in capitals as it stands in running text: each word (and each part of a
    hyphenated one) with its first letter alone a capital ("CHARLOTTE" -> "Charlotte", "MRS.
    BEAUCHAMP" -> "Mrs. Beauchamp"); a name not in capitals as it is."""
    return " ".join(title_case(w) for w in s.split(" ")) if _is_upper(s) else s


def _shape(mention: dict, canonical: str) -> tuple[bool, str, bool]:
    """(has title, which part of the canonical name: full|first|last|other, all capitals).
    A person's aliases (docs/persons.md, "Aliases") take the part they stand for: a pet form of
    the first name is the first name ("Jos" of "Joseph Sedley"), a titled word that is none of
    the canonical name's the surname ("Miss Marjoribanks" of "Lucilla")."""
    title, rest = _split_title(mention)
    low = [t.lower() for t in rest.split()]
    canon = [t.lower() for t in canonical.split()]
    if low == canon:
        part = "full"
    elif len(canon) > 1 and low == canon[:1]:
        part = "first"
    elif len(canon) > 1 and low == canon[-1:]:
        part = "last"
    elif len(low) == 1 and canon and one_given_name(low[0], canon[0]):
        part = "first" if len(canon) > 1 else "full"
    elif len(low) == 1 and title and low[0] not in canon:
        part = "last"
    else:
        part = "other"
    return bool(title), part, _is_upper(rest)


class PersonForms:
    """How one person can be written: the forms seen in the text, by shape."""

    def __init__(self, name_rec: dict):
        self.name = name_rec["name"]
        self.gender = name_rec["gender"]
        seen: dict[tuple, Counter] = {}
        titles: Counter = Counter()
        self.untitled_seen = False
        for m in name_rec["mentions"]:
            shape = _shape(m, self.name)
            title, _ = _split_title(m)
            seen.setdefault(shape, Counter())[(m["text"], title)] += 1
            if title:
                titles[title] += 1
            else:
                self.untitled_seen = True
        # most frequent form per shape; ties: the first seen (Counter keeps insertion order)
        self.literal = {shape: c.most_common(1)[0][0] for shape, c in seen.items()}
        self.seen_texts = {text for c in seen.values() for text, _ in c}
        self.title = titles.most_common(1)[0][0] if titles else ""
        # the person's one form (NAME_FORMS "person"): the shortest mention as written, title
        # included; ties: the more frequent, then the first seen
        counts = Counter((m["text"], _split_title(m)[0]) for m in name_rec["mentions"])
        order = {key: k for k, key in reversed(list(enumerate((m["text"], _split_title(m)[0])
                                                              for m in name_rec["mentions"])))}
        # (a form in capitals only when the person is never written otherwise)
        self.person_form = min(counts, key=lambda key: (_is_upper(key[0]), len(key[0]), -counts[key], order[key]))

    def render(self, shape: tuple[bool, str, bool], style: str = "person") -> tuple[str, str, bool]:
        """(text, title, constructed) of this person written in place of a mention of ``shape``.

        Style "person" (the default, Counter-GAP's convention): always the person's one form
        (:attr:`person_form`), in capitals when the mention is; never constructed.
        Style "shape":
        A form seen in the text with that shape wins. Otherwise the form is built from the
        canonical name (first token, last token or all of it) and the person's title, which is
        used when the shape has a title or when the person is never named without one.
        """
        if style == "person":
            text, title = self.person_form
            # (a person the window writes only in capitals, a chapter's first word "CHARLOTTE
            # had now been left ...", is written as running text elsewhere: "a letter from
            # Charlotte", not "from CHARLOTTE")
            return (text.upper(), title.upper(), False) if shape[2] else (_uncapitalised(text), _uncapitalised(title), False)
        if shape in self.literal:
            text, title = self.literal[shape]
            return text, title, False
        has_title, part, upper = shape
        if (has_title, part, not upper) in self.literal:
            text, title = self.literal[(has_title, part, not upper)]
            return (text.upper() if upper else _uncapitalised(text)), (title if upper else _uncapitalised(title)), False
        canon = self.name.split() or [self.name]
        if part == "first" and len(canon) > 1:
            rest = canon[0]
        elif part == "last" and len(canon) > 1:
            rest = canon[-1]
        else:
            rest = " ".join(canon)
        if upper:
            rest = rest.upper()
        use_title = bool(self.title) and (has_title or not self.untitled_seen)
        text = f"{self.title} {rest}" if use_title else rest
        return text, (self.title if use_title else ""), text not in self.seen_texts


# ------------------------------------------------------------------------- word edits ------

def _article(word: str) -> str:
    w = word.lower()
    if w.startswith(("heir", "hour", "honest", "honour", "honor")):
        return "an"
    if w[:1] in "aeiou" and not w.startswith(("uni", "use", "eu", "one", "ewe", "usu")):
        return "an"
    return "a"


def _ent_label(ent: str) -> str:
    return ent.split("-", 1)[1] if ent and "-" in ent else ""


def in_kept_entity(label: str, iob: str, next_iob: str) -> bool:
    """A gendered word inside a non-person entity that names something with it ("Prince Edward
    Island", "the King's Arms"): kept. A word that is the whole entity by itself ("the little
    Frenchman", NORP) names no such thing and flips. ``iob``/``next_iob``: the word's and the next
    token's B / I / O."""
    return label in _KEEP_ENTS and not (iob == "B" and next_iob != "I")


# "Lord" written with a capital and before no name is the deity ("Lord help 'em", "Good Lord!",
# "the Lord"), no one's title; after a possessive it addresses a person ("my Lord") and flips
_DEITY_WORDS = frozenset({"Lord", "LORD"})
_ADDRESS_BEFORE = frozenset({"my", "your", "his", "her", "their", "our", "yer"})
# "God" with a capital is the deity wherever it stands ("God knows", "my God!"; read, seed
# 20261146: "God knows, I'm fond of having you" -> "Goddess knows"); "a god" flips
_GOD = frozenset({"God", "GOD"})


def _deity(tok: str, prev: str, nxt: str) -> bool:
    return tok in _GOD or (tok in _DEITY_WORDS and not nxt[:1].isupper() and prev.lower() not in _ADDRESS_BEFORE)


def kept_by_rule(i: int, toks: list[str], tags: list[str]) -> bool:
    """Whether the gendered word ``toks[i]`` stays in every variant by a rule of the swap: the
    deity ("God knows", "Good Lord!"), a phrase that names no person ("mother earth"), "waiter"
    the tray, a man's name that is a gendered word ("Vida and Guy"). :func:`word_edits` and the
    re-check (:func:`pipeline.core.recheck.kept_gendered_word`) ask this same question."""
    tok = toks[i]
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return (_deity(tok, toks[i - 1] if i else "", nxt) or fixed_phrase(tok, nxt) or _salver(i, toks, tags)
            or _used_as_name(i, toks, tags) or _in_place_name(i, toks, tags))


# whether the text writes "Mr." / "Mrs." with a period (a flipped title follows its use)
_MR_PERIOD = re.compile(r"\bMrs?\.")
_MR_SPACE = re.compile(r"\bMrs? ")


# Forms of address the tagger reads as other words ("at my chest, miss." -> a verb): after a
# comma and before punctuation they are an address and flip ("..., sir.").
VOCATIVES = frozenset({"miss"})


# "maid" after "old" is an unmarried woman ("an old maid", "old maids"), whose counterpart is a
# bachelor, not the valet of "her maid" (the 47 reading novels write it 25 times)
_OLD_MAID = {"maid": "bachelor", "maids": "bachelors"}
# "dame" as a common noun is a woman, mostly an old one ("the poor dame had reason to repent of her
# kindness", "an old dame"): a man, not the knight of the title "Dame" (read, seed 20261181: "the
# poor knight"); not in French ("ces dames", "la belle dame")
_DAME = {"dame": "man", "dames": "men"}
_FRENCH_BEFORE = frozenset("les ces des de la une vos votre nos notre mes ma belle petite vieille".split())


def _with_case(word: str, like: str) -> str:
    return word.upper() if like.isupper() and len(like) > 1 else word.capitalize() if like[:1].isupper() else word


def word_edits(inst: dict, protected: list[tuple[int, int]], words: gw.WordList | None = None) -> list[Edit]:
    """Gendered-word substitutions of a gender-swapped variant (tokens outside names)."""
    words = words or gw.builtin()
    text = inst["text"]
    toks, starts, tags = inst["tokens"], inst["token_starts"], inst["token_tags"]
    deps = inst.get("token_deps") or [""] * len(toks)
    ents = inst.get("token_ents") or ["O"] * len(toks)
    prot_starts = sorted(protected)
    ps = [s for s, _ in prot_starts]

    def in_name(s: int, e: int) -> bool:
        k = bisect.bisect_right(ps, e - 1) - 1
        return k >= 0 and prot_starts[k][1] > s

    heads = inst.get("token_heads") or []
    period = bool(_MR_PERIOD.search(text)) or not _MR_SPACE.search(text)
    edits: dict[int, Edit] = {}
    for i, (tok, s) in enumerate(zip(toks, starts)):
        e = s + len(tok)
        if not words.is_listed(tok):
            glued = _glued_edit(i, toks, starts, tags, words, in_name)
            if glued is not None:
                edits[i] = glued
            continue
        if in_name(s, e):
            continue
        if words.category_of(tok) != gw.PRONOUN and in_kept_entity(_ent_label(ents[i]), ents[i][:1],
                                                                    ents[i + 1][:1] if i + 1 < len(ents) else "O"):
            continue
        if tok.lower() == "her" and i + 1 < len(toks) and toks[i + 1] in ("'s", "’s") and starts[i + 1] == e:
            # the old spelling of "hers" ("not to her's"): "his", not "him's" (read, seed 20261148)
            edits[i] = Edit(s, e + len(toks[i + 1]), "His" if tok[:1].isupper() else "his", "word",
                            tok + toks[i + 1], index=i)
            continue
        dep = deps[i]
        # the subject of a gerund is a determiner: "without his running" -> "her running"
        if dep.startswith("nsubj") and i < len(heads) and 0 <= heads[i] < len(tags) and tags[heads[i]] == "VBG":
            dep = "poss"
        # "poss" on a predicative adjective is the subject of a small clause, an object:
        # "believing her capable" -> "him"; "her own", "her best", "did her utmost" stay
        elif (dep == "poss" and i < len(heads) and 0 <= heads[i] < len(tags) and tags[heads[i]] == "JJ"
              and deps[heads[i]] in ("ccomp", "xcomp", "oprd", "acomp")
              and toks[heads[i]].lower() not in _NOUN_ADJECTIVES):
            dep = "dobj"
        # "by her unexamined": an un-...-ed adjective standing as the object is said of her
        elif (dep == "poss" and i < len(heads) and 0 <= heads[i] < len(tags) and tags[heads[i]] == "JJ"
              and deps[heads[i]] in ("pobj", "dobj") and toks[heads[i]].lower().startswith("un")
              and toks[heads[i]].lower().endswith("ed")):
            dep = "dobj"
        nxt_low = toks[i + 1].lower() if i + 1 < len(toks) else ""
        if tok.lower() in ("his", "her") and _before_gerund(i, toks, tags):
            dep = "poss"                # "after his being supposed" -> "her being", not "hers";
            #                             "in her no longer avoiding him" -> "his no longer avoiding"
        elif tok.lower() == "her" and (nxt_low in _DETERMINERS or (i + 1 < len(tags) and tags[i + 1] == "PRP$")):
            dep = "dobj"                # no determiner before a determiner: "make her his wife" -> "him"
        new = None
        nxt = toks[i + 1] if i + 1 < len(toks) else ""
        if words.category_of(tok) == gw.ANIMAL or kept_by_rule(i, toks, tags):
            continue                    # animals ("three cheers and a tiger", "her cows"); the deity,
            #                             "mother earth", "a note upon a waiter", "Vida and Guy"
        if tok[:1].isupper() and nxt[:1].isupper() and tags[i + 1].startswith("NNP") \
                and tok.lower() not in gw.AMBIGUOUS_PRONOUNS:
            new = words.flip_title(tok, period)     # a title before a name: "the Miss Musgroves";
            #                                         not "Her Thanksgiving" (read, seed 20261185: "Him")
        if new is None:
            tag = tags[i]
            if tok.lower() in VOCATIVES and i and toks[i - 1] == "," and (not nxt or not nxt[:1].isalnum()):
                tag = "NN"              # ", miss." is an address, whatever the tagger says ("miss" a verb)
            tag = gw.noun_use_tag(tok, tag, tags[i + 1] if i + 1 < len(tags) else None)
            new = words.flip(tok, gw.pronoun_tag(tok, tag, dep))
            if i and toks[i - 1].lower() == "old" and tok.lower() in _OLD_MAID:
                new = _with_case(_OLD_MAID[tok.lower()], tok)   # "an old maid": a spinster, no servant
            if tok in _DAME and new is not None and not (i and toks[i - 1].lower() in _FRENCH_BEFORE):
                new = _DAME[tok]                                # "the poor dame" -> "the poor man"
            if tok.lower() == "lady" and _lady_addressed(i, toks):
                new = "Sir" if tok[:1].isupper() else "sir"     # '"Lady," said Gamut' -> '"Sir,"'
        if new is not None and new != tok:
            edits[i] = Edit(s, e, new, "word", tok, index=i)
            j = i + 1               # a plural possessive's bare apostrophe, its own token: "young
            #                         ladies' hearts" -> "young gentlemen's hearts", not "gentlemen'"
            if j < len(toks) and toks[j] in ("'", "’") and starts[j] == e and tok.lower().endswith("s") \
                    and not new.lower().endswith("s") and j not in edits:
                edits[j] = Edit(starts[j], starts[j] + 1, toks[j] + "s", "article", toks[j], index=j)
    # a / an before a word whose initial sound class changed ("an earl" -> "a countess")
    for i, ed in list(edits.items()):
        j = i - 1
        if j < 0 or j in edits:
            continue
        art = toks[j]
        if art.lower() not in ("a", "an") or starts[j] + len(art) + 1 != starts[i] or in_name(starts[j], starts[j] + 1):
            continue
        before, after = _article(ed.old), _article(ed.new)
        if art.lower() == before and after != before:
            if art.isupper() and len(art) > 1:
                new_art = after.upper()
            elif art[0].isupper():
                new_art = after.capitalize()
            else:
                new_art = after
            edits[j] = Edit(starts[j], starts[j] + len(art), new_art, "article", art, index=j)
    return sorted(edits.values(), key=lambda x: x.start)


# before an address: an opening quote, a comma, "O" / "Oh"; after it, punctuation
_BEFORE_ADDRESS = frozenset({"“", '"', "‘", "'", ",", "O", "Oh", "oh"})
_AFTER_ADDRESS = frozenset({",", "!", "?", ".", ";"})


def _lady_addressed(i: int, toks: list[str]) -> bool:
    """"Lady" spoken to a woman ('"Lady," said Gamut', "Thank you, lady!"): a man is addressed
    "sir", not "gentleman" (read, seed 20261144)."""
    prev = toks[i - 1] if i else '"'
    nxt = toks[i + 1] if i + 1 < len(toks) else ""
    return prev in _BEFORE_ADDRESS and nxt in _AFTER_ADDRESS


# a gendered word that names no person in these phrases, and stays (read, seed 20261128:
# "renewed their contact with mother earth" -> "father earth")
_FIXED_AFTER = {"mother": frozenset({"earth", "nature", "tongue", "country", "church", "wit", "land", "ship"}),
                "father": frozenset({"time", "christmas", "thames"}),
                "maiden": frozenset({"voyage", "speech", "over"}),
                "lady": frozenset({"luck", "day", "chapel"}),
                # the noun "miss", a lack: "Aged people feel the miss of children" (read, seed 20261180)
                "miss": frozenset({"of"})}


_NAME_DETERMINERS = frozenset("the a an this that these those his her my your our their its".split())


def _used_as_name(i: int, toks: list[str], tags: list[str]) -> bool:
    """A gendered word capitalised inside a sentence, tagged a proper noun, with no determiner
    before it and no capitalised word after it, that gender-guesser knows as a given name:
    a person's name ("except Vida and Guy and herself"), not the word ("the King", "this
    Queen", "King John" are the word and a title)."""
    tok = toks[i]
    if not (tok[:1].isupper() and tok[1:].islower()) or not tags[i].startswith("NNP") or i == 0:
        return False
    prev = toks[i - 1]
    if prev.lower() in _NAME_DETERMINERS or not (prev[:1].isalpha() or prev == ","):
        return False                    # after a determiner, or first after a stop or a quote
    if i + 1 < len(toks) and toks[i + 1][:1].isupper():
        return False
    return guess(tok)[0] != UNGENDERED


def _in_place_name(i: int, toks: list[str], tags: list[str]) -> bool:
    """A capitalised plural gendered word inside a sentence, its possessive apostrophe, then a
    capitalised word: a place's name ("a view of the Bachelors' Quarters"; read, seed 20261186:
    "the Spinsters' Quarters"), which no swap changes."""
    tok = toks[i]
    if i == 0 or not (tok[:1].isupper() and tok[1:].islower() and tok.lower().endswith("s")):
        return False
    if not (toks[i - 1][:1].isalpha() or toks[i - 1] == ","):
        return False                    # first after a stop or a quote
    j = i + 1
    if j < len(toks) and toks[j] in ("'", "’"):
        j += 1
    return j > i + 1 and j < len(toks) and toks[j][:1].isupper() and toks[j][1:2].islower()


def _salver(i: int, toks: list[str], tags: list[str]) -> bool:
    """"waiter" as the tray a thing is brought on ("brought Lady Louisa a note upon a waiter",
    "on a silver waiter"): on/upon, a determiner and adjectives before it."""
    if toks[i].lower() not in ("waiter", "waiters"):
        return False
    j = i - 1
    while j >= 0 and (tags[j].startswith("JJ") or toks[j].lower() in ("silver", "gold", "china")):
        j -= 1
    if j < 0 or toks[j].lower() not in ("a", "the", "an"):
        return False
    return j > 0 and toks[j - 1].lower() in ("on", "upon")


def fixed_phrase(word: str, next_word: str) -> bool:
    """Whether the gendered ``word`` before ``next_word`` is part of a phrase that names no
    person and stays in every variant ("mother earth", "Father Time"); the swap and the
    re-check ask the same question here."""
    return next_word.lower() in _FIXED_AFTER.get(word.lower(), ())


_NOUN_NEXT = ("NN", "JJ", "CD")
# adjectives that stand as nouns after a determiner: "has her equal", "did her utmost"
_NOUN_ADJECTIVES = {"equal", "equals", "own", "utmost", "best", "worst", "like", "all", "last", "first"}


def _before_gerund(i: int, toks: list[str], tags: list[str]) -> bool:
    """Whether token ``i`` stands before a gerund, across adverbs ("her no longer avoiding")."""
    j = i + 1
    while j < len(tags) and j <= i + 3 and (tags[j].startswith("RB") or toks[j].lower() in ("no", "not")):
        j += 1
    return j < len(tags) and tags[j] == "VBG"


_DETERMINERS = {"his", "her", "my", "your", "their", "our", "its", "the", "a", "an", "this", "that", "these", "those"}


@functools.lru_cache(maxsize=1 << 16)
def _glued_pieces(token: str) -> tuple[tuple[int, str], ...]:
    """:func:`pipeline.lang.names.glued_pieces` of ``token``, remembered (asked of every
    unlisted token of every swap)."""
    return tuple(glued_pieces(token))


def _glued_edit(i: int, toks: list[str], starts: list[int], tags: list[str], words: gw.WordList,
                in_name) -> Edit | None:
    """The edit flipping the gendered words of token ``i`` when it is several words glued by a
    dash run ("meal.--She" -> "meal.--He", :func:`pipeline.lang.names.glued_pieces`), or None.
    Pieces inside a name mention stay (the name's own edit rewrites them); a glued "her" or
    "his" is a determiner before a noun or adjective, else an object or independent. The edit spans the whole token when
    no name shares it (its index is the token's), else only the flipped pieces (index -1).
    A glued "his" before punctuation is independent ("a note of his.--Do" -> "of hers.--Do")."""
    tok, s = toks[i], starts[i]
    pieces = _glued_pieces(tok)
    if not pieces:
        return None
    nxt_tag = tags[i + 1] if i + 1 < len(tags) else ""
    new_tok, first, last = tok, None, None
    for off, piece in reversed(pieces):
        at = s + off
        if in_name(at, at + len(piece)) or not words.is_listed(piece) or words.category_of(piece) == gw.ANIMAL:
            continue
        if _deity(piece, "", ""):
            continue
        is_last = off + len(piece) == len(tok)
        tag = ("PRP$" if nxt_tag.startswith(_NOUN_NEXT) else "PRP") if is_last else "PRP"
        new = words.flip(piece, tag if piece.lower() in ("her", "his") else None)
        if new is None or new == piece:
            continue
        new_tok = new_tok[:off] + new + new_tok[off + len(piece):]
        first = off
        last = off + len(piece) if last is None else last
    if first is None:
        return None
    if not in_name(s, s + len(tok)):
        return Edit(s, s + len(tok), new_tok, "word", tok, index=i)
    end_new = len(new_tok) - (len(tok) - last)
    return Edit(s + first, s + last, new_tok[first:end_new], "word", tok[first:last], index=-1)


# ---------------------------------------------------------------------------- variants -----

class _Shift:
    """Original offset (outside every edit) -> its offset in the edited text: ``shift(x)``, or
    ``shift.many(xs)`` for a list of offsets."""

    __slots__ = ("marks", "deltas")

    def __init__(self, marks: list[int], deltas: list[int]):
        self.marks, self.deltas = marks, deltas       # the end of each edit, the shift after it

    def __call__(self, x: int) -> int:
        k = bisect.bisect_right(self.marks, x) - 1
        return x + (self.deltas[k] if k >= 0 else 0)

    def many(self, xs: list[int]) -> list[int]:
        marks, deltas, right = self.marks, self.deltas, bisect.bisect_right
        if not marks:
            return list(xs)
        return [x + (deltas[k] if (k := right(marks, x) - 1) >= 0 else 0) for x in xs]


def _apply(text: str, edits: list[Edit]) -> tuple[str, list[tuple[int, int]], _Shift]:
    """Apply sorted, non-overlapping edits. Returns (new text, new span of each edit, shift)
    where shift maps an original offset outside every edit to its new offset."""
    out, pos, delta = [], 0, 0
    new_spans, marks, deltas = [], [], []
    for ed in edits:
        if ed.start < pos:
            raise GenerateError(f"overlapping edits at {ed.start}")
        out.append(text[pos:ed.start])
        ns = ed.start + delta
        out.append(ed.new)
        new_spans.append((ns, ns + len(ed.new)))
        delta += len(ed.new) - (ed.end - ed.start)
        pos = ed.end
        marks.append(ed.end)
        deltas.append(delta)
    out.append(text[pos:])
    return "".join(out), new_spans, _Shift(marks, deltas)


def _names_by_role(inst: dict) -> dict[str, dict]:
    return {n["role"]: n for n in inst["names"]}


class _Shared:
    """What the variants of one instance share, made once for the four (:func:`quadruple`):
    the names by role, each person's forms (:class:`PersonForms`), the shape of each name
    mention, the tokens outside the name mentions and the gendered-word edits of the two
    swaps (:func:`word_edits`, the same for both: the same text, the same names)."""

    def __init__(self, inst: dict, words: gw.WordList | None):
        self.inst, self.words = inst, words
        self.by_role = _names_by_role(inst)
        self.forms = {r: PersonForms(self.by_role[r]) for r in ROLES}
        self._shapes: dict | None = None
        self._word_edits: list[Edit] | None = None
        self._outside: tuple | None = None

    def shapes(self, slot: str) -> list[tuple[bool, str, bool]]:
        """The shape of each mention of ``slot``'s person (:func:`_shape`)."""
        if self._shapes is None:
            self._shapes = {r: [_shape(m, self.by_role[r]["name"]) for m in self.by_role[r]["mentions"]]
                            for r in ROLES}
        return self._shapes[slot]

    def word_edits(self) -> list[Edit]:
        """The swaps' gendered-word edits (a new list; the Edit objects are the same for both
        swaps: nothing changes an Edit once made)."""
        if self._word_edits is None:
            protected = [(m["start"], m["end"]) for n in self.inst["names"] for m in n["mentions"]]
            self._word_edits = word_edits(self.inst, protected, self.words)
        return list(self._word_edits)

    def outside(self) -> tuple[list[tuple[int, str, str, str, str]], list[int]]:
        """The tokens outside every name mention as (index, text, tag, dep, ent), and their
        starts in the original text."""
        if self._outside is None:
            inst = self.inst
            mention_spans = sorted((m["start"], m["end"]) for n in inst["names"] for m in n["mentions"])
            mstarts = [s for s, _ in mention_spans]
            deps = inst.get("token_deps") or [""] * len(inst["tokens"])
            ents = inst.get("token_ents") or ["O"] * len(inst["tokens"])
            tags = inst["token_tags"]
            kept, starts = [], []
            right = bisect.bisect_right
            for i, (tok, s) in enumerate(zip(inst["tokens"], inst["token_starts"])):
                k = right(mstarts, s) - 1
                if k >= 0 and mention_spans[k][0] <= s < mention_spans[k][1]:
                    continue
                kept.append((i, tok, tags[i], deps[i], ents[i]))
                starts.append(s)
            self._outside = (kept, starts)
        return self._outside


def make_variant(inst: dict, variant: str, words: gw.WordList | None = None,
                 name_forms: str = "person") -> tuple[dict, list[Edit]]:
    """One variant of an instance: an instance-shaped record for the new text (names with
    recomputed mentions, tokens, GAP fields) and the edits that made it. ``name_forms``:
    "person" (each person written in their one form) or "shape" (see :class:`PersonForms`).

    The steps: the edits (:func:`_variant_edits`), applied to the text (:func:`_apply`); the
    names with their mentions in the new text (:func:`_variant_names`); the tokens
    (:func:`_variant_tokens`); the GAP fields A and B (:func:`_gap_fields`); then the record,
    its pronoun checked (:func:`_variant_record`)."""
    if name_forms not in NAME_FORMS:
        raise GenerateError(f"unknown name form convention {name_forms!r}")
    if variant not in SOURCE_ROLE:
        raise GenerateError(f"unknown variant {variant!r}")
    return _make_variant(_Shared(inst, words), variant, name_forms)


def _make_variant(shared: _Shared, variant: str, name_forms: str) -> tuple[dict, list[Edit]]:
    """:func:`make_variant` with what the variants of the instance share made already."""
    inst, by_role = shared.inst, shared.by_role
    edits = _variant_edits(shared, variant, name_forms)
    new_text, new_spans, shift = _apply(inst["text"], edits)
    name_new, word_new = _placed_edits(edits, new_spans)
    names = _variant_names(variant, by_role, name_new, shift)
    toks_out, pron_new = _variant_tokens(shared, names, word_new, shift)
    gap = _gap_fields(inst, by_role, names)
    return _variant_record(inst, variant, new_text, names, toks_out, pron_new, gap), edits


def _variant_edits(shared: _Shared, variant: str, name_forms: str) -> list[Edit]:
    """The edits of a variant, sorted by position: every name mention rewritten as the person
    now at its slot (none for the original), and the gendered words flipped (swaps only)."""
    inst, by_role, forms = shared.inst, shared.by_role, shared.forms
    edits: list[Edit] = []
    if variant != "original":
        for slot in ROLES:
            person = forms[SOURCE_ROLE[variant][slot]]
            for k, (m, shape) in enumerate(zip(by_role[slot]["mentions"], shared.shapes(slot))):
                new, title, built = person.render(shape, name_forms)
                edits.append(Edit(m["start"], m["end"], new, "name", m["text"], slot, k, title, built))
                possessive = _bare_apostrophe(inst["text"], m, new)
                if possessive is not None:
                    edits.append(possessive)
    if FLIPS_WORDS[variant]:
        edits.extend(shared.word_edits())
    edits.sort(key=lambda e: e.start)
    return edits


def _bare_apostrophe(text: str, m: dict, new: str) -> Edit | None:
    """The edit completing a possessive written with a bare apostrophe after a name ending in
    s ("Martin Forbes' wife") when the new name does not end in s ("Cecily’s wife", not
    "Cecily’ wife"), else None."""
    end = m["end"]
    if not (end < len(text) and text[end] in "'’" and m["text"].endswith("s") and not new.endswith("s")):
        return None
    if end + 1 < len(text) and text[end + 1].isalpha():
        return None                     # "Forbes's": the apostrophe's own s follows
    return Edit(end, end + 1, text[end] + "s", "article", text[end], index=-1)


def _placed_edits(edits: list[Edit], new_spans: list[tuple[int, int]]
                  ) -> tuple[dict[tuple[str, int], tuple[int, int, str, str]], dict[int, tuple[int, str]]]:
    """Where the applied edits landed in the new text: (slot, mention index) -> (start, end,
    text, title) for the names, token index -> (start, text) for the words and articles."""
    name_new: dict[tuple[str, int], tuple[int, int, str, str]] = {}
    word_new: dict[int, tuple[int, str]] = {}
    for ed, (s, e) in zip(edits, new_spans):
        if ed.kind == "name":
            name_new[(ed.role, ed.index)] = (s, e, ed.new, ed.title)
        elif ed.index >= 0:                 # -1: glued pieces of a token a name rewrites
            word_new[ed.index] = (s, ed.new)
    return name_new, word_new


def _variant_names(variant: str, by_role: dict[str, dict], name_new: dict, shift) -> list[dict]:
    """The variant's ``names``: per slot, the person placed there (:data:`SOURCE_ROLE`) with the
    slot's mentions at their offsets in the new text (rewritten, or shifted unchanged)."""
    names = []
    for slot in ROLES:
        src = by_role[SOURCE_ROLE[variant][slot]]
        mentions = []
        for k, m in enumerate(by_role[slot]["mentions"]):
            if (slot, k) in name_new:
                s, e, t, title = name_new[(slot, k)]
            else:
                s, e, t, title = shift(m["start"]), shift(m["start"]) + len(m["text"]), m["text"], m.get("title") or ""
            mentions.append({"start": s, "end": e, "text": t, "title": title})
        names.append({"role": slot, "name": src["name"], "gender": src["gender"], "mentions": mentions})
    return names


_WORD = re.compile(r"\S+")


def _variant_tokens(shared: _Shared, names: list[dict], word_new: dict[int, tuple[int, str]], shift: _Shift
                    ) -> tuple[list[tuple[int, str, str, str, str]], tuple[int, str] | None]:
    """The variant's tokens as (start, text, tag, dep, ent), sorted by start: name mentions
    become whitespace tokens tagged NNP, other tokens keep their tags (flipped words their new
    text); and the pronoun's (start, text) in the new text."""
    kept, starts = shared.outside()
    toks_out: list[tuple[int, str, str, str, str]] = []
    pron_new = None
    pronoun_token = shared.inst["pronoun_token"] if kept else None
    for (i, tok, tag, dep, ent), ns in zip(kept, shift.many(starts)):
        nt = tok
        if i in word_new:
            ns, nt = word_new[i]
        toks_out.append((ns, nt, tag, dep, ent))
        if i == pronoun_token:
            pron_new = (ns, nt)
    for n in names:
        for m in n["mentions"]:
            for j, mt in enumerate(_WORD.finditer(m["text"])):
                toks_out.append((m["start"] + mt.start(), mt.group(), "NNP", "compound",
                                 ("B-PERSON" if j == 0 else "I-PERSON")))
    toks_out.sort(key=lambda t: t[0])
    return toks_out, pron_new


def _gap_fields(inst: dict, by_role: dict[str, dict], names: list[dict]) -> dict:
    """A and B in the variant: the mentions now at the original A and B positions."""
    new_by_role = {n["role"]: n for n in names}

    def field_of(x: str) -> tuple[str, int]:
        role, off = inst[f"{x}_name"], inst[f"{x}_offset"]
        k = next(k for k, m in enumerate(by_role[role]["mentions"]) if m["start"] == off)
        m = new_by_role[role]["mentions"][k]
        return m["text"], m["start"]

    a, a_off = field_of("a")
    b, b_off = field_of("b")
    return {"a": a, "a_offset": a_off, "b": b, "b_offset": b_off}


def _variant_record(inst: dict, variant: str, new_text: str, names: list[dict],
                    toks_out: list[tuple[int, str, str, str, str]], pron_new: tuple[int, str] | None,
                    gap: dict) -> dict:
    """The instance-shaped record of the variant (the instance's other fields kept, its parse
    heads and sentence bounds dropped); a swap whose pronoun did not flip to the opposite
    gender is a :class:`GenerateError`."""
    tok_index = {t[0]: k for k, t in enumerate(toks_out)}
    g0 = inst["pronoun_gender"]
    g = opposite(g0) if FLIPS_WORDS[variant] else g0
    rec = {k: v for k, v in inst.items() if k not in ("token_heads", "sentence_starts", "sentence_ends")}
    rec.update(
        text=new_text,
        tokens=[t[1] for t in toks_out], token_starts=[t[0] for t in toks_out],
        token_tags=[t[2] for t in toks_out], token_deps=[t[3] for t in toks_out],
        token_ents=[t[4] for t in toks_out],
        pronoun=pron_new[1], pronoun_offset=pron_new[0], pronoun_token=tok_index[pron_new[0]],
        pronoun_gender=g, names=names, **gap,
    )
    if variant != "original" and FLIPS_WORDS[variant] and PRONOUNS.get(rec["pronoun"].lower(), (None,))[0] != g:
        raise GenerateError(f"pronoun {inst['pronoun']!r} flipped to {rec['pronoun']!r}, not {g}")
    return rec


def gutenberg_url(book_id: str) -> str:
    """The Gutenberg page of a book whose id (the corpus-relative path) ends in an ebook number."""
    number = str(book_id).rsplit("/", 1)[-1]
    return f"https://www.gutenberg.org/ebooks/{number}" if number.isdigit() else ""


def quadruple(inst: dict, quadruple_id: str, source: str = "extract", url: str | None = None,
              a_coref: bool | None = None, b_coref: bool | None = None,
              words: gw.WordList | None = None,
              name_forms: str = "person") -> tuple[list[dict], dict[str, list[Edit]]]:
    """The four QUADRUPLES rows of an instance (original, control, swap-1, swap-2) and the
    edits of each variant. Gold labels (``a_coref``/``b_coref``) apply to all four. Every row's
    offsets are checked (:func:`check_offsets`): a :class:`GenerateError` rather than a row
    whose pronoun, A, B or a mention is not where it says."""
    if name_forms not in NAME_FORMS:
        raise GenerateError(f"unknown name form convention {name_forms!r}")
    rows, all_edits = [], {}
    shared = _Shared(inst, words)
    for v in VARIANTS:
        rec, edits = _make_variant(shared, v, name_forms)
        all_edits[v] = edits
        row = QuadrupleRow(
            id=quadruple_id + ID_SUFFIX[v], quadruple_id=quadruple_id, variant=v,
            instance_id=inst.get("instance_id") or "",
            pronoun_gender=rec["pronoun_gender"], original_gender=inst["pronoun_gender"],
            pattern=inst.get("pattern") or "", book_id=inst.get("book_id") or "",
            book=inst.get("title") or "", text=rec["text"],
            pronoun=rec["pronoun"], pronoun_offset=rec["pronoun_offset"],
            a=rec["a"], a_offset=rec["a_offset"], b=rec["b"], b_offset=rec["b_offset"],
            a_coref=a_coref, b_coref=b_coref, names=rec["names"], source=source,
            url=gutenberg_url(inst.get("book_id") or "") if url is None else url,
        ).as_dict()
        check_offsets(row)        # a guard on what is written: never a row whose offsets miss
        rows.append(row)
    return rows, all_edits


def check_offsets(row: dict) -> None:
    """Raise :class:`GenerateError` unless the GAP fields and name mentions of a generated row
    point into its text (a guard before anything is written; never an ``assert``)."""
    t = row["text"]
    for x in ("pronoun", "a", "b"):
        off = row[f"{x}_offset"]
        if t[off:off + len(row[x])] != row[x]:
            raise GenerateError(f"{row['id']}: {x} offset {off} does not point at {row[x]!r}")
    for n in row["names"]:
        for m in n["mentions"]:
            if t[m["start"]:m["end"]] != m["text"]:
                raise GenerateError(f"{row['id']}: mention {m['text']!r} of {n['role']} is not at "
                                    f"{m['start']}:{m['end']}")
