"""The person layer: a spaCy component, run after NER, that finds the personal names a small
NER model misses or mislabels ("Polly", "Kitty" as ORG, "Stepan Arkadyevitch" as ORG,
"JOHN SMITH" as GPE, "Mr Bennet" without its period).

May import: spacy, :mod:`pipeline.lang.frequency`, :mod:`pipeline.lang.names`, :mod:`pipeline.formats.resources`,
:mod:`pipeline.lang.pronouns`, :mod:`pipeline.lang.gendered_words` (the case of her / his in idioms
and italics, corrected on every Doc the layer sees). Imported by :mod:`pipeline.nlp.load` (which adds the component
to every pipeline it loads) and by :mod:`pipeline.nlp.prune` (whose pass 0 must mark a superset
of these names).

The rules (decided on the Counter-GAP dev file and samples of the Gutenberg books; the full
statement with the reasons and the figures is ``docs/persons.md``):

* **Where.** A :class:`spacy.matcher.Matcher` finds runs of capitalised alphabetic tokens
  (lexeme flags only), optionally after a title and its split period; the rules run on those
  runs. The first title or first name of a run starts the person.
* **Titled names.** A title from ``resources/titles.tsv`` (any case, with or without its period:
  "Mr Bennet", "MRS. WESTON") followed by a capitalised word; the span starts at the title.
* **First names.** A word gender-guesser calls male, female, mostly_male or mostly_female
  (all-caps words in title case), guarded by wordfreq's Zipf frequency of the lower-case word:
  *rare* (< 4.0: Polly, Kitty, Franz) -> a name unless tagged as a function word or led by an
  article; *common* (4.0 to 6.0: Rose, Hope, Grace, Frank, Mark, May, John) -> only when tagged
  NNP, with no article or possessive attached, not sentence-initial (or sentence-initial with a
  proper-noun surname after it); *very common* (>= 6.0: The, My, Will) -> never untitled. A
  word in capitals among words mostly in capitals (five tokens on each side: headings,
  contents, dedications) is not a name; "JOHN SMITH" inside a sentence is.
* **Surnames** after the first word: capitalised words tagged NNP or rare, not titles, not
  function words, not sentence-initial ("Stepan Arkadyevitch").
* **Places and organisations.** A head word of ``resources/name_guards.tsv`` in the run after
  the first name word, or a possessive and such a word after it ("Prince Edward Island",
  "Mary's Church"), rejects the candidate (and turns such a multi-word NER PERSON into FAC). A
  candidate replaces an overlapping ORG/FAC/WORK_OF_ART/LAW/PRODUCT/EVENT entity only when the
  candidates cover all the entity's capitalised words (so "Saint Mary's Church", "New York",
  "Damon and Pythias" stay); GPE/LOC/NORP only for a titled, multi-word or rare candidate
  ("Felicity" yes, "America" no); DATE/TIME/numbers only for a titled candidate ("Aunt March").
* **Merging** with NER's own PERSON entities: the longest span wins (``spacy.util.filter_spans``),
  so "Stepan" (NER) grows into "Stepan Arkadyevitch"; the layer never removes a PERSON entity,
  but first trims each of the words the NER glued to the name (:func:`trimmed`: "Robert Leaven
  resumed--", "Concerning Montoni").

Every rule looks only at the token, its tag, its dependency children, the sentence start and the
NER entity around it: nothing depends on the rest of the document, so a region processed by
the prune strategy gets the same names as the same text in the whole chunk.
"""

from __future__ import annotations

import functools
import os

from pipeline.lang.frequency import zipf
from pipeline.lang.gendered_words import pronoun_case
from pipeline.lang.names import NAME_PARTICLES, guess, title_gender
from pipeline.lang.pronouns import FEMININE, MASCULINE

PERSON_LAYER = "person_layer"
# Environment switch for benchmarks only (before/after figures): "0" leaves the layer out.
ENV_SWITCH = "PIPELINE_PERSON_LAYER"
COMMON_ZIPF = 4.0
VERY_COMMON_ZIPF = 6.0
PROPN_TAGS = {"NNP", "NNPS"}
# Tags of words that are never names, however rare or capitalised.
FUNCTION_TAGS = {"PRP", "PRP$", "DT", "PDT", "WDT", "WP", "WP$", "IN", "CC", "MD", "UH", "TO", "EX", "POS"}
ARTICLES = {"a", "an", "the", "this", "that", "these", "those", "every", "each", "no", "another"}
POSSESSIVE_DEP = "poss"
# NER labels a person candidate may replace when it covers the entity's capitalised words.
REPLACEABLE = {"ORG", "GPE", "LOC", "FAC", "WORK_OF_ART", "LAW", "PRODUCT", "EVENT", "NORP"}
# Place labels: a single common-tier word NER calls a place stays a place ("America", "Paris").
PLACE_LABELS = {"GPE", "LOC", "NORP"}
POSSESSIVES = {"'s", "’s"}


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1").strip().lower() not in ("0", "off", "no", "false")


