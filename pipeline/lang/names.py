"""Personal names and their gender: the one place that decides what a name's gender is.

* A PERSON entity is a personal name. A title directly before it, or as its first token
  ("Mr. Knightley", "Lady Russell"), becomes part of the mention, and the mention takes the
  title's traditional gender from ``resources/titles.tsv``.
* Otherwise gender-guesser (default settings, which look at a name's use in English-speaking
  countries first) labels the first token: male/mostly_male -> masculine,
  female/mostly_female -> feminine, andy/unknown -> ungendered. gender-guesser is
  case-sensitive, so a name written in capitals or small capitals ("JOHN", "MARY", "McDONALD")
  is looked up in its title-case form ("John", "Mary"): see :func:`title_case`. A name it does
  not know is looked up once more without its accents ("Natásha", "Borís" in translations that
  mark stress): see :func:`fold_accents`.
* A title may be written with or without its period and in capitals ("Mr Bennet",
  "MRS. WESTON"); when the tokenizer splits the period off ("MRS" "." "WESTON") the period
  belongs to the title.
* Name variants ("Harriet" / "Harriet Smith", "Knightley" / "Mr. Knightley") are merged into
  one person inside a context by :func:`group_persons`; with the book's alias table
  (:mod:`pipeline.lang.aliases`) also pet forms and the titled surname of a given name
  ("Jos" / "Mr. Joseph", "Lucilla" / "Miss Marjoribanks").

May import: the standard library, :mod:`pipeline.lang.pronouns` (the genders),
:mod:`pipeline.formats.resources` (the shipped title and name lists, inside the functions that
load them), gender-guesser (inside the function that builds its detector), nicknames (the public
list of English nicknames, inside the function that reads it).
"""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field

from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED

EDGE_CHARS = "_\"'“”‘’*()[]"
POSSESSIVE_TOKENS = {"'s", "’s", "'", "’"}

_GUESSER_MAP = {"male": MASCULINE, "mostly_male": MASCULINE,
                "female": FEMININE, "mostly_female": FEMININE}



# letters of European names, accented ones included ("Dólokhov", "Hélène", "Zoë"), for the
# regular expressions that read a whole book (lang.book_evidence, lang.aliases): capitals of
# Latin-1, and for the rest of a word Latin-1's small letters and Latin Extended-A (both cases)
NAME_UPPER = "A-ZÀ-ÖØ-Þ"
NAME_LOWER = "a-zß-öø-ÿ\u0100-\u017f"
# a name's word as the book's regular expressions read it: a capital and lower-case letters,
# one inner capital allowed ("McKeith", "MacDowell", "DeWitt": read as "Mc" and "Keith" they
# were no name of the book, and "Colin Mc" its full name; read, seed 20261185), then parts
# after a hyphen or an apostrophe ("Mary-Anne", "O'Hara")
NAME_WORD = rf"[{NAME_UPPER}][{NAME_LOWER}]+(?:[{NAME_UPPER}][{NAME_LOWER}]+)?(?:['’-][{NAME_UPPER}{NAME_LOWER}]+)*"


def at_word_start(pattern: str) -> str:
    r"""``pattern``, which starts with ``\b`` and a character class (``\b([A-Z]...``), with
    the word boundary checked after that first character instead (``([A-Z](?<!\w.)...``):
    the same matches, found about three times faster on a whole book, because Python's ``re``
    skips ahead to the characters of a leading class but not past a leading assertion. Used
    by the expressions that read whole books (lang.book_evidence, lang.aliases)."""
    m = re.match(r"\\b(\(?)(\[(?:\\.|[^\]\\])+\])", pattern)
    if m is None:
        raise ValueError(f"no leading \\b and character class: {pattern[:40]}")
    rest = pattern[m.end():]
    if rest[:1] == "+":                 # "[a-z]+": the first letter, then the others
        return m.group(1) + m.group(2) + r"(?<!\w.)" + m.group(2) + "*" + rest[1:]
    if rest[:1] in ("*", "?", "{"):
        raise ValueError(f"a quantifier after the leading class: {pattern[:40]}")
    return m.group(1) + m.group(2) + r"(?<!\w.)" + rest


def _title_key(token: str) -> str:
    return token.strip().rstrip(".").lower()


@functools.lru_cache(maxsize=1)
def titles() -> dict[str, str]:
    """title (lower case, no final period) -> gender, from resources/titles.tsv."""
    from pipeline.formats.resources import read_commented, resource

    return {_title_key(f[0]): f[1] for _, f in read_commented(resource("titles.tsv"), header="title",
                                                                min_columns=2)}


def title_gender(token: str) -> str | None:
    """Gender of a capitalised title token ("Mrs.", "Lady"), else None."""
    if not token or not token[0].isupper():
        return None
    return titles().get(_title_key(token))


@functools.lru_cache(maxsize=1)
def ungendered_titles() -> dict[str, str]:
    """title (lower case, no final period) -> kind, from resources/ungendered_titles.tsv:
    titles without a traditional gender ("Doctor", "Dr.", "Professor", "Rev.", "St.")."""
    from pipeline.formats.resources import read_commented, resource

    return {_title_key(f[0]): f[1] for _, f in read_commented(resource("ungendered_titles.tsv"), header="title",
                                                                min_columns=2)}


# kinds of ungendered titles (resources/ungendered_titles.tsv) of the professions: they show a
# person as a gendered title does, and the novels of the period give them to men only ("Dr
# Marjoribanks", "Judge Thatcher"; not "Nurse", "Cousin" or a saint)
PROFESSION_KINDS = frozenset({"academic", "clerical", "office"})


def profession_title(title: str) -> bool:
    """``title`` (any case, with or without its period) is a title of the professions."""
    return ungendered_titles().get(title.rstrip(".").lower()) in PROFESSION_KINDS


def ungendered_title(token: str) -> bool:
    """A capitalised title without a traditional gender ("Doctor", "Dr.", "St.")."""
    return bool(token) and token[0].isupper() and _title_key(token) in ungendered_titles()


