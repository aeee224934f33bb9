"""What a whole book says about its people's names: the alias table of one book.

A window alone cannot tell that "Lucilla" and "Miss Marjoribanks" are one woman, that "Jos" is
"Mr. Joseph", or that "Mr. Shaw" is Tom Shaw's father and not Tom. The book can:
:func:`book_aliases` reads the whole text once, with regular expressions only (no model, so
the prune and full strategies of extract see the same table), and gathers:

* **full names**: runs of capitalised words whose first word is a given name and whose last is
  a surname ("Lucilla Marjoribanks", "Captain William Dobbin", "Stepan Arkadyevitch Oblonsky";
  a title before the run is kept: "Mr. George Osborne"), counted per (given name, surname);
* **titled single names**: "Mr. Joseph", "Mrs. Jo", "Miss Marjoribanks", counted per title;
* **other generations**: "old Mr. Osborne", "the elder Mr. Shaw", "old Osborne" (a parent of
  the family, under that title);
* **coordinated names**: "Tom and Thomas" (two people, whatever a nickname list says);
* **names in brackets**: "Mrs. Jo (Mrs. Bhaer)", "Miss Schlegel (Margaret)", or said in words
  ("Sister Martha, otherwise Mrs. Cranch"): the two are one person's, a given name and a surname.

:class:`BookAliases` answers, for :func:`pipeline.lang.names.group_persons`:

* :meth:`BookAliases.surname_of`: the surname the book gives a given name (two thirds of its
  full names at least);
* :meth:`BookAliases.is_given`: whether the book writes a word as a given name (first in full
  names) rather than as a surname;
* :meth:`BookAliases.one_person_names`: two given names that are one person's: a pet form of
  the hand-written table (:data:`pipeline.lang.names.PET_FORMS`), or of the public nickname list
  confirmed by the book (both written with one surname), never two names the book gives two
  surnames or coordinates;
* :meth:`BookAliases.titled_surname`: whether a titled surname ("Miss Marjoribanks", "Mr.
  Shaw") is the person with a given name: see the rule in ``docs/persons.md``, "Aliases".

May import: :mod:`pipeline.lang.names`, :mod:`pipeline.lang.gendered_words`,
:mod:`pipeline.lang.places`, :mod:`pipeline.lang.pronouns`, the standard library.
"""

from __future__ import annotations

import functools
import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.lang.names import (AMBIGUOUS, APART, JOIN, MARRIED_TITLES, MISS_TITLES, NAME_LOWER, NAME_UPPER, NAME_WORD, PET_FORMS, at_word_start, _patronymic,
                                  any_title, derived_pet_form, given_like, guess, one_given_name, pet_like,
                                  public_nicknames, title_case, title_gender)
from pipeline.lang.gendered_words import gender_of
from pipeline.lang.places import known_place
from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED

# sentences that name a titled surname and a bare given name together, from which they are two
# people ("Mr. Laurence" and Laurie, his grandson)
TOGETHER_MIN = 3
SURNAME_SHARE = 2 / 3       # of a given name's full names, with one surname: the name's surname
NEVER_TOGETHER_MIN = 20     # titled uses of a wife's surname, and ...
NEVER_TOGETHER_FULL = 10    # ... full names of her given name, never in one sentence: one woman
WIFE_SHARE = 0.25          # of a given name's full names, with a surname a married woman bears: perhaps hers;
WIFE_MIN = 2                # ... or this many of her names' full names (her pet forms' too)
SURNAME_OF_MIN = 5          # a word written as one person's surname this often ...
GIVEN_OF_MIN = 2            # ... and before another surname this often: two persons' name
# titles of rank written before a given name alone ("Lady Bridget", "Sir Percy"): one such title
# before two names of the public nickname list makes them one person's; kin and family titles
# do not ("Sister Daisy" and "Aunt Meg", "Sister Meg" are a daughter and her mother)
RANK_BEFORE_GIVEN = frozenset({"lady", "lord", "sir", "dame", "prince", "princess"})
FULL_NAME_MIN = 2           # full names that tie a given name to a surname for a titled surname's doubt
LOWER_SHARE = 0.05          # a word the book writes in lower case this often (of its capitalised uses) is no name
UNKNOWN_GIVEN_MIN = 2       # full names that make a word no name list knows a given name
_UP, _LO = NAME_UPPER, NAME_LOWER        # accented names too ("Nicholas Rostóv"), as the book's evidence
_WORD = NAME_WORD
_SEP = r"(?:[ \t]+|[ \t]*\r?\n[ \t]*)"
# a run of two capitalised words or more, a title with its period allowed at its start ("Mr.
# George Osborne")
_RUN = re.compile(at_word_start(rf"\b([{_UP}][{_LO}]*)(\.?)((?:{_SEP}{_WORD})+)"))
_GENERATION = re.compile(rf"\b(?:[Oo]ld|elder|[Ll]ate|[Yy]ounger|[Ss]enior){_SEP}(?:([{_UP}][{_LO}]*)\.?{_SEP})?({_WORD})")
_AND = re.compile(at_word_start(rf"\b({_WORD}){_SEP}and{_SEP}({_WORD})\b"))
_BRACKETS = re.compile(rf"({_WORD}){_SEP}?\((?:([{_UP}][{_LO}]*)\.?{_SEP})?({_WORD})\)")
# the same said in words: "Sister Martha, otherwise Mrs. Cranch", "Jim, alias Mr. Crocker"
_OTHERWISE = re.compile(rf"({_WORD}),{_SEP}(?:otherwise|alias|or rather|better known as|also called){_SEP}"
                        rf"(?:([{_UP}][{_LO}]*)\.?{_SEP})?({_WORD})\b(?!{_SEP}{_WORD})")
