"""Where extract spends its NLP time: the two strategies ``full`` and ``prune``.

Both run the same components in the same order on what they process: paragraph breaks, NER
(en_core_web_sm's NER has its own token-to-vector layer and runs before the parser sets any
sentence boundary), then tok2vec, tagger, parser and attribute ruler.

* ``full`` processes every chunk of the book.
* ``prune`` first only tokenizes a chunk and looks at spellings (pass 0, no model): every
  capitalized token that gender-guesser calls male/female (all-caps words in their title-case
  form), or a title from the title table (with or without its period) followed by a capitalized
  token, marks a possible gendered name: a superset of what NER and the person layer
  (:mod:`pipeline.nlp.persons`, whose names always start with such a token) can make a gendered
  mention, keyed by the run of
  capitalized tokens it starts; a capitalized token that is a word of such a run at most a
  context away (a bare surname, "Rostóv" after "Count Rostóv") echoes it, because the variant
  grouping of :mod:`pipeline.core.extract` gives it that person's gender. A pronoun (by its
  spelling: he, him, his, she, her, hers) is *promising* when, in rough sentences
  (punctuation-based, :func:`rough_sentences`),
  (1) its own sentence and the one before hold two distinct name marks of its gender (every
  GAP pattern needs both candidates there) and (2) some run of ``MAX_SENTENCES`` sentences
  around it holds two masculine and two feminine name marks. Both are necessary conditions
  for an instance — a PERSON mention is gendered only through its title, its first token or
  a variant of the same person — each widened by ``SLACK`` rough sentences. Only the rough
  sentences of the runs that hold two and two (the windows that can hold an instance), with
  ``MARGIN`` more on each side and never more than ``MAX_SENTENCES - 1 + MARGIN`` on each side
  of the pronoun (merged into regions),
  go through the model, each region as a Doc of its own; instances are kept only for
  promising pronouns, whose every possible window lies inside their region.
* The regions are first only parsed (the components before NER: en_core_web_sm runs NER
  last). With the parsed sentences and the initial clauses known, :func:`ner_ranges` checks
  the pattern and window conditions again, exactly (a GAP pattern needs its two candidates
  in the pronoun's parsed sentence or the one before, FINALPRO before the pronoun, the others
  with the pronoun in an initial clause); only the sentences of the pronouns that pass, with
  ``MARGIN`` sentences around their windows, go through NER and the person layer (NER was
  the costliest component: it has its own token-to-vector layer). On four novels (Emma,
  Pride and Prejudice, Little Women, The Circular Staircase) a third of the parsed tokens
  need no NER (NER reads 38 % of the books' tokens, the parser 57 %).
* Names glued to a dash run inside one token ("Robert,--a", "meal.--Harriet": the tokenizer
  keeps them whole and NER may still make a person of them) are marked too.

NER and parser decisions depend on a few tokens of context, so a region's edge can be read
differently from the same tokens in the whole chunk; the margin keeps such edges away from
any window. The benchmark (``make bench``) measures the agreement with ``full``. In prune
mode ``mentions.parquet`` holds the names of the processed regions only, and pronouns found
by spelling (no tag) over the whole book.

May import: the standard library, spaCy (inside functions), :mod:`pipeline.vocab`,
:mod:`pipeline.nlp.load` (the pipeline and its components), :mod:`pipeline.lang.pronouns`,
:mod:`pipeline.lang.names` (title genders), :mod:`pipeline.lang.doc_arrays`,
:mod:`pipeline.lang.patterns` (initial clauses, in the parse cut), :mod:`pipeline.lang.sentence_starts`
(whether a part's first sentence is a real start) and
:mod:`pipeline.lang.book_evidence` (inside functions).
"""

from __future__ import annotations

import bisect

from pipeline.nlp import load as nlp_mod
from pipeline.lang.pronouns import FEMININE, MASCULINE, target_pronoun_gender
from pipeline.lang.sentence_starts import FIRST_REAL, real_start

