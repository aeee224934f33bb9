"""Extract's pure core: parsed text of one book -> GAP-pattern instances and mention records.

Follow one book: :mod:`pipeline.formats.books` reads it into paragraphs;
:func:`chunk_paragraphs` (here) cuts them into chunks; :func:`pipeline.nlp.prune.parsed_docs`
runs spaCy over them; :func:`extract_chunks` (here) turns the parsed Docs into records;
:mod:`pipeline.runs.extract` writes them.

Chunks. Whole paragraphs are grouped into chunks of at most ``CHUNK_CHARS`` characters. A
paragraph longer than that (a book without line breaks is one paragraph) is cut into pieces
of at most ``CHUNK_CHARS`` by :func:`split_paragraph`, preferably after a sentence end, else
at a space, else anywhere; each piece is a chunk of its own. So no Doc is ever longer than
``CHUNK_CHARS`` (far below spaCy's ``max_length``), and memory per Doc is bounded.

Context windows. For every gendered non-reflexive pronoun (he, him, his, she, her, hers)
the candidate windows are the runs of at most five whole sentences that contain the
pronoun's sentence, tried from the shortest to the longest and, among equally long ones,
from the one that starts earliest (most preceding context) to the latest. A window fits
when its personal names form exactly two masculine and two feminine persons, with no
ungendered person and no ambiguous name variant (see :func:`pipeline.lang.names.group_persons`).
The first fitting window whose names let the pronoun match a GAP pattern
(:mod:`pipeline.lang.patterns`) and that holds no further person-like mention
(:func:`other_person`: "the Lucases", a titled or first name NER missed) gives the instance;
a pronoun yields at most one instance.
Leads. A window may reach back across a chunk's start: every chunk but the first is parsed
with a *lead*, the whole sentences of the book text just before it (at most ``LEAD_CHARS``
characters, from the first sentence start in that stretch; :func:`with_leads`). Only the
chunk's own pronouns, mentions and words are kept (:func:`extract_chunks`), so nothing is
counted twice; a pronoun whose windows reach further back than the lead loses them.

Takes spaCy Doc/Token objects as input, but reads and writes no files.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.lang`, :mod:`pipeline.core.cast`,
:mod:`pipeline.core.instances` (the instance built and its mentions completed), the standard library.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.core.cast import EVIDENCE_KEY, FAMILY_SOURCE, allusion, common_word, doc_mentions
from pipeline.core.instances import GenerateError, build_instance, check_instance, completed
from pipeline.lang import gendered_words as gw
from pipeline.lang.doc_arrays import count_words as doc_count_words
from pipeline.lang.doc_arrays import DocArrays, pronoun_indices
from pipeline.lang.names import (MARRIED_TITLES, MISS_TITLES, NameMention, any_title, confusable_persons, glued_pieces, group_persons, guess, saint_place,
                                  saint_title, title_gender, ungendered_title)
from pipeline.lang.patterns import initial_clause_kind, match_pattern
from pipeline.lang.places import known_place
from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED, target_pronoun_gender
from pipeline.lang.sentence_starts import chapter_break, chapter_title_end, heading, heading_lead, real_start
from pipeline.vocab import MAX_SENTENCES

CHUNK_CHARS = 10_000
LEAD_CHARS = 1_000      # text before a chunk parsed with it (see "Leads")
# A sentence end inside a long paragraph: end punctuation, closing quotes/brackets, spaces.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’)\]_]*\s+")
_SPACE = re.compile(r"\s+")


@dataclass
class BookMeta:
    book_id: str
    title: str
    author: str
    model: str = ""
    model_version: str = ""
    spacy_version: str = ""


@dataclass
class BookResult:
    """Everything extract keeps of one book: its ``BOOKS`` row and its mention and instance
    records (schemas ``MENTIONS`` and ``INSTANCES``)."""
    book: dict
    mentions: list[dict] = field(default_factory=list)
    instances: list[dict] = field(default_factory=list)
    refused: list[dict] = field(default_factory=list)     # REFUSED records: windows refused, per pronoun
    evidence: str = ""          # the book's evidence as JSON (pipeline.lang.evidence_json); "" if skipped


# ------------------------------------------------------------------ chunks ----------------

def split_paragraph(text: str, max_chars: int = CHUNK_CHARS) -> list[tuple[int, int]]:
    """(start, end) pieces of ``text``, each at most ``max_chars`` long, that together are
    exactly ``text``. A piece ends after the last sentence end in its second half, else after
    its last run of spaces, else at ``max_chars``."""
    if max_chars < 1:
        raise ValueError("max_chars must be positive")
    pieces, pos, n = [], 0, len(text)
    while n - pos > max_chars:
        window = text[pos:pos + max_chars]
        cut = 0
        for m in _SENTENCE_END.finditer(window, max_chars // 2):
            cut = m.end()
        if not cut:
            for m in _SPACE.finditer(window, 1):
                cut = m.end()
        if not cut or cut > max_chars:
            cut = max_chars
        pieces.append((pos, pos + cut))
        pos += cut
    pieces.append((pos, n))
    return pieces


def chunk_paragraphs(paragraphs: list[str], max_chars: int = CHUNK_CHARS) -> list[tuple[int, str]]:
    """Group whole paragraphs into chunks of at most ``max_chars``; a longer paragraph is cut
    into pieces (:func:`split_paragraph`), each a chunk of its own. Returns (book offset, chunk
    text) pairs; the book text is the paragraphs joined by "\\n\\n", and
    ``book_text[offset:offset + len(chunk)] == chunk`` for every chunk."""
    chunks: list[tuple[int, str]] = []
    current: list[str] = []
    start = offset = size = 0
    for para in paragraphs:
        if current and (size + 2 + len(para) > max_chars):
            chunks.append((start, "\n\n".join(current)))
            current, size = [], 0
        if len(para) > max_chars:
            chunks.extend((offset + s, para[s:e]) for s, e in split_paragraph(para, max_chars))
        elif not current:
            start, size = offset, len(para)
            current.append(para)
        else:
            size += 2 + len(para)
            current.append(para)
        offset += len(para) + 2
    if current:
        chunks.append((start, "\n\n".join(current)))
    return chunks


def lead_start(book_text: str, own: int, lead_chars: int = LEAD_CHARS) -> int:
    """Where the lead of a chunk starting at book offset ``own`` begins: the first sentence
    start (after a sentence end or a paragraph break) in the ``lead_chars`` characters before
    ``own``; ``own`` itself when there is none."""
    lo = max(0, own - lead_chars)
    if lo == 0:
        return 0
    m = _LEAD_FROM.search(book_text, lo, own)
    return m.end() if m else own


_LEAD_FROM = re.compile(r"[.!?…][\"'”’)\]_]*\s+|\n\n")


def with_leads(chunks: list[tuple[int, str]], book_text: str,
               lead_chars: int = LEAD_CHARS) -> tuple[list[tuple[int, str]], list[int]]:
    """The chunks with their leads (see "Leads"), and where each chunk's own text begins (a
    book offset): ``(offset, text)`` pairs as :func:`chunk_paragraphs` gives, each still
    ``book_text[offset:offset + len(text)]``."""
    out, owns = [], []
    for k, (offset, text) in enumerate(chunks):
        start = lead_start(book_text, offset, lead_chars) if k and lead_chars > 0 else offset
        out.append((start, book_text[start:offset] + text))
        owns.append(offset)
    return out, owns


# ------------------------------------------------------------------ one Doc ---------------

def doc_sentences(doc) -> list:
    """Sentences that hold at least one non-space token. A heading line the parser glued to
    the sentence after it ("V" | '"How do I look to-night, Liddy?"') is a sentence of its own
    (:func:`pipeline.lang.sentence_starts.heading_lead`), so no window starts with it or
    reads across it."""
    out = []
    for s, e in sentence_bounds(doc):
        rest = heading_lead(doc, s, e)
        if rest is not None:
            out.append(doc[s:rest])
            s = rest
        out.append(doc[s:e])
    return out


def sentence_bounds(doc) -> list[tuple[int, int]]:
    """(start, end) token indices of :func:`doc_sentences`, read in bulk (the sentence starts
    of ``doc.sents`` and each token's ``is_space``) without a ``Token`` object per token."""
    import numpy as np
    from spacy.attrs import IS_SPACE, SENT_START

    if not doc.has_annotation("SENT_START") or "sents" in doc.user_hooks:
        # spaCy's own path (and its error when the Doc has no sentence boundaries)
        return [(s.start, s.end) for s in doc.sents if any(not t.is_space for t in s)]
    n = len(doc)
    if not n:
        return []
    cols = doc.to_array([SENT_START, IS_SPACE]).astype("int64")
    starts = [0] + (np.flatnonzero(cols[1:, 0] == 1) + 1).tolist()
    ends = starts[1:] + [n]
    solid = np.concatenate(([0], np.cumsum(cols[:, 1] == 0)))      # non-space tokens before i
    return [(s, e) for s, e in zip(starts, ends) if solid[e] > solid[s]]


def person_mentions(doc, evidence=None, rejected: Counter | None = None,
                    dropped: set[int] | None = None) -> list[NameMention]:
    """The person mentions of a parsed Doc, as every stage sees them
    (:func:`pipeline.core.cast.doc_mentions`: local guards, the book's evidence, overrides)."""
    return doc_mentions(doc, evidence, rejected, dropped)


def pronoun_tokens(doc) -> list:
    """Gendered non-reflexive pronouns: by spelling, and by tag (PRP, PRP$) when tagged."""
    return [doc[i] for i in pronoun_indices(doc, tags=True)]


def _context(doc, sents, lo: int, hi: int):
    """Context text of sentences lo..hi (inclusive) on one line, and token -> context offset."""
    parts, starts, pos = [], {}, 0
    toks = [t for s in sents[lo:hi + 1] for t in s if not t.is_space]
    for k, tok in enumerate(toks):
        starts[tok.i] = pos
        parts.append(tok.text)
        pos += len(tok.text)
        if k + 1 < len(toks) and (tok.whitespace_ or toks[k + 1].i != tok.i + 1):
            parts.append(" ")
            pos += 1
    return "".join(parts), starts, toks


# the reason counted when a window's instance fails :func:`check_instance` (a mention that holds
# the pronoun, overlapping mentions): generate would refuse it, so extract never writes it
UNSOUND = "unsound instance"


def _instance(doc, chunk_offset, sents, lo, hi, sp, pron, persons, match, meta: BookMeta) -> dict | None:
    text, starts, toks = _context(doc, sents, lo, hi)

    def ctx(m: NameMention) -> tuple[int, int]:
        first, last = doc[m.token_start], doc[m.token_end - 1]
        while first.is_space:
            first = doc[first.i + 1]
        s = starts[first.i] + max(0, m.start - first.idx)
        e = starts[last.i] + (m.end - last.idx)
        return s, e

    names, mention_pos = [], {}
    for role, person in persons:
        spans = []
        for k, m in enumerate(person.mentions):
            s, e = ctx(m)
            spans.append({"start": s, "end": e, "text": text[s:e], "title": m.title})
            mention_pos[(role, k)] = (s, e)
        names.append({"role": role, "name": person.name, "gender": person.gender, "mentions": spans})
    a_s, a_e = mention_pos[(match.a_role, match.a_index)]
    b_s, b_e = mention_pos[(match.b_role, match.b_index)]
    sent_starts = [starts[next(t for t in s if not t.is_space).i] for s in sents[lo:hi + 1]]
    sent_ends = []
    for s in sents[lo:hi + 1]:
        last = [t for t in s if not t.is_space][-1]
        sent_ends.append(starts[last.i] + len(last.text))
    inst = build_instance(
        text=text, toks=toks, start_of=lambda t: starts[t.i], pron=pron,
        pronoun_gender=target_pronoun_gender(pron.text), names=names,
        instance_id=f"{meta.book_id}-{chunk_offset + pron.idx}", book_id=meta.book_id, title=meta.title,
        author=meta.author, book_start=chunk_offset + toks[0].idx, sentence_starts=sent_starts,
        sentence_ends=sent_ends, pattern=match.pattern,
        a_name=match.a_role, a=text[a_s:a_e], a_offset=a_s, b_name=match.b_role, b=text[b_s:b_e], b_offset=b_s,
        model=meta.model, model_version=meta.model_version, spacy_version=meta.spacy_version)
    try:
        check_instance(inst)         # what generate would refuse is never written
    except GenerateError:
        return None
    return completed(inst)[0]        # the mentions NER missed, added when the instance stays sound


def fit_window(mentions: list[NameMention], aliases=None):
    """Persons of a window if they are exactly 2 masculine + 2 feminine (nothing else).
    ``aliases``: the book's alias table (``BookEvidence.aliases``; None: the window alone)."""
    return fitted_window(mentions, aliases)[0]


def fitted_window(mentions: list[NameMention], aliases=None) -> tuple[list | None, str | None]:
    """(:func:`fit_window`'s persons or None, and when it refused the window because one of its
    names may be either of two persons -- the book has two Mr. Osbornes; "Miss Eliza" beside
    "Elizabeth" without the book -- the window's names, else None)."""
    persons, ok = group_persons(mentions, aliases)
    if not ok or confusable_persons(persons, aliases):
        return None, " / ".join(dict.fromkeys(m.text for m in mentions))[:200]
    genders = Counter(p.gender for p in persons)
    if genders.get(UNGENDERED) or genders.get(MASCULINE) != 2 or genders.get(FEMININE) != 2 or len(persons) != 4:
        return None, None
    return persons, None


def window_ambiguity(mentions: list[NameMention], aliases=None) -> str | None:
    """The names of a window refused because one of them may be either of two persons, or None
    (:func:`fitted_window`)."""
    return fitted_window(mentions, aliases)[1]


# Why a window that fits (two masculine and two feminine persons, a GAP pattern) is refused:
# it holds a further person-like mention that is none of the four persons (docs/extract.md,
# "Windows with a fifth person"). Reasons, in the order they are looked for.
REJECT_TITLE_CLASH = "one name with an ungendered and a gendered title (two persons?)"
REJECT_PERSON_LEFT = "a PERSON entity word outside the four persons"
REJECT_TITLED = "a titled name that is not one of the four persons"
REJECT_COUPLE = "a title shared by two names (Mr. and Mrs. Weston, Messrs. Blathers and Duff)"
PLURAL_TITLES = frozenset({"messrs", "mssrs", "mesdames", "mmes", "misses", "mesdemoiselles"})
REJECT_FIRST_NAME = "a first name tagged NNP that is not one of the four persons"
REJECT_FAMILY = "a plural proper noun outside every entity (a family: the Lucases)"
REJECT_PROPER = "a proper noun outside every entity used as a person (subject, object, possessive)"
REJECT_GENERATIONS = "one name for two generations (old Wickham, the late Mr. Darcy)"
REJECT_GLUED = "a name glued to another word by a dash or a footnote mark (congratulations.--Harriet, Lydia[1])"
REJECT_RANK = "a rank or title used as a name (the little princess, the Colonel)"
REJECT_NICKNAME = "a nickname made of a gendered noun (the Story Girl)"
REJECT_ARTICLE = "a name after an article (the Emperor Paul, a mere Mrs Smith)"
REJECT_ALLUSION = "an allusion among the four persons (a sort of Guy Fawkes, or Don Juan be popular)"
REJECT_BOOK_PERSON = "a name the book shows as a person inside another entity (to Good and Alphonse, an ORG)"
REJECT_KIN_NAME = "a kin word used as a name (Mother was sitting at the fire)"
# a word of one of the four persons' names outside their mentions, which no swap would reach
# (the NER ran a song's title on into "”Anne gazed", a WORK_OF_ART)
REJECT_UNMARKED = "a name of the four outside its mentions (“Gentle Daisies” Anne gazed, a WORK_OF_ART)"
# a mention the NER ended before the rest of the name ("by Gaston Mears or Mack Dodge--", where
# "Dodge--" is one token): a swap would write "Minnie McGlook Dodge"
REJECT_CUT = "a name that runs on past its mention (Mack Dodge--, the NER took only Mack)"
# a given name and a peer's titled name after a comma: one man named twice, or two in a list
REJECT_APPOSITION = "a name and a peer's title after a comma (John, Lord Greystoke: one man or two)"
# not a fifth person: a name of the window may be either of two persons of the book (two Mr. Osbornes)
REJECT_AMBIGUOUS_ALIAS = "a name that may be either of two persons (two Mr. Osbornes)"
# not a fifth person: a "her" whose case only the meaning decides, so no swap can be sure of
# "him" or "his" ("afford her consoling satisfaction"; :func:`pipeline.lang.gendered_words.ambiguous_her`)
REJECT_CASE = "a \"her\" the swap cannot read as him or his (afford her consoling satisfaction)"
# before a mention, these words name another generation of the family: "the son of old
# Wickham, the late Mr. Darcy's steward" beside George Wickham and Mr. Darcy
GENERATION_WORDS = {"late", "elder", "younger", "senior", "junior"}
# Ranks of nobility that stand for a person's name after "the" ("the little princess" is
# Prince Andrew's wife in War and Peace; a swap would make her "the pretty, pregnant prince").
# "count" only capitalised ("the count of the votes").
RANK_WORDS = {"prince", "princess", "duke", "duchess", "countess", "baron", "baroness", "baronet", "marquis",
              "marquise", "marchioness", "earl", "viscount", "viscountess", "emperor", "empress",
              "king", "queen", "tsar", "tsarina", "czar", "czarina", "archduke", "archduchess",
              "comte", "comtesse", "vicomte", "vicomtesse", "duc", "duchesse", "baronne", "chevalier",
              # the gentry's squire has no counterpart: "the squire stripped him" beside Squire
              # Allworthy stayed "the squire" while his pronouns flipped (read, seed 20261193)
              "squire"}
# one person's two names set against each other ("He was not Raymie; he was Major Wutherspoon"):
# a swap gives both the same name ("She was not Carol; she was Carol")
REJECT_CONTRAST = "two names of one person set against each other (he was not Raymie; he was Major Wutherspoon)"
# a name after a title of dialect (:meth:`pipeline.lang.book_evidence.BookEvidence.dialect_title`):
# "Gladda meecher, siz Pett" is Mrs. Pett, whom no rule ties to her titled name
REJECT_DIALECT = "a name after a word the book writes only before names (siz Pett, Mis' Molly: a title of dialect)"
# a given name only the characters say ("Here's Mr. Carey, Betty," said Athelny) beside a
# person of that gender whom the window names only by title and surname: the narration's name
# for the same woman, perhaps (Betty is Mrs. Athelny, Honoria is Lady Dedlock)
REJECT_SPOKEN = "a given name only spoken, beside a titled surname of that gender (Betty ... Mrs. Athelny: one woman?)"
# a name only spoken, rarely, that respells a name of the book (BookEvidence.spoken_spellings):
# Tana's "What Miz Pats want dinner?" is Mrs. Patch, Gloria, beside her
REJECT_RESPELT = "a rare spoken name that respells a name of the book (Miz Pats for Mrs. Patch)"
# a word the cast makes no person (an animal, a place) that the book writes as the given name of
# one of the four persons' surnames: "If Tom doesn't come back" beside Carmichael, in a book whose
# Tom is a tame cougar and Tom Carmichael a man (read, seed 20261175)
REJECT_NOT_PERSON_NAME = "a word the book makes no person that is the given name of one of the four (Tom, a cougar, beside Carmichael)"
GIVEN_OF_FOUR_MIN = 2       # full names "<word> <surname>" the book writes, for the rule above
# a pronoun capitalised inside a sentence is the deity's ("prayed to God that He would make his
# club-foot whole", "after Him"): a swap would turn it with the persons' words (read, seed 20261180)
REJECT_DEITY = "a he, him or his capitalised inside a sentence (God's: prayed that He would)"
DEITY_PRONOUNS = frozenset({"He", "Him", "His", "Himself"})
# a word said of one sex with no counterpart (lang.gendered_words.ONE_SEX_WORDS): no swap is sound
REJECT_ONE_SEX = "a word of one sex that no swap can turn (his matronly days, a pregnant prince)"
# a person of the four whom the whole book names at most RARE_MAX times (every word of each of
# its names capitalised that rarely): a name in passing, an allusion ("perhaps of Isaac Johnson
# himself", "Anne Hathaway", "a votary of Dame Fashion"), not a character a test item may
# rename; in the read verdicts, windows with such a person were clean 28 times in 62
REJECT_RARE = "a person of the four the book names at most twice (Isaac Johnson, Boston's founder, in passing)"
RARE_MAX = 2
RARE_MIN_WORDS = 20000      # only in a book this long (a short text names its persons rarely)
# a kin or rank noun of the other gender right before a name of the four: "her aunt Western"
# (Mrs Western) beside the squire Western, one surname for two people of a family
REJECT_KIN_GENDER = "a name after a kin word of the other gender (her aunt Western beside the squire Western)"
KIN_GENDER_WORDS = frozenset("""aunt uncle mother father brother sister son daughter niece nephew
cousin wife husband grandmother grandfather grandson granddaughter widow""".split())
WINDOW_REJECTIONS = (REJECT_TITLE_CLASH, REJECT_GENERATIONS, REJECT_ARTICLE, REJECT_ALLUSION, REJECT_GLUED, REJECT_RANK, REJECT_NICKNAME, REJECT_PERSON_LEFT, REJECT_TITLED, REJECT_COUPLE, REJECT_FIRST_NAME,
                     REJECT_FAMILY, REJECT_PROPER, REJECT_BOOK_PERSON, REJECT_KIN_NAME, REJECT_UNMARKED, REJECT_CUT,
                     REJECT_APPOSITION, REJECT_CONTRAST, REJECT_DIALECT, REJECT_SPOKEN, REJECT_RESPELT,
                     REJECT_NOT_PERSON_NAME, REJECT_RARE, REJECT_DEITY, REJECT_ONE_SEX, REJECT_KIN_GENDER)
# A proper noun outside every entity is person-like in these roles ("Wickham said", "saw
# Wickham", "Wickham's"), and as the object of a preposition other than one of place or "of"
# ("with Wickham"; "at Longbourn", "to Netherfield", "the master of Pemberley" are places).
PERSON_DEPS = {"nsubj", "nsubjpass", "dobj", "iobj", "poss", "agent"}
PLACE_PREPOSITIONS = {"at", "in", "to", "from", "near", "into", "towards", "toward", "through", "of", "round",
                      "around", "about", "across", "beyond", "within", "out", "over", "on", "upon", "by", "for"}
PROPN_TAGS = {"NNP", "NNPS"}
# Which rules run (a benchmark may switch REJECT_PROPER off to measure its cost).
PERSON_LIKE_RULES = set(WINDOW_REJECTIONS)


def _word(text: str) -> bool:
    """A capitalised word of letters (inner hyphens and apostrophes allowed)."""
    return text[:1].isupper() and text.replace("-", "").replace("'", "").replace("’", "").isalpha()


def _sentence_initial(tok) -> bool:
    if tok.is_sent_start or tok.i == 0:
        return True
    prev = tok.doc[tok.i - 1]
    return bool(prev.is_sent_start or prev.i == 0) and (prev.is_punct or prev.is_space)


def _person_role(tok) -> bool:
    """A proper noun in a person's role: subject, object, possessive, or the object of a
    preposition that is not one of place ("with Wickham"; not "at Longbourn"); not the first
    word of its sentence (a capitalised word there may be anything), not part of a compound
    ("the Right Honourable")."""
    if _sentence_initial(tok):
        return False
    if tok.dep_ in PERSON_DEPS:
        return True
    return tok.dep_ == "pobj" and tok.head.lower_ not in PLACE_PREPOSITIONS


def saint_places(doc, tokens) -> set[int]:
    """Token indices of "St. Name's" places and feasts among ``tokens`` (the title and the
    name words): :func:`pipeline.lang.names.saint_place`."""
    out: set[int] = set()
    for tok in tokens:
        if ungendered_title(tok.text):
            j = tok.i + 1
            while j < len(doc) and _word(doc[j].text) and not any_title(doc[j].text):
                j += 1
            if j > tok.i + 1 and saint_place(doc, tok.i, j):
                out.update(range(tok.i, j))
    return out


def other_person(doc, tokens, mentions: list[NameMention], persons, not_persons: set[int] = frozenset(),
                 evidence=None, pronoun_gender: str | None = None, families: set[int] = frozenset()) -> str | None:
    """The first reason (in the order of ``WINDOW_REJECTIONS``, rules of ``PERSON_LIKE_RULES``
    only) of :func:`person_like`, or None."""
    got = other_person_word(doc, tokens, mentions, persons, not_persons, evidence, pronoun_gender, families)
    return got[0] if got else None


def other_person_word(doc, tokens, mentions: list[NameMention], persons, not_persons: set[int] = frozenset(),
                      evidence=None, pronoun_gender: str | None = None,
                      families: set[int] = frozenset()) -> tuple[str, str] | None:
    """(reason, the offending word) of :func:`other_person`, or None."""
    found = person_like(doc, tokens, mentions, persons, not_persons, evidence, pronoun_gender, families)
    reason = next((r for r in WINDOW_REJECTIONS if r in found and r in PERSON_LIKE_RULES), None)
    return (reason, found[reason]) if reason else None


def person_like(doc, tokens, mentions: list[NameMention], persons,
                not_persons: set[int] = frozenset(), evidence=None, pronoun_gender: str | None = None,
                families: set[int] = frozenset()) -> dict[str, str]:
    """Reason -> the first word found for it: why the window made of ``tokens`` (with its name
    mentions and their four persons) holds a person-like mention that is none of the four
    persons (empty: none). Person-like (outside the
    four persons' mentions, outside every non-PERSON entity, "St. Name's" places aside):
    a word of a PERSON entity that gave no mention; a title (gendered or not) before a
    capitalised word ("the Miss Bennets", "Sir William" missed by NER) or shared by two
    names ("Captain and Mrs Harville": a swap would leave "Captain and Emma"); a capitalised word
    tagged NNP that gender-guesser calls a first name and that is no name word of the four;
    outside every entity, a plural proper noun (NNPS: "the Lucases", a family; not the family
    of one of the four: "the Westons" beside "Mr. Weston") or a proper
    noun in a person's role (:func:`_person_role`: "Wickham said", not "at Longbourn").
    A person named with both an ungendered and a gendered title ("Doctor Armstrong" beside
    "Mrs. Armstrong", merged because "Armstrong" has no gender) is refused too, and so is a
    person some of whose mentions follow a word of another generation and some not ("the son of
    old Wickham, the late Mr. Darcy's steward" beside George Wickham and Mr. Darcy). Only the
    tokens of the window are looked at, so prune and full agree. ``not_persons``: token indices
    of PERSON entities the cast rules found to be no person (:func:`pipeline.core.cast.
    doc_mentions`: "in Kent", "March 1"): not person-like. ``pronoun_gender``: the gender of the
    window's pronoun; an unnamed rank that flips is person-like only when of that gender (it
    may be what the pronoun means), and not at all when None. ``families``: token indices of
    family plurals the NER labels PERSON (:data:`pipeline.core.cast.FAMILY_SOURCE`: "the Coles
    knew of it"), person-like as "the Lucases" outside every entity are, unless the family of
    one of the four."""
    found: dict[str, str] = {}
    rare = _rare_person(persons, evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY))
    if rare:
        found[REJECT_RARE] = rare
    for p in persons:
        if all(not m.title and m.name.lower() in KIN_NAMES for m in p.mentions):
            # "Mamma" as one of the four (An Old-Fashioned Girl's Mrs. Minot, beside "Minot"):
            # a kin word is nobody's name (sixteenth session: once a possessive "her" voted,
            # the NER's PERSON "Mamma" had a gender and made windows)
            found.setdefault(REJECT_KIN_NAME, p.mentions[0].text)
        other = next((m for m in p.mentions if _kin_of_other_gender(doc, m, p.gender)), None)
        if other is not None:
            # "her aunt Western" beside Squire Western (read, seed 20261190): a kin word of the
            # other gender right before the name says another person of the family
            found.setdefault(REJECT_KIN_GENDER, f"{doc[other.token_start - 1].text} {other.text}")
        titles = {m.title for m in p.mentions if m.title}
        plural = next((m.text for m in p.mentions if m.title.rstrip(".").lower() in PLURAL_TITLES
                       or _plural_titled(doc, m, evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY))),
                      None)
        if plural:
            # "Messrs. Blathers and Duff": a title of several people on one name (read, seed
            # 20261183), which no swap can give one person of the other gender
            found.setdefault(REJECT_COUPLE, plural)
        if any(title_gender(t) for t in titles) and any(not title_gender(t) for t in titles):
            found.setdefault(REJECT_TITLE_CLASH, " / ".join(sorted(titles)))
        for m in p.mentions:
            art = _article_before(doc, m)
            if art:
                found.setdefault(REJECT_ARTICLE, f"{art} {m.text}")
        for m in p.mentions:
            if allusion(doc, m, evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY)):
                found.setdefault(REJECT_ALLUSION, m.text)
        elders = [_generation(doc, m) for m in p.mentions]
        if any(elders) and not all(elders):
            found.setdefault(REJECT_GENERATIONS, next(f"{e} {m.text}" for e, m in zip(elders, p.mentions) if e))
        contrast = _contrasted(doc, p.mentions)
        if contrast:
            found.setdefault(REJECT_CONTRAST, contrast)
        for m in p.mentions:
            elided = _elided_title(doc, m.token_start)
            if elided:
                found.setdefault(REJECT_DIALECT, f"{elided} {m.text}")
        ev = evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY)
        if ev is not None and getattr(ev, "text_rules", False) and hasattr(ev, "dialect_title"):
            for m in p.mentions:
                before = doc[m.token_start - 1] if m.token_start else None
                if before is not None and before.is_lower and before.is_alpha and ev.dialect_title(before.text):
                    found.setdefault(REJECT_DIALECT, f"{before.text} {m.text}")
            respelt = getattr(ev, "spoken_spellings", None) or {}
            for m in p.mentions:
                # the word alone or after a title ("Miz Pats"); after a given name it is a full
                # name of its own ("Ned Miller" beside the Mills, "Nikolay Ivanitch")
                if m.name in respelt:
                    found.setdefault(REJECT_RESPELT, f"{m.text} ({m.name} for {respelt[m.name]})")
    appositive = _appositive_peer(doc, persons)
    if appositive:
        found.setdefault(REJECT_APPOSITION, appositive)
    spoken = _spoken_beside_titled(persons, evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY))
    if spoken:
        found.setdefault(REJECT_SPOKEN, spoken)
    covered: set[int] = set()
    for m in mentions:
        covered.update(range(m.token_start, m.token_end))
    words = {w for p in persons for w in p.key_tokens}
    places = saint_places(doc, tokens)
    in_window = {t.i for t in tokens}
    for m in mentions:
        cut = _runs_on(doc, m, covered, in_window)
        if cut:
            found.setdefault(REJECT_CUT, f"{m.text} {cut}")
            break
    named = _not_person_given_name(doc, not_persons & in_window, covered, words,
                                   evidence if evidence is not None else doc.user_data.get(EVIDENCE_KEY))
    if named:
        found.setdefault(REJECT_NOT_PERSON_NAME, named)
    glued = _glued_name(tokens, mentions, words, evidence)
    if glued:
        found.setdefault(REJECT_GLUED, glued)
    ranks = {m.title.rstrip(".").lower() for p in persons for m in p.mentions if m.title}
    for tok in tokens:
        if tok.i not in covered and _nickname(doc, tok):
            found.setdefault(REJECT_NICKNAME, f"{doc[tok.i - 1].text} {tok.text}")
            break
    for tok in tokens:
        if tok.i not in covered and (_as_name(doc, tok) or _borne_title(doc, tok, ranks)):
            low = tok.lower_
            if _title_word(low) in {_title_word(r) for r in ranks}:
                low = next(r for r in ranks if _title_word(r) == _title_word(low))
                # "the Doctor" beside Dr Marjoribanks is him as "the Colonel" is Colonel Brandon
                # (read, seed 20261185: the title's abbreviation had hidden it)
                # "the Colonel" beside Colonel Brandon is most likely him, and stays in every
                # variant while he becomes a woman; "the princess" beside Princess Mary flips,
                # and is someone's in every variant when a man of the window is a prince; "the
                # count" beside Count Morano with no countess among the women would be "the
                # countess" of nobody (read, seed 20261177)
                flipped = gw.flip(tok.text)
                bearers = {p.gender for p in persons for m in p.mentions if m.title and m.title.rstrip(".").lower() == low}
                others = {_title_word(m.title.rstrip(".").lower()) for p in persons if p.gender not in bearers
                          for m in p.mentions if m.title}
                if flipped is None or _title_word(flipped.lower()) not in others:
                    found.setdefault(REJECT_RANK, f"the {tok.text}")
                    break
            elif (low in RANK_WORDS or (low == "count" and tok.text == "Count")) and (
                    gw.flip(tok.text) is None or (pronoun_gender is not None and gw.gender_of(tok.text) == pronoun_gender)):
                # an unnamed rank that flips ("The princess ... her side" -> "The prince ... his
                # side") is swapped whole with its pronouns: consistent, no fifth person; but
                # one of the pronoun's gender may be what the pronoun means ("till the prince
                # should turn to him")
                found.setdefault(REJECT_RANK, f"the {tok.text}")
                break
            elif _title_word(low) not in {_title_word(r) for r in ranks} and low not in RANK_WORDS \
                    and low != "count" and tok.text[:1].isupper() and gw.flip(tok.text) is None \
                    and pronoun_gender != FEMININE and tok.dep_ in ("nsubj", "nsubjpass"):
                # "said the Doctor" when none of the four is a doctor: a fifth person who acts or
                # speaks, and the period's doctors and colonels are men, whom a "he" may mean
                # (with "she" the unnamed colonel's own pronouns flip with the rest: consistent;
                # "a rebuke from the Archbishop" is no actor of the window)
                found.setdefault(REJECT_RANK, f"the {tok.text}")
                break
    for tok in tokens:
        if gw.one_sex(tok.text):
            found.setdefault(REJECT_ONE_SEX, tok.text)
            break
    for tok in tokens:
        if tok.text in DEITY_PRONOUNS and _inside_sentence(doc, tok):
            found.setdefault(REJECT_DEITY, f"{doc[tok.i - 1].text} {tok.text}")
            break
    for tok in tokens:
        if tok.i not in covered and tok.lower_ not in ranks and _kin_name(doc, tok):
            # (not a title one of the four bears: "You have met him, Aunt?" beside Aunt Sophia)
            found.setdefault(REJECT_KIN_NAME, tok.text)
            break
    for tok in tokens:
        if tok.i in families:
            if not _family_of_the_four(tok.text, words):              # "the Eltons" beside Mr. Elton
                found.setdefault(REJECT_FAMILY, tok.text)
            continue
        if tok.i in not_persons and tok.i not in covered and _word(tok.text) and tok.text[:1].isupper() \
                and tok.lower_ in words and not any_title(tok.text) \
                and not (tok.i + 1 < len(doc) and doc[tok.i + 1].text[:1].isupper() and _word(doc[tok.i + 1].text)):
            # a word of one of the four the cast made no person here ("The Boucher children",
            # Boucher one of the four): a swap leaves it, and another's new name may be it
            # (read, seed 20261176: "The Boucher children ... Boucher's care he could bestow");
            # not the first word of a place's name ("Howard Grove", Lady Howard's house)
            found.setdefault(REJECT_UNMARKED, tok.text)
            continue
        if tok.i in covered or tok.i in places or tok.i in not_persons or tok.is_space:
            continue
        ent = tok.ent_type_
        if ent != "PERSON" and _unmarked_name(tok, words):
            found.setdefault(REJECT_UNMARKED, tok.text)
            continue
        if ent and ent != "PERSON":
            why = _person_in_other_entity(tok, covered, words) or _book_person(tok, words, evidence)
            if why:
                found.setdefault(why, tok.text)
            elif title_gender(tok.text) and tok.text[:1].isupper():
                j = _name_after_title(doc, tok)
                if (j in in_window and j not in covered and doc[j].ent_type_ == ent and ent not in _NAMED_NOT_PERSONS
                        and (j + 1 >= len(doc) or doc[j + 1].ent_iob_ != "I" or doc[j + 1].tag_ == "POS")):
                    # a titled name ending another entity ("the Comtesse de Tournay", an ORG; not
                    # "Prince Edward Island", a place, nor "Lady Audley's Secret", a novel)
                    found.setdefault(REJECT_TITLED, f"{tok.text} {doc[j].text}")
            continue
        text = tok.text
        if any_title(text):
            named = _name_after_title(doc, tok)
            j = _after_title(doc, tok)
            if named in in_window and named not in covered and doc[named].ent_type_ in ("", "PERSON"):
                found.setdefault(REJECT_TITLED, f"{text} {doc[named].text}")
            elif (j + 1 in in_window and doc[j].lower_ in ("and", "&") and any_title(doc[j + 1].text)):
                # "Captain and Mrs Harville": the first title names a person no swap can move
                found.setdefault(REJECT_COUPLE, f"{text} {doc[j].text} {doc[j + 1].text}")
            continue
        if not _word(text):
            continue
        if ent == "PERSON":
            found.setdefault(REJECT_PERSON_LEFT, text)
        elif tok.tag_ in PROPN_TAGS and text.lower() not in words:
            if guess(text)[0] in (MASCULINE, FEMININE):
                found.setdefault(REJECT_FIRST_NAME, text)
            elif tok.tag_ == "NNPS" and not ent:
                if not _family_of_the_four(text, words):               # "the Westons" beside Mr. Weston
                    found.setdefault(REJECT_FAMILY, text)
            elif not ent and _person_role(tok):
                found.setdefault(REJECT_PROPER, text)
    return found