@functools.lru_cache(maxsize=1)
def head_words() -> frozenset[str]:
    """Lower-case head words of place and organisation names (resources/name_guards.tsv)."""
    from pipeline.formats.resources import read_commented, resource

    return frozenset(f[0].lower() for _, f in read_commented(resource("name_guards.tsv"), header="word",
                                                             min_columns=2))


@functools.lru_cache(maxsize=200_000)
def capitalised(text: str) -> bool:
    """A word that starts with a capital letter and is made of letters (hyphens and
    apostrophes inside allowed): "Polly", "JOHN", "O'Brien", "Mary-Anne"."""
    if not text[:1].isupper():
        return False
    core = text.replace("-", "").replace("'", "").replace("’", "")
    return core.isalpha()


def _sent_start(tok) -> bool:
    if tok.i == 0:
        return True
    start = tok.is_sent_start
    if start:
        return True
    # after an opening quote or bracket at the start of a sentence: “Kitty ...
    prev = tok.doc[tok.i - 1]
    return bool(prev.is_sent_start or prev.i == 0) and (prev.is_punct or prev.is_space)


def first_name_tier(tok) -> str | None:
    """"rare", "common", "common-initial" (common and sentence-initial: a name only if a
    surname follows) or None (not a first name here)."""
    text = tok.text
    if not capitalised(text) or title_gender(text):
        return None
    if guess(text)[0] not in (MASCULINE, FEMININE):
        return None
    if tok.tag_ in FUNCTION_TAGS:
        return None
    if any(c.i < tok.i and c.dep_ == "det" and c.lower_ in ARTICLES for c in tok.children):
        return None                     # "a Rose", "the Glen", "a Venus"
    z = zipf(text)
    if z < COMMON_ZIPF:
        return "rare"
    if z >= VERY_COMMON_ZIPF:
        return None
    if tok.tag_ not in PROPN_TAGS:
        return None
    if any(c.i < tok.i and c.dep_ == POSSESSIVE_DEP for c in tok.children):
        return None                     # "my Hope"
    return "common-initial" if _sent_start(tok) else "common"


def surname_ok(tok) -> bool:
    """A capitalised word that may continue a name after a first name."""
    text = tok.text
    if not capitalised(text) or len(text) < 2 or title_gender(text) or _sent_start(tok) \
            or tok.tag_ in FUNCTION_TAGS:
        return False
    if text.lower() in head_words():
        return True        # kept in the run so that the place guard sees it
    return tok.tag_ in PROPN_TAGS or zipf(text) < COMMON_ZIPF


def after_title_ok(tok) -> bool:
    """The first word after a title: any capitalised word that is not a title itself."""
    return capitalised(tok.text) and not title_gender(tok.text)


@functools.lru_cache(maxsize=1)
def _title_forms() -> frozenset[str]:
    """Every spelling of a title token the matcher must see: "Mr", "Mr.", "MR", "MR."."""
    from pipeline.lang.names import titles

    forms = set()
    for t in titles():
        for w in (t[:1].upper() + t[1:], t.upper()):
            forms.update((w, w + "."))
    return frozenset(forms)


@functools.lru_cache(maxsize=8)
def _matcher(vocab):
    """Runs of capitalised alphabetic tokens, with an optional title (and its split period)
    before them. Only lexeme flags and set membership are tested per token (fast, in C); the
    rules then look at the few runs found."""
    from spacy.matcher import Matcher

    m = Matcher(vocab)
    m.add("RUN", [[{"ORTH": {"IN": sorted(_title_forms())}, "OP": "?"}, {"ORTH": ".", "OP": "?"},
                   {"IS_ALPHA": True, "IS_LOWER": False, "OP": "+"}]], greedy="LONGEST")
    return m


def _place_like(span, titled: bool) -> bool:
    """The run names a place or an organisation: a head word after its first name word, or a
    possessive followed by a capitalised head word right after it ("Mary's Church")."""
    heads = head_words()
    first = span.start + 1
    if titled:                          # skip the title, its period and the first name word
        first = span.start + 1 + (span.doc[span.start + 1].text == ".") + 1
    if any(t.text.lower() in heads for t in span.doc[first:span.end]):
        return True
    doc = span.doc
    return (span.end + 1 < len(doc) and doc[span.end].text in POSSESSIVES
            and doc[span.end + 1].text.lower() in heads and capitalised(doc[span.end + 1].text))