from pipeline.vocab import MAX_SENTENCES
MARGIN = 1      # extra sentences parsed (rough) and named (parsed) on each side of a pronoun's widest window
SLACK = 1       # rough sentences may split where the parser does not (and vice versa)
_END_PUNCT = (".", "!", "?", "…")
_OPENERS = {'"', "'", "“", "‘", "(", "_", "["}
_CLOSERS = {"”", "’", ")", "]", "_"}


def run_components(nlp, docs, names: list[str], batch_size: int = 16):
    """Apply the named pipeline components, in pipeline order, to a stream of Docs."""
    for name, proc in nlp.pipeline:
        if name in names:
            docs = proc.pipe(docs, batch_size=batch_size) if hasattr(proc, "pipe") else map(proc, docs)
    return docs


_QUOTES = ("'", '"')
_CLOSING = _CLOSERS | set(_QUOTES)


def _arrays(doc, arrays):
    if arrays is None:
        from pipeline.lang.doc_arrays import DocArrays
        arrays = DocArrays(doc)
    return arrays


def rough_sentences(doc, arrays=None) -> list[int]:
    """Sentence index per token from punctuation and paragraph breaks (no parser).

    A token starts a sentence after a paragraph break, or after sentence-final punctuation
    (with any closing quotes or brackets attached to it) when it begins with a capital letter
    or is an opening quote/bracket. ``arrays``: the Doc's
    :class:`pipeline.lang.doc_arrays.DocArrays` when the caller has them already."""
    a = _arrays(doc, arrays)
    texts, space, space_after, punct, sent_start = a.texts, a.space, a.space_after, a.punct, a.sent_start
    sent, out, prev_end = 0, [], False
    for i in range(a.n):
        text = texts[i]
        opens = False
        if i > 0 and not space[i]:
            attached = not space_after[i - 1] and not space[i - 1]
            if prev_end and attached and text in _CLOSING:
                pass                                    # a closing quote: same sentence
            elif sent_start[i] == 1 or (prev_end and (text[:1].isupper() or text[:1] in _OPENERS)):
                sent += 1
                opens = True
        out.append(sent)
        if not space[i]:
            # a quote that opens a sentence ('"Oh, dear!" after a paragraph break') closes none
            prev_end = (punct[i] and text.endswith(_END_PUNCT)) or (prev_end and not opens and text in _CLOSING)
    return out


def _run_end(a, i: int) -> int:
    """End (exclusive) of the run of capitalized, non-punctuation tokens from token ``i``."""
    end = i
    while end < a.n and a.upper[end] and not a.punct[end]:
        end += 1
    return end


def _variant_of(key: tuple[str, ...], near: list[set[str]]) -> bool:
    """A mention keyed ``key`` may join a person whose name holds its words (core.extract's
    variant grouping), and take that person's gender: "Darcy" beside "Mr. Darcy"."""
    words = set(key)
    return any(words <= w for w in near)


