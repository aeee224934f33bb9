"""Gold labels from CoNLL-2012 clusters (pipeline/core/label.py, pipeline/commands/label.py) on a
tiny hand-made LitBank-style document."""

from __future__ import annotations

import pytest

from pipeline.core.label import CorefDocument, gold_labels, label_records, label_summary, locate, wilson_interval

# "Mr. Bennet told Jane that Lydia had gone , and she wept . Kitty laughed ."
WORDS = ["Mr.", "Bennet", "told", "Jane", "that", "Lydia", "had", "gone", ",", "and", "she", "wept", ".",
         "Kitty", "laughed", "."]
# clusters: Bennet (0-1); Jane (3) + she (10); Lydia (5); Kitty (13)
CLUSTERS = [[(0, 1)], [(3, 3), (10, 10)], [(5, 5)], [(13, 13)]]

# 13-column LitBank layout: doc, part, token number, word, eight "_" columns, coreference
CONLL = """#begin document (tiny_brat); part 000
tiny_brat\t0\t0\tMr.\t_\t_\t_\t_\t_\t_\t_\t_\t(0
tiny_brat\t0\t1\tBennet\t_\t_\t_\t_\t_\t_\t_\t_\t0)
tiny_brat\t0\t2\ttold\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t3\tJane\t_\t_\t_\t_\t_\t_\t_\t_\t(1)
tiny_brat\t0\t4\tthat\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t5\tLydia\t_\t_\t_\t_\t_\t_\t_\t_\t(2)
tiny_brat\t0\t6\thad\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t7\tgone\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t8\t,\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t9\tand\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t10\tshe\t_\t_\t_\t_\t_\t_\t_\t_\t(1)
tiny_brat\t0\t11\twept\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t12\t.\t_\t_\t_\t_\t_\t_\t_\t_\t_

tiny_brat\t0\t0\tKitty\t_\t_\t_\t_\t_\t_\t_\t_\t(3)
tiny_brat\t0\t1\tlaughed\t_\t_\t_\t_\t_\t_\t_\t_\t_
tiny_brat\t0\t2\t.\t_\t_\t_\t_\t_\t_\t_\t_\t_

#end document
"""


def _doc(clusters=CLUSTERS):
    return CorefDocument("1342_tiny_brat", WORDS, [list(c) for c in clusters])


def _inst(text, a, b, pronoun="she", book_id="1342_tiny"):
    return {"text": text, "book_id": book_id, "pronoun": pronoun, "pronoun_offset": text.index(" she ") + 1,
            "a": a, "a_offset": text.index(a), "b": b, "b_offset": text.index(b)}


TEXT = "Mr. Bennet told Jane that Lydia had gone, and she wept."


def test_label_a():
    got = gold_labels(_inst(TEXT, "Jane", "Lydia"), [_doc()])
    assert got == {"label": "A", "a_coref": True, "b_coref": False, "coref_document": "1342_tiny_brat"}


def test_label_b():
    assert gold_labels(_inst(TEXT, "Lydia", "Jane"), [_doc()])["label"] == "B"


def test_label_neither():
    # the pronoun's cluster holds Jane; the candidates are Lydia and Mr. Bennet
    assert gold_labels(_inst(TEXT, "Lydia", "Mr. Bennet"), [_doc()])["label"] == "neither"


def test_label_both():
    merged = [[(0, 1)], [(3, 3), (5, 5), (10, 10)], [(13, 13)]]    # Jane and Lydia in one cluster
    got = gold_labels(_inst(TEXT, "Jane", "Lydia"), [_doc(merged)])
    assert (got["label"], got["a_coref"], got["b_coref"]) == ("both", True, True)


def test_unlabelled_outside_the_annotated_text():
    text = "Mr. Collins told Jane that Lydia had gone, and she wept."
    got = gold_labels(_inst(text, "Jane", "Lydia"), [_doc()])
    assert got == {"label": "unlabelled", "a_coref": None, "b_coref": None, "coref_document": ""}


def test_locate_normalises_quotes_dashes_and_italics():
    doc = CorefDocument("d", ["``", "Oh", "--", "_dear_", "!", "''", "said", "Jane"], [])
    where = locate("“Oh—dear!” said Jane", [doc])
    assert where is not None
    assert where.token_spans[7] == (16, 20)                    # "Jane"
    assert where.token_spans[0] == (0, 1)                      # the opening quote


