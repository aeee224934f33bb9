"""The persons of a book: which PERSON mentions are persons, their gender, and the cast.

One definition used by every stage (extract in both strategies, ``persons``, ``generate
--gap-tsv``, ``annotate-export``, ``analyze``, ``cda``): :func:`doc_mentions` turns a parsed
Doc (NER + the person layer) into name mentions, applying

1. **the researcher's overrides** (``--cast``), by the mention's name or its text;
2. **local guards** on what a sentence shows is no person: a month, weekday or feast in a
   date ("born March 1, 1760", "in June", "at Easter"); a saint's name used as a place ("at
   St. James's", "in St. Paul's"); a single untitled word after "the" ("the Moonstone",
   "the Fuwalda"), or a name after "the" and capitalised words that are no titles ("the
   Royal George"); personifications and powers ("Heaven", "Providence", "Fate"); places of
   scripture ("in Eden"); a well-known place as a whole or glued to the next word ("SOUTH
   CAROLINA Time", "Merry England"); titles of works and ships in italics ("_Samson_");
   a street word after a capitalised word ("Park Lane"); a word quoted as a word ("the word
   'Victoria'"); dialect and oaths ("Dat", "Marry"); calling an animal ("Kitty, kitty");
   "was at Trinity";
3. **the book's evidence** (:mod:`pipeline.lang.book_evidence`): a form the book uses as a
   place is no person without a title ("in Kent" -> "Kent" is a county in this book, even in
   "Kent was green"), unless the sentence itself shows a person ("Kent said");
4. **gender from the book** where the name and title give none (surnames, "Jo") or the
   book's pronouns strongly contradict gender-guesser ("Demi"); a kin word between a
   possessive and the name ("her aunt Pontifex"; "his grandmother Irving" loses Irving's
   masculine gender);
5. **persons the NER missed**: a bare capitalised word the book shows to be a person
   ("Tuppence", "Winterbourne") becomes a mention wherever it stands outside another entity.

:func:`cast_rows` groups a book's mentions into persons (``person`` ids) and one cast row per
person. Takes spaCy Docs as input; reads and writes no files.

May import: :mod:`pipeline.lang`, :mod:`pipeline.vocab`, the standard library.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections import Counter

from pipeline.lang.book_evidence import (FEW_VOTES, FOREIGN_ARTICLES, MOTION_WORDS, NOT_A_PERSON, NOT_PLACE_BEFORE_AT, PLACE_MIN, PLACE_PREPS, SPEECH_VERBS, TITLE_MIN, LOWER_RATIO,
                                         BookEvidence)
from pipeline.lang.aliases import cast_join
from pipeline.lang.doc_arrays import DocArrays
from pipeline.lang.names import (MISS_TITLES, THE_TITLES, NameMention, any_title, contested, glued_pieces, guess, mention_from_span, profession_title,
                                 title_gender)
from pipeline.lang.frequency import zipf as common_word
from pipeline.lang.places import known_place
from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED, target_pronoun_gender

MONTHS = {"January", "February", "March", "April", "May", "June", "July", "August", "September",
          "October", "November", "December"}
DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"}
FEASTS = {"Easter", "Christmas", "Michaelmas", "Whitsuntide", "Whitsun", "Lent", "Candlemas",
          "Martinmas", "Lammas", "Epiphany", "Pentecost", "Advent", "Sabbath", "Hallowmas", "Yule"}
POWERS = {"Heaven", "Heavens", "Providence", "Fate", "Fortune", "Nature", "Destiny", "Death",
          "Time", "Love", "Hell", "Paradise", "Nay", "Yes", "Oh", "Ah", "Alas", "Amen"}
# movements, charters and colleges named like persons: a given name and a word ("Christian
# Science", "Bryn Mawr"), which NER takes for a person (reads of seeds 20261138, 20261142, 20261147)
NAMED_THINGS = frozenset({"Christian Science", "Christian Scientist", "Christian Scientists", "Christian Endeavor",
                          "Christian Endeavour", "Salvation Army", "Holy Ghost", "Holy Spirit", "Magna Charta",
                          "Magna Carta", "Bryn Mawr"})
# God in the exclamations of other languages: "Mon Dieu!", "Mein Gott!", "Madre de Dios!", "Dio
# mio!" (the NER's PERSON, gender-guesser's "Mon" a woman)
FOREIGN_GOD = {"Dieu", "Gott", "Dios", "Dio", "Deus", "Dieux"}
# virtues and passions the period personifies ("the syren Hope again took possession of her
# bosom": read, seed 20261131); some are girls' names too (Hope, Prudence, Patience, Mercy), so
# they are no person only where the book never shows the word as one
PERSONIFICATIONS = {"Hope", "Despair", "Virtue", "Vice", "Pity", "Mercy", "Reason", "Folly", "Religion",
                    "Prudence", "Patience", "Charity", "Honour", "Honor", "Envy", "Pride", "Conscience",
                    "Sorrow", "Joy", "Wisdom", "Innocence", "Modesty", "Friendship", "Melancholy", "Jealousy"}
# places of scripture, like "Paradise" above: "their souls again in Eden", "o'er Eden"
SACRED_PLACES = {"Eden", "Zion", "Sion", "Calvary", "Gethsemane", "Golgotha", "Canaan", "Babylon"}
DATE_WORDS = MONTHS | DAYS | FEASTS
DATE_CUES = {"in", "of", "since", "until", "till", "last", "next", "early", "late", "this",
             "every", "during", "by", "before", "after", "on", "at", "from", "to", "between", "mid"}
SAINTS = {"st", "st.", "saint", "ste", "ste."}
PLACE_SUFFIXES = ("shire", "borough", "chester", "caster")
# an untitled single word that is no first name, a common English word (wordfreq's Zipf
# frequency of its lower-case form) and never shown to be a person by the book: "Beauty",
# "Liberty", "Lane", "Marry"
COMMON_WORD_ZIPF = 4.0
# a word the book capitalises only where a sentence starts, also writes in lower case, never
# shows to be a person, and that is at least this common in English is a noun there, even if
# gender-guesser lists it
COMMON_NOUN_ZIPF = 3.0
# a listed first name that is also a known place ("York", "Odessa", "Elizabeth") is a place only
# in a whole book that never shows such a person: a short text's silence proves nothing
BOOK_WORDS = 20_000
COMMON_FIRST_ZIPF = 4.5
# titles of no gender: a name after them is a person's ("Doctor Armstrong", "St. John")
NEUTRAL_TITLES = {"doctor", "dr", "professor", "prof", "judge", "reverend", "rev", "dean", "nurse",
                  "governor", "senator", "president", "mayor", "sheriff", "elder", "deacon", "pastor",
                  "st", "saint", "old", "young", "little", "poor", "dear", "dearest", "cousin"}     # the same for the first word of an untitled name of several words
ARTICLE_WORDS = {"The", "A", "An", "THE"}
# last words of house and estate names: "Kellynch Hall", "Netherfield Park" (a person when the
# first word is a gendered first name: "John Hall")
ESTATE_WORDS = {"Hall", "Park", "House", "Court", "Abbey", "Lodge", "Place", "Manor", "Castle",
                "Cottage", "Grange", "Farm", "Priory", "Towers", "Mill", "Heights", "Rectory", "Parsonage",
                "Lane", "Close", "Corner", "Street", "Road", "Square", "Row", "Terrace", "Gardens", "Inn",
                "Arms", "Green", "Common", "Bridge", "Wharf", "Vale", "Valley", "Hill", "Wood"}
# titles of royalty and the peerage that London and other towns give their streets and squares
# ("Queen Square", "King Street", "Duke Street"); a person of those ranks is named by a given
# name or a place ("Queen Victoria", "the Duke of Omnium"), never by a street word
ROYAL_TITLES = frozenset({"king", "queen", "prince", "princess", "duke", "duchess"})
# the lower-case head noun of a place named after a person, read after a place preposition:
# "in Prince Edward island" (the NER took "Prince Edward" for a man)
PLACE_HEADS = frozenset("""island isle street square road lane river lake county bay harbour harbor
sound strait cape mountains hills valley canal parish township""".split())
# the last word of a street's or square's name: a name ending so is a place ("in Russell Square",
# "Mr. Smee has forgotten where Russell Square is now": read, seed 20261132)
STREET_WORDS = frozenset("street square lane road avenue terrace crescent gardens row".split())
# ... and of an institution's ("at Hilton Tennis Club" as a man: read, seed 20261181)
INSTITUTION_WORDS = frozenset("""club hotel company society college school chapel bank hospital museum
theatre theater library institute academy university association railway cathedral seminary""".split())
HEADING = re.compile(r"\b(?:CHAPTER|Chapter|BOOK|VOLUME|Volume|PART|ADVENTURE|STAVE|CANTO)\b")
POSSESSIVE = {"'s", "’s"}
# dialect spellings of function words and archaic oaths that gender-guesser lists as names
# ("Dat's a fac'", "Marry, I trow not")
DIALECT_WORDS = {"Dat", "Dis", "Dey", "Dem", "Dese", "Dose", "Dar", "Dere", "Wid", "Marry"}
# The devil's names after a capitalised "Old" ("Old Nick", "Old Harry", "Old Scratch")
DEVIL_NAMES = frozenset({"Nick", "Harry", "Scratch", "Clootie", "Hornie", "Horny"})
# Letters after a name and its comma that the small NER tags PERSON ("Sir John Belmont, Bart.")
POST_NOMINALS = {"Bart", "Bt", "Esq", "Esquire", "Junr", "Senr", "Jun", "Sen"}
BE_FORMS = {"is", "was", "were", "am", "are", "be", "been", "being", "'m", "'s", "’m", "’s"}
WORD_NOUNS = {"word", "words", "name", "names", "cry", "title"}
_QUOTE_MARKS = {'"', "'", "“", "”", "‘", "’"}


def _words(m: NameMention) -> list[str]:
    return m.name.split()


def _initial(word: str) -> bool:
    """A given name's initial: one capital letter and its period ("J.")."""
    return len(word) == 2 and word[0].isupper() and word[0].isalpha() and word[1] == "."


def _prev(doc, i: int):
    j = i - 1
    while j >= 0 and doc[j].is_space:
        j -= 1
    return doc[j] if j >= 0 else None


def _next(doc, i: int):
    j = i
    while j < len(doc) and doc[j].is_space:
        j += 1
    return doc[j] if j < len(doc) else None


def _family_plural(doc, m: NameMention, evidence: BookEvidence | None) -> bool:
    """An untitled word right after "the" that is the plural of a surname the book titles or
    writes after a given name ("the Elphbergs", "the Gavericks", "the Ambersons"): a family, a
    group of persons (LitBank's gold counts them as persons) with no gender (:data:`FAMILY_SOURCE`):
    extract's windows never take it for one of their four, and refuse a window holding it
    unless it is the family of one of the four ("the Crofts" beside Admiral Croft). Only with a
    book's evidence."""
    if m.title or evidence is None or not evidence.text_rules or m.token_end - m.token_start != 1:
        return False
    word = m.name
    prev = _prev(doc, m.token_start)
    if prev is None or prev.lower_ != "the" or len(word) < 4 or not word.endswith("s") or not word[1:].islower():
        return False
    aliases = getattr(evidence, "aliases", None)
    by_surname = getattr(aliases, "by_surname", None) or {}
    for single in (word[:-1], word[:-2]) if word.endswith("es") else (word[:-1],):
        ev = evidence.forms.get(single)
        if (ev is not None and sum(ev.titled.values())) or by_surname.get(single.lower()):
            return True
    return False


FAMILY_SOURCE = "book:family"        # the gender source of a family's plural: no gender, no window's person


def _as_family(m: NameMention) -> NameMention:
    return dataclasses.replace(m, gender=UNGENDERED, gender_source=FAMILY_SOURCE)


THING_TITLED_MIN = 3        # titled uses of a name before the book can call it a thing's ...
THING_AFTER_THE_SHARE = 0.75  # ... that many of them right after "the"