_TITLE_BEFORE = re.compile(rf"\b([{_UP}][{_LO}]*)\.?{_SEP}$")
# titles of the head of a family or his wife: "Mr. Shaw" beside "Tom Shaw" may be his father
FAMILY_TITLES = frozenset({"mr", "mrs", "mister", "madam", "madame", "mme", "m", "monsieur", "herr", "frau",
                           "signor", "signora", "señor", "senor", "señora", "senora", "sir", "lady", "lord", "ms"})


# the titles of a married woman: her husband's surname, which a daughter bears too
WIFE_TITLES = frozenset({"mrs", "lady", "madame", "mme", "frau", "signora", "señora", "senora"})


# titles of rank a family's plain title never stands for: "Sir Walter Elliot" is never "Mr Elliot",
# "Lady Russell" never "Mrs. Russell"
NOBLE_TITLES = frozenset({"sir", "lady", "lord"})
# a married man's titles before his surname alone (not a peer's: "Sir Pitt" and his son "Pitt
# Crawley"), and a son's
HUSBAND_TITLES = frozenset({"mr", "mister", "m", "monsieur", "herr", "signor", "señor", "senor"})
MASTER_TITLES = frozenset({"master"})


def _kind(title: str) -> str:
    """A title's kind: a family's plain title (Mr., Mrs., Madame), a title of rank (Sir, Lady,
    Lord), or an office or military rank (Captain, Major, Dr)."""
    return "noble" if title in NOBLE_TITLES else "family" if title in FAMILY_TITLES else "office"


def _plain(title: str) -> str:
    return title.rstrip(".").lower()


@functools.lru_cache(maxsize=50_000)
def _title(word: str | None) -> str:
    """The plain title ("mr") if ``word`` is one (gendered or not), else ""."""
    return _plain(word) if word and any_title(word) else ""


_given_like = functools.lru_cache(maxsize=50_000)(given_like)


def name_gender_of(given: str) -> str:
    """A given name's gender (lower case in): gender-guesser's, else that of the names a
    nickname list says it stands for, when they agree ("jos": joseph)."""
    g = guess(title_case(given.title()))[0]
    if g != UNGENDERED:
        return g
    formals = PET_FORMS.get(given, frozenset())
    gs = {guess(f.title())[0] for f in formals} - {UNGENDERED}
    return gs.pop() if len(gs) == 1 else UNGENDERED


ANSWERS = "_answers"         # the attribute holding a table's remembered answers (not a field: never stored)


def _remembered(method):
    """A :class:`BookAliases` question answered once per arguments: the answers live in the
    table's ``__dict__`` (no field, so never stored) and :meth:`BookAliases.index` forgets
    them (answers of the table before it was indexed)."""
    @functools.wraps(method)
    def ask(self, *args):
        answers = self.__dict__.setdefault(ANSWERS, {})
        key = (method.__name__, args)
        if key not in answers:
            answers[key] = method(self, *args)
        return answers[key]
    return ask


