"""Docs as en_core_web_sm's own tokenizer leaves them (English defaults: "thanks.--Clara" and
"table.--Mrs." are one token each), run through the project's pipeline. The project's tokenizer
splits those (pipeline.nlp.load.STOP_DASH_INFIXES); the rules for glued tokens still serve a
model whose tokenizer glues, and their tests build such Docs here."""

from __future__ import annotations


def glued_doc(nlp, text: str):
    import spacy
    from spacy.tokens import Doc

    plain = spacy.blank("en").tokenizer(text)
    doc = Doc(nlp.vocab, words=[t.text for t in plain], spaces=[bool(t.whitespace_) for t in plain])
    return nlp(doc)