def name_marks(doc, sent_of: list[int] | None = None, evidence=None,
               arrays=None) -> list[tuple[int, tuple[str, ...], str]]:
    """Pass 0: (token index, key, gender) for every possible gendered name, no model.
    ``sent_of``: :func:`rough_sentences` of ``doc`` when the caller has it already.
    ``evidence``: the book's :class:`pipeline.lang.book_evidence.BookEvidence` (a word may
    take a gender from the book or a researcher's override: every such gender is marked).
    ``arrays``: the Doc's :class:`pipeline.lang.doc_arrays.DocArrays` when the caller has them."""
    from pipeline.lang.book_evidence import mark_genders
    from pipeline.lang.names import NAME_PARTICLES, profession_title, title_gender

    a = _arrays(doc, arrays)
    texts, punct, upper, space_after = a.texts, a.punct, a.upper, a.space_after
    capitals = [i for i, up in enumerate(upper) if up]
    marks = []
    covered: set[int] = set()               # tokens inside a mark's name run
    n = a.n
    genders_of: dict[str, set[str]] = {}
    for i in capitals:
        text = texts[i]
        gender = title_gender(text)
        # a title of the professions takes the period's convention, a man, unless the book
        # says otherwise (core.cast.gender_from_book: "busy Dr. Bangs did his best")
        profession = not gender and profession_title(text)
        titled = bool(gender) or profession
        first = i + 1 if titled else i
        if titled and first < n and texts[first] == "." and not space_after[i]:
            first += 1                      # "MRS" "." "WESTON": the period belongs to the title
        if titled and first + 1 < n and texts[first] in ("--", "\u2014") and upper[first + 1] \
                and not space_after[first - 1] and not space_after[first]:
            first += 1                      # "Mr." "--" "Knightley": a pause inside the name
        key_start = first
        if titled:
            while first < n and texts[first] in NAME_PARTICLES:
                first += 1                  # "Mr. van der Luyden": the particles are the name's
            if first == n or not upper[first]:
                first = key_start
        if gender:
            genders = {gender}
        elif profession:
            genders = {MASCULINE} | (mark_genders(texts[first], evidence) if first < n and upper[first] else set())
        else:
            genders = genders_of.get(text)
            if genders is None:
                genders = genders_of[text] = mark_genders(text, evidence)
            if i + 2 < n and texts[i + 1] == "-" and upper[i + 2] and not space_after[i] and not space_after[i + 1]:
                # "Liza" "-" "Lu": the book's evidence may know the whole name
                genders = genders | mark_genders(text + "-" + texts[i + 2], evidence)
        if not genders:
            continue
        end = _run_end(a, first)
        if end == first:
            continue
        key = tuple(t.lower() for t in texts[key_start:end])
        marks.extend((i, key, g) for g in sorted(genders))
        covered.update(range(i, end))
    marks.extend(_glued_marks(a, evidence, covered))
    # A mention without a gendered first token ("Rostóv") takes the gender of a person whose
    # name holds its words ("Count Rostóv", "Nicholas Rostóv") in the same context (see
    # core.extract's variant grouping), so a capitalized token that is a word of a mark's name
    # echoes that mark (same key: same person; same gender) when the mark is at most a
    # context away: MAX_SENTENCES - 1 rough sentences, widened by SLACK.
    if not marks:
        return marks
    if sent_of is None:
        sent_of = rough_sentences(doc, a)
    reach = MAX_SENTENCES - 1 + SLACK
    by_word: dict[str, dict[tuple[tuple[str, ...], str], list[int]]] = {}
    for i, key, gender in marks:
        for word in key:
            by_word.setdefault(word, {}).setdefault((key, gender), []).append(sent_of[i])
    for i in capitals:
        if i not in covered and not punct[i]:
            sources = by_word.get(texts[i].lower())
            if not sources:
                continue
            k = sent_of[i]
            for (key, gender), sents in sources.items():
                j = bisect.bisect_left(sents, k - reach)     # sentence indices are ascending
                if j < len(sents) and sents[j] <= k + reach:
                    marks.append((i, key, gender))
    return marks


def _glued_marks(a, evidence, covered: set[int]) -> list[tuple[int, tuple[str, ...], str]]:
    """Marks of the names inside tokens glued by a dash run ("Robert,--a", "meal.--Harriet",
    :func:`pipeline.lang.names.glued_pieces`): NER may still make a person of them. Each
    capitalized piece marks the token, keyed by its word (and, for the last piece, the
    capitalized tokens after it); a title piece marks the name after it."""
    from pipeline.lang.book_evidence import mark_genders
    from pipeline.lang.names import glued_pieces, title_gender

    out = []
    texts, n = a.texts, a.n
    for i, text in enumerate(texts):
        if not ("-" in text or "—" in text or "–" in text):
            continue
        pieces = glued_pieces(text)
        if not pieces:
            continue
        end = _run_end(a, i + 1)
        after = tuple(t.lower() for t in texts[i + 1:end])
        for j, (_, word) in enumerate(pieces):
            if not word[:1].isupper():
                continue
            rest = tuple(w.lower() for _, w in pieces[j + 1:] if w[:1].isupper())
            last = j == len(pieces) - 1
            title = title_gender(word)
            if title:
                if last and not after and i + 2 < n and texts[i + 1] == "." and not a.space_after[i]:
                    end = _run_end(a, i + 2)    # "so.--Mrs" "." "Weston": the period is the title's
                    after = tuple(t.lower() for t in texts[i + 2:end])
                key = (rest[:1] if rest else ()) or (after if last else ())
                genders = {title} if key else set()
            else:
                key = (word.lower(),) + (after if last else ())
                genders = mark_genders(word, evidence)
            out.extend((i, key, g) for g in sorted(genders))
            if genders:
                covered.update(range(i, end if last else i + 1))
    return out