def _nickname(doc, tok) -> bool:
    """Whether ``tok`` is a capitalised common noun of the gendered-word list after a
    capitalised word that is no title, not at a sentence start: "the Story Girl", a person no
    swap can rename and whose pronouns would flip."""
    if not tok.text[:1].isupper() or tok.i == 0 or _sentence_initial(tok):
        return False
    if not gw.builtin().is_listed(tok.text) or gw.builtin().category_of(tok.text) != "general":
        return False
    prev = doc[tok.i - 1]
    if not _word(prev.text) or any_title(prev.text):
        return False
    return not _sentence_initial(prev) or (prev.i > 0 and doc[prev.i - 1].lower_ == "the")


# a title written short and in full: "Dr. Strong" is "the Doctor"
_TITLE_WORDS = {"dr": "doctor", "capt": "captain", "col": "colonel", "gen": "general", "lieut": "lieutenant",
                "lt": "lieutenant", "maj": "major", "rev": "reverend", "revd": "reverend", "sgt": "sergeant",
                "prof": "professor", "gov": "governor", "hon": "honourable"}


def _title_word(title: str) -> str:
    return _TITLE_WORDS.get(title, title)


# kin words a family uses as names, capitalised and without a determiner ("Mother was sitting
# at the fire", "Yes, Papa"): the person is a character of the window, none of the four
KIN_NAMES = frozenset("""mother father mamma mama papa pa ma mammy mummy daddy granny grandma grandpa
grandmother grandfather auntie aunty uncle aunt nurse""".split())


