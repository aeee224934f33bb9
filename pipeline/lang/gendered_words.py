"""Gendered words and flipping a word to the opposite gender: the one place generate and CDA
take gendered words from.

A :class:`WordList` holds the word -> opposite table of one or more word-list files (read by
:mod:`pipeline.formats.word_lists`: the project's TSV, or the plain ``word<TAB>opposite`` files
WinoBias and Counter-GAP distributed). :func:`builtin` is the project's own list
(``resources/gendered_words.tsv``); the module-level functions below use it.

Rules that are grammar, not vocabulary, hold for every list: the personal pronouns always flip
(he <-> she, him -> her, hers -> his, himself <-> herself), and "her" / "his" by their POS tag:
"her" -> "him" as an object (PRP) and "his" as a possessive determiner (PRP$); "his" -> "her"
as a determiner (PRP$) and "hers" when independent (PRP). A list's own entries for these eight
words are ignored.

API (methods of :class:`WordList`, and module functions on the built-in list)
---------------------------------------------------------------------------
``flip(word, tag=None) -> str | None``: the opposite form of ``word`` with its case kept
(He -> She, HE -> SHE), or None when the word is not listed. ``tag`` is the word's Penn tag:
for every non-pronoun a tag that cannot be a noun or adjective (a verb "count", "miss", a
preposition, ...) means the word is not used in its gendered sense and flip returns None;
without a tag the word is always flipped. Possessives flip with their base ("man's" ->
"woman's", "boys'" -> "girls'"), and a trailing period is kept ("Miss." -> "Sir.").
``flip_title(word, period=True)``: the opposite of a word used as a title right before a name
("Miss" -> "Mr.", "Lady" -> "Lord"); the built-in list's title table, else as flip().
``is_listed(word)``: the word (possessive / final period included) flips.
``gender_of(word)``: "masculine" / "feminine" where the list says so (the project TSV does;
a plain two-column file does not, except for the pronouns), else None.
``category_of(word)``: the row's category ("pronoun" for the pronouns; "" if unknown).
``pronoun_tag(word, tag, dep=None)``: the tag to pass to flip for her/his when a dependency
label is known as well (the tagger often calls an independent "his" PRP$: "a friend of his").
``pairs()`` (module only): (masculine, feminine, category) rows of the built-in list.

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.lang.pronouns`,
:mod:`pipeline.formats.word_lists` and :mod:`pipeline.formats.resources` (to read the lists),
WordNet's verbs as the spaCy pipeline ships them (``resources/verb_only_words.txt``,
``resources/verbs.txt``, written by :mod:`pipeline.nlp.lexicon`, ``make verbs``; below, "Verbs").
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Iterable, Mapping

from pipeline.lang.pronouns import FEMININE, MASCULINE

# Category whose masculine form is gender-neutral: only feminine -> masculine flips.
MARKED_FEMININE = "marked-feminine"
PRONOUN = "pronoun"
ANIMAL = "animal"       # "tiger" / "tigress": no person; a gender-swapped variant leaves them
# Pronouns whose opposite depends on the tag; always gendered, whatever the tagger said.
AMBIGUOUS_PRONOUNS = {"her", "his", "him", "hers"}
# Words said of one sex that have no counterpart a swap could write ("his matronly days", "an
# effeminate woman", "the pretty, pregnant prince"): a window holding one cannot be swapped
# (read of seed 20261176 and 20261177: "her matronly" left beside a swapped man). Across the
# 122 novels of ../shared they occur about 200 times in all.
# Nouns of one sex with no counterpart in the pairs' list ("a matron among matrons, Carol" kept
# beside a swapped man: read of seed 20261188) are the same kind; a noun that is also a thing
# or a beast first ("jade", "shrew", "sire") or a period's neutral use ("fellow", "groom") is
# left out.
ONE_SEX_WORDS = frozenset("""matronly matronlike maidenly unmaidenly buxom pregnant pregnancy
effeminate effeminacy virile virility womanish mannish spinsterish ladyish
matron matrons wench wenches coquette coquettes hag hags crone crones harlot harlots
seamstress seamstresses laundress laundresses housewife housewives housewifely midwife midwives
dowager dowagers squaw squaws swain swains chambermaid chambermaids charwoman charwomen
handmaid handmaids handmaiden handmaidens nursemaid nursemaids kitchenmaid kitchenmaids
tomboy tomboys hoyden hoydens minx minxes hussy hussies trollop trollops slattern slatterns
strumpet strumpets termagant termagants virago viragos cuckold cuckolds eunuch eunuchs
fop fops foppish duenna duennas songstress songstresses maidenhood""".split())


def one_sex(word: str) -> bool:
    """``word`` is said of one sex only and has no opposite (:data:`ONE_SEX_WORDS`)."""
    return word.lower() in ONE_SEX_WORDS
# The fixed pronoun rules (her / his by tag in flip_lower).
_PRONOUN_GENDER = {"he": MASCULINE, "she": FEMININE, "him": MASCULINE, "her": FEMININE,
                   "his": MASCULINE, "hers": FEMININE, "himself": MASCULINE, "herself": FEMININE}
_PRONOUN_OPPOSITE = {"he": "she", "she": "he", "him": "her", "hers": "his",
                     "himself": "herself", "herself": "himself"}
# Penn tags under which a listed noun/adjective is NOT used in its gendered sense.
_NON_NOMINAL_PREFIXES = ("VB", "RB", "MD", "IN", "RP", "CC", "DT", "TO", "WDT", "WP", "WRB",
                         "CD", "EX", "POS", "PDT", "LS", "SYM")
# Dependency labels of an independent (non-determiner) his / an object her.
_NOMINAL_DEPS = {"nsubj", "nsubjpass", "dobj", "obj", "pobj", "attr", "dative", "appos",
                 "conj", "iobj", "oprd", "npadvmod", "ROOT"}

# Titles directly before a name whose opposite as a title differs from the word's opposite
# as a noun: "Miss Musgrove" -> "Mr. Musgrove" (not "Sir"), "Lady Russell" -> "Lord Russell".
# Part of the built-in list (a list given by the user has none unless it names the built-in).
TITLE_OPPOSITES = {"miss": "mr.", "sir": "lady", "lady": "lord", "master": "miss", "ms": "mr",
                   "ms.": "mr.", "madam": "monsieur", "dame": "sir", "mademoiselle": "monsieur",
                   "mlle": "m.", "mlle.": "m.", "mme": "m.", "mme.": "m."}

# word (lower case) -> (opposite, gender or None, category)
Table = Mapping[str, tuple[str, "str | None", str]]


_MAX_REMEMBERED = 200_000       # words whose lookup a WordList remembers (then it starts afresh)


def _normalise(word: str) -> str:
    return word.lower().replace("’", "'")


def _with_case(template: str, word: str) -> str:
    letters = [c for c in template if c.isalpha()]
    if len(letters) > 1 and all(c.isupper() for c in letters):
        return word.upper()
    if template[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def pronoun_tag(word: str, tag: str | None, dep: str | None = None) -> str | None:
    """Tag to use for her/his given a dependency label: "poss" means a determiner (PRP$), a
    nominal label (object, subject, attribute, ...) an independent/object pronoun (PRP)."""
    if word.lower() not in ("her", "his") or not dep:
        return tag
    if dep == "poss":
        return "PRP$"
    if dep in _NOMINAL_DEPS:
        return "PRP"
    return tag


class WordList:
    """A word -> opposite table (see the module doc). Build it with :meth:`from_tables`."""

    def __init__(self, table: Table, titles: Mapping[str, str] | None = None, sources: tuple = ()):
        self.opposite: dict[str, str] = {}
        self.gender: dict[str, str | None] = {}
        self.category: dict[str, str] = {}
        for w, (opp, g, cat) in table.items():
            if w in _PRONOUN_GENDER:
                continue
            self.opposite[w] = opp
            self.gender[w] = g
            self.category[w] = cat
        for w, g in _PRONOUN_GENDER.items():
            self.gender[w] = g
            self.category[w] = PRONOUN
        self.titles = dict(titles or {})
        self.sources = tuple(sources)
        # word as written -> (listed base, suffix): every token of every swap is looked up, and
        # the tables above are never changed after this
        self._bases: dict[str, tuple[str, str]] = {}

    @classmethod
    def from_tables(cls, tables: Iterable[tuple[str, Table, bool]]) -> "WordList":
        """Merge (source name, table, is the built-in list) in order: the LAST table wins on a
        word listed by several; the title table comes with the built-in list only."""
        merged: dict[str, tuple[str, str | None, str]] = {}
        titles: dict[str, str] = {}
        sources = []
        for name, table, is_builtin in tables:
            merged.update(table)
            if is_builtin:
                titles.update(TITLE_OPPOSITES)
            sources.append(name)
        return cls(merged, titles, tuple(sources))

    # -- lookups ------------------------------------------------------------------------
    def _split_affix(self, w: str) -> tuple[str, str]:
        """Split a lower-case word into (listed base, suffix) for possessives / a final period."""
        if w in self.gender:
            return w, ""
        for suffix in ("'s", "'", "."):
            if w.endswith(suffix) and w[: -len(suffix)] in self.gender:
                return w[: -len(suffix)], suffix
        return w, ""

    def _base(self, word: str) -> tuple[str, str]:
        """:meth:`_split_affix` of ``word`` as written (normalised), remembered."""
        got = self._bases.get(word)
        if got is None:
            if len(self._bases) >= _MAX_REMEMBERED:
                self._bases.clear()
            got = self._bases[word] = self._split_affix(_normalise(word))
        return got

    def is_listed(self, word: str) -> bool:
        return self._base(word)[0] in self.gender

    def gender_of(self, word: str) -> str | None:
        return self.gender.get(self._base(word)[0])

    def category_of(self, word: str) -> str | None:
        return self.category.get(self._base(word)[0])

    def is_gendered_use(self, word: str, tag: str | None) -> bool:
        """False when ``tag`` says a listed non-pronoun word is not a noun/adjective here."""
        if tag is None or tag == "":
            return True
        base = self._base(word)[0]
        if base in AMBIGUOUS_PRONOUNS or self.category.get(base) == PRONOUN:
            return True
        if tag.startswith("RB") and base.endswith("ly") and self.category.get(base) == "adjective":
            return True     # "her sisterly regard": the tagger reads an -ly adjective as an adverb
        if tag.startswith("JJ") and self.category.get(base) == MARKED_FEMININE:
            return False    # "her maiden name", "a maiden speech": no person's word; "the maiden" is
        if tag.startswith("VB") and not may_be_verb(word):
            return True     # "to spend as bridesmaid" tagged VBN: no verb has that form
        return not tag.startswith(_NON_NOMINAL_PREFIXES)

    def flip_lower(self, word: str, tag: str | None = None) -> str | None:
        """Opposite of a word in lower case (see module doc), ignoring the tag gate."""
        w = _normalise(word)
        if w == "her":
            return "his" if tag == "PRP$" else "him"
        if w == "his":
            return "hers" if tag == "PRP" else "her"
        if w in _PRONOUN_OPPOSITE:
            return _PRONOUN_OPPOSITE[w]
        base, suffix = self._base(word)
        out = self.opposite.get(base)
        if out is None:
            return None
        if suffix == "." and out.endswith("."):
            return out
        return out + suffix

    def flip(self, word: str, tag: str | None = None) -> str | None:
        """Opposite form of ``word``, case kept; None if the word is not flipped here."""
        if not word or not self.is_gendered_use(word, tag):
            return None
        out = self.flip_lower(word, tag)
        if out is None:
            return None
        if "’" in word:
            out = out.replace("'", "’")
        return _with_case(word, out)

    def flip_title(self, word: str, period: bool = True) -> str | None:
        """Opposite of a word used as a title directly before a name, case kept; ``period``:
        write "Mr." (True) or "Mr" (False) for a title that needs one. Falls back to flip()."""
        w = _normalise(word)
        out = self.titles.get(w)
        if out is None:
            return self.flip(word)
        if out in ("mr.", "mr") and not word.endswith("."):
            out = "mr." if period else "mr"
        return _with_case(word, out)


# ----------------------------------------------------------------- the built-in list -------

BUILTIN_NAME = "gendered_words.tsv"


@functools.lru_cache(maxsize=1)
def pairs() -> list[tuple[str, str, str]]:
    """(masculine, feminine, category) rows of the built-in list, lower case, in file order."""
    from pipeline.formats.resources import read_commented, resource

    return [(f[0].lower(), f[1].lower(), f[2] if len(f) > 2 else "")
            for _, f in read_commented(resource(BUILTIN_NAME), header="masculine", min_columns=2)]


@functools.lru_cache(maxsize=1)
def builtin() -> WordList:
    """The project's list, ``resources/gendered_words.tsv``."""
    from pipeline.formats.resources import resource
    from pipeline.formats.word_lists import read_word_list

    return WordList.from_tables([(BUILTIN_NAME, read_word_list(resource(BUILTIN_NAME)).table, True)])