def promising_regions(doc, marks, sent_of: list[int] | None = None,
                      arrays=None, from_char: int = 0) -> list[tuple[int, int, set[int]]]:
    """(start token, end token, promising pronoun token indices) of the regions to process.
    ``from_char``: pronouns before this character of the Doc are not the caller's (a chunk's
    lead, see :func:`pipeline.core.extract.with_leads`) and make no region."""
    from pipeline.lang.doc_arrays import pronoun_indices

    if not len(doc):
        return []
    if sent_of is None:
        sent_of = rough_sentences(doc, arrays)
    a = _arrays(doc, arrays)
    n_sents = sent_of[-1] + 1
    m_keys = [set() for _ in range(n_sents)]
    f_keys = [set() for _ in range(n_sents)]
    for i, key, gender in marks:
        (m_keys if gender == MASCULINE else f_keys)[sent_of[i]].add(key)
    reach = MAX_SENTENCES - 1 + MARGIN
    span = MAX_SENTENCES + SLACK          # rough sentences a real window can cover
    spans: list[tuple[int, int, int]] = []      # (first sentence, last sentence, token)
    for i in pronoun_indices(doc):
        if a.idx[i] < from_char:
            continue
        gender = target_pronoun_gender(a.texts[i])
        k = sent_of[i]
        # every pattern puts both candidates in the pronoun's sentence or the one before; a
        # name there may take its gender from a variant anywhere in its window ("Montoni"
        # grouped with "Madame Montoni" two sentences on)
        own, other = (m_keys, f_keys) if gender == MASCULINE else (f_keys, m_keys)
        here = set().union(*own[max(0, k - 1 - SLACK):k + 1 + SLACK])
        if len(here) < 2:
            near = [set(key) for key in set().union(*own[max(0, k - span + 1):k + span])]
            here |= {key for key in set().union(*other[max(0, k - 1 - SLACK):k + 1 + SLACK])
                     if _variant_of(key, near)}
        if len(here) < 2:
            continue
        # some window around the pronoun must hold two masculine and two feminine names; only
        # the sentences of such windows, and a margin around them, are parsed
        fits = [lo for lo in range(max(0, k - span + 1), k + 1)
                if len(set().union(*m_keys[lo:lo + span])) >= 2 and len(set().union(*f_keys[lo:lo + span])) >= 2]
        if not fits:
            continue
        spans.append((max(0, k - reach, fits[0] - MARGIN), min(n_sents - 1, k + reach, fits[-1] + span - 1 + MARGIN), i))
    if not spans:
        return []
    regions: list[list] = []
    for lo, hi, tok_i in sorted(spans):
        if regions and lo <= regions[-1][1] + 1:
            regions[-1][1] = max(regions[-1][1], hi)
            regions[-1][2].add(tok_i)
        else:
            regions.append([lo, hi, {tok_i}])
    # sentence indices ascend with the tokens: a sentence's first and last token by bisection
    return [(bisect.bisect_left(sent_of, lo), bisect.bisect_right(sent_of, hi), toks) for lo, hi, toks in regions]


