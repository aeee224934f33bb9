"""LitBank's own entity files (../shared) read, and their tokens found in the books as extract
reads them; hand-made files for the bad cases."""

from __future__ import annotations

import pytest

from pipeline.core import person_eval as pe
from pipeline.errors import InputError
from pipeline.formats.litbank import litbank_documents, read_litbank_entities


@pytest.mark.slow
@pytest.mark.shared
def test_the_development_half_reads_and_aligns(shared_dir):
    from pipeline.formats.books import read_book

    docs = litbank_documents(shared_dir / "reference" / "litbank-entities")
    assert len(docs) == 50
    gold = [read_litbank_entities(p) for p in docs]
    assert sum(1 for d in gold for m in d.mentions if m.type == "PER" and m.category == "PROP") == 1186
    corpus = shared_dir / "corpus" / "litbank"
    for d in gold[:3]:
        path = next(corpus.glob(d.doc_id.split("_")[0] + "_*.txt"))
        text = read_book(path, corpus).text
        lo = pe.locate_opening(d.sentences, text)
        spans, missed = pe.litbank_token_spans(d.sentences, text, max(0, lo - 40))
        assert missed == 0 and len(spans) == sum(len(s) for s in d.sentences)
        def letters(x):
            return "".join(c for c in x if c.isalnum())

        for m in d.mentions:
            a, b = spans[m.start][0], spans[m.end][1]
            assert letters(text[a:b]) == letters(m.text)


def test_bad_mention_lines(tmp_path):
    (tmp_path / "x_brat.txt").write_text("Mr. Holmes sat .\n", encoding="utf-8")
    ann = tmp_path / "x_brat.ann"
    ann.write_text("MENTION\tT1\t0\t0\t0\t1\tMr. Holmes\tPER\tPROP\nCOREF\tT1\tHolmes-0\n", encoding="utf-8")
    doc = read_litbank_entities(ann)
    assert doc.doc_id == "x" and doc.mentions[0].entity == "Holmes-0" and doc.sentences == [["Mr.", "Holmes", "sat", "."]]
    ann.write_text("MENTION\tT1\t0\t0\t0\t9\tMr. Holmes\tPER\tPROP\n", encoding="utf-8")
    with pytest.raises(InputError, match="row 1: mention outside the text"):
        read_litbank_entities(ann)
    ann.write_text("MENTION\tT1\t0\t0\t0\t1\tMr. Holmes\tPERSON\tPROP\n", encoding="utf-8")
    with pytest.raises(InputError, match="row 1"):
        read_litbank_entities(ann)


def test_scoring_counts_precision_recall_and_gender():
    gold = [pe.GoldSpan(0, 10, "Mr. Holmes", "PER", "PROP", "H"), pe.GoldSpan(20, 22, "he", "PER", "PRON", "H"),
            pe.GoldSpan(30, 34, "Kent", "GPE", "PROP", "K"), pe.GoldSpan(40, 44, "Jane", "PER", "PROP", "J")]
    sc = pe.score(gold, [(4, 10, "masculine", "Holmes"), (30, 34, "unknown", "Kent")], 0, 50)
    assert (sc.predicted, sc.right, dict(sc.wrong)) == (2, 1, {"GPE": 1})
    assert (sc.gold, sc.found, sc.misses) == (2, 1, ["Jane"])
    assert (sc.gendered_gold, sc.gender_right) == (1, 1)


def test_coreference_in_conll_layout_reads_as_mentions_by_cluster(tmp_path):
    from pipeline.formats.litbank import read_litbank_coref

    rows = [("Sir", "(0"), ("Walter", "0)"), ("sat", ""), (".", ""), (None, None),
            ("He", "(0)"), ("liked", ""), ("Kellynch", "(1)"), (".", "")]
    lines = ["#begin document (x_brat); part 0"]
    k = 0
    for word, coref in rows:
        if word is None:
            lines.append("")
            continue
        lines.append("\t".join(["x_brat", "0", str(k), word] + ["_"] * 8 + [coref]))
        k += 1
    lines.append("#end document")
    path = tmp_path / "x_brat.conll"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = read_litbank_coref(path)
    assert doc.doc_id == "x" and doc.sentences == [["Sir", "Walter", "sat", "."], ["He", "liked", "Kellynch", "."]]
    assert [(m.text, m.start, m.end, m.entity) for m in doc.mentions] == [
        ("Sir Walter", (0, 0), (0, 1), "0"), ("He", (1, 0), (1, 0), "0"), ("Kellynch", (1, 2), (1, 2), "1")]
    typed = pe.typed_from_coref(doc)
    assert [(m.type, m.category) for m in typed.mentions] == [("PER", "PROP"), ("PER", "PRON"), ("UNK", "PROP")]


@pytest.mark.parametrize("text,category", [
    ("Sir Walter Elliot", "PROP"), ("the second Sir Walter", "PROP"), ("Catherine de Bourgh", "PROP"),
    ("Sir John d'Urberville", "PROP"), ("OLIVER TWIST", "PROP"), ("her", "PRON"),
    ("the Doctor", "NOM"), ("her Ayah", "NOM"), ("mistress of Kellynch Hall", "NOM"),
    ("a man", "NOM"), ("the county of Gloucester", "NOM"), ("Mother", "NOM"), ("Ma’am", "NOM")])
def test_a_coreference_mention_s_category_from_its_words(text, category):
    assert pe.coref_category(text) == category


@pytest.mark.slow
@pytest.mark.shared
def test_the_coreference_of_the_development_half_types_most_gold_names(shared_dir):
    """The proxy against the truth: of the development half's gold named persons, most are
    typed PER/PROP from coreference alone, and few of its PER/PROP are not gold names."""
    from pipeline.formats.litbank import read_litbank_coref

    hit = gold_n = extra = 0
    for ann in litbank_documents(shared_dir / "reference" / "litbank-entities"):
        gold = read_litbank_entities(ann)
        proxy = pe.typed_from_coref(read_litbank_coref(
            shared_dir / "reference" / "litbank-coref" / ann.name.replace(".ann", ".conll")))
        real = {(m.start, m.end) for m in gold.mentions if (m.type, m.category) == ("PER", "PROP")}
        got = {(m.start, m.end) for m in proxy.mentions if (m.type, m.category) == ("PER", "PROP")}
        gold_n += len(real)
        hit += len(real & got)
        extra += len(got - real)
    assert gold_n == 1186 and hit >= 1000 and extra <= 50, (hit, extra)