def _titled_thing(m: NameMention, words: list[str], evidence: BookEvidence | None) -> bool:
    """A titled name the book writes right after "the" in at least ``THING_AFTER_THE_SHARE``
    of its titled uses (at least ``THING_TITLED_MIN``): an inn, a ship or a house named after
    a person ("when my father kept the Admiral Benbow inn", "at the Admiral Benbow" 18 times of
    19 in *Treasure Island*), no person, and neither is the bare name ("at the old Benbow"). Not
    a rank of nobility, which a book writes after "the" of a person ("the Prince Andrew", "the
    Emperor Napoleon")."""
    if evidence is None or not evidence.text_rules or m.title.rstrip(".").lower() in THE_TITLES:
        return False
    word = words[-1]
    if word.endswith("s") and (evidence.capital[word[:-1]] or evidence.capital[word[:-2]]):
        return False                # "the Miss Steeles": sisters (not_a_person's "family")
    if any_title(word) or profession_title(word):
        return False                # "the Frau Professor" (Erlin), a person by her husband's office
    ev = evidence.forms.get(word)
    if ev is None:
        return False
    titled = sum(ev.titled.values()) + ev.professions
    return titled >= THING_TITLED_MIN and ev.titled_after_the >= THING_AFTER_THE_SHARE * titled


def _speech_next(doc, m: NameMention) -> bool:
    nxt = _next(doc, m.token_end)
    if nxt is not None and nxt.text == ",":
        nxt = _next(doc, nxt.i + 1)
    prv = _prev(doc, m.token_start)
    return bool((nxt is not None and nxt.lower_ in SPEECH_VERBS)
                or (prv is not None and prv.lower_ in SPEECH_VERBS))


def not_a_person(doc, m: NameMention, evidence: BookEvidence | None) -> str | None:
    """Why the mention ``m`` of ``doc`` is no person (a short reason), or None."""
    words = _words(m)
    if evidence is not None:
        for form in (m.name, m.text):
            if evidence.override(form) == NOT_A_PERSON:
                return "cast"
    if evidence is not None and not evidence.text_rules:
        evidence = None                 # overrides only: the sentence rules below, no book rules
    if HEADING.search(m.text):
        return "heading"
    if (not m.title and (all(_roman(w) for w in words) or _after_heading_word(doc, m))) or _heading_line(doc, m):
        return "heading"                # "CHAPTER LIV" (gender-guesser: Liv), "BOOK II", "CHAPTER 39. WICKFIELD AND HEEP"
    if not m.title and len(words) > 1 and _roman(words[0]):
        return "heading"                # "IX Clifford and Phoebe", a chapter's number and title (read, seed 20261181)
    if not m.title and _gendered_noun(words[-1]) and not (len(words) == 1 and _given_with_surname(words[0], evidence)):
        return "a gendered noun (the Story Girl)"
    if not m.title and _modifier(doc, m):
        return "a name used as a modifier (the old Irving place)"
    if all(len(w.rstrip(".")) <= 1 for w in words):
        return "initials"
    if _self_coordinated(doc, m):
        return "a name coordinated with itself (Jarndyce and Jarndyce: a lawsuit)"
    after = doc[m.token_end] if m.token_end < len(doc) else None
    if after is not None and after.text in PLACE_HEADS and _prev(doc, m.token_start) is not None \
            and _prev(doc, m.token_start).lower_ in (*PLACE_PREPS, "the"):
        return "place-name"             # "in Prince Edward island", "to Regent street"
    if _second_word_of_a_place(doc, m, evidence):
        return "place-name"             # "the house in Pall Mall": the NER took "Mall"
    if not m.title and len(words) > 1 and words[-1].lower() in STREET_WORDS | INSTITUTION_WORDS \
            and doc[m.token_end - 1].text[:1].isupper():
        return "place-name"             # "Russell Square", "Parley Street": a street named like a man;
        #                                 "Hilton Tennis Club"
    if m.title and len(words) == 1 and words[0].endswith("s") and evidence is not None:
        prev_t = _prev(doc, m.token_start)
        singular = words[0][:-2] if words[0].endswith("es") and evidence.capital[words[0][:-2]] else words[0][:-1]
        if prev_t is not None and prev_t.lower_ == "the" and evidence.capital[singular]:
            return "family"             # "the Miss Steeles", "the Miss Bennets": sisters, no one person
    if m.title and len(words) == 1 and m.title.rstrip(".").lower() in ROYAL_TITLES and words[0] in ESTATE_WORDS:
        return "place-name"             # "near Queen Square", "in Duke Street": no queen is called Square
    if m.title and title_gender(m.title) == FEMININE and len(words) == 1 and _taunt(m.title, words[0], evidence):
        return "taunt"                  # "His feelings are not like yours, Miss Traddles": a boy called a girl
    if (m.title or len(words) == 1) and _titled_thing(m, words, evidence):
        # the bare name too: "at the old Benbow"
        return "a titled name the book writes after \"the\" (the Admiral Benbow, an inn)"
    if m.title and title_gender(m.title):
        return None
    if evidence is not None and any(evidence.is_animal(w) for w in words):
        return "animal"                 # "Dinah was the cat": the book names an animal
    first = m.title or words[0]
    if words[0] in ARTICLE_WORDS:
        return "article"
    if len(words) > 1 and words[-1] in ESTATE_WORDS and _no_first_name(words[0], evidence):
        return "estate"
    if not m.title and len(words) == 2 and _family_seat(words, evidence):
        return "estate"                 # "Howard Grove": Lady Howard's house, no Mr. Grove in the book
    if len(words) > 1 and _no_first_name(words[0], evidence) and common_word(words[0]) >= COMMON_FIRST_ZIPF \
            and words[0].rstrip(".").lower() not in NEUTRAL_TITLES \
            and (evidence is None or not evidence.proper(words[0])) and not _famous(" ".join(words)):
        # (a well-known person stays one: "Mark Antony's oration", an allusion the windows see)
        return "common-word"            # "Royal George", "Golden Hind", "Yellow Labour"
    if evidence is not None and not m.title and (len(words) == 1 or guess(words[0])[0] == UNGENDERED) \
            and _thing(words[-1], evidence):
        return "thing"                  # "the Colonel's unlucky Diamond", "that infernal Indian Diamond"
    prev = _prev(doc, m.token_start)
    nxt = _next(doc, m.token_end)
    if nxt is not None and nxt.text in ESTATE_WORDS and nxt.i == m.token_end and not m.title \
            and _no_first_name(words[0], evidence):
        return "estate"                 # "Stagfoot Lane", "the Abbey Close": the NER took only the first word
    if nxt is not None and nxt.i == m.token_end and nxt.text[:1].isupper() and not m.title and len(words) == 1 \
            and _family_seat([words[0], nxt.text], evidence) and not _given_in_book(words[0], evidence):
        return "estate"                 # "coming with it to Howard Grove": the NER took only "Howard" (read, seed 20261148)
    if not m.title and _of_a_named_person(doc, m):
        return "estate"                 # "Mr. Erskine of Treadley" (read, seed 20261180)
    why = _place_or_title_around(doc, m, words, prev, nxt, evidence)
    if why:
        return why
    if first.lower() in SAINTS or (m.title and m.title.lower() in SAINTS):
        if prev is not None and prev.lower_ in PLACE_PREPS:
            return "saint-place"
        rest = [w for w in words if w.lower() not in SAINTS]
        if rest and evidence is not None and known_place(_saint_spelled(first) + " " + " ".join(rest)) \
                and not any(evidence.is_person(w) for w in rest):
            return "saint-place"        # "the shores of St. Helena": GeoNames spells it "Saint Helena"
        if nxt is not None and nxt.text in POSSESSIVE:
            after = _next(doc, nxt.i + 1)
            if after is None or after.is_punct or not after.text[:1].isalpha() or after.tag_ not in ("NN", "NNS", "JJ"):
                return "saint-place"
        return None
    if any(w in FOREIGN_GOD for w in words):
        return "power"                  # "Mon Dieu!" (read, seed 20261145: a woman of the window)
    if " ".join(words) in NAMED_THINGS:
        return "named-thing"            # "in regard to Christian Science" (reads of seeds 20261142, 20261147)
    if len(words) == 2 and not m.title and _place_run(words, evidence) and not _speech_next(doc, m):
        return "place-in-book"          # "He belonged to Gopher Prairie" (read, seed 20261152)
    if _after_a_place_owner(doc, m, words, evidence):
        return "place-in-book"          # "the heir of Queen's Crawley": the NER took only "Crawley" (read, seed 20261159)
    if len(words) == 2 and words[0] in FOREIGN_ARTICLES and not m.title and evidence is not None \
            and evidence.is_place(words[1]) and not _speech_next(doc, m):
        return "place-in-book"          # "as they passed towards La Vallee" (read, seed 20261147)
    if len(words) == 1:
        word = words[0]
        if word in POWERS:
            return "power"
        if word in PERSONIFICATIONS and not m.title and not (
                evidence is not None and (evidence.is_person(word) or _titled_in_book(evidence, word))):
            return "power"              # "the syren Hope": a personified virtue, unless the book's Hope speaks
        if prev is not None and prev.lower_ == "of" and (kin := _prev(doc, prev.i)) is not None \
                and kin.lower_ in FAMILY_NOUNS:
            return "family"             # "all the generations of Osborne", "the line of Stuart"
        if word in INTERJECTIONS and not (evidence is not None and (evidence.is_person(word)
                                                                    or _titled_in_book(evidence, word))) \
                and not _speech_next(doc, m):
            return "interjection"       # "Hark at that child!" (gender-guesser: Hark, a man)
        if word in SACRED_PLACES and not (evidence is not None and (evidence.is_person(word)
                                                                     or _titled_in_book(evidence, word))):
            return "sacred-place"       # not "Martin Eden", whom his book shows to be a person
        if word in DIALECT_WORDS:
            return "dialect"
        if word in POST_NOMINALS and prev is not None and prev.text == ",":
            return "post-nominal"       # "To Sir John Belmont, Bart.": a baronet's letters, no person
        if nxt is not None and nxt.text == "," and (after := _next(doc, nxt.i + 1)) is not None \
                and after.text == word.lower():
            return "call"               # "Kitty, kitty, kitty": calling an animal
        if nxt is not None and nxt.text in ("!", "?") and (after := _next(doc, nxt.i + 1)) is not None \
                and after.text == word.lower():
            return "interjection"       # "_Hee! hee! hee!_" cackled old Gagool: a name is not echoed in
            #                             lower case (read of seed 20261189's run: "Hee" a woman)
        if word in DATE_WORDS:
            if evidence is not None and (_titled_in_book(evidence, word) or evidence.is_person(word)):
                # a name that is also a month ("Mrs. March"): a date only where it reads as one
                if (nxt is not None and nxt.like_num) or (prev is not None and prev.lower_ in DATE_CUES):
                    return "date"
                return None
            return "date"
        if prev is not None and prev.lower_ == "the" and not word.endswith("s") and not m.title:
            return "article"
        if prev is not None and prev.lower_ in ("a", "an") and not m.title:
            return "article"            # "in love with an Elliot": one of a family, no one person
        if word.lower().endswith(PLACE_SUFFIXES):
            return "place-name"
        if evidence is not None and guess(word)[0] == UNGENDERED and not evidence.is_person(word) \
                and (not evidence.proper(word) or evidence.never_mid_sentence(word)
                     or common_word(word) >= COMMON_WORD_ZIPF):
            return "common-word"
        if evidence is not None and evidence.is_place(word) and not _speech_next(doc, m):
            return "place-in-book"
        if evidence is not None and guess(word)[0] == UNGENDERED and evidence.only_place(word):
            return "place-in-book"
        if evidence is not None and known_place(word) and not evidence.is_person(word) \
                and not _surname_not_place(word, evidence) and not _listed_with_persons(doc, m) \
                and (guess(word)[0] == UNGENDERED or (evidence.n_words >= BOOK_WORDS and _no_first_name(word, evidence))
                     or (evidence.shown_place_only(word) and not _speech_next(doc, m))):
            return "known-place"        # "at York", "to Odessa": a place no one in the book is called;
            #                             "what is Victoria now" in a text that says "come to Victoria"
        if prev is not None and prev.lower_ in PLACE_PREPS and not (nxt is not None and nxt.text in POSSESSIVE) \
                and not (evidence is not None and evidence.is_person(word)) and guess(word)[0] == UNGENDERED:
            return "place-here"
        why = _known_place_here(doc, m, word, prev, nxt, evidence)
        if why:
            return why
        if prev is not None and prev.lower_ in ("at", "in") and not (nxt is not None and nxt.text in POSSESSIVE) \
                and (be := _prev(doc, prev.i)) is not None and be.lower_ in BE_FORMS \
                and not (evidence is not None and (evidence.is_person(word) or _titled_in_book(evidence, word))):
            return "place-here"         # "I was at Trinity": one is at a place, not at a person
        if nxt is not None and nxt.i == m.token_end and nxt.text[:1].isupper() and known_place(nxt.text) \
                and guess(nxt.text)[0] == UNGENDERED and not (evidence is not None and evidence.is_person(word)) \
                and (common_word(word) >= COMMON_WORD_ZIPF or (evidence is not None and evidence.lower[word.lower()])):
            return "place-name"         # "Merry England"
        if evidence is not None and _sentence_start(doc, m.token_start) and evidence.never_mid_sentence(word) \
                and not evidence.is_person(word) and not _titled_in_book(evidence, word) \
                and evidence.lower[word.lower()] and common_word(word) >= COMMON_NOUN_ZIPF \
                and not _speech_next(doc, m):
            return "common-word"        # "Grit in a sensitive instrument": capitalised only where a sentence starts
        if evidence is not None and not m.title and evidence.model_rejects(word):
            return "model"              # the learned decision (lang/person_model): "Latitude", "Niagara"
    return None