@dataclass
class BookAliases:
    """The alias table of one book (see the module docstring). Keys are lower case."""

    full: Counter = field(default_factory=Counter)          # (given, surname) -> full names written
    full_gender: dict = field(default_factory=dict)         # (given, surname) -> set of title genders
    first: Counter = field(default_factory=Counter)         # word -> written first in a full name
    last: Counter = field(default_factory=Counter)          # word -> written last in a full name
    titled: dict = field(default_factory=dict)              # word -> Counter of plain titles before it alone
    titled_given: dict = field(default_factory=dict)        # given -> Counter of plain titles before it (full names too)
    titled_full: dict = field(default_factory=dict)         # (given, surname) -> Counter of plain titles before the full name
    elder: Counter = field(default_factory=Counter)         # (plain title or "", surname) -> "old Mr. Osborne"
    coordinated: set = field(default_factory=set)           # frozenset({a, b}): "Tom and Thomas"
    together: Counter = field(default_factory=Counter)      # (plain title, surname, given) -> sentences naming both
    by_given: dict = field(default_factory=dict)            # given -> Counter of surnames (:meth:`index`)
    by_surname: dict = field(default_factory=dict)          # surname -> [given, ...], most written first
    married: dict = field(default_factory=dict)             # married surname -> given name ("casaubon": "dorothea")
    written_last: Counter = field(default_factory=Counter)  # word -> written last in a full name, before index() keeps some

    def index(self) -> BookAliases:
        """Keep the full names whose last word the book titles somewhere ("Mr. Dobbin") or
        writes after two given names, and is no given name unless titled ("Mary Ann", "Amelia
        Regiment" go); then index them by given name and surname."""
        surnames = {w for w in self.titled} | {s for (g, s) in self.full_gender}
        givens = Counter(s for (g, s) in self.full)
        for (g, s) in list(self.full):
            if s not in surnames and (_given_like(s) or givens[s] < 2):
                self.last[s] -= self.full[(g, s)]
                self.first[g] -= self.full[(g, s)]
                del self.full[(g, s)]
        self.by_given, self.by_surname = {}, {}
        self.__dict__.pop(ANSWERS, None)        # answers of the table before it was indexed
        for (g, s), k in self.full.most_common():
            self.by_given.setdefault(g, Counter())[s] += k
            self.by_surname.setdefault(s, []).append(g)
        return self

    # ------------------------------------------------------------------ answers ----------

    @_remembered
    def surname_of(self, given: str) -> str | None:
        """The surname the book writes after ``given`` (lower case) in at least two thirds of
        its full names, or None."""
        found = self.by_given.get(given)
        if not found:
            return None
        s, k = found.most_common(1)[0]
        return s if k >= SURNAME_SHARE * sum(found.values()) else None

    @_remembered
    def wife_surnames(self, given: str) -> frozenset[str]:
        """The surnames the book writes after ``given`` (lower case) that it also writes after a
        married woman's title ("Mrs. Waule"): a woman's names before and after her marriage
        ("Jane Featherstone" twice and "Jane Waule" once in *Middlemarch*, whose "Mrs. Waule"
        is Jane; read, seed 20261169), though :meth:`surname_of` gives only the first; in at
        least ``WIFE_SHARE`` of its full names ("Jane Bates" once against "Jane Fairfax" 40
        times in *Emma* is her mother), or in ``WIFE_MIN`` full names of the name and its pet
        forms or formal name ("Rebecca Crawley" 4 times: Becky, whom the book calls "Becky Sharp"
        and "Rebecca Sharp" 26 times, may be the "Mrs. Crawley" beside her)."""
        found = self.by_given.get(given, Counter())
        if name_gender_of(given) == MASCULINE:
            return frozenset()              # "John Waule" is her husband or her son
        n = sum(found.values())
        # her other names' full names too ("Rebecca Crawley" 4 times for Becky, "Becky Sharp"
        # and "Rebecca Sharp" 26: *Vanity Fair*'s "Mrs. Crawley" may be Becky; read, seed 20261175)
        merged = Counter()
        for other, surnames in self.by_given.items():
            if other == given or self.one_person_names(other, given):
                merged.update(surnames)
        return frozenset(y for y, k in merged.items() if ((n and found[y] >= WIFE_SHARE * n) or k >= WIFE_MIN)
                         and any(t in MARRIED_TITLES for t in self.titled.get(y, ())))

    @_remembered
    def pet_surname(self, pet: str) -> tuple[str, str] | None:
        """(formal given name, surname) of a pet form the book never writes with a surname of
        its own, through the one formal name of the hand-written pet-form table the book does
        write in full names ("Frank" -> "Francis Troy"; docs/persons.md, "Aliases"); None when
        no formal name or several fit, when the pet form is itself a given name written in full
        names, or when the book names the pet form and that surname, titled, together in
        ``TOGETHER_MIN`` sentences (two people)."""
        if self.first[pet] or self.last[pet] or pet in self.by_given:
            return None
        found = {(g, s) for g in self.by_given if g != pet and one_given_name(pet, g)
                 for s in [self.surname_of(g)] if s}
        if len(found) != 1:
            return None
        g, s = found.pop()
        if any(k >= TOGETHER_MIN for (t, sur, giv), k in self.together.items() if sur == s and giv == pet):
            return None
        return g, s

    def is_given(self, word: str) -> bool | None:
        """True when the book writes ``word`` first in full names more often than last, False
        when last more often (a surname: "Bell"), None when it never writes it in a full name."""
        a, b = self.first[word], self.last[word]
        if not a and not b:
            return None
        return a > b

    def shared_given(self, given: str) -> bool:
        """The book writes ``given`` (lower case) with two surnames or more, each in at least
        ``GIVEN_OF_MIN`` full names: two people share it ("George Amberson" 31 times, "George
        Minafer" 22), so a pet form of it may be either. Not a woman's name: her maiden and
        married surnames are one woman's ("Rebecca Sharp", "Rebecca Crawley"; "Becky" is both)."""
        if name_gender_of(given) == FEMININE:
            return False
        return sum(1 for k in self.by_given.get(given, Counter()).values() if k >= GIVEN_OF_MIN) >= 2

    def distinct(self, a: str, b: str) -> bool:
        """The book shows two given names to be two people: two surnames, or "a and b"."""
        sa, sb = self.surname_of(a), self.surname_of(b)
        return bool(sa and sb and sa != sb) or frozenset((a, b)) in self.coordinated

    @_remembered
    def two_persons_name(self, word: str) -> bool:
        """``word`` (lower case), no known given name, is one person's surname and another's
        given name: the book writes it after a given name in at least ``SURNAME_OF_MIN`` full names of one person
        ("Betsey Trotwood"), titles it alone with a family's title ("Miss Trotwood"), and writes
        it before another surname in at least ``GIVEN_OF_MIN`` full names ("Trotwood Copperfield":
        David, renamed by his aunt). Not a known given name ("Linton": *Wuthering Heights*'
        "Edgar Linton" and "Linton Heathcliff" stay as the name lists and the book's votes say).
        Alone, the word may be either (read, seed 20261175: "'I don't think, Trotwood,' returned
        Agnes" was Miss Trotwood, a woman)."""
        if word not in self.by_surname or word not in self.titled or _given_like(word.title()):
            return False            # (a known given name titled is hers: "Miss Helen")
        if not any(t in FAMILY_TITLES or t in MISS_TITLES for t in self.titled[word]):
            return False
        if max((k for s, k in self.by_given.get(word, Counter()).items() if s != word), default=0) < GIVEN_OF_MIN:
            return False
        return max((self.full[(g, word)] for g in self.by_surname[word] if g != word), default=0) >= SURNAME_OF_MIN

    @_remembered
    def one_person_names(self, a: str, b: str) -> bool:
        """Two different given names (lower case) of one person in this book: a pet form of the
        hand-written table, or of the public list when the book writes both with one surname
        ("Jos Sedley", "Joseph Sedley") or both after one title of rank
        (:data:`RANK_BEFORE_GIVEN`), one of them never with a surname ("Lady Bridget O'Hara",
        "Lady Biddy"); never when the book shows two people (:meth:`distinct`)."""
        if a == b or self.distinct(a, b):
            return False
        if one_given_name(a, b):
            return True
        if public_nicknames(a, b) and set(self.titled_given.get(a, ())) & set(self.titled_given.get(b, ())) & RANK_BEFORE_GIVEN \
                and not (self.surname_of(a) and self.surname_of(b)):
            return True                 # "Lady Bridget O'Hara" and "Lady Biddy": one title before both
            #                             given names (read, seed 20261184)
        sa = self.surname_of(a)
        if not (sa and sa == self.surname_of(b)):
            return False
        if public_nicknames(a, b):
            return True
        ga, gb = name_gender_of(a), name_gender_of(b)
        return derived_pet_form(a, b) and (UNGENDERED in (ga, gb) or ga == gb)

    def given_names(self, surname: str, gender: str) -> set[str]:
        """The given names the book writes with ``surname`` whose gender is ``gender`` (or
        unknown), pet forms of one name counted once (the first of them kept)."""
        out: list[str] = []
        for g in self.by_surname.get(surname, ()):
            s = surname
            own = name_gender_of(g)         # "Mrs. John Marjoribanks" is John's wife: his name is his
            genders = {own} if own != UNGENDERED else (self.full_gender.get((g, s)) or {UNGENDERED})
            if gender not in genders and UNGENDERED not in genders:
                continue
            if not any(x == g or self.one_person_names(x, g) for x in out):
                out.append(g)
        return set(out)

    def titled_surname(self, title: str, surname: str, given: str, gender: str) -> str:
        """Whether the titled surname ``title surname`` is the person whose given name is
        ``given`` (all but ``title`` lower case): :data:`~pipeline.lang.names.JOIN`,
        :data:`~pipeline.lang.names.APART` or :data:`~pipeline.lang.names.AMBIGUOUS`.

        * A title of the unmarried ("Miss", "Master"): the person, when ``given`` is the only
          given name of that gender the book writes with the surname ("Lucilla" is "Miss
          Marjoribanks"); ambiguous when there are others ("Elizabeth" beside "Miss Bennet":
          perhaps Jane).
        * Any other title ("Mr.", "Mrs.", "Dr", "Major"): the person only when the book writes
          that title before the full name (the given name or a pet form of it, and the
          surname: "Mrs. Amelia" says nothing of "Mrs. Sedley", her mother), or another of its kind (a family's title: "Madame"
          for "Mrs."; a rank or office: "Captain" for "Major") of that gender or none ("Captain William Dobbin", "Mrs.
          Jo", "Mr. George Osborne"); else another person, the head of the family or his wife
          ("Mr. Shaw" beside "Tom Shaw", "Dr Marjoribanks" beside "Tom Marjoribanks"), unless it
          writes the title before the given name alone ("Mrs. Amelia"): then ambiguous. When it
          does, ambiguous if the book has another given name of that gender with the surname, or
          writes the titled surname after a word of another generation ("old Mr. Osborne"; "old
          Osborne" for the family's titles).
        """
        t = _plain(title)
        if t in MARRIED_TITLES and gender == FEMININE and self.married.get(surname) == given:
            return JOIN             # "Mrs. Casaubon" is Dorothea, Miss Brooke that was (:func:`married_names`)
        if self.together[(t, surname, given)] >= TOGETHER_MIN:
            return APART            # "Mr. Laurence came in with Laurie": named together, two people
        others = {g for g in self.given_names(surname, gender) if g != given and not self.one_person_names(g, given)}
        if t in MISS_TITLES:
            return AMBIGUOUS if others else JOIN
        def of_its_kind(written: Counter) -> bool:
            return t in written or any(_kind(x) == _kind(t) and x not in MISS_TITLES
                                       and title_gender(x.title()) in (gender, None) for x in written)

        written, alone = Counter(), Counter()
        for g in {given, *self.by_surname.get(surname, ())}:
            if g == given or self.one_person_names(g, given):
                written.update(self.titled_full.get((g, surname), Counter()))
                alone.update(self.titled_given.get(g, Counter()))
        if not of_its_kind(written):
            # "Mrs. Amelia" (the servants' name for her, married): "Mrs. Sedley" may be her
            if of_its_kind(alone):
                return AMBIGUOUS
            # "Mrs Verloc" beside "Winnie Verloc", the only woman the book names Verloc and no
            # "Miss Verloc": his wife (Winnie) or his mother; a mother and her daughter ("Mrs.
            # Thatcher", "Becky Thatcher") are written the same way
            if t in WIFE_TITLES and gender == FEMININE and not others and not self._miss_of(surname):
                return JOIN if self._never_together(t, surname, given) else AMBIGUOUS
            # a woman's given name the book writes with two surnames, one of them this one
            # ("Catherine Earnshaw" 9 times, "Catherine Linton" 13 in *Wuthering Heights*): her
            # maiden and married names, so "Mrs. Linton" may be her (read, seed 20261184), or
            # her daughter's
            if t in WIFE_TITLES and gender == FEMININE and self.by_given.get(given, Counter())[surname] >= FULL_NAME_MIN \
                    and sum(1 for k in self.by_given[given].values() if k >= FULL_NAME_MIN) >= 2:
                return AMBIGUOUS
            # "Mr. Kronborg" (59 times) and "Peter Kronborg" (11), the only man the book names
            # Kronborg, never in one sentence: one man (*The Song of the Lark*, read of seed
            # 20261175); a father and his son are named together ("Mr. Shaw" and "Tom")
            if t in HUSBAND_TITLES and gender == MASCULINE and not others and not self.elder[(t, surname)] \
                    and not self._miss_of(surname, MASTER_TITLES) and self._never_together(t, surname, given):
                return JOIN
            # ... and when they are too rare to tell and never named together: perhaps one man
            # ("Walter", 3 times "Walter Hargrave", and "Mr. Hargrave" in *The Tenant of Wildfell
            # Hall*; read, seed 20261184), perhaps his father or another man of the name; not when
            # the book titles his full name otherwise ("Sir Walter Elliot" is no "Mr Elliot")
            if t in HUSBAND_TITLES and gender == MASCULINE and not self.elder[(t, surname)] and not written \
                    and not self._miss_of(surname, MASTER_TITLES) and self.together[(t, surname, given)] == 0 \
                    and self.by_given.get(given, Counter())[surname] >= FULL_NAME_MIN:
                return AMBIGUOUS
            return APART
        # another given name is a rival only when the book never gives it titles of another kind
        # only: "Sir Walter Elliot" cannot be the "Mr Elliot" that "Mr William Elliot" is
        rivals = {g for g in others
                  if not (self.titled_full.get((g, surname)) and not of_its_kind(self.titled_full[(g, surname)]))}
        if rivals or self.elder[(t, surname)] or (t in FAMILY_TITLES and self.elder[("", surname)]):
            return AMBIGUOUS
        return JOIN

    def _never_together(self, title: str, surname: str, given: str) -> bool:
        """The titled surname and the given name are both frequent (``NEVER_TOGETHER_MIN`` titled
        uses, ``NEVER_TOGETHER_FULL`` full names) and never named in one sentence: one woman
        under two names (*The Scarlet Pimpernel*'s "Lady Blakeney" 58 times and "Marguerite
        Blakeney" 27, never together: she is Sir Percy's wife). A mother and her daughter are
        named together ("Mrs. Thatcher" and "Becky", twice in *Tom Sawyer*)."""
        return (self.together[(title, surname, given)] == 0
                and self.titled.get(surname, Counter())[title] >= NEVER_TOGETHER_MIN
                and self.by_given.get(given, Counter())[surname] >= NEVER_TOGETHER_FULL)

    def _miss_of(self, surname: str, titles: frozenset[str] = MISS_TITLES) -> bool:
        """The book writes "Miss" (or another unmarried title; or one of ``titles``: "Master"
        for a son) before the surname, alone or in a full name ("Miss Bennet", "Miss Amelia
        Sedley"): a daughter (a son) of the family."""
        if any(x in titles for x in self.titled.get(surname, ())):
            return True
        return any(x in titles for g in self.by_surname.get(surname, ())
                   for x in self.titled_full.get((g, surname), ()))

    def bare_surname(self, surname: str, given: str, gender: str) -> str:
        """Whether a bare surname ("Osborne", no title) beside a person whose given name the book
        ties to it ("George") is that person: :data:`~pipeline.lang.names.JOIN` when every title
        the book writes before the surname alone, of that gender or none, would be the person
        (:meth:`titled_surname`) and no other generation is written ("old Osborne"); else
        :data:`~pipeline.lang.names.AMBIGUOUS` (the family's head may be meant: "Shaw" beside
        "Tom" when "Mr. Shaw" is his father)."""
        if self.elder[("", surname)]:
            return AMBIGUOUS
        for t in self.titled.get(surname, Counter()):
            if title_gender(t.title()) in (gender, None) and self.titled_surname(t, surname, given, gender) != JOIN:
                return AMBIGUOUS
        return JOIN


