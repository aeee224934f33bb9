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

NER and parser decisions depend on a few tokens of context, so a region's edge can be read
differently from the same tokens in the whole chunk; the margin keeps such edges away from
any window. The benchmark (``make bench``) measures the agreement with ``full``. In prune
mode ``mentions.parquet`` holds the names of the processed regions only, and pronouns found
by spelling (no tag) over the whole book.

May import: the standard library, spaCy (inside functions), :mod:`pipeline.vocab`,
:mod:`pipeline.nlp.load` (the pipeline and its components), :mod:`pipeline.lang.pronouns`,
:mod:`pipeline.lang.names` (title genders), :mod:`pipeline.lang.doc_arrays` and
:mod:`pipeline.lang.book_evidence` (inside functions).
"""

from __future__ import annotations

import bisect

from pipeline.nlp import load as nlp_mod
from pipeline.lang.pronouns import MASCULINE, target_pronoun_gender

from pipeline.vocab import MAX_SENTENCES
MARGIN = 2      # extra rough sentences parsed on each side of a pronoun's widest window
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


def name_marks(doc, sent_of: list[int] | None = None, evidence=None,
               arrays=None) -> list[tuple[int, tuple[str, ...], str]]:
    """Pass 0: (token index, key, gender) for every possible gendered name, no model.
    ``sent_of``: :func:`rough_sentences` of ``doc`` when the caller has it already.
    ``evidence``: the book's :class:`pipeline.lang.book_evidence.BookEvidence` (a word may
    take a gender from the book or a researcher's override: every such gender is marked).
    ``arrays``: the Doc's :class:`pipeline.lang.doc_arrays.DocArrays` when the caller has them."""
    from pipeline.lang.book_evidence import mark_genders
    from pipeline.lang.names import title_gender

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
        first = i + 1 if gender else i
        if gender and first < n and texts[first] == "." and not space_after[i]:
            first += 1                      # "MRS" "." "WESTON": the period belongs to the title
        if gender:
            genders = {gender}
        else:
            genders = genders_of.get(text)
            if genders is None:
                genders = genders_of[text] = mark_genders(text, evidence)
        if not genders:
            continue
        end = first
        while end < n and upper[end] and not punct[end]:
            end += 1
        if end == first:
            continue
        key = tuple(t.lower() for t in texts[first:end])
        marks.extend((i, key, g) for g in sorted(genders))
        covered.update(range(i, end))
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
        # every pattern puts both candidates in the pronoun's sentence or the one before
        own = m_keys if gender == MASCULINE else f_keys
        if len(set().union(*own[max(0, k - 1 - SLACK):k + 1 + SLACK])) < 2:
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
    entities, and has no vectors to average."""
    from spacy.tokens import Doc

    sub = Doc(doc.vocab, words=arrays.texts[start:end], spaces=arrays.space_after[start:end])
    sub.from_array(array_head, array[start:end])
    return sub


def parsed_docs(nlp, chunks: list[tuple[int, str]], strategy: str, batch_size: int = 16, evidence=None,
                owns: list[int] | None = None):
    """For each chunk of a book yield ``(chunk offset, Doc of the whole chunk, parts)``;
    ``parts`` lists (book offset, processed Doc, promising pronoun offsets in that Doc or None
    for "every pronoun"). Full: one part, the whole (processed) chunk. Prune: the whole chunk
    is only tokenized, and there is one processed part per region. (Gathering the regions of
    several chunks into larger batches for the model was measured: no faster on CPU.)"""
    components = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    if strategy == "full":
        docs = run_components(nlp, (nlp.make_doc(text) for _, text in chunks), components, batch_size)
        for (offset, _), doc in zip(chunks, docs):
            yield offset, doc, [(offset, doc, None)]
        return
    for k, (offset, text) in enumerate(chunks):
        doc, parts = _pass0(nlp, offset, text, evidence, (owns[k] - offset) if owns is not None else 0)
        processed = list(run_components(nlp, iter([sub for _, sub, _ in parts]), components, batch_size))
        yield offset, doc, [(book_offset, sub, toks) for (book_offset, _, toks), sub in zip(parts, processed)]


def _pass0(nlp, offset: int, text: str, evidence, from_char: int = 0):
    """Tokenize a chunk and cut out its promising regions (as Docs not yet processed); only
    pronouns from ``from_char`` on (the chunk's own text, after its lead) make regions."""
    from pipeline.lang.doc_arrays import DocArrays

    doc = nlp.make_doc(text)
    arrays = DocArrays(doc, text)
    sent_of = rough_sentences(doc, arrays)
    regions = promising_regions(doc, name_marks(doc, sent_of, evidence, arrays), sent_of, arrays, from_char)
    if not regions:
        return doc, []
    head = doc._get_array_attrs()
    array = doc.to_array(head)
    idx = arrays.idx
    parts = [(offset + idx[s], region_doc(doc, s, e, arrays, head, array), {idx[i] - idx[s] for i in toks})
             for s, e, toks in regions]
    return doc, parts