def _titled_at(doc, i: int, end: int) -> int | None:
    """Index of the first name word when token ``i`` is a title followed (after its split
    period, if any) by a capitalised word of the run, else None."""
    if not (title_gender(doc[i].text) and capitalised(doc[i].text.rstrip("."))):
        return None
    first = i + 1 + (i + 1 < end and doc[i + 1].text == ".")
    return first if first < end and after_title_ok(doc[first]) else None


CAPITALS_REACH = 5       # tokens on each side looked at by the capitals guard


def _capitals_text(doc, i: int, start: int = 0, end: int = 0) -> bool:
    """Token ``i`` is written in capitals among words that are mostly in capitals too (more
    than half of the alphabetic tokens within ``CAPITALS_REACH`` tokens on each side): a
    heading, a table of contents or a dedication ("TO FREDDY AND JOHNNY, THE LITTLE MEN",
    "CHAPTER I. NAT CHAPTER II."), not a name written in capitals inside a sentence
    ("signed by JOHN SMITH, and ...")."""
    if not doc[i].text.isupper():
        return False
    near = [t for t in doc[max(0, i - CAPITALS_REACH):i + CAPITALS_REACH + 1] if t.i != i and t.is_alpha]
    return bool(near) and 2 * sum(t.text.isupper() for t in near) > len(near)


def _person_in_run(doc, start: int, end: int):
    """The person span the rules find in the capitalised run ``doc[start:end]`` (which may
    begin with a title and its period, or hold one: "The Countess Lidia Ivanovna"), or None.
    The first title or first name of the run starts the person."""
    from spacy.tokens import Span

    titled, first = False, None
    for i in range(start, end):
        first = _titled_at(doc, i, end)
        if first is not None:
            titled, start = True, i
            break
        if first_name_tier(doc[i]) is not None and not _capitals_text(doc, i, start, end):
            first = start = i
            break
    if first is None:
        return None
    stop = first + 1
    while stop < end and surname_ok(doc[stop]):
        stop += 1
    if not titled:
        tier = first_name_tier(doc[first])
        if tier == "common-initial" and not any(doc[i].tag_ in PROPN_TAGS for i in range(first + 1, stop)):
            return None                 # "Hope is ...", "Mark my words": a surname must follow
    span = Span(doc, start, stop, label="PERSON")
    return None if _place_like(span, titled) else span


def candidates(doc) -> list:
    """Person spans proposed by the rules (before merging with the NER entities)."""
    from spacy.util import filter_spans

    runs = filter_spans(doc[s:e] for _, s, e in _matcher(doc.vocab)(doc))
    spans = [p for p in (_person_in_run(doc, r.start, r.end) for r in runs) if p is not None]
    return filter_spans(spans)


def _covers(cands, ent) -> bool:
    """Every capitalised word of ``ent`` but its determiners ("The Countess Lidia Ivanovna")
    lies inside one of ``cands`` (names the NER glued into one entity, "Una, Cecily" ORG, are
    all candidates)."""
    return all(any(c.start <= t.i < c.end for c in cands) for t in ent
               if capitalised(t.text) and t.tag_ != "DT")


def _strong(cand) -> bool:
    """A candidate that may replace a place entity: titled, several words, or a rare word."""
    return len(cand) > 1 or bool(title_gender(cand[0].text)) or first_name_tier(cand[0]) == "rare"


def _may_replace(cands, cand, ent) -> bool:
    if ent.label_ not in REPLACEABLE:
        # DATE, TIME, numbers: "in May"; a title still makes a person ("Aunt March")
        return bool(title_gender(cand[0].text)) and cand.start <= ent.start and ent.end <= cand.end
    if ent.label_ in PLACE_LABELS and not _strong(cand):
        return False
    return _covers(cands, ent)


# lower-case words inside a name: "Vincent van Gogh", "Alexander the Great", "Joan of Arc"
INNER_NAME_WORDS = {"van", "von", "de", "der", "den", "del", "della", "di", "da", "du", "la", "le", "ten", "ter",
                  "bin", "ibn", "al", "y", "e", "of", "the", "d'", "o'", "st", "st."}
# two names in one entity ("Mr. and Mrs. Weston", "Anna's and Vronsky"): core.cast cuts them
COORDINATORS = {"and", "or", "&"}
# tags of a first word glued to a name that is no name: "Concerning Montoni"
NOT_NAME_LEAD_TAGS = {"VB", "VBD", "VBG", "VBN", "VBP", "VBZ", "IN", "RB", "UH", "CC", "DT"}


def _lower_word(tok) -> bool:
    return tok.text[:1].islower() and any(c.isalpha() for c in tok.text)