def _full(aliases: BookAliases, title: str, words: list[str], initial: bool = False, lower: Counter | None = None,
          given: bool = False) -> None:
    """Count one full name (``words``: a run without its title, given name first; ``initial``:
    the run starts a sentence, where a word the book also writes in lower case is no name:
    "Even Dobbin", "Young Osborne"; ``given``: the book shows the first word to be a given name,
    whatever the name lists say)."""
    if title and len(words) == 1:       # "Mr. Shaw", "Mr. Joseph"
        w = words[0].lower()
        aliases.titled.setdefault(w, Counter())[title] += 1
        if _given_like(words[0]):
            aliases.titled_given.setdefault(w, Counter())[title] += 1
        return
    while words and not given and (not (_given_like(words[0]) or (len(words) > 1 and pet_like(words[0])))
                     or (initial and not title and lower is not None and lower[words[0].lower()])):
        words = words[1:]               # "Poor Amelia Sedley", "Dear Lucilla"
        initial = False
    if len(words) < 2:
        return
    given, surname = words[0], words[-1]
    if _patronymic(surname) or _title(surname) or surname.isupper():
        return
    g, s = given.lower(), surname.lower()
    aliases.written_last[s] += 1
    aliases.full[(g, s)] += 1
    aliases.first[g] += 1
    aliases.last[s] += 1
    if title:
        aliases.titled_given.setdefault(g, Counter())[title] += 1
        aliases.titled_full.setdefault((g, s), Counter())[title] += 1
        tg = title_gender(title.title())
        if tg in (MASCULINE, FEMININE):
            aliases.full_gender.setdefault((g, s), set()).add(tg)


