"""Persons measured against gold entities (LitBank): precision, recall and gender.

Records in, records out: the gold document (:class:`pipeline.formats.litbank.LitBankDocument`),
the book text our pipeline reads, and our person mentions as ``(start, end, gender)``
character spans of that text.

* **Alignment.** LitBank's tokens are found in the book text in order (whitespace and the
  quotes' spelling may differ); a token that cannot be found within a short reach is skipped
  and counted, its mention then uses the nearest aligned tokens.
* **Named persons** are gold ``PER`` mentions of category ``PROP``.
* **Precision.** A predicted span inside the annotated opening is right when it overlaps a
  gold ``PER`` mention (of any category: LitBank annotates "James Stevenson, Esq. of South
  Park" as one nominal mention and not the name inside it); otherwise it is counted under the
  type of the gold mention it overlaps (a place, a facility...) or as "none".
* **Recall.** A gold named-person mention is found when a predicted span overlaps it.
* **Gender.** A gold cluster's gender is the gender of its gendered pronouns (he/him/his,
  she/her/hers) when at least ``CLEAR_SHARE`` of them agree and there are at least
  ``CLEAR_MIN``; every named-person mention of such a cluster counts, and gets the gender of
  the predicted span that overlaps it (none when missed or ungendered).

* **Coreference alone** (:func:`typed_from_coref`): LitBank's coreference of an opening has no
  types or categories, only clusters. A cluster is taken for a person (``PER``) when it has a
  he/she pronoun at least as often as an "it", or a first-person pronoun and no "it", or a
  titled name ("Mr. Grey") and no "it"; a mention is a name (``PROP``) when its last word is
  capitalised and it is no kin or address word alone ("Mother", "Sir": LitBank's NOM), no
  article starts it unless a title follows ("the Doctor", not "the second Sir Walter"), no
  possessive starts it ("her Ayah"), no preposition comes before its first capitalised word
  ("mistress of Kellynch Hall") and no lower-case word after it (particles aside: "the second
  Sir Walter", "Catherine de Bourgh", "Sir John d'Urberville"), a pronoun (``PRON``) when it is
  one, else ``NOM``; the other clusters' type is ``UNK``. This scores books whose gold entities
  one does not have (the held-out half's openings) by the same :func:`score`: it misses named
  persons that no pronoun of the opening refers to, so its figures are read beside the same
  proxy on the development half, whose true figures are known.

May import: :mod:`pipeline.lang.pronouns`, :mod:`pipeline.formats.litbank` (record types only),
the standard library.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.lang.pronouns import FEMININE, MASCULINE, UNGENDERED

CLEAR_SHARE = 0.8
CLEAR_MIN = 1
REACH = 400
_QUOTES = str.maketrans({"“": '"', "”": '"', "‘": "'", "’": "'", "`": "'"})
_GENDERED = {"he": MASCULINE, "him": MASCULINE, "his": MASCULINE, "himself": MASCULINE,
             "she": FEMININE, "her": FEMININE, "hers": FEMININE, "herself": FEMININE}


_PERSONAL = frozenset("""he him his himself she her hers herself i me my mine myself you your yours
yourself we us our ours ourselves they them their theirs themselves it its itself thee thou thy
thine ye""".split())
_NEUTER = frozenset({"it", "its", "itself"})
_FIRST = frozenset({"i", "me", "my", "mine", "myself"})
_COREF_TITLES = frozenset("""mr mr. mrs mrs. miss ms ms. sir lady lord dr dr. madame monsieur mme
mademoiselle captain colonel major general""".split())
_PARTICLES = frozenset({"de", "van", "von", "der", "la", "le", "du", "of", "da", "di", "d'", "'s", "'", "’s",
                        "’", "the"})


_ADDRESS_WORDS = frozenset("""mother father papa pa mamma mama ma mammy mummy daddy dad sir madam madame
ma'am monsieur mademoiselle signor signora uncle aunt auntie son daughter boy girl brother sister
grandmother grandfather granny grandpa cousin nurse doctor judge boss master mistress miss mister""".split())
_ARTICLES = frozenset({"the", "a", "an", "this", "that"})
_POSSESSIVES = frozenset({"my", "his", "her", "our", "your", "their", "its"})   # "her Ayah"
_BEFORE_HEAD = frozenset({"of", "o'", "in", "at", "from", "for", "to", "with", "by"})
_PREFIXED = re.compile(r"(?:d'|d’|de|van|von|mac|fitz)[A-Z]")


def coref_category(text: str) -> str:
    """``PRON``, ``PROP`` or ``NOM`` of a coreference mention's text, by its words (see the
    module docstring)."""
    words = text.split()
    if len(words) == 1 and words[0].lower() in _PERSONAL:
        return "PRON"
    if len(words) == 1 and words[0].lower().replace("’", "'") in _ADDRESS_WORDS:
        return "NOM"                    # "Mother", "Papa", "Sir": LitBank's NOM, a kin or address word
    caps = [k for k, w in enumerate(words) if w[:1].isupper() and w[:1].isalpha()]
    if not caps or not words[-1][:1].isupper() and words[-1].lower() not in _PARTICLES and words[-1][:1].isalpha() \
            and not _PREFIXED.match(words[-1]):
        return "NOM"
    if words[0].lower() in _ARTICLES and not any(w.lower() in _COREF_TITLES for w in words[caps[0]:-1]):
        return "NOM"                    # "the Doctor", "the Mem Sahib"; not "the second Sir Walter"
    if words[0].lower() in _POSSESSIVES or any(w.lower() in _BEFORE_HEAD for w in words[:caps[0]]):
        return "NOM"                    # "mistress of Kellynch Hall": the head is no name
    after = words[caps[0]:]
    if any(w[:1].isalpha() and w[:1].islower() and w.lower() not in _PARTICLES
           and not _PREFIXED.match(w) for w in after):
        return "NOM"
    return "PROP"


def typed_from_coref(doc):
    """A :class:`pipeline.formats.litbank.LitBankDocument` read from coreference alone with each
    mention's type (``PER`` or ``UNK``) and category inferred (module docstring)."""
    from dataclasses import replace

    clusters: dict[str, list] = {}
    for m in doc.mentions:
        clusters.setdefault(m.entity, []).append(m)
    person = {}
    for ent, ms in clusters.items():
        words = [m.text.lower() for m in ms]
        he_she = sum(w in _GENDERED for w in words)
        neuter = sum(w in _NEUTER for w in words)
        first = sum(w in _FIRST for w in words)
        titled = any(m.text.split()[0].lower() in _COREF_TITLES and coref_category(m.text) == "PROP" for m in ms)
        person[ent] = (he_she >= 1 and he_she >= neuter) or ((first >= 1 or titled) and neuter == 0)
    mentions = [replace(m, type="PER" if person[m.entity] else "UNK", category=coref_category(m.text))
                for m in doc.mentions]
    return replace(doc, mentions=mentions)