def load(paths: Iterable) -> WordList:
    """The word list made of the files ``paths`` in order (the last wins on a conflict);
    no path: the built-in list. ``builtin`` (or ``gendered_words.tsv``) names the built-in
    list itself, with its title table; the bare name of another list shipped in
    ``resources/`` (no such file in the working directory) names that list."""
    from pipeline.formats.word_lists import read_word_list

    paths = list(paths or [])
    if not paths:
        return builtin()
    tables = []
    for p in paths:
        if str(p) in ("builtin", BUILTIN_NAME):
            tables.append((BUILTIN_NAME, read_word_list(_resource(BUILTIN_NAME)).table, True))
        elif not Path(p).exists() and "/" not in str(p) and _resource(str(p)).is_file():
            # the name of a list shipped in resources/ (gendered_words_address.tsv)
            tables.append((str(p), read_word_list(_resource(str(p))).table, False))
        else:
            tables.append((str(p), read_word_list(p).table, False))
    return WordList.from_tables(tables)


def _resource(name: str):
    from pipeline.formats.resources import resource

    return resource(name)


def is_gendered_use(word: str, tag: str | None) -> bool:
    return builtin().is_gendered_use(word, tag)


def is_listed(word: str) -> bool:
    return builtin().is_listed(word)


def gender_of(word: str) -> str | None:
    return builtin().gender_of(word)