def test_quadruple_variants_copy_the_original_labels():
    orig = dict(_inst(TEXT, "Jane", "Lydia"), variant="original", quadruple_id="7")
    swapped = TEXT.replace("Jane", "Tom").replace("Lydia", "Fred").replace("she", "he")
    swap = {"text": swapped, "pronoun": "he", "pronoun_offset": swapped.index(" he ") + 1, "a": "Tom",
            "a_offset": swapped.index("Tom"), "b": "Fred", "b_offset": swapped.index("Fred"),
            "variant": "swap-1", "quadruple_id": "7"}
    out = label_records([swap, orig], [_doc()])
    assert [(r["variant"], r["label"], r["a_coref"], r["b_coref"]) for r in out] == [
        ("swap-1", "A", True, False), ("original", "A", True, False)]


def test_wilson_interval():
    lo, hi = wilson_interval(45, 50)
    assert abs(lo - 0.7864) < 1e-4 and abs(hi - 0.9565) < 1e-4   # 45/50 by hand: 0.7864, 0.9565
    assert wilson_interval(0, 0) is None
    s = label_summary(["A", "B", "neither", "unlabelled", "both"])
    assert s["counts"]["unlabelled"] == 1 and s["labelled"] == 4 and s["valid"] == 2 and s["precision"] == 0.5


def test_label_command_on_a_litbank_style_file(tmp_path):
    """The command end to end: instances.parquet + a 13-column CoNLL file -> labelled.parquet."""
    from pipeline.formats import schemas
    from pipeline.formats.files import read_json
    from pipeline.formats.tables import read_table, write_records
    from pipeline.commands import label as stage

    conll = tmp_path / "1342_tiny_brat.conll"
    conll.write_text(CONLL, encoding="utf-8")
    rows = []
    for k, (text, a, b) in enumerate([(TEXT, "Jane", "Lydia"), (TEXT, "Lydia", "Mr. Bennet"),
                                      ("Someone else told Jane that Lydia had gone, and she wept.", "Jane", "Lydia")]):
        row = {name: None for name in schemas.INSTANCES.names}
        row.update(_inst(text, a, b), instance_id=f"1342_tiny-{k}")
        rows.append(row)
    inst = tmp_path / "run"
    inst.mkdir()
    write_records(rows, inst / "instances.parquet", schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "labels"
    args = type("A", (), {"instances": str(inst), "coref": str(tmp_path), "out": str(out)})()
    assert stage.run(args) == 0
    table = read_table(out / "labelled.parquet").to_pylist()
    assert [(r["instance_id"], r["label"], r["a_coref"], r["b_coref"]) for r in table] == [
        ("1342_tiny-0", "A", True, False), ("1342_tiny-1", "neither", False, False),
        ("1342_tiny-2", "unlabelled", None, None)]
    summary = read_json(out / "label_summary.json")
    assert summary["counts"]["A"] == 1 and summary["labelled"] == 2 and summary["precision"] == 0.5


def test_label_command_bad_input(tmp_path):
    from pipeline.errors import InputError
    from pipeline.commands import label as stage

    args = type("A", (), {"instances": str(tmp_path / "nope.parquet"), "coref": str(tmp_path), "out": str(tmp_path / "o")})()
    with pytest.raises(InputError):
        stage.run(args)
    assert not (tmp_path / "o").exists()


def test_context_running_past_the_annotated_end():
    import pipeline.core.label as core

    doc = CorefDocument("end", WORDS[:13], [list(c) for c in CLUSTERS[:3]])   # ends after "wept ."
    longer = TEXT + " Then Kitty came in and Tom followed her."
    old = core.MIN_OVERLAP
    core.MIN_OVERLAP = 20
    try:
        got = gold_labels(_inst(longer, "Jane", "Lydia"), [doc])
        assert got["label"] == "A"
        inst = _inst(longer, "Jane", "Kitty")          # Kitty lies after the annotated end
        assert gold_labels(inst, [doc])["label"] == "unlabelled"
        shifted = "Mr. Collins said that " + TEXT      # does not start inside the document
        assert gold_labels(_inst(shifted, "Jane", "Lydia"), [doc])["label"] == "unlabelled"
    finally:
        core.MIN_OVERLAP = old