_LOWER_WORD = re.compile(at_word_start(rf"\b[{_LO}]+\b"))
_SENTENCE_END = re.compile(r"(?:^|[.!?:;\"“”‘’_(\[—-])\s*$")


MAIDEN_MIN = 15             # "Miss S" written at least this often (the book establishes her maiden name)
MAIDEN_STOP = 0.9           # the point where "Miss S" stops: where this share of them is written
GIVEN_MIN = 10              # her given name written at least this often ...
GIVEN_AFTER_SHARE = 0.5     # ... at least this share of it after that point
MARRIED_MIN = 3             # "Mrs. Y" written at least this often ...
MARRIED_LEAD = 0.02         # ... first no earlier than this share of the book before that point
COURTSHIP_MIN = 3           # sentences naming her given name and Y before that point: at least this many,
COURTSHIP_LEAD = 2          # ... and this many times those of any other such Y
# a sentence's end: . ! ? (not after a short title) before a space
# (the look-backs after the first mark, which they include: re skips ahead to a leading class)
_SENTENCE_ENDS = re.compile(r"[.!?](?<!\bMr.)(?<!\bMrs.)(?<!\bDr.)(?<!\bSt.)(?<!\bMme.)[.!?]*(?=\s)")


def married_names(aliases: BookAliases, text: str, miss_at: dict, mrs_at: dict) -> dict:
    """Married surname -> given name (lower case), read from the whole book: a woman whom the
    book calls "Miss S" (her given name written with that surname: "Dorothea Brooke") until a
    point (where ``MAIDEN_STOP`` of the "Miss S" are written) and by her given name on after it
    (at least ``GIVEN_AFTER_SHARE`` of its uses), and the surname Y of a man ("Mr. Y") whose
    "Mrs. Y" the book first writes at that point or after it and whom the sentences before it
    name beside her given name far more often than any other such surname (her courtship):
    "Miss Brooke" / Dorothea / Mr. Casaubon -> "Mrs. Casaubon"; "Miss Lucas" / Charlotte / Mr.
    Collins -> "Mrs. Collins"; "Miss Vincy" / Rosamond / Lydgate -> "Mrs. Lydgate"; "Miss
    Sedley" / Amelia / Osborne -> "Mrs. Osborne". Not Emma ("Miss Woodhouse" goes on to the
    end), not Mrs. Elton beside her ("Mrs. Elton" first written while "Miss Woodhouse" goes on).
    A surname two women would take goes to the one whose courtship names him at least
    ``COURTSHIP_LEAD`` times as often as the other's, else to neither (two names of one woman,
    "Amelia" and "Emmy", are one). ``miss_at`` / ``mrs_at``: surname ->
    positions in ``text`` of "Miss S" / "Mrs. Y" (and the other titles of their kinds)."""
    found: dict[str, dict] = {}         # Y -> {given name: sentences of her courtship}
    for given in sorted(aliases.by_given):
        maiden = aliases.surname_of(given)
        misses = miss_at.get(maiden or "", [])
        if not maiden or len(misses) < MAIDEN_MIN or name_gender_of(given) != FEMININE:
            continue
        stop = misses[int(MAIDEN_STOP * (len(misses) - 1))]
        at = [m.start() for m in re.finditer(rf"\b{re.escape(title_case(given.title()))}\b", text)]
        if len(at) < GIVEN_MIN or sum(p > stop for p in at) < GIVEN_AFTER_SHARE * len(at):
            continue
        later = [y for y, ps in sorted(mrs_at.items()) if y != maiden and len(ps) >= MARRIED_MIN
                 and ps[0] >= stop - MARRIED_LEAD * len(text) and aliases.is_given(y) is not True
                 and "mr" in aliases.titled.get(y, ())]
        if not later:
            continue
        her = re.compile(rf"\b{re.escape(title_case(given.title()))}\b")
        words = {y: re.compile(rf"\b{re.escape(title_case(y.title()))}\b") for y in later}
        together, start = Counter(), 0
        for end in _SENTENCE_ENDS.finditer(text, 0, stop):
            sentence = text[start:end.end()]
            start = end.end()
            if her.search(sentence):
                together.update(y for y, w in words.items() if w.search(sentence))
        ranked = together.most_common(2)
        if ranked and ranked[0][1] >= COURTSHIP_MIN and (len(ranked) == 1 or ranked[0][1] >= COURTSHIP_LEAD * ranked[1][1]):
            found.setdefault(ranked[0][0], {})[given] = ranked[0][1]
    married = {}
    for y, claims in found.items():
        first = max(sorted(claims), key=lambda g: sum(aliases.by_given[g].values()))
        others = [g for g in claims if g != first and not aliases.one_person_names(g, first)]
        if not others:
            married[y] = first          # "Amelia" and "Emmy", one woman's names
            continue
        # two women: the one whose courtship names him far more often (Amelia and Osborne 36
        # sentences, Rebecca and Osborne 11: read, seed 20261156), else neither
        best = max(sorted(claims), key=lambda g: claims[g])
        if all(g == best or aliases.one_person_names(g, best) or claims[best] >= COURTSHIP_LEAD * claims[g]
               for g in claims):
            married[y] = best
    return married


