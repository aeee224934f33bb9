"""Generate stage on GAP-format input: qualification, gold labels, bad input, and an
integration run on part of ../shared/reference/gap/gap-test.tsv (skipped when absent)."""

from __future__ import annotations

import itertools

import pandas as pd
import pytest

from pipeline.core.gap_rows import (REJECT_AB_MISSING, REJECT_AB_PERSONS, REJECT_FEWER, REJECT_UNGENDERED, gap_instance,
                                    positional_pattern)
from pipeline.core.instances import check_instance
from pipeline.core.quadruples import check_offsets, quadruple
from pipeline.cli import main
from pipeline.formats.gap_tsv import GAP_COLUMNS, read_gap_tsv
from pipeline.vocab import ID_SUFFIX, split_id

T1 = ("Emma Woodhouse met John Knightley and Harriet Smith at the old house. Later Robert Martin "
      "told Harriet that she was welcome, and Emma agreed with her.")
T2 = ("Mary Smith called Anne Baker while George Brown and Henry Clark waited outside. "
      "Anne said that she would come with her sister.")
T3 = "Mary Smith called Anne Baker while George Brown waited outside. Anne said that she would come."
T4 = "Mary Smith called Anne Baker while George Brown and Zqxv Plorth waited outside. Anne said that she would come."


def _row(id_, text, pron, pron_from, a, a_from, a_coref, b, b_from, b_coref):
    return {"ID": id_, "Text": text, "Pronoun": pron, "Pronoun-offset": str(text.index(pron, text.index(pron_from))),
            "A": a, "A-offset": str(text.index(a, text.index(a_from))), "A-coref": a_coref,
            "B": b, "B-offset": str(text.index(b, text.index(b_from))), "B-coref": b_coref,
            "URL": f"http://example.org/{id_}"}


ROWS = [
    _row("r1", T1, "she", "she was", "Emma Woodhouse", "Emma", "FALSE", "Harriet", "Harriet that", "TRUE"),
    _row("r2", T2, "she", "she", "Mary Smith", "Mary", "FALSE", "Anne", "Anne said", "TRUE"),
    _row("r3", T3, "she", "she", "Mary Smith", "Mary", "FALSE", "Anne", "Anne said", "TRUE"),
    _row("r4", T4, "she", "she", "Mary Smith", "Mary", "FALSE", "Anne", "Anne said", "TRUE"),
    _row("r5", T2, "she", "she", "George Brown", "George", "FALSE", "Anne", "Anne said", "TRUE"),
]


