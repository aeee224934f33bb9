"""Maze distractors: for every word of a sentence after the first, a real English word that
does not continue the sentence.

Rules (documented in ``docs/experiment.md``):

* the candidate pool is the ``wordfreq`` list of the most frequent English words
  (:func:`distractor_candidates`): alphabetic, at least two letters, never a gendered word
  (:mod:`pipeline.lang.gendered_words`), a pronoun (:mod:`pipeline.lang.pronouns`) or a
  first name known to gender-guesser (:func:`pipeline.lang.names.guess`);
* each candidate carries its coarse part of speech (spaCy's tag of the word alone, computed
  by :func:`pipeline.humans.nlp.tag_words` and passed in); words spaCy tags as proper nouns
  even in lower case ("baghdad", "smith") are dropped, so surnames and places are no
  distractors either;
* for a true word, the distractor has a *different* coarse part of speech from spaCy's tag of
  the true word in its sentence, a length within 1 letter and a Zipf frequency within 0.5
  (widened step by step to 2 letters / 1.5 Zipf when nothing fits), is none of the sentence's
  own words, and is drawn at random (seeded ``random.Random``) among the 10 closest;
* the distractor copies the true word's capitalisation and its leading/trailing punctuation,
  so neither gives the answer away; a clitic token ("'s", "n't") gets a short word without
  the apostrophe.

May import: the standard library, wordfreq, :mod:`pipeline.lang`, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

import bisect
import random
import re
from dataclasses import dataclass

from pipeline.lang import gendered_words, names, pronouns
from pipeline.lang.frequency import zipf
from pipeline.vocab import UNGENDERED

COARSE = {"NN": "noun", "NNS": "noun", "NNP": "propn", "NNPS": "propn", "PRP": "pronoun",
          "PRP$": "pronoun", "WP": "pronoun", "WP$": "pronoun", "JJ": "adj", "JJR": "adj",
          "JJS": "adj", "RB": "adv", "RBR": "adv", "RBS": "adv", "WRB": "adv", "IN": "prep",
          "TO": "prep", "RP": "prep", "DT": "det", "PDT": "det", "WDT": "det", "CC": "conj",
          "MD": "verb", "CD": "num", "UH": "intj", "EX": "det"}
_WORD = re.compile(r"^(\W*)(.*?)(\W*)$", re.S)
STEPS = ((1, 0.5), (1, 1.0), (2, 1.0), (2, 1.5))
CLOSEST = 10


def coarse_pos(tag: str) -> str:
    """Coarse part of speech of a Penn tag: noun, verb, adj, adv, prep, det, ... ."""
    if tag.startswith("VB"):
        return "verb"
    return COARSE.get(tag, "other")


def split_word(token: str) -> tuple[str, str, str]:
    """(leading punctuation, core, trailing punctuation) of a displayed token."""
    m = _WORD.match(token)
    return m.group(1), m.group(2), m.group(3)


def is_name(word: str) -> bool:
    gender, label = names.guess(word[:1].upper() + word[1:].lower())
    return gender != UNGENDERED or label not in ("unknown",)


def allowed(word: str) -> bool:
    """May ``word`` be a distractor at all? (alphabetic, not gendered, not a pronoun, not a name)"""
    w = word.lower()
    if len(w) < 2 or not w.isalpha() or not w.isascii():
        return False
    if w in pronouns.PRONOUNS or w in pronouns.REFLEXIVES or w in {"they", "them", "their"}:
        return False
    if gendered_words.is_listed(w) or gendered_words.gender_of(w):
        return False
    return not is_name(w)


def distractor_candidates(n: int = 20000) -> list[tuple[str, float]]:
    """(word, Zipf frequency) of the ``n`` most frequent English words that may be distractors."""
    import wordfreq

    return [(w, wordfreq.zipf_frequency(w, "en")) for w in wordfreq.top_n_list("en", n)
            if allowed(w)]


@dataclass(frozen=True)
class Entry:
    word: str
    zipf: float
    pos: str


class Lexicon:
    """Candidate distractors with their frequency and coarse part of speech."""

    def __init__(self, entries: list[Entry]):
        self.entries = [e for e in entries if e.pos != "propn" and allowed(e.word)]
        if not self.entries:
            raise ValueError("the distractor lexicon is empty")
        self.by_length: dict[int, list[Entry]] = {}
        for e in sorted(self.entries, key=lambda e: e.zipf):
            self.by_length.setdefault(len(e.word), []).append(e)
        self.zipfs = {k: [e.zipf for e in v] for k, v in self.by_length.items()}

    def _near(self, n: int, dlen: int, target: float, dz: float) -> list[Entry]:
        """Entries within ``dlen`` letters of length ``n`` and ``dz`` of Zipf ``target``."""
        out = []
        for k in range(n - dlen, n + dlen + 1):
            if k in self.by_length:
                z = self.zipfs[k]
                out += self.by_length[k][bisect.bisect_left(z, target - dz):
                                         bisect.bisect_right(z, target + dz)]
        return out

    def choose(self, word: str, pos: str, rng: random.Random, avoid: set[str] = frozenset(),
               word_zipf: float | None = None) -> str:
        """A distractor for the bare word ``word`` (coarse part of speech ``pos``)."""
        target = zipf(word) if word_zipf is None else word_zipf
        n = len(word)
        avoid = {a.lower() for a in avoid} | {word.lower()}
        for dlen, dz in STEPS:
            fits = [e for e in self._near(n, dlen, target, dz)
                    if e.pos != pos and e.word not in avoid]
            if fits:
                fits.sort(key=lambda e: (abs(e.zipf - target) + 0.3 * abs(len(e.word) - n), e.word))
                return rng.choice(fits[:CLOSEST]).word
        # nothing close: the nearest in frequency with another part of speech
        fits = [e for e in self.entries if e.pos != pos and e.word not in avoid]
        if not fits:
            raise ValueError(f"no distractor of a part of speech other than {pos!r}")
        fits.sort(key=lambda e: (abs(e.zipf - target) + abs(len(e.word) - n), e.word))
        return rng.choice(fits[:CLOSEST]).word


def dress(distractor: str, true_token: str) -> str:
    """The distractor with the true token's capitalisation and punctuation."""
    lead, core, trail = split_word(true_token)
    if core[:1].isupper():
        distractor = distractor[:1].upper() + distractor[1:]
    return f"{lead}{distractor}{trail}"


def distractors(tokens: list[str], tags: list[str], lexicon: Lexicon,
                rng: random.Random) -> list[str | None]:
    """One distractor per token after the first (``None`` for the first), as displayed."""
    if len(tokens) != len(tags):
        raise ValueError(f"{len(tokens)} tokens but {len(tags)} tags")
    avoid = {split_word(t)[1].lower() for t in tokens}
    out: list[str | None] = [None]
    for tok, tag in zip(tokens[1:], tags[1:]):
        lead, core, trail = split_word(tok)
        if not core or "'" in lead or "’" in lead or not core.isalpha():
            # clitics ("'s", "n't") and non-words: a short word, without the apostrophe
            choice = lexicon.choose(core if core.isalpha() and len(core) > 1 else "it",
                                    coarse_pos(tag), rng, avoid)
            out.append(choice + (trail if trail and "'" not in trail else ""))
            continue
        choice = lexicon.choose(core, coarse_pos(tag), rng, avoid)
        out.append(dress(choice, tok))
    return out