def category_of(word: str) -> str | None:
    return builtin().category_of(word)


def flip_lower(word: str, tag: str | None = None) -> str | None:
    return builtin().flip_lower(word, tag)


def flip(word: str, tag: str | None = None) -> str | None:
    return builtin().flip(word, tag)


def noun_use_tag(word: str, tag: str | None, next_tag: str | None) -> str | None:
    """The tag to flip ``word`` by: a marked feminine word the tagger reads as an adjective is
    the noun when no noun or adjective follows ("done her duty as hostess," -> "host"; read,
    seed 20261186), and stays an adjective before one ("her maiden name")."""
    if tag and tag.startswith("JJ") and category_of(word) == MARKED_FEMININE \
            and not (next_tag or "").startswith(("NN", "JJ")):
        return "NN"
    return tag


def flip_title(word: str, period: bool = True) -> str | None:
    return builtin().flip_title(word, period)


# ------------------------------------------------------------------------------ verbs ----
# WordNet's verbs: those that are no noun or adjective ("perform", "weep"): after "her", a bare
# infinitive, so "her" is its subject ("known her perform"); and every verb lemma: a listed
# gendered noun the tagger tags a verb is a noun when no verb has its form ("to spend as
# bridesmaid", tagged VBN). Shipped lists, written by pipeline.nlp.lexicon (make verbs), read here
# so that no extract process loads the lookups.

VERB_ONLY_RESOURCE = "verb_only_words.txt"
VERBS_RESOURCE = "verbs.txt"


@functools.lru_cache(maxsize=2)
def _verb_words(name: str) -> frozenset[str]:
    from pipeline.formats.resources import resource

    text = resource(name).read_text(encoding="utf-8")
    return frozenset(line for line in text.split("\n") if line and not line.startswith("#"))


def verb_only_words() -> frozenset[str]:
    """The shipped list (lower case, base forms)."""
    return _verb_words(VERB_ONLY_RESOURCE)


def verb_lemmas() -> frozenset[str]:
    """Every verb lemma of the shipped ``resources/verbs.txt`` (lower case)."""
    return _verb_words(VERBS_RESOURCE)


def may_be_verb(word: str) -> bool:
    """``word`` (any case, any form) may be a form of a verb: it, or it without a verb's ending
    (-s, -es, -ed, -d, -ing, with a final "e" put back or a doubled consonant undone), is a verb
    lemma. "bridesmaid" is none, so a tagger's VBN on it is an error; "misses", "counted" are."""
    w = word.lower()
    cands = {w}
    for suffix in ("s", "es", "ed", "d", "ing"):
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[:-len(suffix)]
            cands |= {stem, stem + "e"}
            if len(stem) > 2 and stem[-1] == stem[-2]:
                cands.add(stem[:-1])
    return bool(cands & verb_lemmas())


def verb_only(word: str) -> bool:
    """``word`` (any case) is the base form of a verb that is no noun or adjective."""
    return word.lower() in verb_only_words()


# ----------------------------------------------------------------- her / his in context ----

# "to do her justice", "it does her credit", "did her good": "her" is the indirect object of
# "do" (-> "him"), though the tagger calls it a determiner
DO_FORMS = frozenset({"do", "does", "did", "doing", "done", "dost", "doth"})
DO_IDIOM_NOUNS = frozenset({"justice", "injustice", "credit", "good", "harm", "wrong", "honour", "honor",
                            "service", "mischief", "discredit", "homage"})