def any_title(token: str) -> bool:
    """A capitalised title of either table (gendered or not)."""
    return bool(title_gender(token)) or ungendered_title(token)


# After "St. Name's" these lower-case words make a place or a feast ("St. Michael's day").
SAINT_PLACE_WORDS = frozenset("""day days eve church chapel well wood fields field square street gate place
hall college school hospital parish abbey cathedral mount bay night mass tide tower park road bridge vale row
lane court palace priory""".split())


def saint_title(token: str) -> bool:
    """A saint's title ("St.", "St", "Saint", "Ste.": kind "saint" of resources/ungendered_titles.tsv)."""
    return ungendered_titles().get(_title_key(token)) == "saint"


def saint_place(doc, title_i: int, name_end: int) -> bool:
    """True when ``doc[title_i]`` is a saint's title (St., Saint) and the name ending before
    token ``name_end`` is followed by a possessive that stands alone ("at St. James's", "St.
    Paul's was full": the name is no possessive modifier in the parse) or that modifies a
    capitalised word or a place or feast noun ("St. Paul's Cathedral", "St. Michael's day"):
    a place or a feast, not a person (so is one that "modifies" a date: "at St. James's last
    week"). "St. John's eyes" and "St. John said" are the person.
    Without a parse the word after the possessive decides the same way."""
    if not saint_title(doc[title_i].text):
        return False
    if name_end >= len(doc) or doc[name_end].text not in ("'s", "’s"):
        return False
    last = doc[name_end - 1]
    if last.dep_:
        if last.dep_ != "poss":
            return True
        head = last.head
        return (head.text[:1].isupper() or head.text.lower() in SAINT_PLACE_WORDS
                or head.ent_type_ in ("DATE", "TIME"))     # "at St. James's last week"
    nxt = doc[name_end + 1] if name_end + 1 < len(doc) else None
    return (nxt is None or not nxt.text[:1].isalpha() or nxt.text[:1].isupper()
            or nxt.text.lower() in SAINT_PLACE_WORDS)


# A run of punctuation inside a mention's text ends the name: "Mr. Darcy!--and" -> "Mr. Darcy".
# Allowed inside a name: letters, digits, spaces, and one period, hyphen or apostrophe at a
# time ("J. K.", "St.", "Mary-Anne", "O'Brien").
_NAME_BREAK = re.compile(r"[^\w\s.'’\-]|[.'’\-]{2,}|\s[.'’\-]|[\-'’](?=\s|$)")


# Words written with a final period inside a name: the abbreviated titles and the old
# abbreviations of first names ("Wm. Smith"); a period after any other word of two or more
# letters ends a sentence, and so the name: "to Father. He's had" holds no name "He".
TITLE_ABBREVIATIONS = frozenset("""mr mrs ms mme mlle messrs mssrs m dr st ste rev revd prof capt col gen
lt lieut sgt serg sergt corp pte maj adm cmdr cdr gov supt insp det sen hon esq jr sr mt fr bros bp abp
mons mlles mmes""".split())
NAME_ABBREVIATIONS = frozenset("""wm chas geo thos jas jno benj robt edw saml jos alex richd chr danl""".split())
_WORD_PERIOD = re.compile(r"([^\W\d_]{2,})\.(?=\s)")


def name_end(text: str, start: int = 0) -> int:
    """Where a mention's name ends in ``text``: at its first punctuation run from ``start`` on
    (see ``_NAME_BREAK``) or at the period after a word that is no abbreviation
    (``TITLE_ABBREVIATIONS``, ``NAME_ABBREVIATIONS``), trailing spaces, hyphens and apostrophes
    dropped; ``len(text)`` when there is none."""
    m = _NAME_BREAK.search(text, start)
    end = len(text) if m is None else m.start()
    for w in _WORD_PERIOD.finditer(text, 0, end):
        key = w.group(1).lower()
        if key not in TITLE_ABBREVIATIONS and key not in NAME_ABBREVIATIONS:
            end = w.end(1)
            break
    else:
        if m is None:
            return len(text)
    while end > start and text[end - 1] in " -'’":
        end -= 1
    return end


# Words the tokenizer leaves glued to a dash run and its neighbours ("meal.--She",
# "congratulations.--Harriet", "herself—Her"; the eighteenth century's single hyphen after a
# stop, "for Lord Orville,-if then"): one token, so no tagger, NER or swap sees them.
_DASH_RUN = re.compile(r"--+|—+|–|(?<=[,;:.!?])-(?=[^\W\d_])")
_PIECE = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")


def glued_pieces(token: str) -> list[tuple[int, str]]:
    """The words (offset in ``token``, word) of a token made of words and a dash run, else []:
    "meal.--She" -> [(0, "meal"), (7, "She")], "”--She" -> [(3, "She")]."""
    if not _DASH_RUN.search(token):
        return []
    pieces = [(m.start(), m.group()) for m in _PIECE.finditer(token)]
    return pieces if len(pieces) > 1 or (pieces and pieces[0][1] != token) else []


@functools.lru_cache(maxsize=1)
def _detector():
    import gender_guesser.detector as gd

    return gd.Detector()