def _kin_of_other_gender(doc, m: NameMention, gender: str | None) -> bool:
    """Mention ``m`` comes right after a lower-case gendered noun of kin or rank whose gender is
    not ``gender``, its person's ("her aunt Western" for the squire Western, "his brother
    Maria"): the name there is another person's."""
    if m.title or gender not in (MASCULINE, FEMININE) or m.token_start == 0:
        return False
    prev = doc[m.token_start - 1]
    if not prev.text.islower() or prev.lower_ not in KIN_GENDER_WORDS:
        return False
    said = gw.gender_of(prev.text)
    return said in (MASCULINE, FEMININE) and said != gender


def _kin_name(doc, tok) -> bool:
    """A capitalised kin word standing as a name: no determiner or possessive before it (any
    "the", "my", "her" child), no capitalised word after it (then it is a title: "Aunt
    March", "Mother Hubbard")."""
    if tok.lower_ not in KIN_NAMES or not tok.text[:1].isupper() or tok.text.isupper() and len(tok.text) > 2:
        return False
    nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    if nxt is not None and nxt.text[:1].isupper() and nxt.is_alpha:
        return False
    prev = doc[tok.i - 1] if tok.i > 0 else None
    if prev is not None and (prev.lower_ in ("the", "a", "an", "my", "your", "his", "her", "our", "their", "its")
                             or prev.tag_ == "POS" or prev.text in ("'s", "’s")):
        return False
    return not any(c.dep_ in ("det", "poss") for c in tok.children)