def region_doc(doc, start: int, end: int, arrays, array_head, array):
    """``doc[start:end].as_doc()`` of a Doc that is only tokenized, without its per-token
    Python work: the words and spaces come from ``arrays`` (the Doc's
    :class:`pipeline.lang.doc_arrays.DocArrays`), the other attributes (the tokenizer's norms
    among them) from ``array`` (``doc.to_array(array_head)``, read once per Doc). A Doc
    without a parse or entities needs none of ``as_doc``'s repairs of heads and partial
    entities, and has no vectors to average; nor does a run of whole parsed sentences without
    entities (:func:`sentence_docs`), whose heads all lie inside it. The copy has no tensor."""
    from spacy.tokens import Doc

    sub = Doc(doc.vocab, words=arrays.texts[start:end], spaces=arrays.space_after[start:end])
    sub.from_array(array_head, array[start:end])
    return sub


def stages(nlp, components: list[str]) -> tuple[list[str], list[str]]:
    """Split the components to run into (before NER, NER and after), in pipeline order; the
    second list is empty when no NER runs after the parser (then prune cannot parse first
    and name second, see :func:`parsed_docs`)."""
    order = [name for name, _ in nlp.pipeline if name in components]
    if "ner" not in order or "parser" not in order or order.index("ner") < order.index("parser"):
        return order, []
    k = order.index("ner")
    return order[:k], order[k:]


def parsed_docs(nlp, chunks: list[tuple[int, str]], strategy: str, batch_size: int = 16, evidence=None,
                owns: list[int] | None = None, group: int | None = None):
    """For each chunk of a book yield ``(chunk offset, Doc of the whole chunk, parts)``;
    ``parts`` lists (book offset, processed Doc, promising pronoun offsets in that Doc or None
    for "every pronoun"). Full: one part, the whole (processed) chunk. Prune: the whole chunk
    is only tokenized; its promising regions are parsed, and only the parts of them where
    the parse still allows an instance (:func:`ner_ranges`) go through NER and the person
    layer, one processed part each. The regions of consecutive chunks are gathered until there
    are at least ``group`` of them (default :data:`GROUP_REGIONS`) and go through the model
    together, in full batches (a chunk has one to three regions: one chunk at a time, the
    batches were nearly empty); the chunks are still yielded one by one, in order, with the
    same Docs (byte for byte: the model reads each Doc alone whatever batch it is in)."""
    components = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    if strategy == "full":
        docs = run_components(nlp, (nlp.make_doc(text) for _, text in chunks), components, batch_size)
        for (offset, _), doc in zip(chunks, docs):
            yield offset, doc, [(offset, doc, None)]
        return
    first, then = stages(nlp, components)
    group = GROUP_REGIONS if group is None else group
    pending: list[tuple[int, object, list, list]] = []
    waiting = 0
    for k, (offset, text) in enumerate(chunks):
        doc, parts, marks = _pass0(nlp, offset, text, evidence, (owns[k] - offset) if owns is not None else 0)
        pending.append((offset, doc, parts, marks))
        waiting += len(parts)
        if waiting >= group:
            yield from _processed(nlp, pending, first, then, batch_size)
            pending, waiting = [], 0
    if pending:
        yield from _processed(nlp, pending, first, then, batch_size)


# regions gathered from consecutive chunks before the model runs: four batches of 16 (three books,
# one process: tok2vec + parser 5.67 -> 5.21 s, NER 2.55 -> 2.29 s against one chunk at a time,
# the same Docs byte for byte; twelfth session)
GROUP_REGIONS = 64


def _processed(nlp, pending: list, first: list[str], then: list[str], batch_size: int):
    """Run the model on the regions of ``pending`` chunks ((offset, Doc, parts, marks) each, as
    :func:`_pass0` gave them) together, and yield the chunks as :func:`parsed_docs` does."""
    from pipeline.lang.doc_arrays import DocArrays

    processed = iter(list(run_components(nlp, iter([sub for _, _, parts, _ in pending for _, sub, _ in parts]),
                                         first, batch_size)))
    if not then:
        for offset, doc, parts, _ in pending:
            yield offset, doc, [(book_offset, next(processed), toks) for book_offset, _, toks in parts]
        return
    cuts = []
    for _, _, parts, marks in pending:
        cut = []
        for (book_offset, _, promising), region_marks in zip(parts, marks):
            sub = next(processed)
            arrays = DocArrays(sub) if promising and len(sub) else None   # read once for both
            cut.extend(sentence_docs(sub, book_offset, ner_ranges(sub, promising, region_marks, arrays), arrays))
        cuts.append(cut)
    named = iter(list(run_components(nlp, iter([sub for cut in cuts for _, sub, _ in cut]), then, batch_size)))
    for (offset, doc, _, _), cut in zip(pending, cuts):
        yield offset, doc, [(book_offset, next(named), toks) for book_offset, _, toks in cut]