TAUNT_MAX = 1                # uses of an unmarried woman's title before a man's surname that are a taunt
TAUNT_VOTES = 8              # the bare surname's own masculine votes that make it a man's


def _taunt(title: str, surname: str, evidence) -> bool:
    """"Miss Traddles" written once in a book whose Traddles is a man by his own many pronouns
    (no feminine vote beside them but a stray one) and whose women bear no full name with the
    surname: a boy taunted as a girl, no woman of the story (a sister named once is lost with it)."""
    if evidence is None or getattr(evidence, "aliases", None) is None or title.rstrip(".").lower() not in MISS_TITLES:
        return False
    ev = evidence.forms.get(surname)
    low = surname.lower()
    if ev is None or evidence.aliases.titled.get(low, Counter()).get(title.rstrip(".").lower(), 0) > TAUNT_MAX:
        return False
    alone = ev.alone
    if alone.get(MASCULINE, 0) < TAUNT_VOTES or alone.get(FEMININE, 0) * 10 > alone.get(MASCULINE, 0):
        return False
    return not evidence.aliases.given_names(low, FEMININE) - evidence.aliases.given_names(low, MASCULINE)


def _saint_spelled(word: str) -> str:
    """"St." / "ST" -> "Saint", "Ste." -> "Sainte": the gazetteer's spelling."""
    return "Sainte" if word.rstrip(".").lower() in ("ste", "sainte") else "Saint"


def _self_coordinated(doc, m: NameMention) -> bool:
    """The untitled one-word mention is coordinated with the same word ("in Jarndyce and
    Jarndyce", "Dombey and Dombey"): a lawsuit or a firm, no one person (no one is named
    twice in one coordination)."""
    if m.title or m.token_end - m.token_start != 1:
        return False
    word = doc[m.token_start].text
    first = second = None
    after = m.token_end
    if after + 1 < len(doc) and doc[after].lower_ == "and" and doc[after + 1].text == word:
        first, second = doc[m.token_start], doc[after + 1]
    before = m.token_start
    if second is None and before >= 2 and doc[before - 1].lower_ == "and" and doc[before - 2].text == word:
        first, second = doc[before - 2], doc[m.token_start]
    if second is None:
        return False
    # one noun phrase ("in Jarndyce and Jarndyce and otherwise"), not two clauses ("written to
    # Clara and Clara had told Eleanor": the second the subject of its own verb)
    nxt = doc[second.i + 1] if second.i + 1 < len(doc) else None
    if not (second.dep_ == "conj" and second.head.i == first.i):
        return False
    if nxt is None or nxt.tag_ not in ("MD", "VBD", "VBZ", "VBP"):
        return True
    # a verb after it: one thing only when the coordination is the subject and the verb is
    # singular ("Jarndyce and Jarndyce was the curtain of Rick's cradle"; two people "were")
    return first.dep_ in ("nsubj", "nsubjpass") and (nxt.tag_ == "VBZ" or nxt.lower_ == "was")


def _of_a_named_person(doc, m: NameMention) -> bool:
    """An untitled name right after a titled person's name and "of": the person's seat ("The
    post on her left was occupied by Mr. Erskine of Treadley, an old gentleman of considerable
    charm": Treadley had been a man of the window, read of seed 20261180; "Mr. Darcy of
    Pemberley", "Sir Walter Elliot of Kellynch Hall")."""
    k = m.token_start - 1
    if k < 2 or doc[k].lower_ != "of":
        return False
    j = k - 1
    while j >= 0 and doc[j].ent_type_ == "PERSON" and doc[j].text[:1].isupper():
        j -= 1
    if j == k - 1 or all(any_title(doc[i].text) for i in range(j + 1, k)):
        return False                    # no name before "of" ("the Marquis of Steyne": a peerage)
    return any(title_gender(doc[i].text) or any_title(doc[i].text) for i in range(max(j, 0), k))


def _listed_with_persons(doc, m: NameMention) -> bool:
    """The mention stands in a list with a PERSON entity that is no known place, across a comma
    or "and" / "or" ("he had dismissed Jacques, Francis, and Mary": the servant Mary, whom *The
    Mysteries of Udolpho* names too rarely to show, is no city of Turkmenistan; read, seed
    20261177). Read from the tokens: the parser often breaks such lists."""
    def neighbour(i: int, step: int):
        seen_link = False
        while 0 <= i < len(doc) and (doc[i].text in (",", "and", "or", "&") or doc[i].is_space):
            seen_link = seen_link or not doc[i].is_space
            i += step
        return doc[i] if seen_link and 0 <= i < len(doc) else None

    for other in (neighbour(m.token_start - 1, -1), neighbour(m.token_end, 1)):
        if other is not None and other.ent_type_ == "PERSON" and other.text[:1].isupper() \
                and not known_place(other.text):
            return True
    return False


def _place_or_title_around(doc, m: NameMention, words: list[str], prev, nxt,
                           evidence: BookEvidence | None) -> str | None:
    """What the words around an untitled mention show it is not a person: a well-known place
    as a whole ("SOUTH CAROLINA", "New York"); a title of a work or a ship in italics
    ("the Minuet in _Samson_", "the _Golden Hind_"); a name after "the" and capitalised words
    that are no titles ("the Royal George", "the Lion Wallace booth"); a street or building
    word after a capitalised word ("Park Lane"); a word quoted as a word ("the word
    'Victoria'"). Never a form the book shows to be a person."""
    if m.title or (evidence is not None and (evidence.is_person(m.name) or _titled_in_book(evidence, m.name))):
        return None
    cased = " ".join(w[:1] + w[1:].lower() if w.isupper() else w for w in words)
    if len(words) > 1 and known_place(cased):
        return "known-place"
    first = cased.split()[0]
    if prev is not None and prev.text.lower() in COMPASS_WORDS and prev.text[:1].isupper() \
            and known_place(f"{prev.text[:1]}{prev.text[1:].lower()} {first}"):
        return "known-place"            # "SOUTH CAROLINA Time": the NER glued the next word on
    last = cased.split()[-1]
    if len(words) > 1 and known_place(last) and guess(last)[0] == UNGENDERED and evidence is not None \
            and evidence.lower[words[0].lower()] > 0 and not evidence.is_person(words[0]):
        return "place-name"             # "Merry England": a word the book writes in lower case, then a place
    start, end = m.token_start, m.token_end
    while start > 0 and _capitalised_word(doc[start - 1]):
        start -= 1
    while end < len(doc) and _capitalised_word(doc[end]):
        end += 1
    if start > 0 and end < len(doc) and doc[start - 1].text == "_" and doc[end].text == "_":
        return "italic-title"
    before = doc[start - 1] if start > 0 else None
    if (start < m.token_start or len(words) > 1) and before is not None and before.lower_ == "the" \
            and not any(any_title(doc[i].text) or doc[i].lower_ in NEUTRAL_TITLES for i in range(start, m.token_start)):
        return "article"
    if len(words) == 1 and words[0] in ESTATE_WORDS and m.token_start > 0 \
            and _capitalised_word(doc[m.token_start - 1]) and not any_title(doc[m.token_start - 1].text) \
            and _no_first_name(doc[m.token_start - 1].text, evidence):
        return "estate"
    if prev is not None and prev.text in _QUOTE_MARKS:
        prev = _prev(doc, prev.i)
    if prev is not None and prev.lower_ in WORD_NOUNS and (w := _prev(doc, prev.i)) is not None \
            and w.lower_ == "the":
        return "word"                   # "the word 'Victoria'"
    return None


_ROMAN = re.compile(r"^M{0,4}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$")
HEADING_WORDS = {"chapter", "book", "volume", "part", "adventure", "stave", "canto", "section", "act", "scene"}
# interjections gender-guesser lists as first names ("Hark": male, "Fie": female); a form the
# book shows to be a person is one ("Nay" is in POWERS)
INTERJECTIONS = {"Hark", "Gad", "Egad", "Fie", "Ho", "Ha", "Lo", "Alack", "Zounds", "Pshaw", "Hist", "Avast"}
# "all the generations of Osborne": a family, no one person ("the house of Agnes" is her home,
# "the family of Agnes" hers, "the descendants of Abraham" his)
FAMILY_NOUNS = {"generations", "generation", "race", "line", "stock", "clan", "tribe", "dynasty"}
# words before a name that make it a kind, not a person: "a sort of infantine Guy Fawkes"
KIND_WORDS = {"sort", "kind", "species", "type"}


def _roman(word: str) -> bool:
    """A roman numeral in capitals of at least two letters ("LIV", "II"; "I" is a pronoun)."""
    return len(word) >= 2 and bool(_ROMAN.match(word))


def _after_heading_word(doc, m: NameMention) -> bool:
    """The mention follows a heading word on its line ("CHAPTER LIV", "Book Fourth")."""
    prev = _prev(doc, m.token_start)
    return prev is not None and prev.lower_ in HEADING_WORDS and prev.text[:1].isupper() \
        and (prev.i == 0 or "\n" in doc[prev.i - 1].text_with_ws or _sentence_start(doc, prev.i))


HEADING_LINE_CHARS = 80


def _heading_line(doc, m: NameMention) -> bool:
    """The mention stands in a line of its own that starts with a heading word ("CHAPTER 39.
    WICKFIELD AND HEEP", "CHAPTER 28. Mr. MICAWBER’S GAUNTLET"): a chapter's title, not the
    story."""
    i, j = m.token_start, m.token_end
    reach = HEADING_LINE_CHARS // 4     # tokens: a heading's line is short, a paragraph's is not
    while i > 0 and "\n" not in doc[i - 1].text_with_ws:
        i -= 1
        if m.token_start - i > reach:
            return False
    k = i
    while k < m.token_start and doc[k].is_space:
        k += 1
    if doc[k].lower_ not in HEADING_WORDS:
        return False                    # the line starts with no heading word
    while j < len(doc) and "\n" not in doc[j - 1].whitespace_ and not (doc[j].is_space and "\n" in doc[j].text):
        j += 1
        if j - m.token_end > reach:
            return False
    line = doc[i:j].text.strip()
    first = line.split(maxsplit=1)[0].lower() if line else ""
    return len(line) <= HEADING_LINE_CHARS and first in HEADING_WORDS and first != "part" \
        and bool(re.match(r"^\S+\s+(?:[IVXLCDM]+|\d+|[A-Z][a-z]+)\b", line)) and line.split()[0][:1].isupper()