def _as_name(doc, tok) -> bool:
    """Whether ``tok`` is a rank or title standing for a person: a noun that is a rank of
    nobility (``RANK_WORDS``, any case) or a capitalised title ("the Colonel"), whose
    determiner is "the", before no capitalised word (then it is a title: "the Prince Andrew")
    and no "of" ("the Prince of Wales" names a rank's holder too, but by a place). The caller
    (:func:`person_like`) refuses an unnamed rank of nobility ("the little princess": none of
    the four, and a swap would make her "the pretty, pregnant prince"), and a title one of the
    four persons bears that no swap flips ("the Colonel" beside Colonel Brandon); a rank one of
    them bears and that flips passes ("the princess" beside Princess Mary is most likely her)."""
    low = tok.lower_
    if not tok.tag_.startswith("NN"):
        return False
    if not (low in RANK_WORDS or low == "count" or (tok.text[:1].isupper() and any_title(tok.text))):
        return False
    return _alone_after_the(doc, tok)


def _alone_after_the(doc, tok) -> bool:
    """``tok``'s determiner is "the", and no capitalised word (then it is a title: "the Prince
    Andrew") nor "of" ("the Prince of Wales") follows it: a word standing for a person."""
    nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
    if nxt is not None and (nxt.text[:1].isupper() or nxt.lower_ == "of"):
        return False
    return any(c.dep_ == "det" and c.lower_ == "the" for c in tok.children)