def title_case(word: str) -> str:
    """The form gender-guesser knows: "JOHN" -> "John", "MARY-ANNE" -> "Mary-Anne"; words that
    are not all capitals ("John", "McDonald", "john") are returned unchanged."""
    letters = [c for c in word if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return "-".join(part[:1].upper() + part[1:].lower() for part in word.split("-"))
    return word


@functools.lru_cache(maxsize=200_000)
def guess(first_name: str) -> tuple[str, str]:
    """(gender, gender-guesser label) for a first name; all-caps names are looked up in their
    title-case form."""
    cleaned = title_case(first_name.strip(EDGE_CHARS + ".,;:!?"))
    if not cleaned:
        return UNGENDERED, "unknown"
    label = _detector().get_gender(cleaned)
    if label == "unknown":
        folded = fold_accents(cleaned)
        if folded != cleaned:
            label = _detector().get_gender(folded)
    return _GUESSER_MAP.get(label, UNGENDERED), label


@functools.lru_cache(maxsize=4096)
def contested(first_name: str) -> bool:
    """gender-guesser gives ``first_name`` a worldwide "male" or "female" that its answer for
    Great Britain does not share ("Marian": male worldwide, female in Great Britain; "Eppie":
    male, andy; "Jacky": male, mostly male). The worldwide answer of such a name may be
    another country's, so a book that says otherwise may be believed (core.cast); "Joe",
    "Polly", "Paul", the same everywhere, are not contested."""
    cleaned = title_case(first_name.strip(EDGE_CHARS + ".,;:!?"))
    if not cleaned:
        return False
    world = _detector().get_gender(cleaned)
    if world not in ("male", "female"):
        return False
    return _detector().get_gender(cleaned, "great_britain") != world


def fold_accents(word: str) -> str:
    """The word without combining accents: "Natásha" -> "Natasha", "Nikolái" -> "Nikolai".
    Translations mark stress ("Borís", "Sónya") on names that gender-guesser lists without it;
    names it lists with their accents ("Hélène", "José", "Zoë") are found before folding."""
    decomposed = unicodedata.normalize("NFD", word)
    return unicodedata.normalize("NFC", "".join(c for c in decomposed if unicodedata.category(c) != "Mn"))


@dataclass
class NameMention:
    start: int            # character offsets (into whatever text the caller used)
    end: int
    text: str             # as written, with the title
    title: str            # "" when untitled
    name: str             # without the title
    gender: str
    gender_source: str    # "title" | "gender-guesser:<label>"
    token_start: int = -1 # token indices into the Doc (end exclusive)
    token_end: int = -1

    @property
    def key_tokens(self) -> tuple[str, ...]:
        return tuple(t.lower() for t in self.name.split())


def name_gender(name: str, title: str = "") -> tuple[str, str]:
    """Gender of a name with an optional title: (gender, source)."""
    if title:
        g = title_gender(title)
        if g:
            return g, "title"
    words = name.split()
    if len(words) > 1 and words[0] in NO_GIVEN_NAMES:
        words = words[1:]               # "Young Woolwich", the Bagnets' son: not gender-guesser's "Young"
    first = words[0] if words else ""
    gender, label = guess(first)
    return gender, f"gender-guesser:{label}"


# Capitalised words before a name that gender-guesser takes for given names, a word of age and
# the Romance articles ("Young", "El", "Le": mostly female names to it): the name's gender is its
# next word's ("Young Woolwich", a boy; "El Greco", the painter; "Le Renard Subtil").
NO_GIVEN_NAMES = frozenset({"Young", "El", "Le"})


def _is_title_period(doc, i: int) -> bool:
    """True when token ``i`` is a title without its period and the next token is that period,
    attached ("MRS" "." -> "MRS.")."""
    tok = doc[i]
    return (tok.i + 1 < len(doc) and not tok.whitespace_ and doc[tok.i + 1].text == "."
            and not tok.text.endswith("."))


# Lower-case particles of surnames that the small NER leaves outside the entity ("de Bourgh",
# "van Tassel", "von Hoffmann"); "le" and "la" are left out ("à la Mode").
NAME_PARTICLES = frozenset({"de", "du", "des", "van", "von", "der", "den", "di", "da", "del", "della"})


_PATRONYMIC = re.compile(r"[A-Z]\w+(?:ovna|evna|ichna|ovich|evich|ovitch|evitch|ovitsh|itch)$")


def _patronymic(word: str) -> bool:
    """A Russian patronymic as English translations spell it ("Vlasyevna", "Arkadyevitch")."""
    return bool(_PATRONYMIC.match(word))


def _title_before(doc, i: int) -> tuple[int, str] | None:
    """(first token, title text) of a title directly before token ``i`` ("Mr.", or "Mr" and
    its period as two tokens), else None."""
    if i > 0 and any_title(doc[i - 1].text):
        return i - 1, doc[i - 1].text
    if i > 1 and doc[i - 1].text == "." and _is_title_period(doc, i - 2) and any_title(doc[i - 2].text):
        return i - 2, doc[i - 2].text + "."
    return None


def mention_from_span(span) -> NameMention | None:
    """A :class:`NameMention` from a spaCy PERSON span, or None if it is not a usable name.

    Trailing possessives and punctuation are trimmed; a title before the span or as its first
    token is attached. Offsets are ``span.doc`` character offsets.
    """
    doc = span.doc
    start_tok, end_tok = span.start, span.end
    while end_tok > start_tok and (doc[end_tok - 1].is_punct or doc[end_tok - 1].text in POSSESSIVE_TOKENS
                                   or doc[end_tok - 1].is_space):
        end_tok -= 1
    while start_tok < end_tok and (doc[start_tok].is_punct or doc[start_tok].is_space):
        start_tok += 1
    if start_tok >= end_tok:
        return None
    while end_tok < len(doc) and _patronymic(doc[end_tok].text) and doc[end_tok - 1].whitespace_:
        end_tok += 1                    # "Marya Vlasyevna": the NER left the patronymic out
    title = ""
    name_start = start_tok
    # a gendered title (titles.tsv) or one without a gender (ungendered_titles.tsv: "Doctor",
    # "Dr.", "St.") as the first token or directly before the span belongs to the mention
    before = _title_before(doc, start_tok)
    if any_title(doc[start_tok].text) and (title_gender(doc[start_tok].text) or start_tok + 1 < end_tok):
        title = doc[start_tok].text
        name_start = start_tok + 1
        if name_start < end_tok and _is_title_period(doc, start_tok):
            title += "."
            name_start += 1
        if before is not None and name_start < end_tok:
            # "Mr. Major Spencer": the title before the span is the title, "Major" a given name
            name_start = start_tok
            start_tok, title = before
    elif before is not None:
        start_tok, title = before
    if title and title_gender(title) and name_start + 1 < end_tok and profession_title(doc[name_start].text) \
            and doc[name_start].text[:1].isupper() and guess(doc[name_start].text)[1] in ("unknown", "andy"):
        name_start += 1                 # "Mr. Justice Tyrell", "Mrs. Doctor Brown": a chain of titles, the name Tyrell
        if name_start + 1 < end_tok and doc[name_start].text == ".":
            name_start += 1
    if not title and start_tok > 0 and doc[start_tok - 1].text in NAME_PARTICLES and doc[start_tok].text[:1].isupper():
        while start_tok > 0 and doc[start_tok - 1].text in NAME_PARTICLES:
            start_tok -= 1              # "the family of de Bourgh", "van der Luyden": the particles are the name's
        name_start = start_tok
        before = _title_before(doc, start_tok)
        if before is not None:          # "Mr. van der Luyden" when the NER's span was "Luyden"
            start_tok, title = before
    if name_start >= end_tok:
        return None
    if title and saint_place(doc, start_tok, end_tok):
        return None                     # "at St. James's": a place, not a person
    name_span = doc[name_start:end_tok]
    if not any(t.text[:1].isupper() or t.text.strip(EDGE_CHARS)[:1].isupper() for t in name_span):
        return None
    # the text of the mention's tokens alone (``Doc.text`` would join every token of the Doc)
    start_char = doc[start_tok].idx
    whole = doc[start_tok:end_tok].text
    base = start_char
    end_char = start_char + len(whole)
    text = whole
    # trim decorative characters at the edges (e.g. "_Emma_" italics)
    while text and text[0] in EDGE_CHARS:
        start_char += 1
        text = text[1:]
    while text and text[-1] in EDGE_CHARS:
        end_char -= 1
        text = text[:-1]
    # a punctuation run ends the name ("Mr. Darcy!--and", one token, is "Mr. Darcy")
    name_start_char = name_span.start_char
    name_at = max(0, name_start_char - start_char)
    cut = name_end(text, name_at)
    if cut < len(text):
        if cut <= name_at:
            return None
        end_char -= len(text) - cut
        text = text[:cut]
        while end_tok > name_start + 1 and doc[end_tok - 1].idx >= end_char:
            end_tok -= 1
    name = whole[max(name_start_char, start_char) - base:end_char - base].strip(EDGE_CHARS + " ")
    if not name:
        return None
    gender, source = name_gender(name, title)
    return NameMention(start_char, end_char, text, title, name, gender, source, start_tok, end_tok)


@dataclass
class Person:
    """One person in a context: the mentions that refer to them and their gender."""

    name: str                       # canonical: the longest name form, without title
    gender: str
    key_tokens: frozenset[str]      # the name words written in the context, every alias's
    mentions: list[NameMention] = field(default_factory=list)
    given: frozenset[str] = frozenset()      # the given names among them ("lucilla", "jos")
    expanded: frozenset[str] = frozenset()   # key_tokens and the surnames the book ties to the given names
    husband: frozenset[str] = frozenset()    # a husband's given name in her name ("Mrs. George Osborne")


# Titles of the unmarried and of children: "Miss Marjoribanks" is a daughter of the house and goes
# with the house's one girl ("Lucilla Marjoribanks"); "Mr. Shaw", "Mrs. Shaw", "Dr Marjoribanks" may
# be the parents (docs/persons.md, "Aliases").
# titles and styles a book writes after "the" of a person ("the Prince Andrew", "the Emperor
# Napoleon", "the Reverend Mr. Collins", "the Honourable Mrs. Norton")
THE_TITLES = frozenset("""king queen prince princess duke duchess emperor empress count countess baron
baroness marquis marquise marchioness earl viscount viscountess archduke archduchess tsar czar tsarina
czarina sultan lord lady reverend rev revd honourable honorable hon comte comtesse vicomte vicomtesse duc
duchesse marquise baronne chevalier""".split())
# a married woman's titles before her husband's surname ("Mrs. Waule"; "Lady" is also a title of
# birth: not one); pipeline.lang.aliases reads married names with them
MARRIED_TITLES = frozenset({"mrs", "madame", "mme", "frau", "signora", "señora", "senora"})
MISS_TITLES = frozenset({"miss", "mlle", "mademoiselle", "master", "signorina", "senorita", "señorita",
                         "fraulein", "fräulein"})
JOIN, APART, AMBIGUOUS = "join", "apart", "ambiguous"


def husband_given(key_tokens: tuple[str, ...], gender: str, title: str) -> frozenset[str]:
    """The husband's given name in a wife's name: a married woman's title before a full name
    whose given name is a man's ("Mrs. George Osborne", "Mrs. John Knightley", "Mrs. Rawdon
    Crawley"). It tells her apart from another wife of the family ("Mrs. Bute Crawley") but is
    no name of hers: a bare "George" beside her is her husband (read, seed 20261156: "George" and
    "Mrs. George Osborne" were one woman of a window)."""
    if (len(key_tokens) < 2 or gender != FEMININE or not title or title_gender(title) != FEMININE
            or _title_key(title) in MISS_TITLES or guess(key_tokens[0].title())[0] != MASCULINE):
        return frozenset()
    return frozenset(key_tokens[:1])


def _given_forms(key_tokens: tuple[str, ...], is_titled: bool, aliases) -> set[str]:
    """The given names of a form's name words: the first of several words; a single word when
    it is untitled and a given name, or titled and a given name the book writes first in full
    names ("Mr. Joseph"; not "Mr. Bell")."""
    if len(key_tokens) > 1:
        return {key_tokens[0]} if not _patronymic(key_tokens[0].title()) else set()
    if not key_tokens:
        return set()
    w = key_tokens[0]
    if aliases is not None:
        known = aliases.is_given(w)
        if known is not None:
            return {w} if known else set()
    if is_titled:
        return set()
    return {w} if given_like(w) else set()


def _title_decision(title: str, surname: str, given: str, gender: str, aliases) -> str:
    """May the titled surname ("Miss Marjoribanks", "Mr. Shaw") be the person whose given name
    is ``given``? :data:`JOIN`, :data:`APART` or :data:`AMBIGUOUS`. With the book
    (``aliases``: :class:`pipeline.lang.aliases.BookAliases`) as its ``titled_surname`` says;
    without it (a GAP row, a text alone), joined: in a short text "John Phelps ... Mr. Phelps",
    "Edward Rath ... Senator Rath" are one person far more often than two (docs/persons.md,
    "Aliases")."""
    if aliases is not None:
        return aliases.titled_surname(title, surname, given, gender)
    return JOIN


def _book_surname(aliases, given: str) -> str | None:
    """The surname the book ties to a given name: its own full names', else through the formal
    name of a pet form (:meth:`pipeline.lang.aliases.BookAliases.pet_surname`: "Frank" ->
    "Francis Troy")."""
    s = aliases.surname_of(given)
    if s:
        return s
    pet = aliases.pet_surname(given)
    return pet[1] if pet else None


def _married_surnames(aliases, given, gender: str) -> frozenset[str]:
    """The married surnames the book gives a woman with one of the given names ``given``
    (:func:`pipeline.lang.aliases.married_names`: "Dorothea" -> "casaubon"), for a form of
    feminine or unknown gender."""
    married = getattr(aliases, "married", None) or {}
    if gender == MASCULINE or not married:
        return frozenset()
    return frozenset(y for y, g in married.items() if g in given)


def _wife_of(aliases, given, title: str, surname: str) -> bool:
    """A married woman's title before a surname the book writes after one of the woman's given
    names ``given`` often enough (:meth:`pipeline.lang.aliases.BookAliases.wife_surnames`):
    "Mrs. Waule" may be the "Jane" of "Jane Waule"."""
    wives = getattr(aliases, "wife_surnames", None)
    return (wives is not None and _title_key(title) in MARRIED_TITLES
            and any(surname in wives(g) for g in given))


def _husbands_name(aliases, m_title: str, key_tokens: tuple[str, ...]) -> str | None:
    """The man's given name a married woman's title stands before, alone ("Mrs Theobald", "Mrs.
    Joe": his wife): a man's name that the book writes first in its full names ("Theobald
    Pontifex"; not "Mrs. Weston", whose "Weston" gender-guesser also knows as a given name), or
    None."""
    if not m_title or _title_key(m_title) not in MARRIED_TITLES or len(key_tokens) != 1:
        return None
    w = key_tokens[0]
    if guess(w.title())[0] != MASCULINE or not aliases.is_given(w):
        return None
    return w


def _wife_by_husbands_name(aliases, t: str, key_tokens, is_titled: bool, ms, p: Person) -> bool:
    """A wife named by her husband's given name ("Mrs Theobald") and a woman the book names
    together with him ("Theobald and Christina", :attr:`pipeline.lang.aliases.BookAliases.
    coordinated`): perhaps one woman, either way round (the form or the person the titled one)."""
    coordinated = getattr(aliases, "coordinated", None) or set()
    if not coordinated or p.gender == MASCULINE:
        return False
    if is_titled:
        husband = _husbands_name(aliases, ms[0].title, key_tokens)
        return husband is not None and any(frozenset((husband, w)) in coordinated for w in p.given)
    if len(key_tokens) != 1:
        return False
    husbands = {_husbands_name(aliases, m.title, m.key_tokens) for m in p.mentions} - {None}
    return any(frozenset((h, t)) in coordinated for h in husbands)


def _wife_title_of(aliases, given: str, p: Person) -> bool:
    """Person ``p`` (no given name) is named with a married woman's title before one surname
    that the book writes after the given name ``given`` often enough to be hers
    (:func:`_wife_of`, the other way round: the titled name met first)."""
    return any(m.title and len(m.key_tokens) == 1 and _wife_of(aliases, frozenset({given}), m.title, m.key_tokens[0])
               for m in p.mentions)


# full names "<given> <surname>" the book writes before a bare surname beside that given name may
# be the person although the surname is not the one the book ties to it (two Charleses)
WRITTEN_WITH_MIN = 2


def _written_with(aliases, given: frozenset[str], surname: str) -> bool:
    """The book writes one of the given names ``given`` with ``surname`` in at least
    ``WRITTEN_WITH_MIN`` full names (*Persuasion*: "Charles Hayter" 33, "Charles Musgrove" 14):
    a bare "Musgrove" beside "Charles" may be him (ninth session: full made such a window,
    "Musgrove, take care of the others ... Charles attending to his wife", one man as two, and
    prune did not, so the two disagreed on Austen)."""
    by_given = getattr(aliases, "by_given", None) or {}
    return any(by_given.get(g, {}).get(surname, 0) >= WRITTEN_WITH_MIN for g in given)


def _formal_given(aliases, given: str) -> str:
    """The given name whose full names tie it to its surname (the formal name of a pet form)."""
    if aliases.surname_of(given):
        return given
    pet = aliases.pet_surname(given)
    return pet[0] if pet else given


def _fit(toks: frozenset[str], key_tokens: tuple[str, ...], is_titled: bool, ms: list[NameMention],
         gender: str, p: Person, aliases, form_given: frozenset[str] = frozenset()) -> tuple[int, str] | None:
    """How a form (its name words ``toks``) fits person ``p``: (tier, decision) or None. Tier 0:
    by the words written in the context (each of the form's words is one of the person's, or a
    pet form of one of the person's given names); tier 1: a word of the form is only a surname
    the book ties to one of the person's given names ("Miss Marjoribanks" beside "Lucilla"). A titled surname alone that
    fits a person with a given name goes through :func:`_title_decision` (not a title before a
    given name: "Mr. Joseph" beside "Jos")."""
    own = p.key_tokens - p.husband      # "George" is not a name of Mrs. George Osborne's
    if toks <= own:
        tier = 0
        if aliases is not None and not is_titled and len(key_tokens) == 1 and key_tokens[0] in p.given \
                and any(len(m.key_tokens) > 1 and m.key_tokens[0] == key_tokens[0] for m in p.mentions) \
                and getattr(aliases, "shared_given", lambda _: False)(key_tokens[0]):
            return (0, AMBIGUOUS)       # "George" beside "George Amberson", whom the book tells from
            #                             George Minafer (31 and 22 full names): either (read, seed 20261185)
    elif aliases is None:
        return None
    else:
        tier = 0
        for t in toks:
            if t in own:
                continue
            pets = [u for u in p.given if aliases.one_person_names(t, u)]
            if pets:
                if any(getattr(aliases, "shared_given", lambda _: False)(x) for x in (t, *pets)):
                    return (1, AMBIGUOUS)   # "Georgie" beside "George", whom the book names George
                    #                         Amberson and George Minafer: perhaps the uncle (read,
                    #                         seed 20261181, The Magnificent Ambersons)
                continue
            if t not in p.expanded:
                if not is_titled and len(key_tokens) == 1 and _written_with(aliases, p.given, t):
                    return (1, AMBIGUOUS)   # "Musgrove" beside "Charles", whom the book calls
                    #                         Charles Hayter more often: perhaps him
                if is_titled and len(key_tokens) == 1 and p.gender != MASCULINE and _wife_of(aliases, p.given, ms[0].title, t):
                    return (1, AMBIGUOUS)   # "Mrs. Waule" beside "Jane", once "Jane Waule"
                if _wife_by_husbands_name(aliases, t, key_tokens, is_titled, ms, p):
                    return (1, AMBIGUOUS)   # "Mrs Theobald" beside "Christina", "Theobald and
                    #                         Christina" 17 times in the book (read, seed 20261185)
                if not is_titled and len(key_tokens) == 1 and not p.given and gender != MASCULINE \
                        and p.gender != MASCULINE and _wife_title_of(aliases, t, p):
                    return (1, AMBIGUOUS)   # "Catherine" beside "Mrs. Linton" (met first): "Catherine
                    #                         Linton" 13 times, "Catherine Earnshaw" 9 (read, seed 20261184)
                return None
            tier = 1
    if tier == 1 and not is_titled and len(key_tokens) == 1:
        # a bare surname the book ties to the person's given name ("Osborne" beside "George")
        g = gender if gender != UNGENDERED else p.gender
        decisions = {aliases.bare_surname(key_tokens[0], _formal_given(aliases, u), g) for u in p.given
                     if _book_surname(aliases, u) == key_tokens[0]}
        if not decisions and _married_surnames(aliases, p.given, p.gender) & {key_tokens[0]}:
            return (tier, AMBIGUOUS)     # a bare "Casaubon" beside Dorothea: her husband, most likely
        return (tier, AMBIGUOUS if AMBIGUOUS in decisions else JOIN)
    if is_titled and len(key_tokens) == 1 and key_tokens[0] not in p.given and key_tokens[0] not in form_given:
        others = sorted(p.given - {key_tokens[0]})
        if others:
            decisions = {_title_decision(ms[0].title, key_tokens[0], g, gender if gender != UNGENDERED else p.gender,
                                         aliases) for g in others}
            if APART in decisions and _written_titled(p, ms[0].title, key_tokens[0]):
                return (tier, AMBIGUOUS)    # "Mrs. Crawley" beside "Mrs. Bute Crawley": her, or another wife
            for d in (AMBIGUOUS, APART):
                if d in decisions:
                    return (tier, d)
    return tier, JOIN


def _written_titled(p: Person, title: str, surname: str) -> bool:
    """Person ``p`` is named in the window with ``title`` before a full name ending in
    ``surname`` ("Mrs. Bute Crawley" for "Mrs." and "Crawley"): the text writes that title
    before that full name, whatever the book's alias table (which counts only full names whose
    first word is a known given name: "Bute" is none) says, so the titled surname alone may be
    that person and is no other person for sure (read, seed 20261159)."""
    key = _title_key(title)
    return any(m.title and _title_key(m.title) == key and len(m.key_tokens) > 1 and m.key_tokens[-1] == surname
               for m in p.mentions)


def group_persons(mentions: list[NameMention], aliases=None) -> tuple[list[Person], bool]:
    """Merge name variants inside one context into persons.

    Forms (name tokens without title, gender, titled or not) are taken longest first (then
    those whose given name the book ties to a surname), titled before untitled, gendered before
    ungendered. A form joins an existing person when
    its name tokens are a subset of the person's tokens and its gender is compatible: equal,
    or the form is ungendered, or the form is untitled, its gender is gender-guesser's and the
    person titled (a title beats gender-guesser: "Weston" may be Mr. or Mrs. Weston; not the
    book's pronouns: "Montoni" with his own he/him is not "Madame Montoni"). So "Harriet" joins
    "Harriet Smith" and "Knightley" joins "Mr. Knightley", taking that person's gender. A
    titled surname alone joins a person with a given name only as :func:`_title_decision`
    says ("Miss Smith" and "Harriet Smith" one person; with the book, "Mr. Shaw" and "Tom Shaw"
    two). A form
    that fits no person starts a new one. A form that fits two or more persons ("Weston" beside
    "Mr. Weston" and "Mrs. Weston"), or a titled surname the book gives to two people ("Mr.
    Osborne" beside "George": his father is Mr. Osborne too), is ambiguous: the second return
    value is then False and the context must not be used. Persons are returned in order of
    first mention.

    ``aliases``: the book's alias table (:class:`pipeline.lang.aliases.BookAliases`, from
    :func:`pipeline.lang.aliases.book_aliases`), or None (a sentence alone). With it, pet forms
    the book confirms are one person's ("Jos" and "Mr. Joseph"), and a bare given name and the
    titled surname the book's full names tie it to ("Lucilla" and "Miss Marjoribanks") are one
    person (docs/persons.md, "Aliases").
    """
    forms: dict[tuple[tuple[str, ...], str, bool], list[NameMention]] = {}
    for m in mentions:
        forms.setdefault((m.key_tokens, m.gender, bool(m.title)), []).append(m)
    husband = {k: husband_given(k[0], k[1], forms[k][0].title) for k in forms}
    given = {k: frozenset(_given_forms(k[0], k[2], aliases)) - husband[k] for k in forms}
    expanded = {k: frozenset(k[0]) - husband[k] | ({s for g in given[k] if (s := _book_surname(aliases, g))}
                                                   | _married_surnames(aliases, given[k], k[1]) if aliases is not None
                                                   else frozenset()) for k in forms}
    # a wife's name counts as her titled surname ("Mrs. George Osborne" as "Mrs. Osborne")
    fit_key = {k: tuple(w for w in k[0] if w not in husband[k]) for k in forms}
    order = sorted(forms, key=lambda k: (-len(fit_key[k]), -len(expanded[k]), not k[2], k[1] == UNGENDERED,
                                         min(x.start for x in forms[k])))
    persons: list[Person] = []
    titled: list[bool] = []
    ok = True
    for key in order:
        key_tokens, gender, is_titled = key
        ms = forms[key]
        toks = frozenset(key_tokens)
        weak = all(m.gender_source.startswith("gender-guesser") for m in ms)
        if weak and len(key_tokens) == 1 and aliases is not None and aliases.is_given(key_tokens[0]):
            weak = False                # a given name is no surname a title may take: "Joe" (the
            #                             blacksmith) is not "Mrs. Joe", his wife (read, seed 20261183)
        fits: list[tuple[int, int, str]] = []
        for i, p in enumerate(persons):
            if not (gender == p.gender or gender == UNGENDERED or (not is_titled and titled[i] and weak)):
                continue
            if husband[key] and p.husband and husband[key] != p.husband:
                continue                    # "Mrs. Rawdon Crawley" is not "Mrs. Bute Crawley"
            how = _fit(frozenset(fit_key[key]), fit_key[key], is_titled, ms, gender, p, aliases, given[key])
            if how is not None and how[1] != APART:
                fits.append((how[0], i, how[1]))
        if fits:
            best = min(f[0] for f in fits)
            fits = [f for f in fits if f[0] == best]
        if len(fits) > 1 or any(f[2] == AMBIGUOUS for f in fits):
            ok = False
        if fits:
            p = persons[fits[0][1]]
            p.mentions.extend(ms)
            p.key_tokens = p.key_tokens | toks
            p.given = p.given | given[key]
            p.expanded = p.expanded | expanded[key]
            p.husband = p.husband | husband[key]
        else:
            persons.append(Person(" ".join(ms[0].name.split()), gender, toks, list(ms), given[key], expanded[key],
                                  husband[key]))
            titled.append(is_titled)
    for p in persons:
        p.mentions.sort(key=lambda m: m.start)
    persons.sort(key=lambda p: p.mentions[0].start)
    return persons, ok


# English pet forms of given names (those of the period's novels): "Eliza" and "Elizabeth",
# "Jo" and "Josephine" may be one person under two names.
_PET_FORMS = {
    "elizabeth": "eliza lizzy lizzie liz lizbeth betsy betsey betty bess bessie bessy beth elsie libby",
    "margaret": "meg maggie maggy madge peggy peg margery marjorie",
    "catherine": "kitty kate katy katie kit cathy kathy katharine katherine",
    "mary": "polly molly mamie mollie mae",
    "anne": "ann anna annie nan nancy nanny nannie",
    "sarah": "sally sal sadie",
    "frances": "fanny fan frankie",
    "ellen": "nell nelly nellie eleanor elinor",
    "jane": "jenny jennie janet jean",
    "josephine": "jo josie",
    "dorothy": "dolly dora dot dottie",
    "henrietta": "hetty etta",
    "caroline": "carrie carry lina",
    "susan": "sue susie suky susanna susannah",
    "amelia": "emmy milly",
    "thomas": "tom tommy",
    "william": "will willie willy bill billy",
    "robert": "bob bobby rob robin bertie",
    "richard": "dick dicky rick",
    "edward": "ned neddy ted teddy ed eddie",
    "henry": "harry hal hank",
    "john": "jack johnny jacky",
    "charles": "charley charlie chas",
    "frederick": "fred freddy freddie fritz",
    "james": "jim jimmy jem jamie",
    "joseph": "joe joey jos",
    "samuel": "sam sammy",
    "benjamin": "ben benny",
    "daniel": "dan danny",
    "nathaniel": "nat",
    "nicholas": "nick nicky",
    "theodore": "theo teddy",
    "alexander": "alec alick sandy",
    "andrew": "andy",
    "peter": "pete",
    "michael": "mike mick",
    "francis": "frank frankie",
    "lawrence": "laurie larry",
    "george": "georgie geordie",
    "arthur": "art",
    "albert": "bertie",
    "natalia": "natasha natásha",
    # added with the aliases (docs/persons.md, "Aliases"): English diminutives the public list
    # (the ``nicknames`` package) lacks, and the Russian ones of the period's translations
    "maud": "maudie",
    "rosamond": "rosy rosie",           # Middlemarch's "Rosy" (read, seed 20261176)
    "rose": "rosy rosie",
    "matthew": "mat matt matty",
    "matilda": "maud tilly tilda",
    "stepan": "stiva",
    "alexey": "alyosha",
    "alexei": "alyosha",
    "natalya": "natasha",
    "konstantin": "kostya",
    "nikolai": "nikolenka kolya",
    "nikolay": "nikolenka kolya",
    "dmitri": "mitya",
    "ekaterina": "katya katerina kitty",
    "pyotr": "petya",
    "ilya": "ilyusha",
    # the period's diminutives the public list lacks (sixteenth session: Tom Jones's "Sophy" is
    # Sophia Western, beside her in windows of the development books)
    "sophia": "sophy",
    "charlotte": "lotty lottie",
    "letitia": "letty",
    "oliver": "nol noll",
    "alice": "ally",
}
PET_FORMS: dict[str, frozenset[str]] = {}
for _formal, _pets in _PET_FORMS.items():
    for _form in [_formal, *_pets.split()]:
        PET_FORMS[_form] = PET_FORMS.get(_form, frozenset()) | {_formal}


@functools.lru_cache(maxsize=4096)
def given_name_partners(name: str) -> frozenset[str]:
    """The other given names (lower case) of :data:`PET_FORMS` that may be the same person's as
    ``name`` ("lizzy" -> elizabeth, eliza, betty, ...): the forms sharing a formal name with it."""
    formal = PET_FORMS.get(name.lower(), frozenset())
    return frozenset(f for f, names in PET_FORMS.items() if names & formal) - {name.lower()}


def one_given_name(a: str, b: str) -> bool:
    """Two different given names (lower case) that may be one person's: a name and its pet
    form ("elizabeth", "eliza"), or two pet forms of one name ("lizzy", "eliza"), by the
    hand-written table above (:data:`PET_FORMS`)."""
    return a != b and bool(PET_FORMS.get(a, frozenset()) & PET_FORMS.get(b, frozenset()))


@functools.lru_cache(maxsize=1)
def _public_nicknames() -> dict[str, frozenset[str]]:
    """given name (lower case) -> the formal names it is a nickname of, in the ``nicknames``
    package (Old Dominion University's hand-curated list of English given names and nicknames,
    Apache-2.0: https://github.com/carltonnorthern/nicknames). ("jos": joseph, joshua, josiah)."""
    from nicknames import name_triplets

    out: dict[str, set[str]] = {}
    for t in name_triplets():
        out.setdefault(t.name2, set()).add(t.name1)
        out.setdefault(t.name1, set())
    return {k: frozenset(v) for k, v in out.items()}


def public_nicknames(a: str, b: str) -> bool:
    """Two different given names (lower case) that the public list makes one name's: one a
    nickname of the other ("jos", "joseph"), or both nicknames of one name ("bill", "will").
    The list is broad ("fred" is listed under william, "emma" under emily), so a book must
    confirm such a pair before it makes one person (:meth:`pipeline.lang.aliases.BookAliases.
    one_person_names`)."""
    if a == b:
        return False
    table = _public_nicknames()
    ra, rb = table.get(a, frozenset()) | {a}, table.get(b, frozenset()) | {b}
    return bool(ra & rb)


def _pet_stems(pet: str) -> set[str]:
    """The stems a pet form in "-ie" (or "-y" after a doubled consonant) is made from:
    "raymie" -> {"raym"}, "maudie" -> {"maud"}, "freddie" -> {"fredd", "fred"}, "johnny" ->
    {"johnn", "john"}; empty for other words ("mary", "lucy": given names of their own)."""
    if len(pet) >= 5 and pet.endswith("ie"):
        stem = pet[:-2]
    elif len(pet) >= 5 and pet.endswith("y") and pet[-2] == pet[-3] and pet[-2] not in "aeiouy":
        stem = pet[:-1]
    else:
        return set()
    stems = {stem}
    if len(stem) >= 4 and stem[-1] == stem[-2]:
        stems.add(stem[:-1])
    return {s for s in stems if len(s) >= 3}


def derived_pet_form(a: str, b: str) -> bool:
    """One given name (lower case) is the other's pet form made the English way, a stem and
    "-ie" ("raymie", "raymond"; "maudie", "maud"; "freddie", "frederick"; "johnny", "john"),
    for pet forms no list holds. As broad as the public list ("annie" would fit "annabel"):
    a book must confirm the pair (both written with one surname) before it makes one person
    (:meth:`pipeline.lang.aliases.BookAliases.one_person_names`)."""
    if a == b:
        return False
    return any(full.startswith(stem) for pet, full in ((a, b), (b, a)) for stem in _pet_stems(pet)
               if len(full) >= len(stem) and full != pet and not _pet_stems(full))


def pet_like(word: str) -> bool:
    """A capitalised word shaped like a pet form (:func:`derived_pet_form`: "Raymie"), that no
    name list knows: it may stand first in a full name ("Raymie Wutherspoon")."""
    return word[:1].isupper() and not word.isupper() and bool(_pet_stems(word.lower()))


def given_like(word: str) -> bool:
    """A word (any case) that may be a given name: gender-guesser knows it, or a nickname list
    does ("Jos", "Stiva")."""
    low = word.lower()
    return low in PET_FORMS or low in _public_nicknames() or guess(title_case(word))[0] != UNGENDERED


def _plain_title(title: str) -> str:
    return title.rstrip(".").lower()


def confusable_persons(persons: list[Person], aliases=None) -> str | None:
    """Why the persons of a context may not be the persons they seem (or None): one person
    under two titles of one gender ("Mrs. Shaw" and "Madam Shaw", "Miss Bennet" and "Mrs.
    Bennet": variant grouping made them one, but they are likely two), or two persons of one
    gender whose given names are one name and its pet form ("Miss Eliza" and "Elizabeth")
    that grouping kept apart: without the book nothing tells whether they are one person; with
    it, grouping keeps them apart only when the book gives them two surnames or writes "Will
    and William", and a name that may be either of two people is still ambiguous. With the
    book's alias table (``aliases``), a woman's maiden and married names as two women ("Miss
    Brooke" and "Mrs. Casaubon", the book's :attr:`~pipeline.lang.aliases.BookAliases.married`
    Dorothea Brooke: "Miss Brooke ... Not long after that dinner-party she had become Mrs.
    Casaubon", read of seed 20261177; *Middlemarch* has two Miss Brookes, so nothing joins them)."""
    for p in persons:       # (a gendered and an ungendered title: extract's REJECT_TITLE_CLASH)
        if len({_plain_title(m.title) for m in p.mentions if m.title and title_gender(m.title)}) > 1:
            return "one surname under two titles"
    for i, a in enumerate(persons):
        for b in persons[i + 1:]:
            if a.gender == b.gender and any(one_given_name(x, y) for x in a.key_tokens for y in b.key_tokens):
                return "a name and its pet form"
    married = getattr(aliases, "married", None) or {}
    if married:
        maiden = {aliases.surname_of(g) for g in married.values()}
        misses = {m.key_tokens[-1] for p in persons for m in p.mentions
                  if m.title and _title_key(m.title) in MISS_TITLES and m.key_tokens and m.key_tokens[-1] in maiden}
        for p in persons:
            for m in p.mentions:
                if m.title and _title_key(m.title) in MARRIED_TITLES and m.key_tokens \
                        and aliases.surname_of(married.get(m.key_tokens[-1], "")) in misses:
                    return "a maiden name and a married name of one woman"
    return None