def book_aliases(text: str, lower: Counter | None = None) -> BookAliases:
    """The alias table of the whole book ``text`` (see the module docstring). ``lower``: the
    book's lower-case words counted, when the caller has them
    (:attr:`pipeline.lang.book_evidence.BookEvidence.lower`)."""
    if lower is None:
        lower = Counter(_LOWER_WORD.findall(text))
    aliases = BookAliases()
    unknown = []            # untitled two-word runs whose first word no name list knows
    miss_at: dict[str, list] = {}       # surname -> positions of "Miss S" (married_names)
    mrs_at: dict[str, list] = {}        # surname -> positions of "Mrs. Y"
    for m in _RUN.finditer(text):
        lead, period, rest = m.group(1), m.group(2), m.group(3)
        words = rest.split()
        title = _title(lead)
        if title and words:
            last = re.sub(r"['’]s$", "", words[-1]).lower()
            (miss_at if title in MISS_TITLES else mrs_at if title in MARRIED_TITLES else {}).setdefault(
                last, []).append(m.start())
        if not title and not period:
            words = [lead, *words]          # (a word before a period ends a sentence)
        while words and _title(words[0]):
            title = title or _plain(words[0])
            words = words[1:]
        for k, w in enumerate(words):
            if w.endswith(("'s", "’s")):        # "Jo's Boys": the possessive ends the name
                words = words[:k] + [w[:-2]]
                break
        initial = bool(_SENTENCE_END.search(text, max(0, m.start() - 3), m.start()))
        _full(aliases, title, words, initial, lower)
        if not title and len(words) == 2 and not (_given_like(words[0]) or pet_like(words[0])):
            unknown.append(tuple(words))
    counted = Counter(unknown)
    runs_of = Counter()
    for (first, _), k in counted.items():
        runs_of[first] += k
    for (first, last), k in counted.items():
        # "Bathsheba Everdene": a given name no list knows, written at least twice before a word
        # the book titles alone at least twice ("Miss Everdene"), in two thirds of the word's
        # runs ("Congressman Smith", "Congressman Todd": a title); itself no title, nor a title's plural
        # ("Misses Dashwood"), no gendered word ("Missis Gummidge"), never after "Mr."/"Mrs." (a
        # surname), no known place ("London Lydia", a line's end and the next line's start) and
        # (almost) never in lower case
        if k >= UNKNOWN_GIVEN_MIN and sum(aliases.titled.get(last.lower(), Counter()).values()) >= UNKNOWN_GIVEN_MIN \
                and k >= SURNAME_SHARE * runs_of[first] and not _title(first) \
                and not _title(re.sub(r"e?s$", "", first)) and not _patronymic(first) \
                and not {"mr", "mrs"} & set(aliases.titled.get(first.lower(), ())) \
                and not known_place(first) and gender_of(first) is None \
                and lower[first.lower()] <= LOWER_SHARE * text.count(first):
            for _ in range(k):
                _full(aliases, "", [first, last], given=True)
    for m in _GENERATION.finditer(text):
        aliases.elder[(_title(m.group(1)), m.group(2).lower())] += 1
    for m in _AND.finditer(text):
        aliases.coordinated.add(frozenset((m.group(1).lower(), m.group(2).lower())))
    for sentence in _sentences(text):
        _together(aliases, sentence)
    for m in itertools.chain(_BRACKETS.finditer(text), _OTHERWISE.finditer(text)):
        before = _TITLE_BEFORE.search(text, max(0, m.start() - 12), m.start())
        t1 = _title(before.group(1)) if before else ""
        w1, t2, w2 = m.group(1), _title(m.group(2)), m.group(3)
        g1, g2 = _given_like(w1), _given_like(w2)
        if g1 and not g2:               # "Mrs. Jo (Mrs. Bhaer)": Jo Bhaer
            _full(aliases, t1 or t2, [w1, w2])
        elif g2 and not g1:             # "Miss Schlegel (Margaret)": Margaret Schlegel
            _full(aliases, t1 or t2, [w2, w1])
    aliases.index()
    aliases.married = married_names(aliases, text, miss_at, mrs_at)
    return aliases