def _borne_title(doc, tok, ranks: set[str]) -> bool:
    """A title in lower case standing for a person after "the" ("the captain"), as
    :func:`_as_name` takes a capitalised one, when one of the four persons bears it (``ranks``:
    their titles, lower case): "Captain Blifil, whether he resented the captain's behaviour"
    after a swap had put Captain Blifil's name where Mrs Wilkins stood (read, seed 20261193)."""
    low = tok.lower_
    if not tok.text.islower() or not tok.tag_.startswith("NN") or not any_title(tok.text.capitalize()) \
            or _title_word(low) not in {_title_word(r) for r in ranks}:
        return False
    return _alone_after_the(doc, tok)


# gender-guesser lists "The", "My", "Just", "Go" as names: a glued word it calls one counts as a
# name only if the book writes it capitalised far more often than in lower case (without the
# book's evidence: if it is rarer in English than this Zipf frequency; "John" 5.4, "Just" 6.4)
GLUED_NAME_ZIPF = 5.5


# a word with an edition's footnote mark glued to it: "Lydia[1]" (the tokenizer keeps "Lydia[1")
_FOOTNOTED = re.compile(r"^([A-Z][^\W\d_]+)\[\d+\]?$")


def _footnoted(token: str) -> list[tuple[int, str]]:
    """[(0, word)] for a token made of a word and a footnote mark ("Lydia[1"), else []."""
    m = _FOOTNOTED.match(token)
    return [(0, m.group(1))] if m else []


def _glued_name(tokens, mentions: list[NameMention], words: set[str], evidence=None) -> str | None:
    """The first name word the tokenizer left glued to another word by a dash
    (:func:`pipeline.lang.names.glued_pieces`) or to a footnote mark ("between Lydia[1] and John",
    read of seed 20261193: a fifth person nobody counted), outside every mention: a word of one of the
    four persons ("congratulations.--Harriet", which no swap would reach), a title, or a word
    gender-guesser calls a first name that is a name in this book (``evidence``: the book's
    :class:`pipeline.lang.book_evidence.BookEvidence`; see ``GLUED_NAME_ZIPF``); else None."""
    spans = [(m.start, m.end) for m in mentions]
    for tok in tokens:
        for off, piece in glued_pieces(tok.text) or _footnoted(tok.text):
            at = tok.idx + off
            if not piece[:1].isupper() or any(s <= at < e for s, e in spans):
                continue
            if piece.lower() in words or any_title(piece):
                return tok.text
            if guess(piece)[0] in (MASCULINE, FEMININE) and (
                    evidence.proper(piece) if evidence is not None and evidence.text_rules and evidence.n_words
                    else common_word(piece) < GLUED_NAME_ZIPF):
                return tok.text
    return None


# entities whose titled names are places or works, no persons ("Prince Edward Island", "deep in
# “Lady Audley's Secret”" in An Old-fashioned Girl)
_NAMED_NOT_PERSONS = frozenset({"GPE", "LOC", "FAC", "WORK_OF_ART", "EVENT", "LAW", "PRODUCT"})
# lower-case particles of names between a title and the name ("the Comtesse de Tournay")
NAME_PARTICLES = frozenset({"de", "du", "des", "la", "le", "von", "van", "der", "di", "da", "d'", "d’"})


def _after_title(doc, tok) -> int:
    """The index of the token after the title ``tok`` and its glued period ("Mr" ".")."""
    j = tok.i + 1
    return j + 1 if j < len(doc) and doc[j].text == "." and not tok.whitespace_ else j


def _name_after_title(doc, tok) -> int:
    """The index of the word a title ``tok`` stands before: after its glued period and any
    lower-case particles of the name ("Comtesse de Tournay" -> "Tournay"); a capitalised word
    that is no title, or -1."""
    j = _after_title(doc, tok)
    while j < len(doc) and j - tok.i <= 3 and doc[j].text in NAME_PARTICLES:
        j += 1
    if j < len(doc) and _word(doc[j].text) and not any_title(doc[j].text):
        return j
    return -1


def _person_in_other_entity(tok, covered: set[int], words: set[str]) -> str | None:
    """Why a capitalised proper noun the NER put in a non-PERSON entity is person-like, or
    None: coordinated with a person mention ("Beaumont and Fletcher", Beaumont a GPE); a
    first name in a person's role ("which Edward WOULD give her", "Edward WOULD" an ORG); a
    one-word organisation in a person's role ("in Tíkhon's face")."""
    if not (_word(tok.text) and tok.tag_ in PROPN_TAGS) or tok.text.lower() in words:
        return None
    if _conjoined_with_mention(tok, covered):
        return REJECT_PROPER
    if not _person_role(tok) or known_place(tok.text):
        return None
    if guess(tok.text)[0] in (MASCULINE, FEMININE):
        return REJECT_FIRST_NAME
    if tok.ent_type_ == "ORG" and tok.ent_iob_ == "B" and (tok.i + 1 >= len(tok.doc) or tok.doc[tok.i + 1].ent_iob_ != "I"):
        return REJECT_PROPER
    return None


_LEADING_WORD = re.compile(r"[A-Z][a-z]+(?:['’-][A-Za-z]+)*")


def _runs_on(doc, m: NameMention, covered: set[int], in_window: set[int]) -> str:
    """The capitalised word right after the mention ``m`` (a space between, no punctuation)
    that continues the name, or "": the NER stopped early ("Mack Dodge--", "Dodge--" one token
    tagged a number). Not a title, "I", a word of another mention, a sentence start or a word
    of another entity (the NER's own judgement that it is no part of the name)."""
    j = m.token_end
    if j >= len(doc) or j not in in_window or j in covered or not doc[j - 1].whitespace_:
        return ""
    tok = doc[j]
    if tok.is_sent_start or (tok.ent_type_ and tok.ent_type_ != "PERSON"):
        return ""
    w = _LEADING_WORD.match(tok.text)
    if not w or any_title(w.group(0)) or (w.end() < len(tok.text) and tok.text[w.end()] not in "-—–"):
        return ""
    return w.group(0)