# after an independent "his" ("among his the handwriting" -> "among hers the", never "her the")
_NOT_AFTER_DETERMINER = frozenset({"the", "a", "an", "this", "these", "those", "my", "your", "our", "their"})
MARKUP = frozenset({"_", "*"})       # italics in plain text: "_her_ poor boy"
# Prepositions that open a clause inverted around its verb, the subject a name at the end
# ("After her hobbled old Sykes."): "her" is their object, not a possessive before the name.
INVERSION_PREPS = frozenset({"after", "behind", "before", "beside", "beyond"})
_NOT_INVERTED = frozenset({"beloved", "dear", "late"})      # "after her beloved Edward."


def _inverted_object(doc, tok, prev, nxt) -> bool:
    """"her" tagged a possessive before a past verb and a proper name that ends the clause,
    after a clause-opening preposition of place or sequence: "After her hobbled old Sykes.",
    "Behind her loomed Mr. Smith;" -- the name is the verb's subject, "her" the preposition's
    object ("After him hobbled old Sykes")."""
    if prev is None or nxt is None or prev.lower_ not in INVERSION_PREPS:
        return False
    if not (nxt.tag_ in ("VBD", "VBN") or (nxt.tag_ == "JJ" and nxt.lower_.endswith("ed"))) \
            or not nxt.text[:1].islower() or nxt.lower_ in _NOT_INVERTED:
        return False
    before = _real_neighbour(doc, prev.i, -1)
    if not (prev.is_sent_start or before is None or before.is_punct or before.lower_ in ("and", "but", "then")):
        return False
    j = nxt.i + 1           # past the modifiers to the noun: a name, the clause's last word
    while j < len(doc) and doc[j].tag_ in ("JJ", "NNP", "NNPS") and not (
            doc[j].tag_.startswith("NNP") and (j + 1 >= len(doc) or not doc[j + 1].tag_.startswith("NNP"))):
        j += 1
    if j >= len(doc) or not doc[j].tag_.startswith("NNP"):
        return False
    after = _real_neighbour(doc, j, 1)
    return after is None or after.is_punct
# verbs of perception whose object may be followed by an -ing form: "heard her singing in the
# garden" (-> "heard him singing"), "seen her flying over the hills"; not "saw her flying
# machine" (a noun after the -ing form: a determiner)
PERCEPTION_LEMMAS = frozenset({"see", "hear", "watch", "feel", "notice", "observe", "find", "catch", "behold",
                               "perceive", "imagine", "picture", "fancy", "remember", "leave", "keep", "set"})
# "to say one's say", "had her say": the noun "say" after a possessive
SAY_IDIOM = ("say", frozenset({"say", "have"}))
# past forms of the verbs above that no suffix rule gives (the pipeline runs no lemmatizer)
_IRREGULAR = {"see": "saw seen", "hear": "heard", "feel": "felt", "find": "found", "catch": "caught",
              "behold": "beheld", "leave": "left", "keep": "kept", "set": "set", "say": "said saith",
              "have": "had has hath", "give": "gave given", "bring": "brought", "get": "got gotten",
              "buy": "bought", "send": "sent", "show": "shown", "tell": "told", "lend": "lent", "pay": "paid",
              "teach": "taught", "make": "made", "read": "read", "write": "wrote written", "sell": "sold",
              "bid": "bade bidden", "forgive": "forgave forgiven", "spare": "spared", "cost": "cost"}


def verb_forms(lemma: str) -> set[str]:
    """The forms of an English verb (lower case): base, -s, -ed, -ing (regular spelling rules,
    a doubled final consonant too) and the irregular forms of :data:`_IRREGULAR`."""
    stem = lemma[:-1] if lemma.endswith("e") and not lemma.endswith("ee") else lemma
    forms = {lemma, lemma + ("es" if lemma.endswith(("s", "sh", "ch", "x", "o")) else "s"),
             stem + "ing", stem + "ed" if not lemma.endswith("e") else lemma + "d"}
    if lemma.endswith("y") and lemma[-2:-1] not in "aeiou":
        forms |= {lemma[:-1] + "ies", lemma[:-1] + "ied"}
    if len(lemma) >= 3 and lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou":
        forms |= {lemma + lemma[-1] + "ing", lemma + lemma[-1] + "ed"}
    forms.update(_IRREGULAR.get(lemma, "").split())
    return forms


def _forms_of(lemmas) -> frozenset[str]:
    return frozenset(f for lemma in lemmas for f in verb_forms(lemma))


# verbs that take someone somewhere: "accompany her home", "see her home" -- "her" an object
# before the adverb "home", not "his home"
ESCORT_FORMS = _forms_of({"accompany", "attend", "take", "bring", "see", "walk", "escort", "send", "carry", "drive", "lead",
                          "conduct", "help", "fetch", "hurry", "wheel", "guide", "row", "ride", "follow"}) \
    | {"took", "taken", "brought", "sent", "drove", "driven", "led", "rode", "ridden"}
# verbs that take an indirect object: after them "her" before a noun without a determiner may be
# either case ("afford her consoling satisfaction", "had given her years and years ago",
# "getting her new clothes"); the sentence alone does not decide (:func:`ambiguous_her`)
DITRANSITIVE_LEMMAS = frozenset({"give", "afford", "bring", "get", "buy", "send", "offer", "lend", "owe", "hand",
                                 "grant", "fetch", "spare", "sell",
                                 # read, seed 20261181: "taught her songs": either case. Not "show":
                                 # "He showed her photos" (to her) was the read's, but "show her
                                 # gratitude", "showing her dimples", "show her sense" (hers) are
                                 # the books' many; "pass" before a bare noun: pronoun_case
                                 "teach"})