# a piece runs on across a line's end, not across a blank line ("Mr. Laurence went\nto ...":
# one sentence); a piece that could not cross a line's end lost every wrapped sentence's first
# lines, and every failed start cost a scan of its line (half of a book's text unread)
_PIECE = re.compile(r"(?:[^.!?\n]|\n(?![^\S\n]*\n))*(?:[.!?]+|\n\s*\n|$)")
_ABBREVIATION = re.compile(r"\b(?:Mr|Mrs|Ms|Dr|St|Mme|Mlle|Messrs)\.$")
_TITLED_ONE = re.compile(at_word_start(rf"\b([{_UP}][{_LO}]*)(\.?)\s+({_WORD})\b(?![-'’]?\s*[{_UP}])"))
_BARE = re.compile(rf"(?<![\w.])\s*\b({_WORD})\b(?!['’]s\b)(?!\s+[{_UP}])")


def _sentences(text: str):
    """The book's sentences, roughly: cut at . ! ? and paragraph breaks, not after an
    abbreviated title ("Mr. Laurence")."""
    current = ""
    for m in _PIECE.finditer(text):
        piece = m.group(0)
        if not piece:
            continue
        current += piece
        if _ABBREVIATION.search(piece.rstrip()):
            continue
        yield current
        current = ""
    if current:
        yield current