# titles of a peer: "John, Lord Greystoke" is one man named twice, or two men in a list
PEER_TITLES = frozenset({"lord", "lady", "sir", "earl", "duke", "duchess", "count", "countess", "baron",
                         "baroness", "marquis", "marquess", "marchioness", "viscount", "viscountess"})


def _family_of_the_four(plural: str, words: set[str]) -> bool:
    """The plural proper noun ``plural`` is the family of one of the window's four persons,
    whose name words (lower case) are ``words``: "the Westons" beside Mr. Weston."""
    low = plural.lower()
    return low[:-1] in words or low[:-2] in words


def _not_person_given_name(doc, indices, covered: set[int], words, evidence) -> str:
    """"Tom (Tom Carmichael)" when a capitalised word at one of ``indices`` (PERSON entity words
    the cast found no person: an animal, a place) is a given name the book writes before the
    surname of one of the four persons (their name words ``words``, lower case) in at least
    ``GIVEN_OF_FOUR_MIN`` full names: the word may be that person after all ("If Tom doesn't
    come back pretty soon" beside Carmichael, in *The Man of the Forest*, whose Tom is mostly a
    tame cougar), and a swap would leave it. Empty otherwise, and without a book."""
    by_given = getattr(getattr(evidence, "aliases", None), "by_given", None) or {}
    if not by_given:
        return ""
    for i in sorted(indices):
        tok = doc[i]
        if i in covered or not tok.text[:1].isupper():
            continue
        low = tok.lower_
        for s in sorted(words):
            if s != low and by_given.get(low, {}).get(s, 0) >= GIVEN_OF_FOUR_MIN:
                return f"{tok.text} ({tok.text} {s.title()})"
    return ""


def _inside_sentence(doc, tok) -> bool:
    """``tok`` follows a lower-case word or a comma or semicolon in its sentence ("that He
    would", "if He wishes"), not a quotation mark, a colon or a dash."""
    if tok.is_sent_start or tok.i == 0:
        return False
    j = tok.i - 1
    while j >= 0 and doc[j].is_space:
        j -= 1
    if j < 0:
        return False
    before = doc[j]
    return (before.is_alpha and before.is_lower) or before.text in (",", ";")


def _rare_person(persons, evidence) -> str:
    """The name of a person of ``persons`` whose name words the whole book (at least
    ``RARE_MIN_WORDS`` words) writes capitalised at most ``RARE_MAX`` times each, or "". A word
    the book's counter never saw (0: "O'Dowd", "Em’ly") says nothing; a word in capitals counts
    its title-case uses too ("MADAME DUVAL" heading a letter). Without a book: ""."""
    if evidence is None or not getattr(evidence, "text_rules", False) or evidence.n_words < RARE_MIN_WORDS:
        return ""
    for p in persons:
        counts = [_capital_count(evidence, w) for m in p.mentions for w in _name_words(m)]
        if counts and min(counts) > 0 and max(counts) <= RARE_MAX:
            return p.mentions[0].text
    return ""


def _capital_count(evidence, word: str) -> int:
    """Capitalised uses of ``word`` in the book: a word in capitals counts its title-case uses
    too ("MADAME DUVAL": Duval's), a hyphenated one its parts' ("M. Sully-Prudhomme", which
    the counter keeps as "Sully" and "Prudhomme": the most written part)."""
    n = max(evidence.capital[word], evidence.capital[word.title()] if word.isupper() else 0)
    if not n and "-" in word:
        n = max((evidence.capital[x] for x in word.split("-") if x[:1].isupper()), default=0)
    return n


def _name_words(m: NameMention) -> list[str]:
    """The words of a mention's name as the book's counter keeps them ("Jellyby's" -> "Jellyby")."""
    out = []
    for w in m.name.split():
        for s in ("'s", "’s"):
            if w.endswith(s):
                w = w[: -len(s)]
        w = w.strip(".,;:!?\"'“”‘’()_-")
        if w:
            out.append(w)
    return out


def _spoken_beside_titled(persons, evidence) -> str:
    """"G / Mrs. S" when one of the persons is named only by a given name G that the book
    writes (almost) only inside quotation marks (:attr:`pipeline.lang.book_evidence.BookEvidence.
    speech_only`) and never with a surname, a woman's, and another woman only by a married
    title and a surname (not "Miss"): a wife married before the book starts, whose given name only her family speaks
    ("Here's Mr. Carey, Betty," said Athelny ... Mrs. Athelny was a large woman: one woman;
    read, seeds 20261138 to 20261165). No rule can tell the two apart, so the window is refused.
    Empty otherwise, and without a book's evidence."""
    spoken = getattr(evidence, "speech_only", None)
    if not spoken:
        return ""
    aliases = getattr(evidence, "aliases", None)
    by_given = getattr(aliases, "by_given", None) or {}
    for p in persons:
        names = {m.name for m in p.mentions}
        if p.gender != FEMININE or len(names) != 1 or any(m.title for m in p.mentions):
            continue
        given = next(iter(names))
        if " " in given or not spoken[given] or by_given.get(given.lower()):
            continue
        for q in persons:
            if q is not p and q.gender == p.gender and all(
                    m.title and " " not in m.name and m.title.lower().rstrip(".") not in MISS_TITLES for m in q.mentions):
                return f"{given} / {q.mentions[0].text}"
    return ""


NUMBER_WORDS = frozenset({"two", "three", "four", "five", "six", "seven", "both"})


def _plural_titled(doc, m: NameMention, evidence=None) -> bool:
    """A titled name of several people: after a number ("the two Miss Allabys", read of seed
    20261185), or after "the" with a plural "-s" of a name the book writes without it ("the
    Miss Bennets" where the book has "Bennet")."""
    if not m.title or m.token_start == 0:
        return False
    before = doc[m.token_start - 1].lower_
    last = doc[m.token_end - 1].text
    if not (last.endswith("s") and len(last) > 2):
        return False
    if before in NUMBER_WORDS:
        return True
    capital = getattr(evidence, "capital", None) if evidence is not None else None
    return before == "the" and bool(capital) and capital.get(last[:-1], 0) > capital.get(last, 0)


def _elided_title(doc, i: int) -> str:
    """A short capitalised word cut by an apostrophe right before token ``i`` ("Mis' Molly",
    "Mas' Frank": a title of dialect the tokenizer splits as "Mis" "'"), which no swap can turn
    (read of the development books: "Mis' Peter" after the swap, dropped by the re-check): the
    title as written, else ""."""
    if i < 2 or doc[i - 1].text not in ("'", "’") or doc[i - 2].whitespace_:
        return ""
    word = doc[i - 2].text
    if not (word.isalpha() and word[:1].isupper() and len(word) <= 4 and not word.isupper()):
        return ""
    if i > 2 and not doc[i - 3].whitespace_ and doc[i - 3].text.isalpha():
        return ""
    return word + doc[i - 1].text


def _appositive_peer(doc, persons) -> str:
    """An untitled one-word name of one person right before a comma and a peer's titled name of
    another ("John, Lord Greystoke, and Lady Alice, his wife"), or a married woman's of her
    gender ("Catherine, Mrs. Linton Heathcliff now"): an apposition (one person, the given name
    and the peerage or the married name) or a list (two), which the window cannot tell; or a name of
    one person in parentheses right after a name of another of that gender ("Marion (Molly)"):
    the text, else ""."""
    owner = {(m.token_start, m.token_end): i for i, p in enumerate(persons) for m in p.mentions}
    starts = {s: (e, i) for (s, e), i in owner.items()}
    for (s, e), i in owner.items():
        if e - s != 1 or e + 1 >= len(doc) or doc[e].text != ",":
            continue
        m = next(x for x in persons[i].mentions if x.token_start == s)
        if m.title:
            continue
        nxt = starts.get(e + 1)
        if nxt is None or nxt[1] == i:
            continue
        other = next(x for x in persons[nxt[1]].mentions if x.token_start == e + 1)
        title = other.title.rstrip(".").lower()
        if title in PEER_TITLES or (title in MARRIED_TITLES and persons[nxt[1]].gender == persons[i].gender):
            return f"{m.text}, {other.text}"    # "Catherine, Mrs. Linton Heathcliff now": her
            #                                     married name (read, seed 20261184), or a list
    # a name in parentheses right after another's: the same person's other name ("his wife
    # Marion (Molly) Bloom", read, seed 20261183; "Mrs. Jo (Mrs. Bhaer)")
    ends = {e: i for (s, e), i in owner.items()}
    for (s, e), i in owner.items():
        if s >= 2 and e < len(doc) and doc[s - 1].text == "(" and doc[e].text == ")":
            j = ends.get(s - 1)
            if j is not None and j != i and persons[j].gender == persons[i].gender:
                before = next(x for x in persons[j].mentions if x.token_end == s - 1)
                m = next(x for x in persons[i].mentions if x.token_start == s)
                return f"{before.text} ({m.text})"
    return ""


def _unmarked_name(tok, words: set[str]) -> bool:
    """Whether ``tok`` (outside every mention) is a capitalised word of one of the four persons'
    names that the NER put in an entity of another kind or tagged a proper noun outside any
    entity: a swap replaces mentions only, so it would stay ("when the choir sang “Far Above
    the Gentle Daisies” Anne gazed at the ceiling", the title's WORK_OF_ART run on into
    "Anne gazed"; the swap writes "Anne gazed ... laughed until people near him laughed")."""
    text = tok.text
    if not (_word(text) and text[:1].isupper() and text.lower() in words) or any_title(text):
        return False
    return bool(tok.ent_type_) or tok.tag_ in PROPN_TAGS