def sentence_docs(doc, book_offset: int, ranges, arrays=None) -> list[tuple[int, object, set[int]]]:
    """(book offset, Doc copy, pronoun offsets in the copy) of each range of whole parsed
    sentences of ``doc`` that has no entities yet. The copies are what ``Span.as_doc`` gives
    for such a range, built from the Doc's arrays read once (as :func:`region_doc` builds the
    regions): a whole sentence's heads all lie inside it, so none of ``as_doc``'s repairs (heads
    outside the span, partial entities) applies, and no per-token ``Token`` object is made.
    The copies carry no tensor or vector (NER has its own token-to-vector layer).
    ``arrays``: the Doc's :class:`pipeline.lang.doc_arrays.DocArrays` when the caller has
    read them (:func:`ner_ranges` reads the same)."""
    from pipeline.lang.doc_arrays import DocArrays

    if not ranges:
        return []
    head = doc._get_array_attrs()
    array = doc.to_array(head)
    arrays = arrays if arrays is not None else DocArrays(doc)
    out = []
    for s, e, toks in ranges:
        start = arrays.idx[s]
        sub = region_doc(doc, s, e, arrays, head, array)
        if not real_start(doc, s):
            sub.user_data[FIRST_REAL] = False       # windows never start at a cut inside a sentence
        out.append((book_offset + start, sub, {x - start for x in toks}))
    return out


def _pass0(nlp, offset: int, text: str, evidence, from_char: int = 0, doc=None):
    """Tokenize a chunk and cut out its promising regions (as Docs not yet processed); only
    pronouns from ``from_char`` on (the chunk's own text, after its lead) make regions.
    Returns (the chunk's Doc, parts, the name marks of each part with token indices of the
    part's Doc). ``doc``: the chunk already tokenized."""
    from pipeline.lang.doc_arrays import DocArrays

    if doc is None:
        doc = nlp.make_doc(text)
    arrays = DocArrays(doc, text)
    sent_of = rough_sentences(doc, arrays)
    marks = name_marks(doc, sent_of, evidence, arrays)
    regions = promising_regions(doc, marks, sent_of, arrays, from_char)
    if not regions:
        return doc, [], []
    head = doc._get_array_attrs()
    array = doc.to_array(head)
    idx = arrays.idx
    parts = [(offset + idx[s], region_doc(doc, s, e, arrays, head, array), {idx[i] - idx[s] for i in toks})
             for s, e, toks in regions]
    for (s, _, _), (_, sub, _) in zip(regions, parts):
        if s and not real_start(doc, s):
            sub.user_data[FIRST_REAL] = False       # a region cut inside a sentence (after "Mrs.")
    marks.sort()
    region_marks = []
    for s, e, _ in regions:
        lo, hi = bisect.bisect_left(marks, (s,)), bisect.bisect_left(marks, (e,))
        region_marks.append([(i - s, key, gender) for i, key, gender in marks[lo:hi]])
    return doc, parts, region_marks