def _together(aliases: BookAliases, sentence: str) -> None:
    """Count the titled surnames ("Mr. Laurence") and the bare given names ("Laurie") one
    sentence names together: a person is seldom named both ways in one sentence."""
    titled, spans = set(), []
    pos = 0
    while (m := _TITLED_ONE.search(sentence, pos)) is not None:
        t = _title(m.group(1))
        if not t:
            pos = m.start(3)            # "Then Mr. Laurence": the word after may be the title
            continue
        pos = m.end()
        if t not in MISS_TITLES:
            titled.add((t, m.group(3).lower()))
            spans.append((m.start(), m.end()))
    if not titled:
        return
    givens = set()
    for m in _BARE.finditer(sentence):
        w = m.group(1)
        if any(a <= m.start(1) < b for a, b in spans) or _title(w) or not _given_like(w):
            continue
        givens.add(w.lower())
    for t, s in sorted(titled):          # sorted: the table is the same in every process
        for g in sorted(givens):
            if g != s:
                aliases.together[(t, s, g)] += 1


def cast_join(name: str, rows: list[dict], person_name: str, person_rows: list[dict], gender: str,
              aliases: BookAliases | None) -> bool:
    """Book-wide, for the persons' cast (:func:`pipeline.core.cast.cast_rows`): may the name form
    ``name`` (its mention records ``rows``, each with its ``title``) join the person named
    ``person_name`` (records ``person_rows``)? ``gender``: the form's, or the person's when the
    form has none. Without the book's table (``aliases`` None): when the form's words are the
    person's (the cast's rule before aliases). With it: the rules of
    :func:`pipeline.lang.names.group_persons` for a whole book, where an ambiguous name joins
    no one: a titled surname alone joins a person with a given name only as
    :meth:`BookAliases.titled_surname` says ("Miss Marjoribanks" with Lucilla Marjoribanks, not
    "Dr Marjoribanks" with Tom Marjoribanks); a bare given name joins a person whose given name
    it is a pet form of ("Jos" with "Joseph Sedley"), or whose titled surname the book ties it to
    ("Lucilla" with "Miss Marjoribanks"), or her married name ("Mrs. Casaubon" with "Dorothea":
    :func:`married_names`)."""
    words, person = name.lower().split(), person_name.lower().split()
    if aliases is None:
        return set(words) <= set(person)

    def titled(rs: list[dict]) -> str:
        ts = Counter(_plain(r.get("title") or "") for r in rs)
        t, k = ts.most_common(1)[0] if ts else ("", 0)
        return t if t and _title(t.title()) and k * 2 > len(rs) else ""

    def given_of(ws: list[str], rs: list[dict]) -> str:
        if len(ws) > 1:
            return ws[0]
        known = aliases.is_given(ws[0])
        return ws[0] if known or (known is None and not titled(rs) and _given_like(ws[0])) else ""

    if set(words) <= set(person):
        g = given_of(person, person_rows)
        t = titled(rows)
        if len(words) == 1 and g and words[0] != g and t:
            return aliases.titled_surname(t, words[0], g, gender) == JOIN
        return True
    if len(words) != 1:
        return False
    w = words[0]
    g = given_of(person, person_rows)
    if g and given_of(words, rows) and aliases.one_person_names(w, g):
        return True
    t = titled(rows)
    if g and t and (aliases.surname_of(g) == w or aliases.married.get(w) == g):   # "Miss Marjoribanks" and "Lucilla"
        return aliases.titled_surname(t, w, g, gender) == JOIN
    pt = titled(person_rows)
    if len(person) == 1 and pt and not t and given_of(words, rows) and (
            aliases.surname_of(w) == person[0] or aliases.married.get(person[0]) == w):
        return aliases.titled_surname(pt, person[0], w, gender) == JOIN     # "Lucilla" and "Miss Marjoribanks"
    return False