def _book_person(tok, words: set[str], evidence) -> str | None:
    """:data:`REJECT_BOOK_PERSON` when the NER put in another entity a proper noun (not the
    first word of its sentence, none of the four persons' words) that the book shows to be a
    person (:meth:`pipeline.lang.book_evidence.BookEvidence.is_person`: "whispered on to Good
    and Alphonse", an ORG, where the book writes "Captain Good" and "Alphonse said")."""
    if evidence is None or not (_word(tok.text) and tok.tag_ in PROPN_TAGS) or tok.text.lower() in words:
        return None
    if _sentence_initial(tok) or known_place(tok.text):
        return None
    return REJECT_BOOK_PERSON if evidence.is_person(tok.text) else None


def _conjoined_with_mention(tok, covered: set[int]) -> bool:
    """Whether ``tok`` is coordinated with a token of a person mention ("Beaumont and
    Fletcher", where the NER made Beaumont a place): a place is not joined to a person so."""
    if tok.dep_ == "conj" and tok.head.i in covered:
        return True
    return any(c.dep_ == "conj" and c.i in covered for c in tok.children)


def _article_before(doc, m: NameMention) -> str:
    """The article before the mention ``m``, across up to three adjectives ("the Emperor Paul",
    "the future Countess Bezúkhova", "a mere Mrs Smith", "an every-day Mrs Smith"; "any" and
    "another" too: "than any Senor Twankydillo"; a lower-case foreign one: "M. le Général
    Rameau"), or "": such a name is a role or a kind, and a swap would write "the Mademoiselle
    Bourienne". An untitled name after a rank and "of" too ("the Marquis of Steyne": a peerage,
    which a swap would make "the Marchioness of Rebecca"): "Marquis of"."""
    j = m.token_start - 1
    steps = 0
    while j >= 0 and steps < 3 and (doc[j].tag_.startswith("JJ") or doc[j].tag_ == "VBN"
                                    or doc[j].text == "-" or doc[j].lower_ in ("every", "very")):
        j -= 1
        steps += 1
    if j >= 0 and (doc[j].lower_ in ("the", "a", "an", "any", "another") or doc[j].text in _FOREIGN_ARTICLES):
        return doc[j].text
    k = m.token_start - 1
    if k >= 2 and saint_title(doc[k].text):
        k -= 1                          # "the Duke of St. Austrey", the NER's name without "St."
    if k >= 1 and doc[k].lower_ == "of" and (
            (doc[k - 1].text[:1].isupper() and doc[k - 1].lower_ in RANK_WORDS)
            or (not m.title and doc[k - 1].lower_ in _ESTATE_HOLDERS)):
        # a peerage's name: "the Marquis of Steyne" (Lord Steyne) swapped with Rebecca was "the
        # Marchioness of Rebecca" (read, seed 20261176), a saint's place in it too: "the Duke of
        # St. Austrey" was "the Duchess of Louisa" (twentieth session); an estate: "the lady of
        # Crawley" (Queen's Crawley) was "the gentleman of Miss Crawley" (read, seed 20261177)
        return f"{doc[k - 1].text} of"
    return ""


# who holds an estate or a peerage "of" a name ("the lady of Crawley", "the master of Thornfield")
_ESTATE_HOLDERS = frozenset({"lord", "lady", "master", "mistress"})
# lower-case articles of French, Spanish and Italian before a titled name ("M. le Général
# Rameau" in *War and Peace*: a swap wrote "M. le Mademoiselle Bourienne")
_FOREIGN_ARTICLES = frozenset({"le", "la", "les", "el", "il"})


NEGATIONS = frozenset({"not", "n't", "never", "no"})


def _contrasted(doc, mentions: list[NameMention]) -> str:
    """Two mentions of one person whose names share no word (titles aside), in one sentence,
    one of them right after a negation ("this was not Raymie ... he was Major Wutherspoon"):
    the text sets the names against each other, and a swap that writes one name for both says
    nothing ("She was not Carol; she was Carol"). The two names, or ""."""
    def words(m: NameMention) -> set[str]:
        return {w.lower() for w in m.name.split()}

    for a in mentions:
        for b in mentions:
            if a.token_start >= b.token_start or words(a) & words(b):
                continue
            if doc[a.token_start].sent.start != doc[b.token_start].sent.start:
                continue
            negated = [m for m in (a, b) if any(doc[k].lower_ in NEGATIONS
                                                for k in range(max(0, m.token_start - 2), m.token_start))]
            if negated:
                return f"{a.text} / {b.text}"
    return ""


def _generation(doc, m: NameMention) -> str:
    """The word before ``m`` that names another generation ("the late Mr. Darcy"; "old" and
    "young" only before a bare untitled name: "old Wickham", "young Perkins", not "poor old Mr.
    Woodhouse"), or ""."""
    j = m.token_start - 1
    while j >= 0 and doc[j].is_space:
        j -= 1
    if j < 0:
        return ""
    word = doc[j].lower_
    if word in GENERATION_WORDS or (word in ("old", "young") and not m.title and doc[j].text == word):
        return word                     # "young Perkins" (the son) beside "Mrs. Perkins"; not
        #                                 "little": tried for "little Arthur" (the son) beside Arthur,
        #                                 his father (read, seed 20261181), it refused 21 windows of
        #                                 the 18 novels where "little Polly", "little Maudie" is the
        #                                 same girl, for that one
    return ""


def candidate_windows(sp: int, n_sents: int, max_len: int = MAX_SENTENCES, starts: list[bool] | None = None):
    """(lo, hi) windows containing sentence ``sp``: shortest first, then earliest start.
    ``starts`` (:func:`real_starts`, one flag per sentence and one past the last): only
    windows that start at a real sentence start and end before one."""
    for length in range(1, max_len + 1):
        for lo in range(max(0, sp - length + 1), min(sp, n_sents - length) + 1):
            if starts is None or (starts[lo] and starts[lo + length]):
                yield lo, lo + length - 1


def _windows(sp: int, n_sents: int, starts: list[bool], headings: list[bool], breaks: list[bool]):
    """``(lo, hi, (first, last))`` windows of sentence ``sp`` (:func:`candidate_windows`), ``first``
    and ``last`` the sentences a candidate may sit in. First the windows without a heading (a
    candidate anywhere); then, when none of them gave an instance, those that read across
    chapter breaks only (:func:`pipeline.lang.sentence_starts.chapter_break`: "CHAPTER XI", not a
    title or an epigraph's poet), neither starting nor ending with one, the pronoun and both
    candidates between the same two breaks: the other chapter's persons are the window's others
    (Counter-GAP's "... before they set off for Randalls. CHAPTER XI ... Frank Churchill had
    danced once ... Mr. Woodhouse was persuaded to spend with his daughter")."""
    wins = list(candidate_windows(sp, n_sents, starts=starts))
    for lo, hi in wins:
        if not any(headings[lo:hi + 1]):
            yield lo, hi, (lo, hi)
    for lo, hi in wins:
        inside = range(lo, hi + 1)
        if (not any(headings[lo:hi + 1]) or headings[lo] or headings[hi] or headings[sp]
                or any(headings[k] and not breaks[k] for k in inside)):
            continue
        first = max((k + 1 for k in range(lo, sp) if headings[k]), default=lo)
        last = min((k - 1 for k in range(sp + 1, hi + 1) if headings[k]), default=hi)
        yield lo, hi, (first, last)


def real_starts(doc, sents) -> list[bool]:
    """Per sentence of ``sents`` (and one more for the end), whether a window may start there
    (:func:`pipeline.lang.sentence_starts.real_start`: the Doc's first sentence unless prune
    cut it from inside a sentence, a sentence after a line break, or after end punctuation
    that is no abbreviated title or initial). The parser also cuts inside a name
    ("table.--Mrs." | "Elton, before she ...") and where a hard-wrapped line started in capitals
    ("of everything" | "BUT Chad, that Mamie ..."): a window that starts or ends at such a cut
    would read half a sentence or half a name."""
    return [real_start(doc, s.start) for s in sents] + [True]