def litbank_token_spans(sentences: list[list[str]], text: str, start: int = 0) -> tuple[dict, int]:
    """{(sentence, token): (start, end)} character spans of LitBank's tokens in ``text``, and
    how many tokens could not be found."""
    norm = text.translate(_QUOTES)
    spans, missed, pos = {}, 0, start
    for s, toks in enumerate(sentences):
        for t, tok in enumerate(toks):
            want = tok.translate(_QUOTES)
            if want in ("``", "''"):
                want = '"'
            k = norm.find(want, pos, pos + REACH + len(want))
            if k < 0:
                missed += 1
                continue
            spans[(s, t)] = (k, k + len(want))
            pos = k + len(want)
    return spans, missed


def locate_opening(sentences: list[list[str]], text: str, probe: int = 12) -> int:
    """Where the opening starts in ``text``: the first place its first ``probe`` words
    (letters only) appear in order within a short reach; 0 when not found."""
    words = [w for toks in sentences for w in toks if any(c.isalpha() for c in w)][:probe]
    if not words:
        return 0
    k = text.find(words[0])
    while k >= 0:
        pos, ok = k + len(words[0]), True
        for w in words[1:]:
            j = text.find(w, pos, pos + 80)
            if j < 0:
                ok = False
                break
            pos = j + len(w)
        if ok:
            return k
        k = text.find(words[0], k + 1)
    return 0


