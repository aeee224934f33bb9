"""placeholder"""
from __future__ import annotations


def book_mentions(nlp, chunks, evidence):
    from pipeline.core.extract import person_mentions
    from pipeline.nlp.prune import run_components
    from pipeline.nlp import load as nlp_mod
    comps = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    docs = run_components(nlp, (nlp.make_doc(t) for _, t in chunks), comps)
    out = []
    for (off, _), doc in zip(chunks, docs):
        for m in person_mentions(doc):
            m.start += off
            m.end += off
            out.append(m)
    return out