def write_tsv(path, rows, columns=GAP_COLUMNS):
    lines = ["\t".join(columns)] + ["\t".join(str(r.get(c, "")) for c in columns) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_gap_instance_qualification(nlp):
    reasons = {}
    for r in ROWS:
        row = {**r, **{k: int(r[k]) for k in ("Pronoun-offset", "A-offset", "B-offset")}}
        inst, reason, _ = gap_instance(row, nlp(row["Text"]))
        reasons[r["ID"]] = reason
        if inst is not None:
            check_instance(inst)
    assert reasons == {"r1": None, "r2": None, "r3": REJECT_FEWER, "r4": REJECT_UNGENDERED,
                       "r5": REJECT_AB_PERSONS}



T5 = ("Mary Smith called Anne Baker while George Brown and Henry Clark waited outside. "
      "Anne said that she would ride in Mary Smith's carriage.")


@pytest.mark.parametrize("b", ["Mary Smith's", "Mary Smith\u2019s"])
def test_gap_instance_candidate_with_possessive(nlp, b):
    """Counter-GAP writes a candidate with its possessive ("John Abdy's", "Colonel Brandon's"):
    the span is trimmed as an annotator's highlight is, then found in the name mention."""
    text = T5.replace("Mary Smith's", b)
    row = _row("p1", text, "she", "she", "Anne", "Anne said", "TRUE", b, b, "FALSE")
    row = {**row, **{k: int(row[k]) for k in ("Pronoun-offset", "A-offset", "B-offset")}}
    inst, reason, _ = gap_instance(row, nlp(text))
    assert reason is None
    assert (inst["b"], inst["b_offset"]) == ("Mary Smith", text.index(b))
    row["B"], row["B-offset"] = "carriage", text.index("carriage")
    assert gap_instance(row, nlp(text))[1] == REJECT_AB_MISSING

def test_gap_conversion_cli(tmp_path, capsys):
    src = write_tsv(tmp_path / "mini.tsv", ROWS)
    out = tmp_path / "out"
    assert main(["generate", "--gap-tsv", str(src), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "qualified         2" in printed
    assert f"1  {REJECT_FEWER}" in printed and f"1  {REJECT_UNGENDERED}" in printed
    # every refused row listed, read back with the csv module as a user's tool would
    import csv

    with open(out / "rejected.tsv", encoding="utf-8", newline="") as fh:
        refused = {r["ID"]: r for r in csv.DictReader(fh, delimiter="\t")}
    assert list(refused) == ["r3", "r4", "r5"]
    assert refused["r5"]["reason"] == REJECT_AB_PERSONS
    assert refused["r3"]["reason"] == REJECT_FEWER
    assert refused["r3"]["persons"] == "Mary Smith (feminine); Anne Baker / Anne (feminine); George Brown (masculine)"
    assert refused["r4"]["reason"] == REJECT_UNGENDERED and "Zqxv Plorth (ungendered)" in refused["r4"]["persons"]
    rows, bad = read_gap_tsv(out / "quadruples.tsv")
    assert bad == 0
    assert [r["ID"] for r in rows] == ["r1", "r1-control", "r1-swap-1", "r1-swap-2",
                                       "r2", "r2-control", "r2-swap-1", "r2-swap-2"]
    by_id = {r["ID"]: r for r in rows}
    assert by_id["r1"]["Text"] == T1
    # "Harriet" (second mention) was missed by NER and found by string match
    # each person is written in one form, their shortest in the context (docs/generate.md)
    assert by_id["r1-swap-1"]["Text"] == (
        "John Knightley met Emma and Robert Martin at the old house. Later Harriet told "
        "Robert Martin that he was welcome, and John Knightley agreed with him.")
    assert (by_id["r1-swap-1"]["A"], by_id["r1-swap-1"]["B"]) == ("John Knightley", "Robert Martin")
    assert by_id["r1-control"]["Text"] == (
        "Harriet met Robert Martin and Emma at the old house. Later John Knightley "
        "told Emma that she was welcome, and Harriet agreed with her.")
    for r in rows:   # gold labels kept for all four variants
        assert (r["A-coref"], r["B-coref"]) == (False, True)
        assert r["URL"] == f"http://example.org/{r['ID'].split('-')[0]}"
    df = pd.read_parquet(out / "quadruples.parquet")
    assert set(df["source"]) == {"gap-tsv:mini.tsv"} and set(df["instance_id"]) == {""}
    assert set(df.loc[df.variant.str.startswith("swap"), "pronoun_gender"]) == {"masculine"}


def test_a_quadruple_file_is_generated_from_its_originals(tmp_path, capsys):
    """Rows N-control, N-swap-1 ... are not taken for originals (their IDs would collide)."""
    variant = {**ROWS[0], "ID": "r1-control"}
    src = write_tsv(tmp_path / "quads.tsv", [ROWS[0], variant])
    assert main(["generate", "--gap-tsv", str(src), "--out", str(tmp_path / "out")]) == 0
    assert "1 are counterfactual variants" in capsys.readouterr().out
    rows, _ = read_gap_tsv(tmp_path / "out" / "quadruples.tsv")
    assert [r["ID"] for r in rows] == ["r1", "r1-control", "r1-swap-1", "r1-swap-2"]


@pytest.mark.parametrize("breakage, message", [
    (lambda rows: rows[1].update({"A-offset": "x7"}), "row 3: A-offset is not an integer"),
    (lambda rows: rows[0].update({"B-offset": "3"}), "row 2: B-offset 3 does not point at B"),
])
def test_gap_bad_rows(tmp_path, capsys, breakage, message):
    rows = [dict(r) for r in ROWS]
    breakage(rows)
    src = write_tsv(tmp_path / "bad.tsv", rows)
    out = tmp_path / "out"
    assert main(["generate", "--gap-tsv", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert not out.exists() or not any(out.iterdir())
    assert main(["generate", "--gap-tsv", str(src), "--out", str(out), "--skip-bad-rows"]) == 0
    captured = capsys.readouterr()
    assert "warning:" in captured.err and "1 bad rows skipped" in captured.out
    assert len(read_gap_tsv(out / "quadruples.tsv")[0]) == 4


def test_gap_missing_column(tmp_path, capsys):
    src = write_tsv(tmp_path / "cols.tsv", ROWS, [c for c in GAP_COLUMNS if c != "B-coref"])
    assert main(["generate", "--gap-tsv", str(src), "--out", str(tmp_path / "out")]) == 2
    assert "missing column(s) B-coref" in capsys.readouterr().err
    assert not (tmp_path / "out" / "quadruples.parquet").exists()


@pytest.mark.slow
@pytest.mark.shared
def test_gap_test_file_head(shared_dir, nlp):
    """The first 300 rows of gap-test.tsv: every qualified example yields a consistent
    quadruple that keeps the file's text and gold labels."""
    rows, _ = read_gap_tsv(shared_dir / "reference" / "gap" / "gap-test.tsv")
    rows = rows[:300]
    docs = nlp.pipe((r["Text"] for r in rows), batch_size=64)
    qualified, reasons = 0, set()
    for row, doc in zip(rows, docs):
        inst, reason, _ = gap_instance(row, doc)
        if inst is None:
            reasons.add(reason)
            continue
        qualified += 1
        check_instance(inst)
        quad, _ = quadruple(inst, row["ID"], "gap-tsv:gap-test.tsv", row["URL"], row["A-coref"], row["B-coref"])
        assert quad[0]["text"] == row["Text"]
        # A and B of the original contain the file's A and B (a title may be added)
        assert row["A"] in quad[0]["a"] and row["B"] in quad[0]["b"]
        for r in quad:
            check_offsets(r)
            assert (r["a_coref"], r["b_coref"]) == (row["A-coref"], row["B-coref"])
    assert qualified >= 1
    assert REJECT_FEWER in reasons and REJECT_UNGENDERED in reasons


def test_positional_pattern():
    assert [positional_pattern(p, 10, 20) for p in (30, 15, 5)] == ["FINALPRO", "MEDIALPRO", "INITIALPRO"]
    assert list(itertools.chain(ID_SUFFIX.values())) == ["", "-control", "-swap-1", "-swap-2"]


@pytest.mark.slow
@pytest.mark.shared
def test_published_counter_gap_dev_file(shared_dir, tmp_path, capsys):
    """The published Counter-GAP quadruples (csv-quoted, with a Book column) are read row by
    row, and the Book column is kept in the output."""
    import csv

    src = shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    with open(src, encoding="utf-8", newline="") as fh:
        published = list(csv.DictReader(fh, delimiter="\t"))
    out = tmp_path / "out"
    assert main(["generate", "--gap-tsv", str(src), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"GAP rows          {len(published)} read, 0 bad rows skipped" in printed
    rows, _ = read_gap_tsv(out / "quadruples.tsv")
    books = {r["ID"]: r["Book"] for r in published}
    by_length = sorted(books, key=len, reverse=True)

    def book_of(row_id: str) -> str:   # output ids are published ids plus a variant suffix
        return books[next(k for k in by_length if row_id == k or row_id.startswith(k + "-"))]

    assert rows and all(r["Book"] == book_of(r["ID"]) for r in rows)
    assert "225 are counterfactual variants" in printed
    ids = [r["ID"] for r in rows]
    assert len(ids) == len(set(ids)) and all(split_id(i)[0] in books for i in ids)
    originals = [r for r in rows if r["ID"] in books and split_id(r["ID"])[1] == "original"]
    assert len(originals) >= 60          # of the 75 published originals (67 on 2026-11-22)