# nouns that after "her" make a possessive idiom or belong to her, whatever the verb
IDIOM_NOUNS = frozenset("""respects compliments regards thanks adieu adieus farewell attention love duty leave
consent word permission blessing hand hands""".split())
# after "her", an object: "cost her something", "tell her nothing"
_INDEFINITE_PRONOUNS = frozenset({"nothing", "something", "anything", "everything", "much", "little", "more", "less"})
# nouns that after "her" are hers, whatever the verb: kin, companions, the body, the mind
OWNED_NOUNS = frozenset("""friend friends family parents relations children child cousin cousins companion
companions servant servants maid guardian lover hand hands arm arms heart head face eyes hair lips cheek cheeks
mind thoughts opinion word words consent leave permission name life love affection affections""".split())
# verbs after which "her every ..." is an object and what she is given ("wished her every
# happiness", "offered her every comfort"); after any other verb "her every" is hers ("thrilled her
# every nerve" -> "his every nerve")
DOUBLE_OBJECT_FORMS = _forms_of(DITRANSITIVE_LEMMAS | {"wish", "show", "pay", "allow", "deny", "promise", "do",
                                                      "render", "tell", "teach", "bid", "ask", "assure", "leave",
                                                      "make", "win", "save", "cost", "find", "owe", "lend", "refuse"})
# what one bids or wishes someone: "bid her adieu", "bade her farewell", "wished her good-night"
# -> "him" ("her" the one spoken to; the parser often reads a determiner)
FAREWELLS = frozenset({"adieu", "adieus", "farewell", "welcome", "good-bye", "goodbye", "good-night",
                       "goodnight", "good-morning", "good", "joy"})
BID_FORMS = _forms_of({"bid", "wish"}) | {"bade", "bidden"}
# verbs that take an object and its state ("had made her fat", "left her cold"): a word after
# "her" that the parser reads as a noun yet makes the verb's clausal complement is that state
SMALL_CLAUSE_FORMS = _forms_of({"make", "render", "leave", "keep", "get", "drive", "turn"}) \
    | {"made", "left", "kept", "got", "gotten", "drove", "driven"}
# verbs of making and letting whose object does what the bare verb after it says ("made her
# regret that she had said so much", "made her promise to write")
CAUSATIVE_FORMS = _forms_of({"make", "let"}) | {"made"}
# words in -ing that after "her" are things she has, not what she is doing ("laying her knitting
# down" -> "his knitting"; read, seed 20261146: "laying him knitting down")
ING_NOUNS = frozenset("""knitting sewing netting stocking stockings wedding pudding earring earrings clothing
bedding lodging lodgings stuffing needlework""".split())
# nouns after "every" that make a time adverb: "saw her every day" -> "him every day"
EVERY_TIME_NOUNS = frozenset("""day days morning evening night week month year hour minute moment time
afternoon now other second season spring summer autumn winter sunday monday tuesday wednesday thursday
friday saturday christmas fortnight""".split())
# verbs that take an object and what it is judged to be ("believed her partial", "thought her
# pretty", "may make her less particular"): an adjective after "her" with no noun to follow is
# her state, "her" an object (read, seed 20261184: "believed his partial", "make his less particular")
JUDGING_FORMS = SMALL_CLAUSE_FORMS | _forms_of({"think", "believe", "consider", "deem", "judge", "suppose",
                                                "fancy", "imagine", "declare", "pronounce", "find", "wish"}) \
    | {"thought", "found"}
# adjectives that stand for a noun after a possessive: "did her best", "made her own", "her utmost"
NOMINAL_ADJECTIVES = frozenset({"own", "best", "utmost", "worst", "all", "most", "least", "last", "first",
                                "uttermost", "fill", "due"})
TRY_FORMS = _forms_of(frozenset({"try"})) | {"tried", "tries"}
PERCEPTION_FORMS = _forms_of(PERCEPTION_LEMMAS)
PASS_FORMS = _forms_of(frozenset({"pass"}))
SAY_FORMS = _forms_of(SAY_IDIOM[1])
DITRANSITIVE_FORMS = _forms_of(DITRANSITIVE_LEMMAS)
# verbs that name someone something: "called her maid" is her maid summoned, or the woman named a
# maid ("called her darling"); the parser reads an object and a predicate either way
NAMING_FORMS = _forms_of(frozenset({"call"}))


def _real_neighbour(doc, i: int, step: int):
    j = i + step
    while 0 <= j < len(doc) and (doc[j].text in MARKUP or doc[j].is_space):
        j += step
    return doc[j] if 0 <= j < len(doc) else None


def _noun_follows(doc, i: int) -> bool:
    """A common noun follows token ``i`` across modifiers (adjectives, participles, adverbs,
    hyphens) within four tokens: "her marked thin-lipped smile"."""
    return _noun_after(doc, i) is not None


def _noun_after(doc, i: int):
    """The common noun that follows token ``i`` across modifiers within four tokens, or None;
    "and" / "or" between two modifiers too ("her loved and loving playmate": read, seed
    20261183, "him loved and loving playmate")."""
    for j in range(i + 1, min(len(doc), i + 6)):
        t = doc[j]
        if t.tag_ in ("NN", "NNS") and t.text[:1].islower():
            return t
        if t.lower_ in ("and", "or") and j > i + 1 and doc[j - 1].tag_[:2] in ("JJ", "VB"):
            continue
        if not (t.tag_[:2] in ("JJ", "VB", "RB", "NN") and t.text[:1].islower() or t.tag_ == "HYPH" or t.text == "-"):
            return None
    return None


def _name_alone(doc, nxt) -> bool:
    """Whether the capitalised words from ``nxt`` on end without a common noun after them
    ("her Darcy, with": a name; "her Paris bonnet", "her Sunday gown": a modifier of her noun)."""
    j = nxt.i
    while j < len(doc) and doc[j].text[:1].isupper() and doc[j].tag_ in ("NNP", "NNPS"):
        j += 1
    follow = doc[j] if j < len(doc) else None
    return follow is None or not (follow.tag_ in ("NN", "NNS") or follow.tag_[:2] in ("JJ", "VB") and follow.dep_ == "amod"
                                  or follow.text in ("'s", "’s"))


