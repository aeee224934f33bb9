"""Parse helpers of the experiment plan: filler questions from the dependency parse, the
parse of benchmark sentences, and spaCy's tag of isolated words (the Maze distractor lexicon).

Filler questions (half of all QA questions) ask about a predicate argument that is *not*
the pronoun's referent, so their answer never depends on resolving the pronoun. They keep
the four answers of the target questions (male / female / neutral / unknown), so fillers and
targets look alike and share the QA results format. Templates, for a verb ``v`` of the
sentence whose subject ``s`` is a person argument:

=============  =====================================================  ==========================
template       question                                               example
=============  =====================================================  ==========================
subject        What is the gender of the person who PREDICATE?        "... who did not like the
                                                                      design?" (he -> male)
passive        What is the gender of the person who AUX PARTICIPLE    "... who was being
               REST?                                                  questioned?" -> unknown
=============  =====================================================  ==========================

PREDICATE is ``v``'s subtree without the subject, subordinate clauses (advcl, ccomp, conj,
parataxis, relcl), leading markers and punctuation, with every other person mention
(pronoun, main or other entity) replaced by "someone" ("someone's" for a possessive).

Person arguments and their answers: a gendered pronoun -> its gender (male/female); a
gendered word ("mother") or a first name gender-guesser knows -> that gender; the *other*
entity (an occupation whose gender the sentence never gives) -> "unknown". The main entity
(the pronoun's referent) is never asked about: its answer is the target question.

May import: spaCy (passed-in Docs and pipelines), :mod:`pipeline.lang`, :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.lang import gendered_words, names, pronouns
from pipeline.vocab import FEMININE, MASCULINE, UNGENDERED

ANSWER_OF = {MASCULINE: "male", FEMININE: "female"}
SKIP_DEPS = {"advcl", "ccomp", "conj", "cc", "parataxis", "relcl", "mark", "punct", "nsubj",
             "nsubjpass", "csubj", "expl", "intj", "discourse", "prep_skip"}
QUESTION = "What is the gender of the person who {predicate}?"


@dataclass(frozen=True)
class Filler:
    question: str
    answer: str          # male | female | neutral | unknown
    template: str        # subject | passive
    argument: str        # the argument asked about, as written


def _overlaps(tok, span) -> bool:
    return span is not None and tok.idx < span[1] and tok.idx + len(tok.text) > span[0]


def _argument_answer(head, spans: dict) -> str | None:
    """The answer for a subject argument headed by ``head``; None: not asked about."""
    if _overlaps(head, spans.get("main")):
        return None
    if _overlaps(head, spans.get("pronoun")):
        g = pronouns.target_pronoun_gender(head.text)
        return ANSWER_OF.get(g)
    if _overlaps(head, spans.get("other")):
        return "unknown"
    g = gendered_words.gender_of(head.text.lower())
    if g in ANSWER_OF and head.tag_.startswith("NN") and head.tag_ not in ("NNP", "NNPS"):
        return ANSWER_OF[g]
    if head.tag_ in ("NNP", "NNPS"):
        g, _ = names.guess(head.text)
        if g != UNGENDERED:
            return ANSWER_OF.get(g)
    return None


def _predicate(verb, subject, spans: dict) -> str | None:
    skip = set()
    for child in verb.children:
        if child.dep_ in SKIP_DEPS:
            skip.update(t.i for t in child.subtree)
    toks = [t for t in verb.subtree if t.i not in skip]
    while toks and (toks[-1].is_punct or toks[-1].dep_ in ("cc", "mark")):
        toks.pop()
    while toks and (toks[0].is_punct or toks[0].dep_ in ("cc", "mark")):
        toks.pop(0)
    if not toks or verb not in toks:
        return None
    words: list[str] = []
    replaced: set[str] = set()
    for t in toks:
        hit = next((k for k in ("pronoun", "main", "other") if _overlaps(t, spans.get(k))), None)
        if hit is None:
            words.append(t.text)
            continue
        if hit in replaced:
            if t.tag_ == "POS" and words and words[-1] == "someone":
                words[-1] = "someone's"
            continue
        replaced.add(hit)
        words.append("someone's" if t.tag_ == "PRP$" else "someone")
    text = " ".join(words).replace(" n't", "n't").replace(" 's", "'s")
    return text if len(words) >= 2 or verb.tag_ != "VB" else None


def filler_questions(doc, spans: dict) -> list[Filler]:
    """Filler questions of one parsed sentence.

    ``spans``: ``{"pronoun": (start, end), "main": (start, end), "other": (start, end) or
    None}`` in character offsets of ``doc.text``."""
    out = []
    seen = set()
    for verb in doc:
        if verb.pos_ not in ("VERB", "AUX") or verb.dep_ == "aux" or verb.dep_ == "auxpass":
            continue
        for subj in verb.children:
            if subj.dep_ not in ("nsubj", "nsubjpass"):
                continue
            answer = _argument_answer(subj, spans)
            if answer is None:
                continue
            predicate = _predicate(verb, subj, spans)
            if not predicate:
                continue
            q = QUESTION.format(predicate=predicate)
            if q in seen:
                continue
            seen.add(q)
            arg = doc[subj.left_edge.i: subj.right_edge.i + 1].text
            out.append(Filler(q, answer, "passive" if subj.dep_ == "nsubjpass" else "subject", arg))
    return out


def parse_texts(nlp, texts: list[str], batch_size: int = 64):
    """spaCy Docs of ``texts`` (tagger + parser; NER off)."""
    disable = [n for n in nlp.pipe_names if n == "ner"]
    return list(nlp.pipe(texts, batch_size=batch_size, disable=disable))


def tokens_tags(doc, tokens: list[str]) -> list[str]:
    """spaCy's tag for each whitespace token of a sentence (the tag of the token's first
    non-punctuation spaCy token; offsets come from the whitespace tokenisation of
    ``doc.text``)."""
    tags, pos = [], 0
    text = doc.text
    for tok in tokens:
        start = text.find(tok, pos)
        if start < 0:
            start = pos
        end = start + len(tok)
        pos = end
        inside = [t for t in doc if t.idx < end and t.idx + len(t.text) > start]
        words = [t for t in inside if not t.is_punct] or inside
        tags.append(words[0].tag_ if words else "X")
    return tags


def tag_words(nlp, words: list[str], batch_size: int = 1000) -> list[str]:
    """spaCy's tag of each word said alone (the distractor lexicon's parts of speech)."""
    keep = {"tok2vec", "tagger", "attribute_ruler"}
    disable = [n for n in nlp.pipe_names if n not in keep]
    return [doc[0].tag_ if len(doc) else "X"
            for doc in nlp.pipe(words, batch_size=batch_size, disable=disable)]