def instances_from_doc(doc, chunk_offset: int, meta: BookMeta,
                       only: set[int] | None = None, evidence=None, rejected: Counter | None = None,
                       not_persons: Counter | None = None,
                       refusals: list | None = None) -> tuple[list[dict], list[NameMention], list]:
    """Instances of one parsed Doc (``chunk_offset``: where it starts in the book text).
    ``only``: consider only the pronouns at these character offsets of the Doc; ``evidence``:
    the book's :class:`pipeline.lang.book_evidence.BookEvidence` (None: the sentence alone).
    ``rejected``: counts, per reason of :func:`other_person`, the pronouns left without an
    instance because every window that fitted them held a fifth person-like mention;
    ``not_persons``: counts the PERSON entities the cast rules drop, by reason;
    ``refusals`` receives one ``REFUSED`` record (without ``book_id``) per pronoun so refused:
    its Doc offset, the reason and the offending words.
    Returns (instance records, name mentions, pronoun tokens)."""
    sents = doc_sentences(doc)
    dropped: set[int] = set()
    cast = person_mentions(doc, evidence, not_persons, dropped)
    # a family's plural ("the Elphbergs") is a person of the cast but none a window takes: a
    # fifth person unless the family of one of the four (person_like; "the Lucases" outside
    # every entity as before, one the NER labels PERSON as "families")
    mentions = [m for m in cast if m.gender_source != FAMILY_SOURCE]
    families = {m.token_start for m in cast if m.gender_source == FAMILY_SOURCE
                and doc[m.token_start].ent_type_ == "PERSON"}
    pronouns = pronoun_tokens(doc)
    if only is not None:
        pronouns = [t for t in pronouns if t.idx in only]
    if not sents or len(mentions) < 4 or not pronouns:
        return [], cast, pronouns
    sent_of_token = {i: k for k, s in enumerate(sents) for i in range(s.start, s.end)}
    starts = real_starts(doc, sents)
    arrays = DocArrays(doc)
    headings = [heading(doc, s.start, s.end, arrays) for s in sents]      # no window reads across one ...
    breaks = [h and chapter_break(doc, s.start, s.end) for h, s in zip(headings, sents)]  # ... but these
    for k in range(1, len(sents)):      # ... and the title on its own line after a break is a heading
        if breaks[k - 1] and not headings[k]:
            title_end, j = chapter_title_end(doc, sents[k].start), k
            while title_end is not None and j < len(sents) and sents[j].start_char < title_end:
                headings[j] = True
                j += 1
    by_sent: list[list[NameMention]] = [[] for _ in sents]
    for m in mentions:
        k = sent_of_token.get(m.token_start, sent_of_token.get(m.token_end - 1))
        if k is not None:
            by_sent[k].append(m)
    hers = [i for i, x in enumerate(arrays.texts) if x.lower() == "her" and 0 < i < len(doc) - 1]
    open_case: list[str | None] = [None] * len(sents)
    for i in hers:                      # the first "her" of each sentence whose case is open
        k = sent_of_token.get(i)
        if k is not None and open_case[k] is None and gw.ambiguous_her(doc, doc[i]):
            open_case[k] = f"{doc[i - 1].text} {doc[i].text} {doc[i + 1].text}"
    gendered_keys = [({m.key_tokens for m in ms if m.gender == MASCULINE},
                      {m.key_tokens for m in ms if m.gender == FEMININE}) for ms in by_sent]
    out = []
    # the window's mentions (their ids) -> fitted_window: neighbouring pronouns share their
    # windows, and windows whose sentences add no name share their persons
    by_mentions: dict[tuple[int, ...], tuple] = {}
    for pron in pronouns:
        sp = sent_of_token.get(pron.i)
        if sp is None:
            continue
        lo_all, hi_all = max(0, sp - MAX_SENTENCES + 1), min(len(sents) - 1, sp + MAX_SENTENCES - 1)
        m_keys = set().union(*(gendered_keys[k][0] for k in range(lo_all, hi_all + 1)))
        f_keys = set().union(*(gendered_keys[k][1] for k in range(lo_all, hi_all + 1)))
        if len(m_keys) < 2 or len(f_keys) < 2:
            continue
        gender = target_pronoun_gender(pron.text)
        initial = initial_clause_kind(pron, sents[sp]) is not None
        refused, offending = None, ""
        for lo, hi, (first, last) in _windows(sp, len(sents), starts, headings, breaks):
            window = [m for k in range(lo, hi + 1) for m in by_sent[k]]
            same = tuple(map(id, window))
            if same not in by_mentions:
                by_mentions[same] = fitted_window(window, getattr(evidence, "aliases", None))
            persons, ambiguous = by_mentions[same]
            if persons is None:
                if refused is None and ambiguous is not None:
                    refused, offending = REJECT_AMBIGUOUS_ALIAS, ambiguous
                continue
            cands = [p for p in persons if p.gender == gender]
            others = [p for p in persons if p.gender != gender]
            roles = [("C1", cands[0]), ("C2", cands[1]), ("O1", others[0]), ("O2", others[1])]
            spans = {role: [(sent_of_token[m.token_start] - lo, m.start) for m in p.mentions]
                     for role, p in roles[:2]}
            if any(not first <= lo + k <= last for ms in spans.values() for k, _ in ms):
                continue                    # a candidate across a chapter's break
            match = match_pattern(pron.idx, sp - lo, initial, spans)
            if match is None:
                continue
            case = next((w for w in open_case[lo:hi + 1] if w), None)
            if case is not None:
                if refused is None:
                    refused, offending = REJECT_CASE, case
                continue
            got = other_person_word(doc, [t for k in range(lo, hi + 1) for t in sents[k]], window, persons,
                                    dropped, evidence, gender, families)
            if got is not None:
                if refused is None:
                    refused, offending = got
                continue
            inst = _instance(doc, chunk_offset, sents, lo, hi, sp, pron, roles, match, meta)
            if inst is None:
                refused = refused or UNSOUND
                continue
            out.append(inst)
            break
        else:
            if refused is not None and rejected is not None:
                rejected[refused] += 1
            if refused is not None and refusals is not None:
                refusals.append({"pronoun_offset": pron.idx, "pronoun": pron.text, "reason": refused,
                                 "words": offending})
    return out, cast, pronouns


def mention_records(book_id: str, chunk_offset: int, mentions: list[NameMention], pronouns: list) -> list[dict]:
    rows = [{"book_id": book_id, "kind": "name", "text": m.text, "book_start": chunk_offset + m.start,
             "book_end": chunk_offset + m.end, "gender": m.gender, "title": m.title,
             "gender_source": m.gender_source, "tag": ""} for m in mentions]
    rows += [{"book_id": book_id, "kind": "pronoun", "text": t.text, "book_start": chunk_offset + t.idx,
              "book_end": chunk_offset + t.idx + len(t.text), "gender": target_pronoun_gender(t.text),
              "title": "", "gender_source": "pronoun", "tag": t.tag_} for t in pronouns]
    return rows


def count_words(doc, from_char: int = 0) -> int:
    """Tokens that are neither punctuation nor space (from character ``from_char`` on)."""
    return doc_count_words(doc, from_char)


# ------------------------------------------------------------------ one book --------------

def book_row(**values) -> dict:
    """A ``BOOKS`` record with defaults for every column not given."""
    row = {"book_id": "", "title": "", "author": "", "path": "", "format": "", "status": "ok",
           "skip_reason": "", "n_paragraphs": 0, "n_words": 0, "n_name_mentions": 0,
           "n_pronouns": 0, "n_instances": 0, "seconds": 0.0, "model": "", "strategy": "",
           "ebook": "", "encoding": "", "encoding_source": "", "language": "", "row": None,
           "rejected_windows": {}}     # ebook: the Gutenberg number
    row.update(values)
    return row


def skipped_book(path: str, book_id: str, reason: str, status: str = "skipped", **values) -> BookResult:
    """The result of a book that yields nothing: ``status`` (skipped, excluded, duplicate,
    not-read) and its one-line reason."""
    reason = " ".join(str(reason).split()) or status
    return BookResult(book_row(book_id=book_id, path=path, status=status, skip_reason=reason, **values))


def extract_chunks(parsed, meta: BookMeta, evidence=None, progress=None,
                   owns: list[int] | None = None) -> tuple[list[dict], list[dict], dict]:
    """Records of one book from its parsed chunks.

    ``parsed`` yields ``(chunk offset, whole chunk Doc, parts)`` as
    :func:`pipeline.nlp.prune.parsed_docs` does; each part is ``(book offset, processed Doc,
    pronoun offsets to consider or None)``. ``progress(words)``, when given, is called after
    each chunk with its word count. Returns (instances in text order, one per pronoun at most;
    mention records; counts ``words``, ``names``, ``pronouns``, ``rejected`` (windows refused
    for a fifth person, by reason) and ``not_persons`` (PERSON entities dropped, by reason)). ``evidence``: the book's evidence (see
    :func:`instances_from_doc`). ``owns``: per chunk, the book offset where its own text
    begins (:func:`with_leads`); what lies before it (the lead) is context only: its pronouns,
    mentions and words belong to the chunk before."""
    rejected: Counter = Counter()
    not_persons: Counter = Counter()
    refused: list[dict] = []
    instances: list[dict] = []
    mentions: list[dict] = []
    words = n_names = n_prons = 0
    for k, (offset, whole, parts) in enumerate(parsed):
        own = owns[k] if owns is not None else offset
        prons = [t for t in pronoun_tokens(whole) if offset + t.idx >= own]
        mentions.extend(mention_records(meta.book_id, offset, [], prons))
        chunk_words = count_words(whole, own - offset)
        words += chunk_words
        n_prons += len(prons)
        for part_offset, doc, only in parts:
            if part_offset < own:           # a lead: its pronouns belong to the chunk before
                mine = only if only is not None else [t.idx for t in pronoun_tokens(doc)]
                only = {x for x in mine if part_offset + x >= own}
            here: list[dict] = []
            insts, names, _ = instances_from_doc(doc, part_offset, meta, only, evidence, rejected, not_persons, here)
            for r in here:
                refused.append({"book_id": meta.book_id, **r, "pronoun_offset": part_offset + r["pronoun_offset"]})
            names = [m for m in names if part_offset + m.start >= own]
            instances.extend(insts)
            mentions.extend(mention_records(meta.book_id, part_offset, names, []))
            n_names += len(names)
        if progress is not None:
            progress(chunk_words)
    instances.sort(key=lambda r: r["book_start"] + r["pronoun_offset"])
    seen, unique = set(), []
    for inst in instances:          # a pronoun yields at most one instance
        if inst["instance_id"] not in seen:
            seen.add(inst["instance_id"])
            unique.append(inst)
    made = {inst["book_start"] + inst["pronoun_offset"] for inst in unique}
    once: dict[int, dict] = {}
    for r in refused:                # one row per pronoun left without an instance
        if r["pronoun_offset"] not in made:
            once.setdefault(r["pronoun_offset"], r)
    refused = [once[k] for k in sorted(once)]
    return unique, mentions, {"words": words, "names": n_names, "pronouns": n_prons, "rejected": dict(rejected),
                              "not_persons": dict(not_persons), "refused": refused}