def _state_after(doc, nxt) -> bool:
    """Whether the words from ``nxt`` on are an adjective phrase and nothing more: adverbs or
    comparatives ("less", "very"), an adjective, then no noun: punctuation, a conjunction, a
    preposition, "to", or the end ("her less particular--", "her partial, to make")."""
    noun = _noun_after(doc, nxt.i - 1)
    if noun is not None and noun.text == noun.text.rstrip("-—–"):
        return False                    # "her old and tired mother" (not "particular--", cut off)
    j, adjective = nxt.i, False
    while j < len(doc):
        t = doc[j]
        word = t.text.rstrip("-—–")
        if not (word.isalpha() and word[:1].islower()):
            break
        if word.lower() in NOMINAL_ADJECTIVES:
            return False
        if t.tag_ in ("RB", "RBR", "RBS") or word.lower() in ("less", "more", "most", "least", "so", "too", "very"):
            j += 1
            if word != t.text:
                break
            continue
        if t.tag_ in ("JJ", "JJR", "JJS") or (word != t.text and t.tag_ == "NN"):
            adjective = True
            j += 1
            break
        return False
    if not adjective:
        return False
    follow = doc[j] if j < len(doc) else None
    return follow is None or doc[j - 1].text != doc[j - 1].text.rstrip("-—–") or follow.is_punct \
        or follow.tag_ in ("CC", "IN", "TO") or follow.lower_ in ("to", "and", "but", "or")


def ambiguous_her(doc, tok) -> bool:
    """Whether the case of "her" (token ``tok``) is one the sentence leaves open: after a verb
    that takes an indirect object, before a noun phrase without a determiner ("afford her
    consoling satisfaction", "which Amelia had given her years and years ago", "getting her new
    clothes"): "him" and "his" both read well, and only the meaning decides. Not after the
    idioms :func:`pronoun_case` settles, nor before a determiner ("gave her a book": an object)
    or after "do" ("to do her justice"). After a verb of naming, before a bare noun, always
    ("called her maid": her maid summoned, or she named one; "called her darling")."""
    if tok.lower_ != "her":
        return False
    prev, nxt = _real_neighbour(doc, tok.i, -1), _real_neighbour(doc, tok.i, 1)
    if prev is None or nxt is None or prev.lower_ in DO_FORMS:
        return False
    if prev.lower_ in NAMING_FORMS and prev.tag_.startswith("VB") and nxt.text[:1].islower() \
            and (nxt.tag_ in ("NN", "NNS") or (nxt.tag_ == "JJ" and gender_of(nxt.text) is not None)) \
            and nxt.lower_ not in IDIOM_NOUNS:
        return True                     # "called her maid": summoned her maid, or named her one
        #                                 (not "called her prudish": an adjective, her the object)
    if prev.lower_ not in DITRANSITIVE_FORMS or not prev.tag_.startswith("VB"):
        return False
    if not nxt.text[:1].islower() or nxt.tag_ in ("DT", "PRP$", "PDT", "WDT", "CD", "IN", "TO", "RP", "CC"):
        return False
    if nxt.lower_ in OWNED_NOUNS or nxt.lower_ in IDIOM_NOUNS or gender_of(nxt.text) is not None:
        return False                    # "gave her hand to him", "pay her respects": hers
    if nxt.tag_ in ("NN", "NNS"):
        return nxt.lower_ not in _INDEFINITE_PRONOUNS
    lower_proper = nxt.tag_ == "NNP" and nxt.text[:1].islower()     # the tagger's "fresher"
    if not (nxt.tag_ in ("JJ", "JJR", "JJS", "VBG") or lower_proper):
        return False
    noun = _noun_after(doc, tok.i)
    # "her new clothes", "give her fresher intelligence" (read, seed 20261181); not "giving her
    # beloved sister": hers
    return noun is not None and noun.lower_ not in OWNED_NOUNS and noun.lower_ not in IDIOM_NOUNS \
        and gender_of(noun.text) is None