def trimmed(ent) -> tuple[int, int]:
    """(start, end) of a PERSON entity without the words glued to the name: a lower-case word
    that is no name particle, or any lower-case word after the last capitalised one ("Robert
    Leaven resumed--": the small NER's span, "resumed--" tagged NNP), and a first word tagged as
    a verb, preposition or adverb before a capitalised one, that is no title or first name
    ("Concerning Montoni"); what follows a possessive ("the Colonel’s Diamond" -> "Colonel’s",
    which names no one: a title alone). "Vincent van Gogh" and "Alexander the Great" stay whole."""
    doc = ent.doc
    start, end = ent.start, ent.end
    caps = [t.i for t in ent if t.text[:1].isupper()]
    if not caps:
        return start, end
    for t in ent[1:]:
        if _lower_word(t) and (t.text.lower().strip("-—–") not in INNER_NAME_WORDS | COORDINATORS or t.i > caps[-1]):
            end = t.i
            break
        if t.text in POSSESSIVES and t.i + 1 < ent.end and doc[t.i + 1].text.lower() not in COORDINATORS \
                and not (doc[t.i + 1].text.lower() in head_words() and capitalised(doc[t.i + 1].text)):
            end = t.i + 1               # "the Colonel's Diamond": the person ends at the possessive
            #                             (not "Bartlett's Buildings", a place: see add_persons)
            break
    if doc[start].text in POSSESSIVES and end - start > 1:
        start += 1                      # "’s Diamond": the NER's span began at the possessive
    first = doc[start]
    if end - start > 1 and first.tag_ in NOT_NAME_LEAD_TAGS and capitalised(first.text) \
            and not title_gender(first.text) and guess(first.text)[0] not in (MASCULINE, FEMININE) \
            and doc[start + 1].text[:1].isupper():
        start += 1
    return start, end


def _trim_persons(doc) -> list:
    """``doc.ents`` with each PERSON entity :func:`trimmed` (an entity left with no capitalised
    word is dropped)."""
    from spacy.tokens import Span

    out, changed = [], False
    for e in doc.ents:
        if e.label_ == "PERSON":
            s, t = trimmed(e)
            if (s, t) != (e.start, e.end):
                changed = True
                if t > s and any(x.text[:1].isupper() for x in doc[s:t]):
                    out.append(Span(doc, s, t, label="PERSON"))
                continue
        out.append(e)
    if changed:
        doc.ents = out
    return out


def _join_particles(doc, ents: list) -> list:
    """Two PERSON entities with only a surname's lower-case particles between them are one
    name: the small NER reads "Mr. Henry van der Luyden" as "Henry van" and "Luyden", so the
    trimmed "Henry" and the particle-less "Luyden" would be two people. Particles of
    ``lang.names.NAME_PARTICLES`` only ("van", "der", "de", "von"...), not "of"/"the"/"and":
    "Tom and Mary" stay two."""
    from spacy.tokens import Span

    out, changed = [], False
    for e in ents:
        prev = out[-1] if out else None
        if prev is not None and e.label_ == "PERSON" and prev.label_ == "PERSON" and e.start > prev.end \
                and all(t.text in NAME_PARTICLES for t in doc[prev.end:e.start]) \
                and all(t.whitespace_ for t in doc[prev.end - 1:e.start]):
            out[-1] = Span(doc, prev.start, e.end, label="PERSON")
            changed = True
            continue
        out.append(e)
    if changed:
        doc.ents = out
    return out


def add_persons(doc):
    """Merge the rule-based person spans into ``doc.ents`` (see the module docstring)."""
    from spacy.tokens import Span
    from spacy.util import filter_spans

    pronoun_case(doc)                   # her / his in idioms and italics (lang.gendered_words)
    ents = _join_particles(doc, _trim_persons(doc))
    places = {(e.start, e.end) for e in ents if e.label_ == "PERSON" and len(e) > 1 and _place_like(e, False)}
    if places:                          # NER's "Bartlett's Buildings": a place, not a person
        ents = [Span(doc, e.start, e.end, label="FAC") if (e.start, e.end) in places else e for e in ents]
        doc.ents = ents
    cands = candidates(doc)
    if not cands:
        return doc
    accepted, dropped = [], set()
    for cand in cands:
        overlapping = [e for e in ents if e.start < cand.end and cand.start < e.end]
        others = [e for e in overlapping if e.label_ != "PERSON"]
        if not all(_may_replace(cands, cand, e) for e in others):
            continue
        dropped.update((e.start, e.end) for e in others)
        accepted.append(cand)
    if not accepted:
        return doc
    kept = [e for e in ents if (e.start, e.end) not in dropped or e.label_ == "PERSON"]
    doc.ents = filter_spans(kept + accepted)
    return doc


def register() -> None:
    """Register the component factory (idempotent)."""
    from spacy.language import Language

    if Language.has_factory(PERSON_LAYER):
        return
    Language.component(PERSON_LAYER, func=add_persons)
