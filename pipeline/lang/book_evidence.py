"""What a whole book says about its capitalised words: place or person, and whose gender.

A sentence alone often cannot tell "in Kent" (a county) from "Kent said" (a man), or whether
"Holmes", "Jo" or "Demi" is a man or a woman; the book usually can ("one sense per
discourse"). :func:`book_evidence` reads the whole book text once, with regular expressions
only (no model, so the prune and full strategies of extract see the same evidence), and
counts for every capitalised word (a *form*):

* **place uses**: right after ``in``, ``at``, ``near``, ``into``, ``within``, ``towards``,
  ``through`` or ``across`` and not followed by a possessive ("in Kent", "at Longbourn";
  not "in Emma's room");
* **person uses**: before or after a speech verb ("Kent said", "cried Turkey"), after a title
  ("Mr. Holmes"), or before a possessive of a body part or kin noun ("Tuppence's hand");
* **title genders**: the gender of the titles written before it ("Mr. Holmes": masculine;
  "Mr. Bennet" and "Mrs. Bennet": both);
* **pronoun genders**: in a sentence where it is the only name run and ``he`` or ``she`` (only
  one of the two) follows it, that pronoun's gender ("Demi ran out, and he ...");
* **apposition genders**: "Jo, a tall girl", "Nippers, the young man", "my boy, Harvey";
* **animal uses**: "Dinah was the cat", "Snuff, the brown spaniel,", "a parrot called
  Ginger", "his good horse Major.", "Polly's old cage" (household and farm animals only: "a goose", "a pig" or
  "the old dog" are as often said of people).

The decisions (thresholds named below; the rules are stated in ``docs/persons.md``):

* :meth:`BookEvidence.is_place`: a form used as a place at least ``PLACE_MIN`` times and at
  least ``PLACE_RATIO`` times as often as as a person, and never titled. A mention of such a
  form without a title is not a person.
* :meth:`BookEvidence.gender`: a form's gender from the book, with its source: titles (all
  of at least ``TITLE_MIN`` titled uses of one gender), appositions, pronouns (at least
  ``PRONOUN_MIN`` votes, ``PRONOUN_SHARE`` of them one gender).
* :meth:`BookEvidence.is_person`: a form the book shows to be a person (titled, speech verbs,
  appositions, pronoun votes; never a place): its bare mentions become persons even where the
  small NER missed them.
* :meth:`BookEvidence.is_animal`: a form the book calls an animal at least once, never
  titled and never described as a person: its mentions are no person (Dinah the cat,
  Charlie the horse).
* A researcher's overrides (``--cast``: ``form -> masculine | feminine | not-a-person``)
  come before all of this.
* Where the rules give no gender, the learned decision (:mod:`pipeline.lang.person_model`,
  bound to the book by :func:`bind_model`) may give one (:meth:`BookEvidence.model_gender`,
  source ``book:model``); it may also add persons (:meth:`BookEvidence.model_person`) when its
  ``person`` threshold is set, for first names gender-guesser knows (``docs/persons.md``).

May import: :mod:`pipeline.lang.names`, :mod:`pipeline.lang.aliases` (the book's alias table),
:mod:`pipeline.lang.pronouns`, :mod:`pipeline.lang.frequency`, :mod:`pipeline.lang.person_model` (inside :func:`bind_model`),
the standard library.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.lang.aliases import book_aliases
from pipeline.lang.frequency import zipf
from pipeline.lang.gendered_words import gender_of as gendered_word
from pipeline.lang.names import (NAME_LOWER, NAME_UPPER, NAME_WORD, THE_TITLES, any_title, at_word_start, given_name_partners,
                                  SAINT_PLACE_WORDS, guess, profession_title, title_gender)
from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED

NOT_A_PERSON = "not-a-person"
SHIPPED = "shipped"        # book_evidence(model=SHIPPED): bind the shipped person model
PLACE_MIN = 2
PLACE_RATIO = 2.0
TITLE_MIN = 2
FAMILY_HEAD_SHARE = 0.1     # masculine titles per feminine one below which a surname is no family head's
PRONOUN_MIN = 3
FEW_VOTES = 2           # unanimous gendered evidence the learned gender may not contradict
PRONOUN_SHARE = 0.75
MANY_VOTES = 10         # votes enough for a name no name list knows ...
MANY_SHARE = 0.6        # ... to take the gender of this share of them (a partner's pronouns follow a name too)
AGREE_GENDER = 0.8      # the learned gender below its threshold, from here, when the book's votes agree
APPOSITION_WEIGHT = 3
LOWER_RATIO = 5         # a name is written in lower case at most a fifth as often as capitalised
PERSON_MIN = 2          # person uses that make a form a person wherever it stands
TITLED_WORD_MIN = 3     # gendered titles before a common word that make it a surname ("Captain Good")
TITLED_WORD_MANY = 10   # ... this many let its lower-case uses be twice its capitals inside sentences
# offices a gendered title stands before, which are no surnames ("Mr. President", "Lord Mayor")
_OFFICE_WORDS = frozenset("""president mayor chancellor speaker secretary governor chairman treasurer
justice provost warden sheriff""".split())
# a first name gender-guesser knows that the book writes in lower case this often ("tea": The
# Story Girl's "Mexican Tea") may be vetoed by the model like a word no name list knows
KNOWN_NAME_LOWER_MIN = 10
SUBJECT_REACH = 4       # words before the name run: a subject near the sentence start
PRONOUN_REACH = 80      # characters after the name run
STRONG_PRONOUNS = 8     # votes against gender-guesser that make the book win (Demi)
STRONG_SHARE = 0.85
AGAINST_TITLES_SHARE = 0.8  # ... and that a bare name's own votes must reach against its titles of the other sex
ANIMAL_PERSON_RATIO = 3     # person uses (speech, possessives of the body) per animal use an animal may have

PLACE_PREPS = ("in", "at", "near", "into", "within", "through", "across")
# "at" after a verb of looking or feeling is no place: "looked at Tess", "angry at Tommy"
NOT_PLACE_BEFORE_AT = frozenset("""look looked looking looks stare stared staring glance glanced
    glancing gaze gazed gazing smile smiled smiling laugh laughed laughing frown frowned nod nodded
    wink winked grin grinned peep peeped peer peered glare glared shout shouted scream screamed
    point pointed pointing jump jumped aim aimed wonder wondered angry surprised astonished amazed
    cross mad vexed annoyed indignant sneer sneered scowl scowled blush blushed growl growled
    snap snapped wave waved hiss hissed bark barked rush rushed fly flew""".split())
SPEECH_VERBS = ("said", "says", "cried", "replied", "asked", "answered", "exclaimed", "whispered",
                "shouted", "muttered", "murmured", "called", "continued", "added", "returned",
                "observed", "remarked", "repeated", "interrupted", "laughed", "sighed", "nodded", "smiled")
BODY_KIN = ("hand", "hands", "face", "eyes", "head", "voice", "arm", "arms", "heart", "mother",
            "father", "wife", "husband", "sister", "brother", "son", "daughter", "aunt", "uncle",
            "room", "friend", "letter", "mind", "lips", "hair", "shoulder", "feet", "life")
APPOSITION_NOUNS = {
    MASCULINE: ("boy", "man", "gentleman", "fellow", "lad", "husband", "son", "brother", "father",
                "uncle", "nephew", "king", "prince", "widower", "youth", "bachelor", "chap",
                "Englishman", "Frenchman", "Irishman", "Scotchman", "Scotsman", "Dutchman", "clergyman",
                "gentleman", "nobleman", "sailor", "soldier", "priest", "monk", "squire", "lord", "duke",
                # "Joyce was the Frizinghall policeman"
                "policeman", "footman", "coachman", "postman", "fisherman", "workman", "watchman", "huntsman",
                "boatman", "ferryman", "horseman", "landlord", "kinsman", "countryman", "serving-man",
                "manservant", "schoolmaster", "headmaster", "waiter", "butler", "valet", "grandson",
                "grandfather", "stepfather", "stepson", "bridegroom", "emperor", "earl", "baron", "count"),
    FEMININE: ("girl", "woman", "lady", "lass", "maid", "maiden", "wife", "daughter", "sister",
               "mother", "aunt", "niece", "queen", "princess", "widow", "spinster", "Englishwoman",
               "Frenchwoman", "nun", "duchess", "countess", "governess", "heiress", "actress",
               "landlady", "housemaid", "chambermaid", "nursemaid", "dairymaid", "maidservant", "waitress",
               "schoolmistress", "headmistress", "laundress", "seamstress", "granddaughter", "grandmother",
               "stepmother", "stepdaughter", "bride", "empress", "baroness", "hostess", "abbess"),
}
# capitalised words that are never names: a sentence-initial "She was the daughter" or "He
# said" is no apposition or speech of a person named "She"
FUNCTION_WORDS = frozenset("""i he she it we you they me him her us them his hers its our your their
this that these those there here who whom whose which what the a an one none each every all both
some any such no nobody somebody everybody anybody someone everyone anyone""".split())
_UP, _LO = NAME_UPPER, NAME_LOWER        # accented names too ("Dólokhov", "Hélène")
_WORD = NAME_WORD
_RUN = rf"{_WORD}(?:\s+{_WORD})*"
# a foreign article before a place's word: "to reach La Vallee", "at Le Havre" (the word after the
# article is counted)
FOREIGN_ARTICLES = ("La", "Le", "Les", "El", "Los", "Las")
_PLACE = re.compile(rf"\b({'|'.join(PLACE_PREPS)})\s+(?:(?:{'|'.join(FOREIGN_ARTICLES)})\s+)?({_WORD})\b(?!['’]s)"
                    rf"(?!\s+{_WORD})")
DIALECT_ZIPF = 2.0      # a lower-case word rarer than this (wordfreq) may be a title of dialect
_BEFORE_NAME = re.compile(rf"\b([{_LO}]+)[ \t]+{_WORD}")
# two capitalised words after a place preposition, before no third and no possessive: "in Gopher
# Prairie" (a town the place list does not know; the one-word rule above skips it)
_PLACE_RUN = re.compile(rf"\b(?:{'|'.join(PLACE_PREPS)})\s+({_WORD}\s+{_WORD})\b(?!['’]s)(?!\s+{_WORD})")
_LAST_WORD = re.compile(rf"([{_LO}]+)\s*$")
_LAST_ANY_WORD = re.compile(rf"([{_UP}{_LO}]+)\s*$")
# after "to", a place follows these words ("his summons to Odessa", "come to Victoria"); after
# "said to", "wrote to", "married to" a person does
MOTION_WORDS = frozenset("""go goes going gone went come comes coming came return returns returned returning
removed moved travelled traveled journeyed journey summons summoned sailed fled drove rode walked way road
back off""".split())
# a place the book calls one: "the island of Luggnagg", "a place called Whitcross" (counted as
# uses after a place preposition are); not "the village of Mbonga", "the town of ...": a
# settlement may take its chief's or founder's name; not "the kingdom of God", "the empire of
# Christ"
PLACE_NOUNS = frozenset("island isle county country province duchy principality republic colony".split())
_PLACE_NOUN_OF = re.compile(rf"\b(?:{'|'.join(sorted(PLACE_NOUNS))})\s+of\s+({_WORD})\b(?!['’]s)(?!\s+{_WORD})")
_PLACE_CALLED = re.compile(rf"\b(?:place|spot|island|town|village|hamlet|farm|station)\s+(?:called|named)\s+"
                           rf"({_WORD})\b(?!['’]s)(?!\s+{_WORD})")
_MOTION_TO = re.compile(rf"\b(?:{'|'.join(sorted(MOTION_WORDS))})\s+to\s+({_WORD})\b(?!['’]s)(?!\s+{_WORD})")
# a capitalised word after a determiner (across up to two lower-case words) and before no other
# capitalised word: "the Diamond", "the Colonel's unlucky Diamond", "a Hercules" (core.cast
# decides: a form the book names so and never as a person is a thing)
_DETERMINED = re.compile(rf"\b(?:[Tt]he|[Aa]n?|[Mm]y|[Yy]our|[Hh]is|[Ii]ts|[Oo]ur|[Tt]heir|{_WORD}['’]s)\s+"
                         rf"(?:[{_LO}][{_LO}-]*\s+){{0,2}}({_WORD})\b(?!['’]s)(?!\s+{_WORD})")
_SPEECH_AFTER = re.compile(at_word_start(rf"\b({_WORD})[,]?\s+(?:{'|'.join(SPEECH_VERBS)})\b"))
# (across a foreign article: "replied La Voisin", a man of the story, like "said Voisin")
_SPEECH_BEFORE = re.compile(rf"\b(?:{'|'.join(SPEECH_VERBS)})\s+(?:(?:{'|'.join(FOREIGN_ARTICLES)})\s+)?({_WORD})\b"
                            rf"(?!\s+{_WORD})")
# (across up to two lower-case modifiers: "Marlow's lean face", "Emma's own mother")
_POSSESSIVE = re.compile(at_word_start(rf"\b({_WORD})['’]s\s+(?:[{_LO}][{_LO}-]*\s+){{0,2}}(?:{'|'.join(BODY_KIN)})\b"))
_NOUNS = "|".join(w for ws in APPOSITION_NOUNS.values() for w in ws)
# (capitalised modifiers too: "Joyce was the Frizinghall policeman")
# (the noun before no name: in "Liza-Lu, the boy Abraham, and ..." the boy is Abraham)
# (not after "like": in "Like Bounds, the woman prepared only breakfast" the woman is another)
_WORD_REST = _WORD[len(f"[{_UP}]"):]      # a name's word after its capital
# (the look-backs after the capital, which they include: re skips ahead to a leading class)
_APPOSITION = re.compile(rf"([{_UP}](?<!\w.)(?<![Ll]ike\s.)(?<![Uu]nlike\s.){_WORD_REST})(?:,|\s+(?:was|is))\s+(?:a|an|the)\s+(?:[{_UP}{_LO}-]+,?\s+){{0,3}}?({_NOUNS})\b(?!['’-])"
                         rf"(?!\s+[{_UP}])")
_SENTENCE = re.compile(r"[^.!?]+[.!?]*")
_NAME_RUN = re.compile(at_word_start(rf"\b{_RUN}"))
_LOWER_WORD = re.compile(at_word_start(rf"\b[{_LO}]+\b"))
_CAPITAL_WORD = re.compile(at_word_start(rf"\b[{_UP}][{_UP}{_LO}]*\b"))
_MID = re.compile(rf"(?<=[{_LO},;] )([{_UP}][{_LO}]+(?:[{_UP}][{_LO}]+)?)")
# the other order, after a possessive: "the loss of my boy, Harvey.", "his sister, Mary, came"
# (the name before no other capitalised word, then punctuation or a lower-case word)
# (not after "your": "I don't mean your sister, Trot, my dear" speaks to Trot; nor before an
# address, ", my dear")
_APPOSITION_AFTER = re.compile(rf"\b(?:[Mm]y|[Hh]is|[Hh]er|[Oo]ur|[Tt]heir)\s+(?:[{_LO}][{_LO}-]*\s+){{0,2}}?"
                               rf"({_NOUNS}),\s+({_WORD})\b(?!['’-])(?!\s+{_WORD})(?!,\s+(?:my|dear)\b)"
                               rf"(?=\s*[,.;:!?)]|\s+[{_LO}])")
# a kin noun of one sex right before the name, after a possessive: "Her son Tonie had", "his
# sister Mary came" (the name alone, before punctuation or a lower-case word)
KIN_NOUNS = ("son", "daughter", "brother", "sister", "husband", "wife", "nephew", "niece",
             "grandson", "granddaughter", "stepson", "stepdaughter")
_KIN_BEFORE = re.compile(rf"\b(?:[Mm]y|[Hh]is|[Hh]er|[Oo]ur|[Tt]heir)\s+(?:(?:elder|eldest|younger|youngest|little|only|"
                         rf"dear|own|second|third|big|baby|twin)\s+)?({'|'.join(KIN_NOUNS)})\s+({_WORD})\b(?!['’-])"
                         rf"(?!\s+{_WORD})(?=\s*[,.;:!?)]|\s+[{_LO}])")
# an address in speech: "Take your hands away, Huckleberry;", "Come here, Jo!" (after a comma,
# before "!", "?", ";", a dash or a closing quote; one word)
_VOCATIVE = re.compile(rf",\s+({_WORD})\b(?!['’]|-[^-])(?=[!?;]|--|—|[.,]?[”\"])")
# a name between a comma (or "dear") and a comma or a stop is someone spoken to
_ADDRESSED = re.compile(r"(?:,|\bdear)\s*$")
_ADDRESS_END = re.compile(r"\s*[,!?;.]")
_QUOTE = re.compile(r'["“”]')       # "Tess," he said: the pronoun is the speaker
# a single opening quote ("‘It’s nothing, Trot,’ said my aunt; she ..." in Dickens): the closing
# one is the apostrophe's character, so only the opening one is looked for
_SINGLE_OPEN = re.compile(r"‘")
# what a subject's gender shows after it: he/she, and the possessive and reflexive that can only
# be the subject's own ("Tana opened and closed his mouth", "Tana ... a conception of himself");
# "him" / "her" are left out (an object is mostly someone else: "Tana reassured him")
# "her" before a lower-case word that follows no object pronoun is a possessive ("Marian alone,
# thanks to her bottle of liquor"): it votes as "his" does ("her" as an object is someone else)
_NOT_AFTER_POSSESSIVE = """the a an his her my their its our your this that these those some any no every
to in at on of for with from by up down out off away back into about over through as than like upon
and but or nor that if when so then while till until because though although before after since
again too very well now here there not all still once more most much also only even never ever
he she it they we you i me him them us herself himself itself what which who whom whose how why where
is was be been being were are am had has have do did does would could should will shall may might must
one ones something nothing anything everything everybody nobody anybody someone""".split()
_OWN_PRONOUN = re.compile(r"\b(he|she|his|himself|herself|her(?=\s+(?!(?:%s)\b)(?-i:[a-z])))\b"
                          % "|".join(_NOT_AFTER_POSSESSIVE), re.IGNORECASE)
_OWN_GENDER = {"he": "he", "his": "he", "himself": "he", "she": "she", "herself": "she", "her": "she"}
# a pronoun of the voted gender between the name and the voting pronoun (an object: the
# subject and possessive forms would have been the voting pronoun; a "her" that _OWN_PRONOUN
# left is an object) or before the name
_OBJECT_BEFORE = {"he": re.compile(r"\bhim\b", re.IGNORECASE), "she": re.compile(r"\bher\b", re.IGNORECASE)}
_ANY_BEFORE = {"he": re.compile(r"\b(?:he|him|his|himself)\b", re.IGNORECASE),
               "she": re.compile(r"\b(?:she|her|hers|herself)\b", re.IGNORECASE)}
_APPOSITION_GENDER = {w: g for g, ws in APPOSITION_NOUNS.items() for w in ws}

# animals a book names; words said as often of people ("goose", "pig", "dog" in "the old
# dog", "lamb", "monkey", "fox", "bear"; "lion", "tiger", "wolf", "cub": "the lion of the season")
# are left out, as are the words of a list ("Reuben,
# his nag, his cart"), which are kept apart by requiring the animal word to end a phrase
ANIMAL_NOUNS = tuple("""cat kitten dog puppy pup hound spaniel terrier poodle collie borzoi greyhound
mastiff bulldog setter retriever wolfhound horse mare stallion colt filly pony steed cow calf bull hen
parrot canary rabbit squirrel mouse tortoise turtle elephant camel bitch cougar panther puma jaguar
leopard ape gorilla chimpanzee""".split())
_ANIMAL = "|".join(ANIMAL_NOUNS)
# (a possessive name too: "Sultan, Sir Percy's favourite and swiftest horse"; read, seeds
# 20261142, 20261145, 20261146)
_OWNER = rf"(?:the|a|an|my|our|his|her|their|your|(?:{_WORD}\s+)?{_WORD}['’]s)"
_ANIMAL_END = r"(?=[,.;:!?)]|\s+(?:who|which|that|of)\b)"
_ANIMAL_USES = (
    # (a modal or perfect copula too, and a place or company after: "Rusty would be the nicest
    # cat in the world", "Diablo was the only horse in the field": Anne of the Island's cats had
    # become two men of a window)
    re.compile(at_word_start(rf"\b({_WORD})\s+(?:was|is|(?:would|will|must)\s+be|(?:had|has)\s+been)\s+{_OWNER}\s+"
                             rf"(?:[\w-]+\s+){{0,2}}?(?:{_ANIMAL})(?:{_ANIMAL_END}|(?=\s+(?:in|on|at|with)\b))")),
    re.compile(at_word_start(rf"\b({_WORD})(?:,|--)\s*{_OWNER}\s+(?:[\w-]+\s+){{0,3}}?(?:{_ANIMAL}){_ANIMAL_END}")),
    re.compile(rf"\b(?:{_ANIMAL}),?\s+(?:(?:who|which|that)\s+(?:was|is)\s+)?(?:called|named)\s+({_WORD})\b"),
    # what only an animal does: "Jip barked madly" (Dora's dog in David Copperfield)
    re.compile(at_word_start(rf"\b({_WORD})\s+(?:barked|barks|mewed|mews|purred|purrs|neighed|neighs|whinnied|whinnies)\b")),
    # (a comma between too: "His old dog, Pilot, lay on one side", Jane Eyre's)
    re.compile(rf"\b(?:{_OWNER}|His|Her|My|Our|Their|Your|The)\s+(?:[\w-]+\s+)?(?:{_ANIMAL}),?\s+({_WORD})(?=[,.;:!?])"),
    # what only an animal has: "Polly's old cage" (not "collar", "stall": shirts, bazaars)
    re.compile(at_word_start(rf"\b({_WORD})['’]s\s+(?:[\w-]+\s+)?(?:cage|kennel|hutch|perch)\b")),
)


@dataclass
class FormEvidence:
    place: int = 0
    person: int = 0
    titled: Counter = field(default_factory=Counter)
    pronouns: Counter = field(default_factory=Counter)
    appositions: Counter = field(default_factory=Counter)
    alone: Counter = field(default_factory=Counter)     # pronoun votes of the form standing alone
    animal: int = 0                                     # "Dinah was the cat"
    motion: int = 0                                     # "come to Victoria": after "to" and a verb of motion
    determined: int = 0                                 # "the Colonel's unlucky Diamond": after a determiner
    vocative: int = 0                                   # ", Huckleberry;": an address in speech (the rules' evidence, not the model's)
    professions: int = 0                                # "Dr. Kennicott", "Doc Kennicott": a title of the professions (a man's, by the period's convention)
    titled_after_the: int = 0                           # titled uses right after "the" ("the Admiral Benbow": an inn)

    def titled_both_ways(self) -> bool:
        """The book titles the form as a woman's and as a man's, a title of the professions
        counting as a man's by the period's convention ("Mrs. Kennicott" and "Dr. Kennicott"):
        a family's surname, no one person's."""
        return bool(self.titled[FEMININE] and (self.titled[MASCULINE] + self.professions))


@dataclass
class BookEvidence:
    """Evidence per form (a capitalised word as written), and the researcher's overrides
    (form -> ``masculine`` / ``feminine`` / ``not-a-person``; a form may be several words)."""

    book_id: str = ""
    forms: dict[str, FormEvidence] = field(default_factory=dict)
    overrides: dict[str, str] = field(default_factory=dict)
    lower: Counter = field(default_factory=Counter)     # lower-case words of the book, counted
    capital: Counter = field(default_factory=Counter)   # capitalised words of the book, counted
    mid: Counter = field(default_factory=Counter)       # ... of them after a lower-case word or a comma
    text_rules: bool = True     # False: only the overrides (no book text was read: GAP rows, re-checks)
    model: object = field(default=None, compare=False, repr=False)  # the learned decision bound to this book (person_model.BookScores), or None
    aliases: object = None      # the book's alias table (lang.aliases.BookAliases), or None (no book text)
    place_runs: Counter = field(default_factory=Counter)  # two capitalised words after a place preposition ("in Gopher Prairie")
    before_names: Counter = field(default_factory=Counter)  # rare lower-case words before a capitalised word ("siz Pett")
    speech_only: Counter = field(default_factory=Counter)   # given names written (almost) only inside quotation marks ("Betty")
    spoken_spellings: dict = field(default_factory=dict)    # a rare name only spoken -> the book's name it respells ("Pats": "Patch")

    @property
    def n_words(self) -> int:
        """Words of the text the evidence was gathered from (counted once: not a field, never
        stored)."""
        n = self.__dict__.get("_n_words")
        if n is None:
            n = self.__dict__["_n_words"] = sum(self.lower.values()) + sum(self.capital.values())
        return n

    def never_mid_sentence(self, form: str) -> bool:
        """The book never writes ``form`` capitalised after a lower-case word: a word that is
        capitalised only where a sentence starts ("Hush", "Forthwith") is no name."""
        return not self.mid[form]

    def dialect_title(self, word: str) -> bool:
        """A lower-case word no English word list knows well (Zipf below ``DIALECT_ZIPF``) that
        the book writes at least twice and only ever right before a capitalised word: a title
        in a character's speech ("Gladda meecher, siz Pett": Miss Trimble's "Mrs."), whose name
        no rule can tie to its person. Not a verb in the past ("drawled Terry", "ogled Mr. Dick":
        speech and looks the book writes before names only)."""
        return self.lower[word] >= 2 and self.before_names[word] == self.lower[word] and not word.endswith("ed")

    def proper(self, form: str) -> bool:
        """The book writes ``form`` capitalised far more often than in lower case (a name,
        not "Well", "There", "It" at the start of a sentence)."""
        return self.lower[form.lower()] * LOWER_RATIO <= self.capital[form]

    def override(self, form: str) -> str | None:
        return self.overrides.get(form)

    def override_genders(self, word: str) -> set[str]:
        """Genders the overrides give a form that holds ``word``."""
        return {g for form, g in self.overrides.items()
                if g in (MASCULINE, FEMININE) and word in form.replace(".", " ").split()}

    def is_place(self, form: str) -> bool:
        o = self.overrides.get(form)
        if o:
            return o == NOT_A_PERSON
        ev = self.forms.get(form)
        if ev is None or sum(ev.titled.values()):
            return False
        return ev.place >= PLACE_MIN and ev.place >= PLACE_RATIO * (ev.person + sum(ev.appositions.values()))

    def family_head(self, form: str) -> bool:
        """The book titles ``form`` both ways ("Mr Mackenzie" 54 times, "Mrs Mackenzie" 6), at
        least ``TITLE_MIN`` times, the masculine titles at least ``FAMILY_HEAD_SHARE`` of the
        feminine ones: a family's surname, whose bare uses are its head's (one "Mr. Sharp"
        against 147 "Miss Sharp" is her name, not a family's; :func:`pipeline.core.cast.
        gender_from_book` decides, and prune's pass 0 marks the same forms). A title of the
        professions counts as a man's, the period's convention ("Dr. Kennicott" and "Doc
        Kennicott" 19 times, "Mr." once, "Mrs. Kennicott" 36: the bare "Kennicott" of *Main
        Street* is the doctor; read, seed 20261162)."""
        ev = self.forms.get(form)
        if ev is None:
            return False
        men = ev.titled[MASCULINE] + ev.professions
        if not ev.titled_both_ways() or men + ev.titled[FEMININE] < TITLE_MIN:
            return False
        return men >= FAMILY_HEAD_SHARE * ev.titled[FEMININE]

    def is_animal(self, form: str) -> bool:
        """The book calls ``form`` an animal ("Dinah was the cat"), never titles it, never
        describes it as a person ("Jo, a tall girl") and does not show it speaking far more often
        than as an animal (``ANIMAL_PERSON_RATIO``: Main Street's "Carol purred, “I was so
        sorry”" once against hundreds of "Carol said" made its heroine an animal)."""
        if self.overrides.get(form):
            return False
        ev = self.forms.get(form)
        return bool(ev and ev.animal and not sum(ev.titled.values()) and not sum(ev.appositions.values())
                    and ev.person <= ANIMAL_PERSON_RATIO * ev.animal)

    def shown_place_only(self, form: str) -> bool:
        """The book puts ``form`` after a place preposition or after "to" and a verb of motion
        at least once and never shows it as a person (see :meth:`only_place`)."""
        ev = self.forms.get(form)
        return bool(ev and (ev.place or ev.motion) and not (ev.person or sum(ev.titled.values())
                                                            or sum(ev.appositions.values()) or sum(ev.pronouns.values())))

    def only_place(self, form: str) -> bool:
        """The book uses ``form`` as a place and never shows it as a person (no title, speech
        verb, possessive, apposition or pronoun vote)."""
        ev = self.forms.get(form)
        return bool(ev and ev.place and not (ev.person or sum(ev.titled.values()) or sum(ev.appositions.values())
                                             or sum(ev.pronouns.values())))

    def gender(self, form: str, titles: bool = True, bare: bool = True, agree: bool = True) -> tuple[str, str] | None:
        """(gender, source) the book gives ``form``, or None. Titles decide when the form
        has at least ``TITLE_MIN`` titled uses (all of one gender; a surname titled both ways,
        "Mr. Bennet" and "Mrs. Bennet", has none); otherwise appositions (weight
        ``APPOSITION_WEIGHT``) and pronoun votes together, at least ``PRONOUN_MIN`` votes with
        ``PRONOUN_SHARE`` of them for one gender. ``titles=False``: leave titled uses out (a
        given name: "Mrs. Newland Archer" says nothing of Newland). ``bare=False``: the mention
        has a title of its own ("Dr Marjoribanks"), so a family's bare uses say nothing of it.
        A form in capitals: as the book writes it otherwise (:meth:`cased`). ``agree=False``:
        not the learned gender below its threshold with the votes (a surname asked for a full
        name's gender: "Mary Denson" is no man for the Densons' one vote)."""
        form = self.cased(form)
        o = self.overrides.get(form)
        if o in (MASCULINE, FEMININE):
            return o, "cast"
        ev = self.forms.get(form)
        if ev is None:
            return self.model_gender(form)
        if self.text_rules and self.never_mid_sentence(form) and self.lower[form.lower()] \
                and not sum(ev.titled.values()):
            return None             # "Yes", "How", "Oh": capitalised only where a sentence starts,
            #                         and a word of the book's in lower case
        two = getattr(getattr(self, "aliases", None), "two_persons_name", None)
        if bare and titles and " " not in form and two is not None and two(form.lower()):
            return None             # "Trotwood": Miss Trotwood's surname, David's new given name
        n_t = sum(ev.titled.values()) if titles else 0
        if n_t:
            g, k = ev.titled.most_common(1)[0]
            if ev.titled_both_ways():       # a family name ("Mr. Bennet", "Mrs. Bennet", "Dr. Kennicott")
                found = self._votes(ev.alone) if bare else None
                return found or (self.model_gender(form) if bare else None)
            against = self._votes(ev.pronouns, AGAINST_TITLES_SHARE)
            if against and against[0] != g and (sum(ev.pronouns.values()) > n_t or (
                    bare and self._votes(ev.alone, AGAINST_TITLES_SHARE) == against)):
                return against              # "Mrs. Newland" (his wife) vs Newland's own "he";
                #                             the bare "Boucher" of his own "he", only his wife titled
            if n_t >= TITLE_MIN:
                return g, "book:titles"
        votes = Counter(ev.pronouns)
        if n_t:
            votes[g] += APPOSITION_WEIGHT * n_t
        for g, k in ev.appositions.items():
            votes[g] += APPOSITION_WEIGHT * k
        n = sum(votes.values())
        if n >= PRONOUN_MIN:
            g, k = votes.most_common(1)[0]
            if k / n >= PRONOUN_SHARE or (n >= MANY_VOTES and k / n >= MANY_SHARE and sum(ev.titled.values()) < TITLE_MIN
                                          and guess(form.split()[0])[1] in ("unknown", "andy")):
                # (many votes for a name no list knows: "Bles" 33 to 14 in *The Quest of the
                # Silver Fleece*, the other votes Zora's "she" after his name)
                return g, "book:appositions" if ev.appositions.get(g) else "book:pronouns"
        found = self.model_gender(form)
        said = {x for x, k in votes.items() if k and x in (MASCULINE, FEMININE)}
        if found is None and len(said) == 1 and agree:
            # the learned gender a little short of its threshold, and the book's few votes, all
            # one way, the same ("“Men?” Somel answered" ... "Somel went on, her firm shapely
            # hands": one vote, the model 0.81; the leave-books-out folds' gender right +0.1)
            leaning = self.model_gender(form, AGREE_GENDER)
            if leaning is not None and leaning[0] in said:
                return leaning
        if found is not None and not n_t and n >= FEW_VOTES and len(said) == 1 and found[0] not in said:
            # "Tana in his white coat", twice: the book's few votes, all one way, outweigh the
            # model, which leans on the name lists (Tana: a woman's name)
            return said.pop(), "book:pronouns"
        return found

    def model_gender(self, form: str, threshold: float | None = None) -> tuple[str, str] | None:
        """The learned gender of ``form`` (:mod:`pipeline.lang.person_model`) where the rules
        give none: when the book gives ``form`` some gendered evidence (a pronoun vote, a title,
        an apposition), the model holds it a person and its gender probability reaches the
        model's ``gender`` threshold, or ``threshold`` when given (0 or no model: never)."""
        if self.model is None or not self.text_rules:
            return None
        t = self.model.model.thresholds.get("gender", 0)
        if t and threshold is not None:
            t = threshold
        ev = self.forms.get(form)
        if not t or ev is None or not (sum(ev.pronouns.values()) or sum(ev.titled.values())
                                       or sum(ev.appositions.values())) or self.model.person(form) < 0.5:
            return None                 # the book says nothing of its gender: no guess
        g, p = self.model.gender(form)
        return (g, "book:model") if p >= t else None

    def pronouns_favour(self, form: str, gender: str) -> bool:
        """The pronoun votes of ``form`` give ``gender`` at least as often as the other one
        (and there are some)."""
        ev = self.forms.get(form)
        if ev is None or not sum(ev.pronouns.values()):
            return False
        return ev.pronouns[gender] * 2 >= sum(ev.pronouns.values())

    @staticmethod
    def _votes(votes: Counter, share: float = PRONOUN_SHARE) -> tuple[str, str] | None:
        n = sum(votes.values())
        if n >= PRONOUN_MIN:
            g, k = votes.most_common(1)[0]
            if k / n >= share:
                return g, "book:pronouns"
        return None

    def contradicts(self, form: str, gender: str) -> tuple[str, str] | None:
        """The book's gender of ``form`` when it strongly contradicts ``gender`` (a name
        gender-guesser gives one gender and the book's pronouns the other: "Demi")."""
        ev = self.forms.get(form)
        if ev is None:
            return None
        n = sum(ev.pronouns.values())
        if n < STRONG_PRONOUNS:
            return None
        g, k = ev.pronouns.most_common(1)[0]
        if g != gender and k / n >= STRONG_SHARE and not sum(ev.titled.values()):
            return g, "book:pronouns"
        return None

    def cased(self, form: str) -> str:
        """``form`` as the book writes it elsewhere when it is written here in capitals ("TOMMY,
        old thing!", "WILKINS MICAWBER" signing a letter: "Tommy", "Wilkins Micawber"), so that
        what the book shows of the name holds for its capitals; ``form`` itself when a cast file
        speaks of it, when it is not in capitals or when the book never writes it otherwise."""
        if not form.isupper() or len(form) < 2 or form in self.overrides:
            return form
        cased = " ".join(w[:1] + w[1:].lower() for w in form.split())
        words = cased.split()
        return cased if words and all(self.capital[w] for w in words) else form

    def is_person(self, form: str) -> bool:
        """The book shows ``form`` to be a person (it may be added where NER missed it; a form in
        capitals: as the book writes it otherwise, :meth:`cased`)."""
        form = self.cased(form)
        o = self.overrides.get(form)
        if o:
            return o != NOT_A_PERSON
        ev = self.forms.get(form)
        if title_gender(form) or len(form) < 2 or not (self.proper(form) or self.titled_word(form)):
            return False
        if ev is None and self._professional_titles(form):
            ev = FormEvidence()             # "Dr. Watson": no other evidence of the word
        if ev is not None:
            strong = self._person_uses(form, ev)
            if strong >= PERSON_MIN and strong >= PLACE_RATIO * ev.place:
                return True
        return self.model_person(form)

    def titled_word(self, form: str) -> bool:
        """A common word the book makes a surname: written after a gendered title at least
        ``TITLED_WORD_MIN`` times ("Captain Good", "Mr. Dance", "Mrs. Hill") and capitalised
        inside sentences at least as often as in lower case (half as often when titled
        ``TITLED_WORD_MANY`` times: "Mrs Honour", "Mr. Pocket") ("good" is no name, but "Good"
        after a lower-case word or a comma says one); no title or office itself ("Mr.
        President", "the Lord Mayor") and no word of a place's name ("Henry Street"). Such a
        word fails :meth:`proper`, which keeps "Well" and "There" out."""
        ev = self.forms.get(form)
        titled = sum(ev.titled.values()) if ev is not None else 0
        # titled often, the name may be outnumbered by the word up to twice ("Mrs Honour" 90
        # times in *Tom Jones*, "honour" 298 times; "Mr. Pocket" and "Mrs. Pocket" 107 times in
        # *Great Expectations*)
        share = 2 if titled >= TITLED_WORD_MANY else 1
        if titled < TITLED_WORD_MIN or share * self.mid[form] < self.lower[form.lower()]:
            return False
        return not (any_title(form) or form.lower() in _OFFICE_WORDS or form.lower() in SAINT_PLACE_WORDS)

    def is_person_inside_sentence(self, form: str) -> bool:
        """:meth:`is_person`, or a first name that is also a common word ("Rose", "Will",
        "Hope"; the book writes "rose" in lower case too often for :meth:`proper`) which the
        learned decision holds a person (:meth:`model_person`): asked only of a capitalised
        word inside a sentence, where its capital says a name ("in obedience to the summons of
        Rose", a LOC to the NER, in *The Tenant of Wildfell Hall*)."""
        if self.is_person(form):
            return True
        o = self.overrides.get(form)
        if o or title_gender(form) or len(form) < 2 or form.isupper():
            return False
        return self.model_person(form)

    def _person_uses(self, form: str, ev: FormEvidence) -> int:
        """The uses that show ``form`` a person: speech verbs and possessives of the body, addresses
        in speech (", Huckleberry;"), titled uses (gendered or of the professions), appositions
        (twice)."""
        # an address counts for a word the book never writes in lower case ("Huckleberry", not
        # "Heaven", "Doctor", "Darling", "Will")
        vocative = ev.vocative if not self.lower[form.lower()] else 0
        return (ev.person + vocative + sum(ev.titled.values()) + 2 * sum(ev.appositions.values())
                + self._professional_titles(form))

    def _professional_titles(self, form: str) -> int:
        """How often the book writes ``form`` alone after a title of the professions (academic,
        clerical, office: "Dr. Watson", "Judge Thatcher"), which says a person as a gendered
        title does but no gender; not a saint's ("St. Aubert" names places too)."""
        aliases = self.aliases
        got = (getattr(aliases, "titled", None) or {}).get(form.lower()) if aliases is not None else None
        if not got:
            return 0
        return sum(k for t, k in got.items() if profession_title(t))

    def model_person(self, form: str) -> bool:
        """The learned decision holds ``form``, a first name gender-guesser knows, a person with
        at least the model's ``person`` threshold (0 or no model: never). Words gender-guesser
        does not know are left to the rules: the model, which sees no NER label, takes too many
        places for persons ("Shaston", "Egria"). The book must also show the form as a name at
        least once (mid-sentence) and give it some evidence of a person (a speech verb, a title,
        a pronoun vote, an apposition): a first name the text never uses as one ("Hark!") stays
        no person."""
        if self.model is None or not self.text_rules:
            return False
        t = self.model.model.thresholds.get("person", 0)
        ev = self.forms.get(form)
        if not t or ev is None or guess(form)[0] == UNGENDERED or self.never_mid_sentence(form):
            return False
        if not (ev.person or sum(ev.titled.values()) or sum(ev.pronouns.values()) or sum(ev.appositions.values())):
            return False
        return self.model.person(form) >= t

    def model_rejects(self, form: str) -> bool:
        """The learned decision holds the single untitled word ``form``, which NER took for a
        person, no person: its person probability is below the model's ``veto`` threshold, the
        book does not show it to be a person by the rules, no override names it and
        gender-guesser knows no such first name, or the book writes it in lower case at least
        ``KNOWN_NAME_LOWER_MIN`` times (0 or no model: never)."""
        if self.model is None or not self.text_rules or form in self.overrides:
            return False
        t = self.model.model.thresholds.get("veto", 0)
        if not t or (guess(form)[0] != UNGENDERED and self.lower[form.lower()] < KNOWN_NAME_LOWER_MIN):
            return False
        if self._person_uses(form, self.forms.get(form) or FormEvidence()) >= PERSON_MIN:
            return False
        return self.model.person(form) < t


@functools.lru_cache(maxsize=100_000)
def _title(word: str) -> str | None:
    return title_gender(word)


def _ev(forms: dict, form: str) -> FormEvidence:
    ev = forms.get(form)
    if ev is None:
        ev = forms[form] = FormEvidence()
    return ev


_TITLED = re.compile(at_word_start(rf"\b([{_UP}][{_UP}{_LO}]*)(\.?)\s+({_WORD}(?:\s+{_WORD})?)"))
# titles written with a final period; any other word before a period ends a sentence:
# "... said the Duchess. Newland turned" gives Newland no title
ABBREVIATED = frozenset("Mr Mrs Ms Mme Mlle Messrs M Mons Mssrs".split())
PROFESSION_ABBREVIATED = frozenset("dr prof rev revd".split())     # "Dr." before a name; "Doctor." ends a sentence
_TITLE_BEFORE = re.compile(rf"\b([{_UP}][{_UP}{_LO}]*)(\.?)\s+$")


# a speech: double quotation marks, straight or curly, or single curly ones (a closing mark
# between two letters is an apostrophe: ‘I don’t know, Emma,’), closed on its line or running
# to the paragraph's end (a speech continued in the next paragraph opens again there)
_SPEECH = re.compile('"[^"\n]*(?:"|$)|\u201c[^\u201d\n]*(?:\u201d|$)'
                     '|\u2018(?:[^\u2019\n]|(?<=[a-zA-Z])\u2019(?=[a-zA-Z]))*(?:\u2019|$)', re.M)
# ... and in a book that quotes with straight single marks (*North and South*: "'Have yo' heerd
# aught of Miss Marget lately?'"), one of them too: it opens where a line, a space, a bracket or
# a dash is before it and a letter after it, and closes after a stop, a comma or a dash and
# before no letter; every other mark is an apostrophe of the dialect ("yo' heerd", "th' oud",
# "'tis", "'em")
_STRAIGHT_SINGLE_SPEECH = re.compile(
    "(?:^|(?<=[\\s(\u2014-]))'(?=[A-Za-z])(?!(?:[Tt](?:is|was|were|will|would)|em|un|ud|cause)\\b)(?:[^'\n]|(?<![.,!?;:\u2014-])'|'(?=[A-Za-z]))*"
    "(?:(?<=[.,!?;:\u2014-])'(?![A-Za-z])|$)", re.M)
_SPEECH_WITH_SINGLE = re.compile(f"{_SPEECH.pattern}|{_STRAIGHT_SINGLE_SPEECH.pattern}", re.M)
_LINE_OPENS = re.compile("^([\"\u201c\u2018'])", re.M)


def _speeches(text: str) -> re.Pattern:
    """The speeches' pattern of this book: :data:`_SPEECH`, and straight single marks where more
    of its lines open with one than with any other quotation mark."""
    opens = Counter(_LINE_OPENS.findall(text))
    if opens["'"] > opens['"'] + opens["\u201c"] + opens["\u2018"]:
        return _SPEECH_WITH_SINGLE
    return _SPEECH


SPOKEN_MIN = 3          # uses of a given name before it can be "spoken only"
SPOKEN_SHARE = 0.1      # ... at most this share of them outside the speeches


RESPELT_MAX = 5         # a name written at most this often ...
RESPELLS_MIN = 20       # ... may respell one the book writes at least this often
RESPELL_RATIO = 0.65    # difflib's similarity of the two, which share their first three letters


def _spoken_names(text: str, capital: Counter, forms: dict) -> tuple[Counter, dict]:
    """:func:`_speech_only` and :func:`_respellings`, from one pass over the narration."""
    narrated = Counter(_CAPITAL_WORD.findall(_speeches(text).sub(" ", text)))
    return _speech_only(capital, narrated), _respellings(capital, narrated, forms)


def _respellings(capital: Counter, narrated: Counter, forms: dict) -> dict:
    """Rare names the book writes only inside quotation marks (at most ``RESPELT_MAX`` times,
    title case) that respell one of its frequent names (at least ``RESPELLS_MIN`` times and ten
    times as often, a person's: titled, or with ``PERSON_MIN`` speech verbs or possessives):
    the same first three letters and ``difflib`` similarity at least ``RESPELL_RATIO``. A
    character's way of saying a name ("What Miz Pats want dinner?", Tana's "Mrs. Patch" in *The
    Beautiful and Damned*; "Woodcot" and "Jarnders" in *Bleak House*), a pet form ("Gabe",
    Gabriel) or a misprint ("Bathsheha"): no rule can be sure whom it means. rare -> frequent."""
    import difflib

    frequent: dict[str, list[str]] = {}
    for w, n in capital.items():
        if n >= RESPELLS_MIN and w[1:].islower() and len(w) >= 3:
            ev = forms.get(w)
            if ev is not None and (ev.person >= PERSON_MIN or sum(ev.titled.values())):
                frequent.setdefault(w[:3], []).append(w)
    out = {}
    for w, n in capital.items():
        if n > RESPELT_MAX or narrated[w] or len(w) < 3 or not w[1:].islower() or w[:3] not in frequent:
            continue
        for f in frequent[w[:3]]:
            if f != w and capital[f] >= 10 * n and difflib.SequenceMatcher(None, w, f).ratio() >= RESPELL_RATIO:
                out[w] = f
                break
    return out


def _speech_only(capital: Counter, narrated: Counter) -> Counter:
    """Given names (gender-guesser's, title case) that the book writes at least ``SPOKEN_MIN``
    times and at most ``SPOKEN_SHARE`` of them outside quotation marks, with their uses: a name
    only the characters say ("Here's Mr. Carey, Betty," said Athelny: the narrator calls her
    Mrs. Athelny; "Honoria", whom the narrator calls Lady Dedlock), which may be a person the
    narration names otherwise. Not a pet form of a given name the book writes more often
    ("Lizzy", Elizabeth's in *Pride and Prejudice*): that is whose it is."""
    return Counter({w: n for w, n in capital.items()
                    if n >= SPOKEN_MIN and w[1:].islower() and narrated[w] <= SPOKEN_SHARE * n
                    and guess(w)[0] != UNGENDERED
                    and not any(capital[p.title()] >= n for p in given_name_partners(w))})


def _after_the(text: str, at: int) -> int:
    """1 when the word "the" stands right before ``text[at:]``, else 0."""
    return int(text[max(0, at - 4):at].lower() == "the " and (at < 5 or not text[at - 5].isalpha()))


# the dialect's article: "not a man on us will go in for less wage than th' Union says"
_DIALECT_THE = re.compile(r"\b([Tt]h)['’](?=\s)")


def _the(m: re.Match) -> str:
    return m.group(1) + "e"


def _after_article(text: str, at: int) -> bool:
    """The word before ``text[at:]`` is an article: "the Union says", "a Hercules's arm" speak
    of a body or a thing, not of a person by name."""
    before = _LAST_ANY_WORD.search(text, max(0, at - 8), at)
    return bool(before) and before.group(1).lower() in ("the", "a", "an")


def book_evidence(text: str, book_id: str = "", overrides: dict | None = None, model=SHIPPED) -> BookEvidence:
    """Gather the evidence of the whole book ``text`` (see the module docstring).
    ``overrides``: ``{book_id or "*": {form: gender or not-a-person}}`` from a cast file;
    ``model``: the learned decision bound to the book (:func:`bind_model`; None: the rules alone)."""
    text = _DIALECT_THE.sub(_the, text)     # "th' Union" is "the Union" (same length: offsets hold)
    forms: dict[str, FormEvidence] = {}
    for m in _PLACE.finditer(text):
        if m.group(1) == "at":
            before = _LAST_WORD.search(text, max(0, m.start() - 20), m.start())
            if before and before.group(1) in NOT_PLACE_BEFORE_AT:
                continue
        _ev(forms, m.group(2)).place += 1
    for rx in (_PLACE_NOUN_OF, _PLACE_CALLED):
        for m in rx.finditer(text):
            _ev(forms, m.group(1)).place += 1
    for m in _MOTION_TO.finditer(text):
        _ev(forms, m.group(1)).motion += 1
    for m in _DETERMINED.finditer(text):
        _ev(forms, m.group(1)).determined += 1
    for rx in (_SPEECH_AFTER, _SPEECH_BEFORE, _POSSESSIVE):
        for m in rx.finditer(text):
            if not title_gender(m.group(1)) and not _after_article(text, m.start(1)):
                _ev(forms, m.group(1)).person += 1
    for m in _VOCATIVE.finditer(text):
        word = m.group(1)
        if not title_gender(word) and word.lower() not in FUNCTION_WORDS and gendered_word(word) is None:
            _ev(forms, word).vocative += 1      # not "Ma'am", "Mamma", "Uncle": forms of address
    for m in _TITLED.finditer(text):
        gender = _title(m.group(1))
        if not gender and profession_title(m.group(1)) and (not m.group(2) or m.group(1).lower() in PROFESSION_ABBREVIATED):
            words = m.group(3).split()
            if not any_title(words[0]):
                _ev(forms, words[-1]).professions += 1      # "Dr. Will Kennicott": the surname
                if m.group(1).lower() not in THE_TITLES:    # not "the Reverend Mr. Collins"
                    _ev(forms, words[-1]).titled_after_the += _after_the(text, m.start())
            continue
        if not gender or (m.group(2) and m.group(1) not in ABBREVIATED):
            continue
        words = m.group(3).split()
        if gender and not title_gender(words[0]):
            _ev(forms, words[-1]).titled[gender] += 1    # the surname ("Mrs. Newland Archer")
            if m.group(1).lower() not in THE_TITLES:    # not "the Emperor Napoleon"
                _ev(forms, words[-1]).titled_after_the += _after_the(text, m.start())
    for m in _APPOSITION.finditer(text):
        _ev(forms, m.group(1)).appositions[_APPOSITION_GENDER[m.group(2)]] += 1
    for m in _KIN_BEFORE.finditer(text):
        if m.group(2).lower() not in FUNCTION_WORDS and not title_gender(m.group(2)) \
                and not any(q in m.group(2) for q in "'’"):     # "my brother Gardiner's drawing up"
            _ev(forms, m.group(2)).appositions[_APPOSITION_GENDER[m.group(1)]] += 1
    for m in _APPOSITION_AFTER.finditer(text):
        if m.group(2).lower() not in FUNCTION_WORDS:
            _ev(forms, m.group(2)).appositions[_APPOSITION_GENDER[m.group(1)]] += 1
    for rx in _ANIMAL_USES:
        for m in rx.finditer(text):
            if not title_gender(m.group(1)):
                _ev(forms, m.group(1)).animal += 1
    chosen: dict[str, str] = {}
    if overrides:
        chosen.update(overrides.get("*", {}))
        chosen.update(overrides.get(book_id, {}))
    lower, capital = Counter(_LOWER_WORD.findall(text)), Counter(_CAPITAL_WORD.findall(text))
    mid = Counter(_MID.findall(text))
    evidence = BookEvidence(book_id, forms, chosen, lower, capital, mid)
    evidence.place_runs = Counter(" ".join(m.group(1).split()) for m in _PLACE_RUN.finditer(text))
    evidence.before_names = Counter(w for w in _BEFORE_NAME.findall(text)
                                    if lower[w] >= 2 and zipf(w) < DIALECT_ZIPF)
    evidence.speech_only, evidence.spoken_spellings = _spoken_names(text, capital, forms)
    _pronoun_votes(text, forms, evidence.proper)
    evidence.aliases = book_aliases(text, lower)
    for form in [f for f in forms if f.lower() in FUNCTION_WORDS]:
        del forms[form]             # "She was the daughter": no apposition of a person "She"
    return bind_model(evidence, model)


def bind_model(evidence: BookEvidence, model=SHIPPED) -> BookEvidence:
    """``evidence`` with the learned decision bound to it (``model``: a
    :class:`pipeline.lang.person_model.PersonModel`, ``SHIPPED`` for the shipped one, None for
    none); a model whose thresholds are all 0 decides nothing and is not bound. A missing or
    outdated model file raises :class:`pipeline.errors.InputError` naming the training command."""
    if model == SHIPPED:
        from pipeline.lang.person_model import shipped_model

        model = shipped_model()
    if model is None or not any(model.thresholds.values()):
        evidence.model = None
    else:
        from pipeline.lang.person_model import BookScores

        evidence.model = BookScores(model, evidence)
    return evidence


def _runs(sent: str, proper):
    """(start, end, words, run) of each name run of ``sent``: its words that the book writes
    as names, titles left out (runs without such words are skipped)."""
    for rm in _NAME_RUN.finditer(sent):
        words = tuple(w for w in rm.group(0).split() if not _title(w) and proper(w))
        if words:
            yield rm.start(), rm.end(), words, rm.group(0)


def _after_title(text: str, at: int, run: str) -> bool:
    """The run at ``text[at:]`` starts with, or follows, a gendered title."""
    if _title(run.split()[0]) is not None:
        return True
    before = _TITLE_BEFORE.search(text, max(0, at - 20), at)     # "Mrs." ends a _SENTENCE
    return bool(before and _title(before.group(1)) and (not before.group(2) or before.group(1) in ABBREVIATED))


def _vote(forms: dict, words: tuple, pronoun: str) -> None:
    g = MASCULINE if pronoun.lower() == "he" else FEMININE
    for w in dict.fromkeys(words):    # in order: the forms (and evidence.parquet) come out the same in every process
        _ev(forms, w).pronouns[g] += 1
    if len(words) == 1:
        _ev(forms, words[0]).alone[g] += 1


# a run right after these words is no sentence subject: "In Petersburg he …", "The French
# … he", "At Hartfield she …" give no pronoun vote
NOT_SUBJECT_BEFORE = frozenset("""in at to from near into within through across of by with for on upon
the a an""".split())
_LEAD_PRONOUN = re.compile(r"\s*(He|She)\b")


def _pronoun_votes(text: str, forms: dict, proper) -> None:
    """Pronoun votes (a run after a gendered title never votes: "Mrs. Durbeyfield … she"; the
    title says the gender, and a family's bare surname may belong to someone else):

    * the first name run of a sentence (names as the book writes them, ``proper``; titles
      left out), among its first ``SUBJECT_REACH`` words, votes the gender of the first
      ``he`` / ``she`` / ``his`` / ``himself`` / ``herself`` after it (:data:`_OWN_PRONOUN`),
      when no other name run stands between them and no quote (\"Tess,\" he said: the
      pronoun is the speaker);
    * a sentence without quotes, pronoun or any other name, whose one name run is the run,
      followed by a sentence that starts with ``He`` or ``She``: "Ogilvy was there. He …"."""
    prev = None
    for sm in _SENTENCE.finditer(text):
        sent = sm.group(0)
        lead = _LEAD_PRONOUN.match(sent) if prev else None
        if lead:
            _vote(forms, prev, lead.group(1))
        prev = None
        if not _OWN_PRONOUN.search(sent):
            runs = list(_runs(sent, proper))
            if runs and len({r[2] for r in runs}) == 1 and not _QUOTE.search(sent) and not _SINGLE_OPEN.search(sent) \
                    and not _after_title(text, sm.start() + runs[0][0], runs[0][3]):
                prev = runs[0][2]
            continue
        first = next(_runs(sent, proper), None)
        if first is None:
            continue
        start, end, words, run = first
        if len(sent[:start].split()) > SUBJECT_REACH:
            continue
        before = _LAST_WORD.search(sent, max(0, start - 12), start)
        if (before and before.group(1) in NOT_SUBJECT_BEFORE) or run.split()[0].lower() in NOT_SUBJECT_BEFORE:
            continue                # "In Petersburg he …", "The French … he": no subject
        if _ADDRESSED.search(sent, max(0, start - 10), start) and _ADDRESS_END.match(sent, end):
            continue                # an address, in speech whose quote opened sentences before:
            #                         "She will be rejoiced, Copperfield, to renew her acquaintance"
        p = _OWN_PRONOUN.search(sent, end, end + PRONOUN_REACH)
        if not p or _QUOTE.search(sent, end, p.start()) or _SINGLE_OPEN.search(sent, 0, p.start()):
            continue                # the name or the way to the pronoun inside single-quoted speech
        if any(w not in ((), words) for _, _, w, _ in _runs(sent[end:p.start()], proper)):
            continue
        if p.group(1).lower() in ("her", "his") and not sent[end:p.start()].strip(" \t\n,"):
            continue                # an apposition's possessive is someone else's: "Tom
            #                         Marjoribanks, her cousin, was at sea"
        own = _OWN_GENDER[p.group(1).lower()]
        if _OBJECT_BEFORE[own].search(sent, end, p.start()) or _ANY_BEFORE[own].search(sent, 0, start):
            continue                # another person of that gender, between them or before the
            #                         name, has the pronoun as likely: "Mary gave him a basin, ...
            #                         turned up his sleeves", "He hoped that Mary would forget his shoes"
        if not _after_title(text, sm.start() + start, run):
            _vote(forms, words, own)


def overrides_only(book_id: str, overrides: dict | None) -> BookEvidence:
    """Evidence that holds a cast file's overrides for ``book_id`` and nothing of a text."""
    chosen: dict[str, str] = {}
    if overrides:
        chosen.update(overrides.get("*", {}))
        chosen.update(overrides.get(book_id, {}))
    return BookEvidence(book_id, overrides=chosen, text_rules=False)


def mark_genders(word: str, evidence: BookEvidence | None) -> set[str]:
    """Every gender a mention starting with or holding ``word`` may get (prune's pass 0
    marks a superset of the gendered mentions: gender-guesser's gender, the book's, a
    researcher's override)."""
    out = set()
    title = title_gender(word)
    if title:
        return {title}
    g = guess(word)[0]
    if g != UNGENDERED:
        out.add(g)
    if evidence is not None:
        found = evidence.gender(word)
        if found:
            out.add(found[0])
        strong = evidence.contradicts(word, g) if g != UNGENDERED else None
        if strong:
            out.add(strong[0])
        out.update(evidence.override_genders(word))
        if evidence.family_head(word):
            out.add(MASCULINE)          # a family's bare surname is its head's (core.cast._family_surname)
    return out