@dataclass
class GoldSpan:
    start: int
    end: int
    text: str
    type: str
    category: str
    entity: str


def gold_spans(doc, spans: dict) -> list[GoldSpan]:
    out = []
    for m in doc.mentions:
        s = _nearest(spans, m.start, +1)
        e = _nearest(spans, m.end, -1)
        if s is None or e is None or e[1] <= s[0]:
            continue
        out.append(GoldSpan(s[0], e[1], m.text, m.type, m.category, m.entity))
    return out


def _nearest(spans: dict, key: tuple[int, int], step: int):
    s, t = key
    for k in range(0, 6):
        hit = spans.get((s, t + step * k))
        if hit:
            return hit
    return None


def cluster_genders(gold: list[GoldSpan]) -> dict[str, str]:
    """entity -> gender from its gendered pronouns (see the module docstring)."""
    votes: dict[str, Counter] = {}
    for g in gold:
        if g.type == "PER" and g.category == "PRON":
            gender = _GENDERED.get(g.text.lower())
            if gender:
                votes.setdefault(g.entity, Counter())[gender] += 1
    out = {}
    for ent, c in votes.items():
        gender, n = c.most_common(1)[0]
        if n >= CLEAR_MIN and n / sum(c.values()) >= CLEAR_SHARE:
            out[ent] = gender
    return out


@dataclass
class Score:
    predicted: int = 0
    right: int = 0
    wrong: Counter = field(default_factory=Counter)      # type of what a wrong span hit
    gold: int = 0
    found: int = 0
    gendered_gold: int = 0
    gender_right: int = 0
    gender_wrong: int = 0
    gender_none: int = 0
    false_positives: list = field(default_factory=list)  # (text, what it hit)
    misses: list = field(default_factory=list)           # gold text
    wrong_genders: list = field(default_factory=list)    # (gold text, ours, gold)
    no_genders: list = field(default_factory=list)       # (gold text, gold gender)

    def add(self, other: "Score") -> None:
        for name in ("predicted", "right", "gold", "found", "gendered_gold", "gender_right",
                     "gender_wrong", "gender_none"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.wrong.update(other.wrong)
        self.false_positives += other.false_positives
        self.misses += other.misses
        self.wrong_genders += other.wrong_genders
        self.no_genders += other.no_genders

    @property
    def precision(self) -> float:
        return self.right / self.predicted if self.predicted else 0.0

    @property
    def recall(self) -> float:
        return self.found / self.gold if self.gold else 0.0


def _overlaps(a0: int, a1: int, b0: int, b1: int) -> bool:
    return a0 < b1 and b0 < a1


def score(gold: list[GoldSpan], predicted: list[tuple[int, int, str, str]], lo: int, hi: int) -> Score:
    """Score ``predicted`` ``(start, end, gender, text)`` spans against ``gold`` inside the
    annotated stretch ``[lo, hi)`` of the text."""
    sc = Score()
    preds = [p for p in predicted if lo <= p[0] and p[1] <= hi]
    per = [g for g in gold if g.type == "PER"]
    for p0, p1, _, ptext in preds:
        sc.predicted += 1
        if any(_overlaps(p0, p1, g.start, g.end) for g in per):
            sc.right += 1
            continue
        hits = sorted((g for g in gold if _overlaps(p0, p1, g.start, g.end)), key=lambda g: g.end - g.start)
        kind = hits[0].type if hits else "none"
        sc.wrong[kind] += 1
        sc.false_positives.append((ptext, kind))
    genders = cluster_genders(gold)
    for g in per:
        if g.category != "PROP":
            continue
        sc.gold += 1
        over = [p for p in preds if _overlaps(p[0], p[1], g.start, g.end)]
        if over:
            sc.found += 1
        else:
            sc.misses.append(g.text)
        want = genders.get(g.entity)
        if not want:
            continue
        sc.gendered_gold += 1
        got = {p[2] for p in over} - {UNGENDERED}
        if got == {want}:
            sc.gender_right += 1
        elif got:
            sc.gender_wrong += 1
            sc.wrong_genders.append((g.text, "/".join(sorted(got)), want))
        else:
            sc.gender_none += 1
            sc.no_genders.append((g.text, want))
    return sc