_CLOSING_QUOTES = frozenset({"”", '"', "’", "'"})


def _author_of_quoted(doc, m: NameMention) -> bool:
    """The name right after "by" that follows a closing quote (“History of England” by Lord
    Macaulay: read, seed 20261186): the author of a quoted work, no character of the window."""
    i = m.token_start
    return i >= 2 and doc[i - 1].lower_ == "by" and doc[i - 2].text in _CLOSING_QUOTES


def allusion(doc, m: NameMention, evidence: BookEvidence | None = None) -> str | None:
    """Why the person mention ``m`` is an allusion, no character of the story (a short reason),
    or None. A person still (LitBank's gold counts "Napoleon Bonaparte" and "Robin Hood" where
    a novel names them), but extract refuses a window that holds one (a swap would make a
    heroine of Don Juan): an untitled name used as a kind, after "a sort of" / "a kind of" or
    an indefinite article across adjectives ("a sort of infantine Guy Fawkes", "like a young
    Hercules"); a well-known real or legendary person the book never shows as one
    (:func:`_famous_unshown`: "or Don Juan be popular"; a figure of the Bible or of myth
    untitled: "the offending Adam", "Paul and Silas's prison"); a name a verb of naming gives
    (:func:`_named_as`: "called me Daisy", "called herself Mrs. Carey", "a corruption of
    David"); an untitled name after "no" ("herself no Lillian Russell": a kind); a name after
    "Holy", an oath ("Holy St. Mark! I hear the oars on the canal"); a name titled "Saint"
    written out ("then Saint Joseph"); a name that is all its quotation holds (a song's title:
    :func:`_quoted_title`); the author of a quoted work (:func:`_author_of_quoted`)."""
    if _named_as(doc, m):
        return "a name talked of as a name (called me Daisy)"
    if _quoted_title(doc, m, evidence):
        return "a name quoted as a title (singing “Pretty Bobby Shafto”)"
    if _author_of_quoted(doc, m):
        return "a work's author (the “History of England” by Lord Macaulay)"
    nxt = _next(doc, m.token_end)
    if nxt is not None and nxt.text in ("sort", "kind", "type") and not (
            nxt.i + 1 < len(doc) and doc[nxt.i + 1].lower_ == "of"):
        return "a name used as a kind (Flora MacFlimsy sort)"   # read, seed 20261182 (Ulysses); not
        #                                                         "Jim sort of grinned"
    if _personified(m, evidence):
        return "a personification (Dame Nature)"
    if m.token_start > 0 and doc[m.token_start - 1].text == "Holy":
        return "an oath (Holy St. Mark!)"    # read, seed 20261177: "Holy St. Mark! I hear the oars"
    if m.title == "Saint" or (m.token_start > 0 and doc[m.token_start - 1].text in ("Saint", "saint")):
        # the title spelled out names a saint ("the Blessed Virgin and then Saint Joseph", read,
        # seed 20261180; the 122 novels: Saint Patrick, Saint Paul, Saint Lucy...); "St." is
        # also a surname's ("St. John Rivers", "St. Aubert")
        return "a saint (Saint Joseph)"
    if _famous_unshown(doc, m, m.name.split(), evidence):
        return "a well-known person the book never shows as one"
    if _once_in_book(doc, m, evidence):
        return "a name the whole book writes once (one of Scott's novels)"
    if _capitals_only(m, evidence):
        return "a name the book writes only in capitals (a role: ELSA isn't a part)"
    regnal = _regnal(doc, m)
    if regnal and not _book_shows(doc, m, evidence):
        return regnal
    if not m.title and m.token_start > 0 and doc[m.token_start - 1].text == "Old" and m.name in DEVIL_NAMES:
        return "a name of the devil (Old Nick)"       # "I'd as soon have seen Old Nick as that man"
    if m.title:
        return None
    j, nouns = m.token_start - 1, False
    while j >= 0 and m.token_start - j <= 3 and (doc[j].is_space or doc[j].text == "-"
                                                 or (doc[j].tag_[:2] in ("JJ", "VB", "NN") and doc[j].is_lower)):
        nouns = nouns or doc[j].tag_.startswith("NN")
        j -= 1
    if j >= 0 and doc[j].lower_ in ("a", "an") and j < m.token_start - 1 and not nouns:
        return "a name after an article and adjectives"     # "a mere Hercules"
    if j >= 0 and doc[j].lower_ == "no" and doc[j].text == "no" and not nouns:
        return "a name used as a kind (no Lillian Russell)"   # "herself no Lillian Russell"
    if j >= 2 and doc[j].lower_ == "of" and doc[j - 1].lower_ in KIND_WORDS and doc[j - 2].lower_ in ("a", "an") \
            and not any(_gendered_noun(doc[k].text) for k in range(j + 1, m.token_start)):
        return "a name after 'a sort of'"   # "a sort of infantine Guy Fawkes" (the tagger: "infantine" NN)
    return None


# verbs of naming in their forms (the pipeline runs no lemmatizer)
NAMING_VERBS = frozenset("""call calls called calling name names named naming christen christens christened
christening dub dubs dubbed dubbing nickname nicknames nicknamed style styles styled term terms termed
entitle entitles entitled""".split())


# words that talk of a name as a word: "a corruption of David", "short for Elizabeth", "pull caps
# for the title of Miss Belmont" (Evelina, read of seed 20261170: the name both daughters claim)
NAME_NOUNS = frozenset("""corruption corruptions abbreviation diminutive diminutives nickname nicknames contraction
short name title""".split())
# "changed his name to Vandeleur" (read, seed 20261131): an assumed name
CHANGE_VERBS = frozenset("change changes changed changing alter alters altered altering".split())


_OPENING_QUOTES = {'"', "“", "‘"}
_CLOSING_QUOTES = {'"', "”", "’"}


# titles before a common noun that make a personification: "the vulpine slyness of Dame Nature"
# (read, seed 20261182, Tess), "Mother Nature", "Dame Fortune", "Dame Fashion"
PERSONIFYING_TITLES = frozenset({"Dame", "Mother", "Father", "Lady"})
PERSONIFY_LOWER_MIN = 5         # lower-case uses of the word, at least ...
PERSONIFY_RATIO = 3             # ... and this many per capitalised one


def _personified(m: NameMention, evidence: BookEvidence | None) -> bool:
    """A one-word name after a title of :data:`PERSONIFYING_TITLES` that the book writes in
    lower case as a common word, at least ``PERSONIFY_LOWER_MIN`` times and ``PERSONIFY_RATIO``
    times as often as capitalised: a personification ("Dame Nature", "Mother Nature"), no
    character. "Lady Grey", "Father Brown", whose names the book writes capitalised far more
    often than the colours, stay. Only with a book's evidence."""
    if evidence is None or not evidence.text_rules or m.title.rstrip(".") not in PERSONIFYING_TITLES:
        return False
    words = _words(m)
    if len(words) != 1:
        return False
    low = evidence.lower[words[0].lower()]
    return low >= PERSONIFY_LOWER_MIN and low >= PERSONIFY_RATIO * evidence.capital[words[0]]


QUOTED_TITLE_MAX = 5    # capitalised uses of each name word, at most, for a quoted name to be a title


def _quoted_title(doc, m: NameMention, evidence: BookEvidence | None = None) -> bool:
    """The mention is all a quotation holds, with at most one capitalised word before it, and
    the book writes one of its words capitalised at most ``QUOTED_TITLE_MAX`` times: a song's,
    a book's or a costume's title ("singing “Pretty Bobby Shafto” at the top of her voice", "to
    dance with “Bobby Shafto”"), a signature, no character. A character's name quoted for its
    sound ("communed with her own heart concerning "Troy"", "an enquiry from him about
    "Jeanne"") is written often, and stays; so does a vocative ("“Tom!” she cried"), whose
    punctuation is inside the quotes. Only with a book's evidence."""
    if evidence is None or not evidence.text_rules:
        return False
    if min((evidence.capital[w] for w in _words(m)), default=0) > QUOTED_TITLE_MAX:
        return False                    # (one rare word will do: the signature “Jane Pecq”)
    i = m.token_start - 1
    if i >= 0 and doc[i].text[:1].isupper() and doc[i].is_alpha:
        i -= 1                          # "Pretty"
    if i < 0 or doc[i].text not in _OPENING_QUOTES:
        return False
    j = m.token_end
    if j < len(doc) and doc[j].text in ("'s", "’s"):
        j += 1
    return j < len(doc) and doc[j].text in _CLOSING_QUOTES


def _named_as(doc, m: NameMention) -> bool:
    """The mention is the name a verb of naming gives (the parser's object predicate, ``oprd``,
    or a name coordinated with one): "called me Daisy" (the narrator's nickname), "call
    yourself John Jones, or George Potts" (made-up names), "called herself Mrs. Carey" (an
    assumed name): a name talked of as a word, whose swap would rename the wrong person. Not
    "called Mary at once" (an object) or "called on Mrs. Weston"."""
    head = next((doc[i] for i in range(m.token_start, m.token_end)
                 if not (m.token_start <= doc[i].head.i < m.token_end) or doc[i].head.i == i), None)
    if head is None:
        return False
    tok = head
    while tok.dep_ == "conj" and tok.head.i != tok.i:
        tok = tok.head
    prep = tok.head
    if tok.dep_ == "pobj" and prep.lower_ in ("of", "for") and prep.head.lower_ in NAME_NOUNS:
        return True                     # "which was a corruption of David", "short for Elizabeth"
    if tok.dep_ == "pobj" and prep.lower_ == "to" and prep.head.lower_ in CHANGE_VERBS \
            and any(c.dep_ == "dobj" and c.lower_ in ("name", "names") for c in prep.head.children):
        return True                     # "he changed his name to Vandeleur"
    if tok.dep_ in ("attr", "acomp") and tok.head.lower_ in BE_FORMS:
        name = _name_is(tok.head)
        if name is not None and _another_owner(name, m):
            return True                 # "her real name was Hawdon", "stating her name to be Hawdon"
    if tok.dep_ == "dobj" and tok.head.lower_ in NAMING_VERBS \
            and any(c.dep_ == "dobj" and c.i < tok.i for c in tok.head.children):
        return True                     # the parser's second object: "Jo called him 'Mr. Toodles'"
    if tok.dep_ != "oprd" or tok.head.lower_ not in NAMING_VERBS:
        return False
    # the one named stands between: "called me Daisy", "named him Oliver" (not the parser's
    # "called Levin to her side", Levin an object it took for a predicate)
    return any(c.dep_ == "dobj" and c.i < tok.i for c in tok.head.children)


def _name_is(be):
    """The word "name" whose value the verb "be" gives, or None: the subject of "be" ("my name
    is Pip"), or the object of the verb "be" completes ("stating Miss Summerson's real name to
    be Hawdon")."""
    subject = next((c for c in be.children if c.dep_ in ("nsubj", "nsubjpass") and c.lower_ in ("name", "names")), None)
    if subject is not None or be.dep_ not in ("xcomp", "ccomp", "advcl"):
        return subject
    return next((c for c in be.head.children if c.dep_ == "dobj" and c.lower_ in ("name", "names")), None)


def _another_owner(name, m: NameMention) -> bool:
    """The name is said to be someone else's than the person ``m`` stands for: its owner is
    another name ("Miss Summerson's real name to be Hawdon"; read, seeds 20261163 and 20261165:
    *Bleak House*'s Hawdon, a name of Esther's, grouped with the man) or a possessive of the
    other gender ("her real name was Hawdon" of a man). "His name was Jonas Blake", "my name is
    Pip" name the person himself: a swap renames both."""
    for c in name.children:
        if c.dep_ != "poss":
            continue
        if c.tag_ in ("NNP", "NNPS") and not (m.token_start <= c.i < m.token_end):
            return True
        owner = target_pronoun_gender(c.text)
        return owner is not None and m.gender in (MASCULINE, FEMININE) and owner != m.gender
    return False


