"""Two-pass parsing for extract: spend parser time only where an instance can come from.

Both strategies start with pass A over every chunk: tokenizer, paragraph breaks and NER (the
NER of en_core_web_sm has its own token-to-vector layer, so it needs neither tagger nor
parser). Then:

* ``full``: pass B (tok2vec, tagger, parser, attribute ruler) over every chunk.
* ``prune``: a pronoun (by its spelling: he, him, his, she, her, hers) is *promising* when,
  in rough sentences (punctuation-based, see :func:`rough_sentences`), (1) its own sentence
  and the one before hold two distinct name forms of its gender (every GAP pattern needs
  both candidates there) and (2) some run of ``MAX_SENTENCES`` sentences around it holds two
  distinct masculine and two distinct feminine name forms — necessary conditions for an
  instance, each widened by ``SLACK`` rough sentences. Only the rough sentences around
  promising pronouns, ``MAX_SENTENCES - 1 + MARGIN`` on each side (merged into regions), go
  through pass B, each region as a Doc of its own
  (``Span.as_doc`` keeps the entities and paragraph breaks of pass A). Instances are kept
  only for promising pronouns, whose every possible window lies inside their region.

Because NER runs before any parser in both strategies, the names are identical; parses can
differ only in the few tokens at a region's edge, MARGIN sentences away from any window.
"""

from __future__ import annotations

from pipeline import nlp as nlp_mod
from pipeline.pronouns import FEMININE, MASCULINE, target_pronoun_gender

MAX_SENTENCES = 5
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


def rough_sentences(doc) -> list[int]:
    """Sentence index per token from punctuation and paragraph breaks (no parser).

    A token starts a sentence after a paragraph break, or after sentence-final punctuation
    (with any closing quotes or brackets attached to it) when it begins with a capital letter
    or is an opening quote/bracket."""
    sent, out, prev_end = 0, [], False
    for tok in doc:
        if tok.i > 0 and not tok.is_space:
            prev = doc[tok.i - 1]
            attached = not prev.whitespace_ and not prev.is_space
            if prev_end and attached and (tok.text in _CLOSERS or tok.text in ("'", '"')):
                pass                                    # a closing quote: same sentence
            elif tok.is_sent_start or (prev_end and (tok.text[:1].isupper() or tok.text[:1] in _OPENERS)):
                sent += 1
        out.append(sent)
        if not tok.is_space:
            prev_end = (tok.is_punct and tok.text.endswith(_END_PUNCT)) or (prev_end and tok.text in _CLOSERS | {"'", '"'})
    return out


def promising_regions(doc, mentions) -> list[tuple[int, int, set[int]]]:
    """(start token, end token, promising pronoun token indices) of the regions to parse."""
    sent_of = rough_sentences(doc)
    if not len(doc):
        return []
    n_sents = sent_of[-1] + 1
    m_keys = [set() for _ in range(n_sents)]
    f_keys = [set() for _ in range(n_sents)]
    for m in mentions:
        k = sent_of[m.token_start]
        if m.gender == MASCULINE:
            m_keys[k].add(m.key_tokens)
        elif m.gender == FEMININE:
            f_keys[k].add(m.key_tokens)
    reach = MAX_SENTENCES - 1 + MARGIN
    span = MAX_SENTENCES + SLACK          # rough sentences a real window can cover
    spans: list[tuple[int, int, int]] = []      # (first sentence, last sentence, token)
    for tok in doc:
        gender = target_pronoun_gender(tok.text)
        if not gender:
            continue
        k = sent_of[tok.i]
        # every pattern puts both candidates in the pronoun's sentence or the one before
        own = m_keys if gender == MASCULINE else f_keys
        if len(set().union(*own[max(0, k - 1 - SLACK):k + 1 + SLACK])) < 2:
            continue
        # some window around the pronoun must hold two masculine and two feminine names
        if not any(len(set().union(*m_keys[lo:lo + span])) >= 2 and len(set().union(*f_keys[lo:lo + span])) >= 2
                   for lo in range(max(0, k - span + 1), k + 1)):
            continue
        spans.append((max(0, k - reach), min(n_sents - 1, k + reach), tok.i))
    if not spans:
        return []
    first_tok = {}
    last_tok = {}
    for i, k in enumerate(sent_of):
        first_tok.setdefault(k, i)
        last_tok[k] = i
    regions: list[list] = []
    for lo, hi, tok_i in sorted(spans):
        if regions and lo <= regions[-1][1] + 1:
            regions[-1][1] = max(regions[-1][1], hi)
            regions[-1][2].add(tok_i)
        else:
            regions.append([lo, hi, {tok_i}])
    return [(first_tok[lo], last_tok[hi] + 1, toks) for lo, hi, toks in regions]


def parsed_docs(nlp, chunks: list[tuple[int, str]], strategy: str, batch_size: int = 16):
    """For each chunk of a book yield ``(chunk offset, pass-A Doc of the chunk, parts)``;
    ``parts`` is a list of (book offset, parsed Doc, promising pronoun offsets in that Doc or
    None for "every pronoun"). Full: one part, the whole chunk. Prune: one part per region."""
    from pipeline.extract import person_mentions

    ner = nlp_mod.ner_components(nlp)
    parse = nlp_mod.parse_components(nlp)
    docs_a = run_components(nlp, (nlp.make_doc(text) for _, text in chunks), ner, batch_size)
    if strategy == "full":
        for (offset, _), doc in zip(chunks, run_components(nlp, docs_a, parse, batch_size)):
            yield offset, doc, [(offset, doc, None)]
        return
    for (offset, _), doc in zip(chunks, docs_a):
        regions = promising_regions(doc, person_mentions(doc))
        subdocs = [doc[s:e].as_doc() for s, e, _ in regions]
        parsed = list(run_components(nlp, iter(subdocs), parse, batch_size))
        parts = [(offset + doc[s].idx, sub, {doc[i].idx - doc[s].idx for i in toks})
                 for (s, e, toks), sub in zip(regions, parsed)]
        yield offset, doc, parts
