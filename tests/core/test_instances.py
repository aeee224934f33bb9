"""The instance built in one place (core.instances.build_instance) and completed by extraction
(core.instances.completed): the record has every field of the typed Instance, token fields read
off the spaCy tokens, and the mentions NER missed are added when the instance stays sound."""

from __future__ import annotations

from pipeline.core.instances import build_instance, check_instance, completed
from pipeline.formats.records import Instance
from pipeline.lang.pronouns import FEMININE as F, MASCULINE as M
from tests.core.generate_helpers import build_instance as helper_instance, names_of


def test_build_instance_reads_token_fields_off_the_tokens(nlp):
    doc = nlp("  Emma saw Tom. She smiled.")
    toks = [t for t in doc if t.text.strip()]
    pron = next(t for t in toks if t.text == "She")
    inst = build_instance(text=doc.text, toks=toks, start_of=lambda t: t.idx, pron=pron, pronoun_gender=F,
                          names=[], book_id="b")
    assert tuple(inst) == Instance.field_names()
    assert inst["tokens"] == [t.text for t in toks]
    assert all(doc.text[s:s + len(w)] == w for w, s in zip(inst["tokens"], inst["token_starts"]))
    assert inst["tokens"][inst["pronoun_token"]] == "She" and inst["pronoun_offset"] == doc.text.index("She")
    assert inst["pronoun_tag"] == pron.tag_ and len(inst["token_heads"]) == len(toks)
    assert inst["book_id"] == "b" and inst["book_start"] is None and inst["model"] is None


def test_completed_adds_the_mentions_ner_missed(nlp):
    text = "Emma met Anne, Tom and Frank. Anne laughed, and Emma told her that she was wrong."
    inst = helper_instance(
        nlp, text,
        {"C1": ("Emma", F, ["Emma"]), "C2": ("Anne", F, ["Anne"]),
         "O1": ("Tom", M, ["Tom"]), "O2": ("Frank", M, ["Frank"])},
        ("she", 0), ("C1", 1), ("C2", 1))
    inst["names"][0]["mentions"].pop(0)                 # NER missed the first "Emma"
    inst["names"][0]["role"], inst["names"][1]["role"] = "C2", "C1"   # Anne's mention now comes first
    inst["a_name"], inst["b_name"] = "C2", "C1"
    check_instance(inst)
    done, added = completed(inst)
    assert added == 1
    check_instance(done)
    assert names_of(done)["C1"] == ["Emma", "Emma"] and (done["a_name"], done["b_name"]) == ("C1", "C2")
    again, more = completed(done)                       # nothing left to add
    assert more == 0 and again == done