# a regnal number (inside the entity or right after it): "Henry VIII", "Louis XIV"; not "I"
_REGNAL = re.compile(r"^(?:II|III|IV|V|VI|VII|VIII|IX|X|XI|XII|XIII|XIV|XV|XVI|XVII|XVIII|XIX|XX)\.?$")
_ORDINAL_EPITHETS = frozenset("""first second third fourth fifth sixth seventh eighth ninth tenth eleventh
twelfth thirteenth fourteenth great""".split())


def _regnal(doc, m: NameMention) -> str | None:
    """A ruler's or a saint's style: a first name with a regnal number ("Henry VIII", "Louis
    XIV"), with an ordinal or an epithet after "the" ("Charles the Second", "Ludwig the
    Courageous of Hessen", "William the Conqueror"): history the story alludes to."""
    toks = [doc[i] for i in range(m.token_start, m.token_end) if not doc[i].is_space]
    after = [doc[i] for i in range(m.token_end, min(len(doc), m.token_end + 2))]
    if len(toks) >= 2 and _REGNAL.match(toks[-1].text):
        return "a ruler's name with a regnal number"
    if after and after[0].text != "I" and _REGNAL.match(after[0].text) and len(toks) == 1:
        return "a ruler's name with a regnal number"
    if len(toks) >= 3 and toks[-2].lower_ == "the" and (toks[-1].lower_ in _ORDINAL_EPITHETS or toks[-1].is_title):
        return "a name with an epithet (Charles the Second)"
    if len(after) == 2 and after[0].text == "the" and after[1].is_title and after[1].tag_ in ("NNP", "JJ") \
            and after[1].ent_type_ != "PERSON":
        return "a name with an epithet (Ludwig the Courageous)"
    return None


def _book_shows(doc, m: NameMention, evidence: BookEvidence | None) -> bool:
    """The book shows the mention's name as a person of the story: a speech verb after it, or
    (with the book's evidence) a speech verb, apposition or possessive of a body part for one
    of its words anywhere in the book."""
    if _speech_next(doc, m):
        return True
    if evidence is None or not evidence.text_rules:
        return False
    for w in m.name.split():
        ev = evidence.forms.get(w)
        if ev is not None and (ev.person or sum(ev.appositions.values())):
            return True
    return False


def _famous_unshown(doc, m: NameMention, words: list[str], evidence: BookEvidence | None) -> bool:
    """A well-known real or legendary person (``resources/real_people.txt``, the whole name
    with its title: "Don Juan", "Lord Byron", or without it) whom the book never shows as a
    person: no speech verb, apposition or possessive of a body part for any of its words, and,
    untitled, no title ("or Don Juan be popular"; not Napoleon in *War and Peace*, who speaks).
    Untitled, a figure of the Bible or of myth (``resources/allusion_names.txt``: "the offending
    Adam", "Paul and Silas's prison") the same way; those names name characters too, whom the
    book shows.
    Only with a book's evidence: a short text's silence proves nothing."""
    if evidence is None or not evidence.text_rules or not evidence.n_words:
        return False
    if not (_famous(m.text) or _famous(m.name) or (not m.title and _alluded(m.name))):
        return False
    # titled, the name must not be titled elsewhere ("as nice a poet as Mr. Shakespeare", the
    # book's one "Mr. Shakespeare"), unless a rank is part of the famous name: every "King Arthur"
    # of *Anne of Green Gables* is the legend's
    # (or a title no other use of the famous name goes without: "Don Juan", whom *Vanity Fair*
    # names five times, always the legend's; read, seed 20261176)
    ranked = bool(m.title) and _famous(m.text) and (m.title.rstrip(".").lower() in THE_TITLES or not _famous(m.name))
    for w in words:
        ev = evidence.forms.get(w)
        if ev is not None and (ev.person or sum(ev.appositions.values())
                               or (not ranked and sum(ev.titled.values()) > (1 if m.title else 0))):
            return False
    aliases = getattr(evidence, "aliases", None)
    if len(words) == 1 and aliases is not None and (getattr(aliases, "by_given", {}) or {}).get(words[0].lower()):
        return False                # the book writes a surname after it: a character ("old Adam" is Adam Patch)
    return not _speech_next(doc, m)


def _capitals_only(m: NameMention, evidence: BookEvidence | None) -> bool:
    """A name every word of which (two letters or more) the book writes in capitals and never
    in title case ("ELSA", "FRICKA", "SIEGLINDE" in *The Song of the Lark*: the roles Thea
    sings; read, seed 20261153: "ELSA isn't a part that's particularly suited to Thea's voice"
    made a woman of the window): a role, a title or a heading's word, no character. "JOHN!"
    shouted in a book that writes "John" stays. Only with a book's evidence."""
    if evidence is None or not evidence.text_rules or not evidence.n_words:
        return False
    words = [w for w in m.text.split() if any(c.isalpha() for c in w)]
    if not words or not all(w.isupper() and len(w) > 1 for w in words):
        return False
    return all(evidence.capital[w.title()] == 0 for w in words)


ONCE_MIN_WORDS = 20000  # a text this long is a book, whose one mention of a name is a passing one


def _once_in_book(doc, m: NameMention, evidence: BookEvidence | None) -> bool:
    """An untitled name every word of which a whole book (at least ``ONCE_MIN_WORDS`` words)
    writes capitalised once, here, and never shows as a person (no speech verb, apposition or
    title; :func:`_book_shows`): a name in passing, an author, a song's or a poem's figure
    ("one of Scott's novels", "lines from The Rape of the Lock about Belinda's diamonds", "sing
    about Jack's delight being his lovely Nan"), no character a swap may rename. A titled name
    ("Madame Bobinot is writing dunning letters") and one that speaks ("said Philippe") stay.
    Only with a book's evidence; a word the counter never saw (0: "Em’ly" with its curly
    apostrophe) is not "once"."""
    if m.title or evidence is None or not evidence.text_rules or evidence.n_words < ONCE_MIN_WORDS:
        return False
    counts = [evidence.capital[w] for w in _words(m)]
    if not counts or max(counts) != 1 or min(counts) < 1:
        return False
    return not _book_shows(doc, m, evidence)


THING_MIN = 3           # uses after a determiner that may make a form a thing
THING_SHARE = 0.5       # ... at least this share of its capitalised uses
THING_PERSONAL = 10     # ... and this many times its person-like uses (titles, speech, appositions)


def _thing(word: str, evidence: BookEvidence) -> bool:
    """The book names ``word`` like a thing: mostly after a determiner ("the Diamond", "the
    Colonel's unlucky Diamond": at least ``THING_SHARE`` of its capitalised uses, at least
    ``THING_MIN``), and hardly ever with a title, as a speaker or in an apposition (at most one
    such use for every ``THING_PERSONAL`` determined ones). "Mr. Diamond said" in a book that
    titles him is a person; "the unhappy Tess" beside her speech is too. An override decides
    before this."""
    if not evidence.text_rules or evidence.override(word):
        return False
    ev = evidence.forms.get(word)
    if ev is None or ev.determined < THING_MIN or ev.determined < THING_SHARE * evidence.capital[word]:
        return False
    if word.endswith("s") and (evidence.capital[word[:-1]] or evidence.capital[word[:-2]]):
        return False                    # "the Ambersons": a family
    personal = ev.person + sum(ev.titled.values()) + sum(ev.appositions.values())
    return personal * THING_PERSONAL <= ev.determined


def _famous_word(doc, i: int) -> bool:
    """Token ``i``, capitalised inside a sentence, is a well-known person's name by itself
    (``resources/real_people.txt``, ``resources/allusion_names.txt``: "if old Pontifex had had
    Cromwell's chances", an ORG to the NER; "out-Heroded Herod") and no known place, with no
    capitalised word after it: a person of the cast (LitBank's gold counts allusions), an
    allusion to the windows."""
    text = doc[i].text
    if not text[1:].islower() or known_place(text) or not (_famous(text) or _alluded(text)):
        return False
    nxt = doc[i + 1] if i + 1 < len(doc) else None
    return nxt is None or not (nxt.text[:1].isupper() and nxt.is_alpha)


def _famous(name: str) -> bool:
    from pipeline.lang.allusions import famous

    return famous(name)


def _alluded(name: str) -> bool:
    from pipeline.lang.allusions import alluded

    return alluded(name)


# the tags of a word that cannot follow a modal or an imperative: "Will was banished", "Will
# turned round" ("turned" a VBN to the tagger), "Will would be away", "Will's coat-sleeve"
_NO_MODAL_AFTER = frozenset({"VBD", "VBZ", "VBN", "MD", "POS"})


def _name_not_verb(doc, i: int) -> bool:
    """Token ``i``, a first name that is also a modal or a verb ("Will", "Mark"), tagged as one,
    is followed (adverbs between) by a verb no modal or imperative takes, or by a possessive
    ending: "Will was banished", "Will never came", "Will's face" are the man's, "Will you show me", "Will not the king come" the modal's.
    Where a sentence starts its capital says nothing, so the word after it decides."""
    tok = doc[i]
    if tok.tag_ not in ("MD", "VB"):
        return False
    j = i + 1
    while j < len(doc) and doc[j].tag_ in ("RB", "RBR") and doc[j].lower_ != "not":
        j += 1
    return j < len(doc) and doc[j].tag_ in _NO_MODAL_AFTER


def _sentence_start(doc, i: int) -> bool:
    """Token ``i`` starts a sentence (after any opening quotes or brackets): the parser starts
    one at it or at a quote or bracket before it. (A paragraph's space token before it belongs
    to the sentence before: "elemental.\n\n" | "Whereupon Bo turned her back", read of seed
    20261156.)"""
    j = i
    while j > 0 and (doc[j - 1].is_space or doc[j - 1].is_quote or doc[j - 1].is_left_punct):
        j -= 1
    return j == 0 or any(doc[k].is_sent_start is True and not doc[k].is_space for k in range(j, i + 1))


def _capitalised_word(tok) -> bool:
    return tok.text[:1].isupper() and tok.text.isalpha() and not tok.is_sent_start


COMPASS_WORDS = frozenset("north south east west new".split())


def _known_place_here(doc, m: NameMention, word: str, prev, nxt, evidence: BookEvidence | None) -> str | None:
    """A well-known place (:func:`pipeline.lang.places.known_place`) that its own sentence shows
    to be one, even where the text is too short for the book's evidence and the place is
    also a first name: right after a place preposition ("at York") or after "to" following
    a verb of motion ("summons to Odessa"); beside another well-known place ("Paris and
    Vienna"). Never a form the text shows to be a person. (After a compass word, "SOUTH
    CAROLINA": :func:`_place_or_title_around`, for a mention of any length.)"""
    name = word[:1] + word[1:].lower() if word.isupper() else word
    if evidence is not None and (evidence.is_person(word) or _titled_in_book(evidence, word)):
        return None
    if not known_place(name) or (nxt is not None and nxt.text in POSSESSIVE):
        return None
    if prev is not None and prev.lower_ in PLACE_PREPS:
        before = _prev(doc, prev.i)
        if not (prev.lower_ == "at" and before is not None and before.lower_ in NOT_PLACE_BEFORE_AT):
            return "known-place"        # "at York"; not "smiled at Florence"
    if prev is not None and prev.lower_ == "to":
        before = _prev(doc, prev.i)
        if before is not None and before.lower_ in MOTION_WORDS:
            return "known-place"
    for a, b in ((prev, _prev(doc, prev.i) if prev is not None else None),
                 (nxt, _next(doc, nxt.i + 1) if nxt is not None else None)):
        if a is not None and b is not None and a.lower_ in ("and", "or") and b.text[:1].isupper() \
                and known_place(b.text) and not (evidence is not None and evidence.is_person(b.text)):
            return "known-place"
    return None