def pronoun_case(doc) -> int:
    """Correct the tag and dependency label of "her" and "his" where the tagger reads their case
    wrong, so that :func:`flip` (through :func:`pronoun_tag`) gives the right opposite; returns
    how many tokens changed. A parsed spaCy Doc is changed in place:

    * an idiom of "do" with a noun: "to do her justice", "it does her credit" -> "her" is an
      object (PRP, ``dative``): "to do him justice", not "his justice";
    * an independent "his" before a determiner ("among his the handwriting"): PRP -> "hers";
    * "his" before "back" ("turning his back to them all"): a determiner, whatever the parse;
    * "her" after a verb of making or letting, before a word that may be a verb and a clause's
      "that" or an infinitive's "to" ("made her regret that she had said", "made her promise to
      write"): an object, the subject of that verb ("made her way to the door" keeps the
      determiner);
    * "her" between a verb of taking someone somewhere and the adverb "home" ("accompany her
      home.", "saw her home and left"): an object (PRP, ``dobj``);
    * "her" between "bid" / "wish" and a farewell ("bade her farewell", "bid her adieu",
      "wished her good-night", "wish her joy"): an object;
    * "her" before a word tagged an adjective that the parser makes the verb's object ("touched
      her lute with ..."): a determiner, the word a noun ("set her free", "made her happy": the
      adjective a complement, "her" stays an object);
    * "her" between a verb of making and a word the parser tags a noun but makes the verb's
      clausal complement ("had made her fat and blousy"): an object, the word her state ("made
      her fortune", the noun the verb's object, keeps the determiner);
    * "her" before a thing in -ing ("laying her knitting down", "her wedding"): a determiner;
    * "her" before "every" ("thrilled her every nerve", "at her every word"): a determiner, not
      after a verb of giving ("wished her every happiness") nor before a time ("saw her every day");
    * "her" after a clause-opening preposition, before a past verb and a clause-final name
      (locative inversion, "After her hobbled old Sykes."): an object (PRP, ``pobj``);
    * "her" tagged a determiner before modifiers and a noun, but labelled a subject because the
      parser took a participle for a verb ("her marked thin-lipped smile"): a determiner;
    * "her" before a word that is only ever a verb ("had never known her perform so well", "saw
      her weep"; WordNet's verb-only lemmas, :func:`verb_only`): its subject (PRP,
      ``nsubj``), whatever the tagger said -- a possessive needs a noun; not the first word of a
      compound ("her addle-pated aunt");
    * "her" / "his" before "wont" ("as was her wont"), which the tokenizer splits as "wo" "nt"
      (for a "won't" written without its apostrophe) and the tagger reads as a modal: a
      determiner (PRP$, ``poss``);
    * italics marks around the pronoun ("_her_ poor boy", tokens "_" "her" "_"), which the tagger
      reads as words: the case is decided from the word after the marks, as without them: a
      noun, adjective or number -> determiner (PRP$, ``poss``: "_his_ poor girl"); a
      determiner, punctuation or nothing -> "her" an object, "his" independent."""
    changed = 0
    strings = doc.vocab.strings
    wanted = {strings["her"], strings["his"]}
    # the lower-case forms read in bulk: only "her" and "his" become Token objects
    for i, lower in enumerate(doc.to_array("LOWER").tolist()):
        if lower not in wanted:
            continue
        tok = doc[i]
        low = tok.lower_
        if low not in ("her", "his"):
            continue
        prev, nxt = _real_neighbour(doc, tok.i, -1), _real_neighbour(doc, tok.i, 1)
        marked = any(0 <= j < len(doc) and doc[j].text in MARKUP for j in (tok.i - 1, tok.i + 1))
        tag = dep = None
        after = _real_neighbour(doc, nxt.i, 1) if nxt is not None else None
        if nxt is not None and nxt.lower_ == "wo" and not nxt.whitespace_ and nxt.i + 1 < len(doc) \
                and doc[nxt.i + 1].lower_ == "nt":
            tag, dep = "PRP$", "poss"       # "as was her wont" (read, seed 20261175: "as was him wont")
        elif low == "her" and nxt is not None and nxt.text.isalpha() and nxt.text.islower() \
                and verb_only(nxt.text) and not (nxt.i + 1 < len(doc) and doc[nxt.i + 1].text in ("-", "--")
                                                  and not doc[nxt.i + 1].whitespace_ and not nxt.whitespace_):
            tag, dep = "PRP", "nsubj"       # "known her perform" (read, seed 20261175: "known his perform")
        elif low == "her" and prev is not None and prev.lower_ in DO_FORMS and nxt is not None \
                and nxt.lower_ in DO_IDIOM_NOUNS and not (after is not None and after.tag_.startswith("NN")):
            tag, dep = "PRP", "dative"      # not "did her good work"
        elif low == "her" and prev is not None and prev.lower_ in PERCEPTION_FORMS and nxt is not None \
                and nxt.lower_.endswith("ing") and nxt.tag_[:2] in ("VB", "NN") \
                and not (after is not None and after.tag_[:2] == "NN" and after.text[:1].islower()):
            tag, dep = "PRP", "dobj"        # "heard her singing in the garden"
        elif nxt is not None and nxt.lower_ == SAY_IDIOM[0] and prev is not None \
                and prev.lower_ in SAY_FORMS and low == "her":
            tag, dep = "PRP$", "poss"       # "ere the bride had said her say"
        elif low == "his" and nxt is not None and (nxt.lower_ in _NOT_AFTER_DETERMINER or (
                nxt.text in (",", ";", ":", ".", "!", "?") and prev is not None and prev.tag_ == "IN")):
            # "among his the handwriting"; "among his, the brother only" -> "hers" (read, seed
            # 20261187: "among her, the sister")
            tag, dep = "PRP", "pobj" if prev is not None and prev.tag_ == "IN" else "dobj"
        elif low == "her" and prev is not None and prev.lower_ in CAUSATIVE_FORMS and nxt is not None \
                and nxt.text.isalpha() and nxt.text.islower() and may_be_verb(nxt.text) and after is not None \
                and ((after.lower_ == "that" and after.dep_ == "mark") or (after.lower_ == "to" and after.dep_ == "aux")):
            tag, dep = "PRP", "nsubj"       # "made her regret that she had said" -> "him regret", not
            #                                 "his regret" (read, seed 20261193); "made her way to the
            #                                 door" keeps the determiner ("to" a preposition there)
        elif low == "his" and nxt is not None and nxt.lower_ == "back" and (tok.tag_ == "PRP" or tok.dep_ != "poss"):
            tag, dep = "PRP$", "poss"       # "turning his back to them" -> "her back", not "hers back"
            #                                 (read, seed 20261193: the parser makes "back" an adverb
            #                                 and "his" the verb's object)
        elif low == "her" and prev is not None and prev.lower_ in ESCORT_FORMS and nxt is not None \
                and nxt.lower_ == "home" and (after is None or after.is_punct or after.tag_ in ("IN", "CC", "TO")):
            tag, dep = "PRP", "dobj"        # "accompany her home" -> "him home", not "his home"
        elif low == "her" and prev is not None and prev.lower_ in BID_FORMS and nxt is not None \
                and nxt.lower_ in FAREWELLS:
            tag, dep = "PRP", "dative"      # "bade her farewell" -> "him farewell", not "his farewell"
        elif low == "her" and tok.tag_ == "PRP" and nxt is not None and nxt.tag_ == "JJ" and nxt.dep_ == "dobj" \
                and nxt.head == tok.head:
            tag, dep = "PRP$", "poss"       # "touched her lute": an "adjective" the parser makes the
            #                                 verb's object is a noun (read, seed 20261147)
        elif low == "her" and tok.tag_ == "PRP$" and prev is not None and prev.lower_ in SMALL_CLAUSE_FORMS \
                and nxt is not None and tok.head == nxt and nxt.tag_ == "NN" and nxt.dep_ in ("ccomp", "xcomp", "oprd") \
                and nxt.head == prev:
            tag, dep = "PRP", "nsubj"       # "had made her fat and blousy" -> "him fat", not "his fat"
            #                                 (read, seed 20261153: a noun as a clause is her state)
        elif low == "her" and nxt is not None and nxt.text[:1].isupper() and nxt.tag_ in ("NNP", "NNPS") \
                and after is not None and after.text in ("'s", "’s"):
            tag, dep = "PRP", "dative"      # "to show her Linton's will" -> "him": a possessive cannot
            #                                 stand before another's (read, seed 20261183: "his Zillah's will")
        elif low == "her" and nxt is not None and nxt.text[:1].isupper() and nxt.tag_ in ("NNP", "NNPS") \
                and prev is not None and prev.lower_ in DOUBLE_OBJECT_FORMS and prev.tag_.startswith("VB") \
                and _name_alone(doc, nxt):
            tag, dep = "PRP", "dative"      # "a glance showed her Darcy" -> "him Elizabeth": after a verb
            #                                 of giving a name is the thing given (read, seed 20261184)
        elif low == "her" and prev is not None and prev.lower_ in JUDGING_FORMS and prev.tag_.startswith("VB") \
                and nxt is not None and _state_after(doc, nxt):
            tag, dep = "PRP", "dobj"        # "believed her partial," -> "him partial"
        elif low == "her" and nxt is not None and nxt.lower_ in ("best", "utmost", "uttermost", "level", "worst") \
                and prev is not None and (prev.lower_ in DO_FORMS or prev.lower_ in TRY_FORMS):
            tag, dep = "PRP$", "poss"       # "she did her best" -> "his best", not "him best"
        elif low == "her" and tok.tag_ == "PRP" and nxt is not None and nxt.tag_ in ("NN", "NNS") \
                and nxt.text[:1].islower() and gender_of(nxt.text) is None \
                and (nxt.dep_ in ("nsubj", "nsubjpass") or (tok.head == nxt and tok.dep_ in ("nsubj", "nsubjpass"))):
            tag, dep = "PRP$", "poss"       # "she made her knees a comfortable rest": the parser made
            #                                 both subjects, or "her" the subject of the noun as if
            #                                 a verb; "her" is its possessive (read, seed 20261187:
            #                                 "made him knees")
        elif low == "her" and nxt is not None and nxt.lower_ in ING_NOUNS:
            tag, dep = "PRP$", "poss"       # "laying her knitting down" -> "his knitting"
        elif low == "her" and prev is not None and prev.tag_ in ("IN", "TO") and nxt is not None \
                and nxt.tag_ in ("RB", "RBS", "RBR") and _noun_after(doc, tok.i) is None:
            tag, dep = "PRP", "pobj"        # "It seemed to her most unnatural that" -> "to him" (read,
            #                                 seed 20261182: "to his most unnatural"); "to her most
            #                                 intimate friend" keeps its noun: hers
        elif low == "her" and prev is not None and prev.tag_ in ("IN", "TO") and nxt is not None \
                and nxt.tag_[:2] == "JJ" and _state_after(doc, nxt):
            tag, dep = "PRP", "pobj"        # "It seemed to her strange." -> "to him strange", not "his"
        elif low == "her" and prev is not None and prev.lower_ in PASS_FORMS and prev.tag_.startswith("VB") \
                and nxt is not None and nxt.text[:1].islower() and nxt.tag_ not in ("DT", "PDT", "PRP$", "IN", "TO", "RP", "CC", "RB") \
                and (nxt.tag_ in ("NN", "NNS") or _noun_follows(doc, tok.i)):
            tag, dep = "PRP$", "poss"       # "passed her weary hours", "passed her door" -> "his" (read,
            #                                 seed 20261181: "him weary hours"); "passed her the salt" an object
        elif low == "her" and nxt is not None and nxt.lower_ == "every":
            if prev is not None and prev.lower_ in DOUBLE_OBJECT_FORMS and prev.tag_.startswith("VB"):
                tag, dep = "PRP", "dative"  # "wished her every happiness" -> "him every happiness"
            elif after is not None and after.lower_ in EVERY_TIME_NOUNS:
                tag, dep = "PRP", "dobj"    # "saw her every day" -> "him every day"
            else:
                tag, dep = "PRP$", "poss"   # "thrilled her every nerve" -> "his every nerve"
        elif low == "her" and tok.tag_ == "PRP$" and _inverted_object(doc, tok, prev, nxt):
            tag, dep = "PRP", "pobj"        # "After her hobbled old Sykes."
        elif low == "her" and tok.tag_ == "PRP$" and tok.dep_ != "poss" and _noun_follows(doc, tok.i):
            tag, dep = "PRP$", "poss"       # "her marked thin-lipped smile": the parser took "marked" for a verb
        elif marked:
            if nxt is not None and not nxt.text[:1] in MARKUP and (nxt.tag_[:2] in ("NN", "JJ", "CD") or (
                    nxt.tag_ == "VBG" and not (prev is not None and prev.lower_ in PERCEPTION_FORMS))):
                # "since _her_ coming away" -> "_his_ coming" (read, seed 20261186: "_him_"); "saw
                # _her_ coming" is the object
                tag, dep = "PRP$", "poss"
            elif nxt is None or nxt.is_punct or nxt.tag_ in ("DT", "PRP$") or nxt.lower_ in _NOT_AFTER_DETERMINER:
                tag, dep = "PRP", ("dobj" if low == "her" else "attr")
        if tag is not None and (tok.tag_, tok.dep_) != (tag, dep):
            tok.tag_, tok.dep_ = tag, dep
            changed += 1
    return changed