def ner_ranges(doc, promising: set[int], marks, arrays=None) -> list[tuple[int, int, set[int]]]:
    """Second cut of prune, on a region ``doc`` that is parsed but has no entities yet:
    (start token, end token, promising pronoun offsets) of the runs of whole parsed sentences
    that NER and the person layer must still see. ``promising``: character offsets in ``doc``
    of its promising pronouns; ``marks``: pass 0's name marks (token index in ``doc``, key,
    gender), a superset of the gendered mentions.

    With the parse known, the conditions of pass 0 are checked again on the parsed sentences
    (the sentences the windows are made of), each still necessary for an instance: a
    pronoun is kept when (1) it can match a GAP pattern (:mod:`pipeline.lang.patterns`) with
    two distinct marks of its gender as candidates: FINALPRO, both before the pronoun in one
    sentence S, its own or the one before; INITIALPRO / MEDIALPRO, the pronoun in an initial
    clause (the same test as extract's) and both in its sentence, or one in it and one in the
    sentence before; and (2) some run of ``MAX_SENTENCES`` sentences around it holds two
    masculine and two feminine marks. A mark counts for every sentence from two tokens before
    it (an ungendered title and its period: "Dr. Watson") to the end of its capitalized run,
    so a parse that splits a name still finds it. The kept pronoun's possible windows, with
    ``MARGIN`` sentences on each side, are what NER reads; overlapping ranges merge.
    ``arrays``: the Doc's :class:`pipeline.lang.doc_arrays.DocArrays` when the caller has
    read them (read here otherwise)."""
    from pipeline.lang.doc_arrays import DocArrays
    from pipeline.lang.patterns import initial_clause_kind

    if not promising or not len(doc):
        return []
    a = arrays if arrays is not None else DocArrays(doc)
    sent_of, k = [], -1
    for i in range(a.n):
        if i == 0 or a.sent_start[i] == 1:
            k += 1
        sent_of.append(k)
    n_sents = k + 1
    starts = [i for i in range(a.n) if i == 0 or a.sent_start[i] == 1]
    keys = {g: [set() for _ in range(n_sents)] for g in (MASCULINE, FEMININE)}
    at: list[list[tuple[int, tuple]]] = [[] for _ in range(n_sents)]     # (token, key) per sentence
    for i, key, gender in marks:
        end = _run_end(a, i + 1)
        for s in range(sent_of[max(0, i - 2)], sent_of[end - 1] + 1):
            keys[gender][s].add(key)
            at[s].append((i, key))
    sents = None
    spans = []
    for i in range(a.n):
        if a.idx[i] not in promising:
            continue
        gender = target_pronoun_gender(a.texts[i])
        k = sent_of[i]
        # a mention takes its person's gender from any variant in its window ("Darcy", which
        # gender-guesser calls feminine, is Mr. Darcy's): a key may have the gender of any
        # mark around whose key holds its words
        near = [set(x) for x in set().union(*keys[gender][max(0, k - MAX_SENTENCES + 1):k + MAX_SENTENCES])]

        def cands(s, before=False):
            return {key for j, key in at[s] if (not before or j < i) and _variant_of(key, near)}

        ok = any(len(cands(s, True)) >= 2 for s in (k, k - 1) if s >= 0)
        if not ok:
            here = cands(k)
            prev = cands(k - 1) if k > 0 else set()
            if len(here) >= 2 or (here and prev and len(here | prev) >= 2):
                if sents is None:
                    sents = list(doc.sents)
                ok = initial_clause_kind(doc[i], sents[k]) is not None
        if not ok:
            continue
        fits = [lo for lo in range(max(0, k - MAX_SENTENCES + 1), k + 1)
                if len(set().union(*keys[MASCULINE][lo:lo + MAX_SENTENCES])) >= 2
                and len(set().union(*keys[FEMININE][lo:lo + MAX_SENTENCES])) >= 2]
        if not fits:
            continue
        spans.append((max(0, fits[0] - MARGIN), min(n_sents - 1, fits[-1] + MAX_SENTENCES - 1 + MARGIN), i))
    ranges: list[list] = []
    for lo, hi, i in sorted(spans):
        if ranges and lo <= ranges[-1][1] + 1:
            ranges[-1][1] = max(ranges[-1][1], hi)
            ranges[-1][2].add(a.idx[i])
        else:
            ranges.append([lo, hi, {a.idx[i]}])
    return [(starts[lo], starts[hi + 1] if hi + 1 < n_sents else a.n, toks) for lo, hi, toks in ranges]