MODIFIER_DETERMINERS = {"the", "a", "an", "his", "her", "their", "our", "its", "my", "your"}


def _modifier(doc, m: NameMention) -> bool:
    """Whether the untitled mention ``m`` modifies the lower-case common noun right after it
    after a determiner ("the old Irving place", "the “Shtcherbatsky element”"), or a plural
    noun right after a preposition ("of Finn maids"): a house, a family's ways, a people, no
    person."""
    last = doc[m.token_end - 1]
    nxt = _next(doc, m.token_end)
    if not (last.dep_ == "compound" and nxt is not None and last.head.i == nxt.i
            and nxt.tag_ in ("NN", "NNS") and nxt.text[:1].islower()):
        return False
    # a determiner before it ("giving Maud lessons" is Maud, given lessons); before a plural, a
    # preposition too: "between incumbencies of Finn maids from the North Woods" (a people, read
    # of the new windows of seed 20261162), "with Smith boys"
    j = m.token_start - 1
    while j >= 0 and (doc[j].tag_.startswith("JJ") or doc[j].is_quote or doc[j].is_space):
        j -= 1
    if j < 0:
        return False
    return doc[j].lower_ in MODIFIER_DETERMINERS or (nxt.tag_ == "NNS" and j == m.token_start - 1
                                                      and doc[j].tag_ == "IN" and doc[j].dep_ == "prep")


def _gendered_noun(word: str) -> bool:
    """A common noun of the gendered-word list ("Girl", "Boy", "Man"; not kin words, which
    stand for names: "Mother said"), capitalised in a nickname: "the Story Girl"."""
    from pipeline.lang import gendered_words as gw

    words = gw.builtin()
    return words.is_listed(word) and words.category_of(word) == "general"


GIVEN_WITH_SURNAME_MIN = 2      # full names that make a gendered noun a given name ("Guy Pollock")


def _given_with_surname(word: str, evidence: BookEvidence | None) -> bool:
    """The book writes ``word`` as a given name before a surname at least
    ``GIVEN_WITH_SURNAME_MIN`` times ("Guy Pollock", "Belle Watling"): a gendered noun of the
    word list ("guy", "belle") that is this book's first name, so "Vida and Guy and herself"
    names a person."""
    aliases = getattr(evidence, "aliases", None) if evidence is not None and evidence.text_rules else None
    found = (getattr(aliases, "by_given", None) or {}).get(word.lower()) if aliases is not None else None
    return bool(found) and sum(found.values()) >= GIVEN_WITH_SURNAME_MIN


SEAT_MIN = 3            # uses of a two-word form that make it a family's seat (with the rule below)


def _nobody(word: str, evidence: BookEvidence) -> bool:
    """The book never shows ``word`` as a person on its own: no title, pronoun, apposition,
    person use or bare use of it."""
    ev = evidence.forms.get(word)
    return ev is None or not (ev.person or sum(ev.titled.values()) or sum(ev.pronouns.values())
                              or sum(ev.appositions.values()) or sum(ev.alone.values()))


def _family_seat(words: list[str], evidence: BookEvidence | None) -> bool:
    """A two-word name whose first word is a family the book titles ("Lady Howard", at least
    twice) and whose last word the book never shows as a person on its own (no title, pronoun,
    apposition or person use, nor in lower case) and writes capitalised at least ``SEAT_MIN``
    times: a house named after the family ("Howard Grove"), not a man (his book would call him
    "Mr. Grove")."""
    if evidence is None or not evidence.text_rules:
        return False
    first = evidence.forms.get(words[0])
    if first is None or sum(first.titled.values()) < TITLE_MIN or evidence.lower[words[1].lower()] > 1:
        return False
    return _nobody(words[1], evidence) and evidence.capital[words[1]] >= SEAT_MIN


def _surname_not_place(word: str, evidence: BookEvidence) -> bool:
    """The book writes ``word`` last in a full name ("John Milton") and never after a place
    preposition: a man's surname there, though the place list knows a town of that name ("even
    Milton, looking for his portrait in a spoon"; read, seed 20261152). Not "London" in a book
    that names Jack London and goes to London."""
    aliases = getattr(evidence, "aliases", None)
    if aliases is None or not getattr(aliases, "written_last", Counter())[word.lower()]:
        return False
    ev = evidence.forms.get(word)
    return not (ev and (ev.place or ev.motion))


def _place_run(words: list[str], evidence: BookEvidence | None) -> bool:
    """The book writes the two words after a place preposition at least ``PLACE_MIN`` times
    ("in Gopher Prairie", "at Bleak House") and never writes the first as a given name
    (gender-guesser knows no such name, and the book's full names do not start with it), nor
    titles either: a place of the book, not a person ("John Smith", "in Mrs. Smith" stay)."""
    if evidence is None or not evidence.text_rules:
        return False
    if getattr(evidence, "place_runs", Counter())[" ".join(words)] < PLACE_MIN:
        return False
    if guess(words[0])[0] != UNGENDERED or _given_in_book(words[0], evidence):
        return False
    return not any(_titled_in_book(evidence, w) for w in words)


def _after_a_place_owner(doc, m: NameMention, words: list[str], evidence: BookEvidence | None) -> bool:
    """An untitled one-word mention after a possessive ("the heir of Queen's Crawley", where
    the NER took only "Crawley"), when the book writes the owner, the possessive and the word
    after a place preposition at least ``PLACE_MIN`` times ("at Queen's Crawley", "King's
    Lynn") and the owner is nobody in the book (no person it shows, no given name of its full
    names, no titled name): a place named with a possessive, not a person ("Amelia's George"
    stays a person: Amelia is one)."""
    if evidence is None or not evidence.text_rules or m.title or len(words) != 1 or m.token_start < 2:
        return False
    mark, owner = doc[m.token_start - 1], doc[m.token_start - 2]
    if mark.text not in POSSESSIVE or not (owner.text[:1].isupper() and owner.is_alpha):
        return False
    if getattr(evidence, "place_runs", Counter())[f"{owner.text}{mark.text} {words[0]}"] < PLACE_MIN:
        return False
    return not (evidence.is_person(owner.text) or _given_in_book(owner.text, evidence)
                or _titled_in_book(evidence, owner.text))


def _given_in_book(word: str, evidence: BookEvidence | None) -> bool:
    """The book writes ``word`` as a given name (its alias table: "Miss Eliza", "Eliza Millward"),
    so a capitalised word after it may be her surname, not a house ("Eliza Millward", not the
    seat of the Elizas)."""
    aliases = getattr(evidence, "aliases", None)
    return bool(aliases is not None and aliases.is_given(word.lower()))


def _no_first_name(word: str, evidence: BookEvidence | None) -> bool:
    """``word`` is no first name here: gender-guesser does not know it, or (with the book's
    evidence) the book never shows it as a person on its own ("Windy Corner": gender-guesser
    lists Windy as a girl's name)."""
    if guess(word)[0] == UNGENDERED:
        return True
    if evidence is None:
        return False
    ev = evidence.forms.get(word)
    return not (ev and (ev.person or sum(ev.titled.values()) or sum(ev.pronouns.values())
                        or sum(ev.appositions.values())))


def _second_word_of_a_place(doc, m: NameMention, evidence: BookEvidence | None) -> bool:
    """An untitled one-word mention after a capitalised word that is no name, after a place
    preposition ("in Pall Mall", where the NER made "Mall" a woman): the two words are a
    place. The word before must be one the book writes capitalised far more often than in
    lower case (not "in Old Jolyon's day") unless the mention's word is nobody in the book ("Pall"
    is also a word in lower case; "Mall" never a person), that gender-guesser knows as no first
    name, that is no title and that the book never shows as a person."""
    if evidence is None or not evidence.text_rules or m.title or len(_words(m)) != 1 or m.token_start < 2:
        return False
    before, prep = doc[m.token_start - 1], doc[m.token_start - 2]
    if not (before.text[:1].isupper() and before.is_alpha) or prep.lower_ not in PLACE_PREPS:
        return False
    if any_title(before.text) or guess(before.text)[0] != UNGENDERED:
        return False
    after = doc[m.token_end] if m.token_end < len(doc) else None
    owner = after is not None and after.text in POSSESSIVE      # "in Old Mall's chair": a person's
    return (evidence.proper(before.text) or (_nobody(_words(m)[0], evidence) and not owner)) \
        and not evidence.is_person(before.text) and not _titled_in_book(evidence, before.text)


def _titled_in_book(evidence: BookEvidence, word: str) -> bool:
    ev = evidence.forms.get(word)
    return bool(ev and sum(ev.titled.values()))


def gender_from_book(m: NameMention, evidence: BookEvidence | None) -> NameMention:
    """The mention with the book's gender where its own is missing or strongly contradicted."""
    if evidence is None:
        return m
    for form in (m.text, m.name):
        o = evidence.override(form)
        if o in (MASCULINE, FEMININE):
            m.gender, m.gender_source = o, "cast"
            return m
    if m.gender_source == "title":
        return m
    words = _words(m)
    if m.gender == UNGENDERED or m.gender_source.endswith(("mostly_male", "mostly_female")):
        # a title of the professions of its own: the family's other titles ("Mrs. Thatcher")
        # say nothing of "Judge Thatcher" (read, seed 20261131)
        own = not (m.title and profession_title(m.title))
        tries = [(m.name, own)] + ([(words[0], False), (words[-1], own)] if len(words) > 1 else [])
        lean = _votes_lean(evidence, words[0]) if not m.title else None
        # a given name's initial ("J. Durbeyfield", Joan signing her letter) says which of a
        # family it is no more than a title does: the family's bare uses say nothing of it
        bare = not m.title and not (len(words) > 1 and _initial(words[0]))
        for form, titled in tries:
            # (a full name's surname: not the learned gender the few votes only lean to)
            found = evidence.gender(form, titled, bare=bare, agree=len(words) == 1 or form != words[-1])
            if found and not own and found[1] == "book:model":
                found = None            # the convention below before the model's guess for a Judge
            if found and found[1] == "book:model" and lean is not None and lean != found[0]:
                found = None            # the model against the name's own votes (below)
            if found:
                m.gender, m.gender_source = found
                return m
        family = _family_surname(m, words, evidence)
        if family is None and lean is not None and m.gender != UNGENDERED and lean != m.gender:
            # a name gender-guesser calls only mostly one sex ("Edy": mostly male), whose own
            # votes in the book lean the other way, too few to decide (3 "she" to 2 "he"): no
            # gender, so no window counts the person (read, seed 20261184: Edy Boardman of
            # *Ulysses*, a girl, read as a man)
            m.gender, m.gender_source = UNGENDERED, "undecided (a weak name guess against the book's votes)"
            return m
        if family is not None:
            m.gender, m.gender_source = family
        elif m.gender == UNGENDERED and m.title and evidence.text_rules \
                and profession_title(m.title):
            m.gender, m.gender_source = MASCULINE, "title (the period's convention)"
        return m
    family = _family_surname(m, words, evidence) or _pet_of(m, words, evidence)
    if family is not None:
        m.gender, m.gender_source = family
        return m
    if len(words) == 1:
        found = evidence.gender(words[0])
        if found and found[1] == "book:titles" and found[0] != m.gender \
                and not evidence.pronouns_favour(words[0], m.gender):
            m.gender, m.gender_source = found       # "Mrs. Griffin" throughout the book; not
            return m                                # "Mrs Charles" (his wife) beside Charles's "he"
    strong = evidence.contradicts(words[0], m.gender) or _described_as(words[0], m.gender, evidence) \
        or _few_against(m, words, evidence) or _contested_against(m, words, evidence)
    if strong:
        m.gender, m.gender_source = strong
    return m


def _few_against(m: NameMention, words: list[str], evidence: BookEvidence) -> tuple[str, str] | None:
    """(gender, source) when an untitled one-word name has its gender from gender-guesser's list
    and the book's own votes for it (pronouns and appositions, at least ``FEW_VOTES``) all say
    the other gender: "Tana in his white coat" twice, never "she" (Tana is a woman's name to
    gender-guesser; read, seeds 20261139 and 20261143)."""
    if m.title or len(words) != 1 or not m.gender_source.startswith("gender-guesser"):
        return None
    ev = evidence.forms.get(words[0])
    if ev is None or ev.titled.get(m.gender):
        return None                     # "Miss Joyce" in the book: the list's gender has a title too
    votes = Counter(ev.pronouns) + Counter(ev.appositions)
    said = {g for g, k in votes.items() if k and g in (MASCULINE, FEMININE)}
    if len(said) == 1 and m.gender not in said and sum(votes.values()) >= FEW_VOTES:
        return said.pop(), "book:pronouns"
    return None


def _votes_lean(evidence: BookEvidence, form: str) -> str | None:
    """The gender most of the book's pronoun votes for ``form`` give (strictly more than the
    other's), or None."""
    ev = evidence.forms.get(form)
    if ev is None:
        return None
    m, f = ev.pronouns.get(MASCULINE, 0), ev.pronouns.get(FEMININE, 0)
    return MASCULINE if m > f else FEMININE if f > m else None


def _contested_against(m: NameMention, words: list[str], evidence: BookEvidence) -> tuple[str, str] | None:
    """(gender, source) when an untitled one-word name has gender-guesser's worldwide gender,
    which its answer for Great Britain does not share (:func:`pipeline.lang.names.contested`),
    and the book's own pronoun votes give the other gender by the book's ordinary rule
    (``PRONOUN_MIN`` votes, ``PRONOUN_SHARE`` of them): "Marian", male worldwide and female in
    Great Britain, the milkmaid of *Tess* by 4 votes to 1 (read, seed 20261180); a name the
    lists agree on ("Joe", 4 to 1 feminine in *Anne of Avonlea*, a boy) keeps its gender."""
    if m.title or len(words) != 1 or not m.gender_source.startswith("gender-guesser") \
            or not contested(words[0]):
        return None
    ev = evidence.forms.get(words[0])
    if ev is None or ev.titled.get(m.gender):
        return None
    said = evidence._votes(ev.pronouns)
    return said if said is not None and said[0] != m.gender else None


def _family_surname(m: NameMention, words: list[str], evidence: BookEvidence) -> tuple[str, str] | None:
    """(gender, source) of an untitled one-word mention whose gender came from gender-guesser's
    first names, when the book uses the form as a family's surname, titled both ways ("Mr
    Mackenzie" 54 times, "Mrs Mackenzie" 6; "Mr. Cole" 23, "Mrs. Cole" 30) and its bare uses'
    pronouns gave no gender: the man's. The novels of the period name a woman by her title and a
    man by his bare surname ("Mackenzie's rifle", "Durbeyfield rose"), so the bare surname of a
    family is its head's, whether gender-guesser calls it a girl's first name ("Mackenzie") or
    does not know it ("Durbeyfield", "Musgrove"); one it calls a man's keeps it. The masculine
    titles must be at least ``FAMILY_HEAD_SHARE`` (:meth:`pipeline.lang.book_evidence.BookEvidence.family_head`) of the feminine ones (one "Mr. Sharp" against
    147 "Miss Sharp" is her name, not a family's). On the
    leave-books-out folds this took the gender right from 95.2 % to 95.9 % with no more wrong
    (docs/persons.md, "Gender"). None when the rule does not apply."""
    if m.title or len(words) != 1 or m.gender == MASCULINE or not m.gender_source.startswith("gender-guesser"):
        return None
    if not evidence.family_head(words[0]):
        return None
    return MASCULINE, "book:family head"


def _pet_of(m: NameMention, words: list[str], evidence: BookEvidence) -> tuple[str, str] | None:
    """(gender, source) of an untitled pet form whose gender came from gender-guesser, when the
    book ties it to one formal given name written with a surname (:meth:`pipeline.lang.aliases.
    BookAliases.pet_surname`) that gender-guesser gives the other gender: the formal name's.
    Bleak House writes "Matthew Bagnet" and calls him "Mat", gender-guesser's woman (Martha);
    None when the rule does not apply or the book's pronouns favour the pet form's own gender."""
    if m.title or len(words) != 1 or not m.gender_source.startswith("gender-guesser"):
        return None
    aliases = getattr(evidence, "aliases", None)
    pet = aliases.pet_surname(words[0].lower()) if aliases is not None else None
    if pet is None:
        return None
    formal = pet[0][:1].upper() + pet[0][1:]
    g = guess(formal)[0]
    if g not in (MASCULINE, FEMININE) or g == m.gender or evidence.pronouns_favour(words[0], m.gender):
        return None
    return g, f"book:pet form of {formal}"


def _described_as(word: str, gender: str, evidence: BookEvidence) -> tuple[str, str] | None:
    """The other gender when the book describes ``word`` only as one of it ("Joyce was the
    Frizinghall policeman", "Jo, a tall girl": appositions and predicate nominals), never gives
    it a title of ``gender`` nor an apposition of it, and its pronoun votes do not favour
    ``gender`` (gender-guesser's Joyce is a woman; the book's "Mr. Joyce" agrees)."""
    ev = evidence.forms.get(word)
    if ev is None or ev.titled[gender] or ev.appositions[gender]:
        return None
    other = FEMININE if gender == MASCULINE else MASCULINE
    if not ev.appositions[other] or ev.pronouns[gender] > ev.pronouns[other]:
        return None
    return other, "book:appositions"


COORDINATORS = {"and", "or", "&"}


def _named(tokens) -> bool:
    """Whether ``tokens`` hold a capitalised word that is no title."""
    return any(t.text[:1].isupper() and not any_title(t.text) for t in tokens)


def person_parts(ent) -> list:
    """A PERSON entity cut at a coordinator between two names: "Anna's and Vronsky" (one
    entity of the small NER in some contexts) is two persons, "Anna's" and "Vronsky". A
    title alone before the coordinator is no part ("Mr. and Mrs. Weston" stays whole: a
    couple, which the window rules refuse)."""
    doc = ent.doc
    parts, start = [], ent.start
    for i in range(ent.start + 1, ent.end - 1):
        if doc[i].lower_ in COORDINATORS and _named(doc[start:i]) and _named(doc[i + 1:ent.end]):
            parts.append(doc[start:i])
            start = i + 1
    parts.append(doc[start:ent.end])
    return parts


def base_mentions(doc) -> list[NameMention]:
    """Name mentions of the PERSON entities of ``doc`` (NER + the person layer), an entity
    naming two persons cut in two (:func:`person_parts`)."""
    out = []
    for ent in doc.ents:
        if ent.label_ == "PERSON":
            for part in person_parts(ent):
                m = mention_from_span(part)
                if m is not None:
                    out.append(m)
    return out


def doc_mentions(doc, evidence: BookEvidence | None = None, rejected: Counter | None = None,
                 dropped: set[int] | None = None) -> list[NameMention]:
    """The person mentions of a parsed Doc (see the module docstring); ``rejected`` counts
    the reasons of the PERSON entities dropped, ``dropped`` receives their token indices and
    those of a first word cut off a mention (:func:`_without_leading_place`)."""
    if evidence is None:
        evidence = doc.user_data.get(EVIDENCE_KEY)
    out = []
    for m in base_mentions(doc):
        start = m.token_start
        m = _without_leading_place(doc, m, evidence)
        if dropped is not None and m.token_start > start:
            # the word cut off ("Moscow Pierre", "Whereupon Bo") is a place or a sentence's
            # opening word, no fifth person of the window
            dropped.update(range(start, m.token_start))
        if _family_plural(doc, m, evidence):
            out.append(_as_family(m))   # "the Elphbergs": a family, persons without a gender
            continue
        why = not_a_person(doc, m, evidence)
        if why:
            if rejected is not None:
                rejected[why] += 1
            if dropped is not None:
                dropped.update(range(m.token_start, m.token_end))
            continue
        out.append(_glued_title(doc, _address_gender(doc, _kin_gender(doc, gender_from_book(m, evidence)))))
    if evidence is not None:
        out.extend(_missed_persons(doc, out, evidence))
        out.sort(key=lambda m: m.start)
    return out


KIN_WORDS = {"grandmother": FEMININE, "grandfather": MASCULINE, "mother": FEMININE, "father": MASCULINE,
             "aunt": FEMININE, "uncle": MASCULINE, "sister": FEMININE, "brother": MASCULINE,
             "daughter": FEMININE, "son": MASCULINE, "wife": FEMININE, "husband": MASCULINE,
             "niece": FEMININE, "nephew": MASCULINE, "granddaughter": FEMININE, "grandson": MASCULINE}
POSSESSIVE_DETERMINERS = {"his", "her", "my", "your", "our", "their", "thy"}
# nouns of a person's sex that stand before a name after "the" or a possessive as kin words do:
# "the widow Boucher" (North and South, read of seed 20261169: the bare "Boucher" is her
# husband's name in the book), "the boy Abraham"
SEX_NOUNS = {"widow": FEMININE, "widower": MASCULINE, "boy": MASCULINE, "girl": FEMININE, "lad": MASCULINE,
             "lass": FEMININE, "man": MASCULINE, "woman": FEMININE, "maid": FEMININE}


def _kin_gender(doc, m: NameMention) -> NameMention:
    """A kin word (or a noun of a person's sex, :data:`SEX_NOUNS`) between a possessive or
    "the" and an untitled name says whose gender the name is: "her aunt Josephine", "the widow
    Boucher"; "his grandmother Irving" is a woman whatever gender-guesser says of Irving, but
    "told his mother Tom was coming" is not, so a name of the other gender loses its gender (the
    window is not used) instead of taking the kin word's. A title or the researcher's cast
    decides before this."""
    if m.title or m.gender_source in ("title", "cast"):
        return m
    kin = _prev(doc, m.token_start)
    if kin is None or kin.text != kin.lower_ or not (kin.lower_ in KIN_WORDS or kin.lower_ in SEX_NOUNS):
        return m
    det = _prev(doc, kin.i)
    if det is None or not (det.lower_ in POSSESSIVE_DETERMINERS or (det.lower_ == "the" and kin.lower_ in SEX_NOUNS)):
        return m                        # ("It was the mother Tom saw": no kin word of Tom's)
    gender = KIN_WORDS.get(kin.lower_) or SEX_NOUNS[kin.lower_]
    if m.gender == UNGENDERED:
        m.gender, m.gender_source = gender, "kin word"
    elif m.gender != gender:
        m.gender, m.gender_source = UNGENDERED, "kin word against the name"
    return m


# foreign forms of address a speaker writes in lower case before a name ("Pardon me, pardon me,
# mademoiselle St. Aubert": *The Mysteries of Udolpho*'s heroine, whose father is the book's
# "St. Aubert"; read, seed 20261176)
LOWER_ADDRESS = {"mademoiselle": FEMININE, "madame": FEMININE, "monsieur": MASCULINE, "signor": MASCULINE,
                 "signora": FEMININE, "signorina": FEMININE, "señor": MASCULINE, "señora": FEMININE,
                 "señorita": FEMININE, "senor": MASCULINE, "senora": FEMININE, "senorita": FEMININE,
                 "fräulein": FEMININE, "fraulein": FEMININE, "frau": FEMININE, "herr": MASCULINE}


def _address_gender(doc, m: NameMention) -> NameMention:
    """A lower-case foreign form of address right before a name (:data:`LOWER_ADDRESS`:
    "mademoiselle St. Aubert") says whose gender the name is, as a kin word does
    (:func:`_kin_gender`): an ungendered name takes it, a name of the other gender loses its
    gender (the window is not used). Not after a gendered title of the name's own, nor against
    the researcher's cast."""
    if m.gender_source == "cast" or (m.title and title_gender(m.title)):
        return m
    prev = _prev(doc, m.token_start)
    if prev is None or prev.text != prev.lower_ or prev.lower_ not in LOWER_ADDRESS:
        return m
    gender = LOWER_ADDRESS[prev.lower_]
    if m.gender == UNGENDERED:
        m.gender, m.gender_source = gender, "form of address"
    elif m.gender != gender:
        m.gender, m.gender_source = UNGENDERED, "form of address against the name"
    return m


def _glued_title(doc, m: NameMention) -> NameMention:
    """An untitled mention right after a title the tokenizer glued to the word before it by a
    dash ("table.--Mrs." "Elton"): the title's gender, whatever gender-guesser says of
    "Elton" (the name is the lady's). The cast's overrides decide before this."""
    if m.title or m.gender_source == "cast" or m.token_start == 0:
        return m
    j = m.token_start - 1
    if not doc[j].whitespace_:
        return m
    text = doc[j].text
    if text == "." and j > 0 and not doc[j - 1].whitespace_:
        text = doc[j - 1].text + "."         # the tokenizer split the title's period off
    pieces = glued_pieces(text)
    if not pieces or not pieces[-1][0]:
        return m
    off, last = pieces[-1]
    rest = text[off + len(last):]
    gender = title_gender(last + rest) or title_gender(last) if rest in ("", ".") else None
    if gender:
        m.gender, m.gender_source = gender, "title (glued)"
    return m


def _without_leading_place(doc, m: NameMention, evidence: BookEvidence | None) -> NameMention:
    """The mention without a first word the book uses only as a place: NER glues a place to
    the name after it ("When she returned to Moscow Pierre was handed ..." -> "Pierre")."""
    if evidence is None or not evidence.text_rules or m.title or m.token_end - m.token_start < 2:
        return m
    first = doc[m.token_start].text
    if not ((evidence.is_place(first) and evidence.only_place(first)) or _mostly_a_known_place(first, evidence)
            or _leading_common_word(doc, m, first, evidence)):
        return m
    rest = mention_from_span(doc[m.token_start + 1:m.token_end])
    return rest if rest is not None else m


def _leading_common_word(doc, m: NameMention, first: str, evidence: BookEvidence) -> bool:
    """The mention's first word starts its sentence, gender-guesser knows it as no name, the book
    does not show it as a person, and the book writes it in lower case (at least ``LOWER_RATIO``
    times as often as capitalised mid-sentence) or capitalised only where a sentence starts (at
    least three times): the NER glued a sentence's opening adverb to the name after it
    ("Whereupon Bo turned her back", read seed 20261132; "Concerning Montoni")."""
    if not _sentence_start(doc, m.token_start) or guess(first)[0] != UNGENDERED or evidence.is_person(first):
        return False
    low = evidence.lower[first.lower()]
    if low >= 2 and low >= LOWER_RATIO * max(1, evidence.mid[first]):
        return True
    return evidence.capital[first] >= 3 and evidence.never_mid_sentence(first)


PLACE_DOMINANCE = 10     # place uses per person-like use of a well-known place's name


def _mostly_a_known_place(word: str, evidence: BookEvidence) -> bool:
    """A well-known place no name list knows, that the book uses as a place at least
    ``PLACE_DOMINANCE`` times as often as in any person-like way ("Moscow" in *War and Peace*:
    257 place uses, a stray title and a few votes)."""
    ev = evidence.forms.get(word)
    if ev is None or not known_place(word) or guess(word)[0] != UNGENDERED or evidence.is_person(word):
        return False
    personal = ev.person + sum(ev.titled.values()) + sum(ev.pronouns.values()) + sum(ev.appositions.values())
    return ev.place + ev.motion >= PLACE_DOMINANCE * max(1, personal)


_FREE_ENTS = {"", "GPE", "ORG", "NORP", "PRODUCT", "WORK_OF_ART", "LOC", "FAC"}


def _missed_persons(doc, found: list[NameMention], evidence: BookEvidence) -> list[NameMention]:
    """Bare words the book shows to be persons, outside every mention and date entity."""
    taken = set()
    for m in found:
        taken.update(range(m.token_start, m.token_end))
    out = []
    a = DocArrays(doc)
    texts = a.texts
    for i in range(a.n):
        text = texts[i]
        if i in taken or not a.upper[i] or len(text) < 2:
            continue
        tok = doc[i]
        if text.endswith("s") and tok.ent_type_ in _FREE_ENTS and tok.ent_iob_ != "I" and not _entity_goes_on(doc, i):
            family = mention_from_span(doc[i:i + 1])
            if family is not None and _family_plural(doc, family, evidence):
                out.append(_as_family(family))
                continue
        if not evidence.is_person(text):
            inside = evidence.is_person_inside_sentence(text)
            if _sentence_start(doc, i):
                if not (inside and _name_not_verb(doc, i)):
                    continue            # a sentence's first word: only a name no modal reading fits
            elif not (inside or _famous_word(doc, i)):
                continue
        if tok.ent_type_ not in _FREE_ENTS:
            continue
        if not _past_closing_quote(doc, tok):
            if tok.ent_type_ and tok.ent_iob_ == "I":
                continue
            if tok.ent_type_ and _entity_goes_on(doc, tok.i):
                continue                # part of a longer entity of another kind
        start = tok.i
        while start > 0 and start - 1 not in taken and _initial(doc[start - 1].text):
            start -= 1                  # "J. DURBEYFIELD" signing a letter: the initial is the name's
        m = mention_from_span(doc[start:tok.i + 1])
        if m is None or not_a_person(doc, m, evidence):
            continue
        out.append(gender_from_book(m, evidence))
    out.extend(_full_names_in_other_entities(doc, taken, evidence))
    return out


def _entity_goes_on(doc, i: int) -> bool:
    """The entity of token ``i`` holds a word after it: white space, punctuation and a possessive
    ending the NER ran on do not count (a letter's signature "Helen" and its blank line, one ORG, in *Howards
    End*)."""
    j = i + 1
    while j < len(doc) and doc[j].ent_iob_ == "I":
        if not (doc[j].is_space or doc[j].is_punct or doc[j].tag_ == "POS"):
            return True             # (a possessive ending is the name's: "Cromwell's chances", an ORG)
        j += 1
    return False


_CLOSING_QUOTES = {"”", "’", "\"", "'"}


def _past_closing_quote(doc, tok) -> bool:
    """Whether ``tok`` is inside an entity after a closing quotation mark of that entity: the
    NER ran a quoted title on past its end ("when the choir sang “Far Above the Gentle
    Daisies” Anne gazed", one WORK_OF_ART), so the words after the quote are the sentence's."""
    if tok.ent_iob_ != "I":
        return False
    j = tok.i - 1
    while j >= 0:
        t = doc[j]
        if t.text in _CLOSING_QUOTES and (t.text in "”’" or t.whitespace_):
            return True
        if t.ent_iob_ != "I":
            return False
        j -= 1
    return False


def _full_names_in_other_entities(doc, taken: set[int], evidence: BookEvidence) -> list[NameMention]:
    """A multi-word entity of another kind (two or three capitalised words) that is a person of
    the book: a full name of its alias table (a given name and a surname the book titles), or
    words each of which the book shows to be a person and none a place ("Newland Archer's" a
    GPE, where the book writes "Mr. Archer" and Newland's "he"), or a title before such words
    or before a surname the book titles elsewhere ("Dr Marjoribanks" an ORG)."""
    aliases = evidence.aliases
    if aliases is None or not evidence.text_rules:
        return []
    out = []
    for ent in doc.ents:
        if ent.label_ == "PERSON" or ent.label_ not in _FREE_ENTS or any(i in taken for i in range(ent.start, ent.end)):
            continue
        end = ent.end
        while end > ent.start and (doc[end - 1].text in POSSESSIVE or doc[end - 1].is_punct or doc[end - 1].is_space):
            end -= 1
        words = [t.text for t in doc[ent.start:end]]
        if not 2 <= len(words) <= 3 or not all(w[:1].isupper() and w.isalpha() for w in words):
            continue
        name = words[1:] if any_title(words[0]) else words     # "Dr Marjoribanks" an ORG
        if not name or ((words[0].lower(), words[-1].lower()) not in aliases.full
                        and not all((evidence.is_person(w) or (len(name) < len(words) and _titled_in_book(evidence, w)))
                                    and not evidence.is_place(w) for w in name)):
            continue
        m = mention_from_span(doc[ent.start:end])
        if m is None or not_a_person(doc, m, evidence):
            continue
        out.append(gender_from_book(m, evidence))
    return out


# a Doc may carry its book's evidence (or a cast file's overrides) in ``doc.user_data``
EVIDENCE_KEY = "counter_gap_evidence"
CONTEXT_CHARS = 1500     # about five sentences back


def resolve_in_context(mentions: list[NameMention], reach: int = CONTEXT_CHARS) -> list[NameMention]:
    """A mention without a gender takes the gender of the gendered mentions shortly before it
    whose longer name holds its words ("Durbeyfield" after "John Durbeyfield"; not "Pontifex"
    after "Mrs. Pontifex": the book's titles decide that), when they all agree:
    extract's window grouping does the same inside a context (``group_persons``). Mentions
    must be in text order, with offsets in one text."""
    seen: list[NameMention] = []
    for m in mentions:
        if m.gender == UNGENDERED:
            words = set(m.key_tokens)
            near = {p.gender for p in seen if p.start >= m.start - reach and words < set(p.key_tokens)}
            if len(near) == 1:
                m.gender, m.gender_source = near.pop(), "context"
        if m.gender != UNGENDERED:
            seen.append(m)
    return mentions


# ------------------------------------------------------------------ the cast --------------

def cast_rows(book_id: str, mentions: list[dict], aliases=None) -> tuple[list[dict], list[dict]]:
    """Group a book's mention records (``start``, ``end``, ``text``, ``name``, ``title``,
    ``gender``, ``gender_source``) into persons: forms are taken longest first; a form joins
    the one person whose name words hold its words and whose gender agrees (or either is
    unknown); otherwise it is a person of its own. Returns (the mention records with their
    ``person`` id, one cast row per person). ``aliases``: the book's alias table
    (``BookEvidence.aliases``): a form then joins as :func:`pipeline.lang.aliases.cast_join`
    says (docs/persons.md, "Aliases")."""
    forms: dict[tuple[str, str], list[dict]] = {}
    for r in mentions:
        if r["gender"] not in (MASCULINE, FEMININE):
            r["gender"] = UNGENDERED
        forms.setdefault((" ".join(r["name"].split()), r["gender"]), []).append(r)
    order = sorted(forms, key=lambda k: (-len(k[0].split()), k[1] == UNGENDERED, -len(forms[k])))
    persons: list[dict] = []
    for name, gender in order:
        words = set(name.lower().split())
        fits = [p for p in persons if (gender == p["gender"] or UNGENDERED in (gender, p["gender"]))
                and cast_join(name, forms[(name, gender)], p["name"], p["rows"],
                              gender if gender != UNGENDERED else p["gender"], aliases)]
        if len(fits) == 1:
            p = fits[0]
        else:
            p = {"words": words, "gender": gender, "name": name, "rows": []}
            persons.append(p)
        p["rows"].extend(forms[(name, gender)])
    cast = []
    for p in persons:
        p["rows"].sort(key=lambda r: r["start"])
    persons.sort(key=lambda p: p["rows"][0]["start"])
    for k, p in enumerate(persons, 1):
        pid = f"P{k:04d}"
        genders = Counter(r["gender"] for r in p["rows"])
        sources = Counter(r["gender_source"] for r in p["rows"])
        gendered = [g for g in (MASCULINE, FEMININE) if genders[g]]
        gender = gendered[0] if len(gendered) == 1 else UNGENDERED
        for r in p["rows"]:
            r["person"] = pid
        cast.append({"book_id": book_id, "person": pid, "name": p["name"],
                     "forms": sorted({r["text"] for r in p["rows"]}), "mentions": len(p["rows"]),
                     "gender": gender if gender != UNGENDERED else "unknown",
                     "evidence": "; ".join(f"{s} {n}" for s, n in sources.most_common())})
    rows = sorted((r for p in persons for r in p["rows"]), key=lambda r: r["start"])
    for r in rows:
        if r["gender"] == UNGENDERED:
            r["gender"] = "unknown"
    return rows, cast
