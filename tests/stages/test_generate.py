"""Generate command on extract-style input: the instances file or the extract directory,
bad instances, word lists given on the command line, the variant without title periods."""

from __future__ import annotations

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.formats import schemas
from pipeline.formats.gap_tsv import read_gap_tsv
from pipeline.formats.tables import write_records
from tests.core.generate_helpers import build_instance

F, M = "feminine", "masculine"


def _two_instances(nlp):
    a = build_instance(
        nlp, "Mrs. Goddard met Mr. Knightley and Harriet. Tom said that she was late.",
        {"C1": ("Goddard", F, ["Mrs. Goddard"]), "C2": ("Harriet", F, ["Harriet"]),
         "O1": ("Knightley", M, ["Mr. Knightley"]), "O2": ("Tom", M, ["Tom"])},
        ("she", 0), ("C1", 0), ("C2", 0), instance_id="158-1200")
    b = build_instance(
        nlp, "Tom met Frank, Emma and Anne. The horse was his, and he rode it.",
        {"C1": ("Tom", M, ["Tom"]), "C2": ("Frank", M, ["Frank"]),
         "O1": ("Emma", F, ["Emma"]), "O2": ("Anne", F, ["Anne"])},
        ("he", 0), ("C1", 0), ("C2", 0), pattern="MEDIALPRO", instance_id="158-3400")
    return [a, b]


def test_cli_on_instances(nlp, tmp_path, capsys):
    src = tmp_path / "instances.parquet"
    write_records(_two_instances(nlp), src, schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "quadruples        2 (8 instances)" in printed
    assert "she -> he" in printed and "name mentions swapped: 24" in printed
    df = pd.read_parquet(out / "quadruples.parquet")
    assert list(df.columns) == schemas.QUADRUPLES.names
    assert list(df["id"]) == ["158-1200", "158-1200-control", "158-1200-swap-1", "158-1200-swap-2",
                              "158-3400", "158-3400-control", "158-3400-swap-1", "158-3400-swap-2"]
    assert df["a_coref"].isna().all() and df["b_coref"].isna().all()
    assert set(df["url"]) == {"https://www.gutenberg.org/ebooks/999"}
    # the GAP TSV export passes the project's own GAP validation (offsets point at strings)
    rows, bad = read_gap_tsv(out / "quadruples.tsv")
    assert bad == 0 and len(rows) == 8
    assert rows[2]["Text"] == "Mr. Knightley met Mrs. Goddard and Tom. Harriet said that he was late."
    assert rows[2]["Book"] == "A Test Book" and rows[2]["A-coref"] is None


def test_cli_bad_instance_exits_2_and_writes_nothing(nlp, tmp_path, capsys):
    insts = _two_instances(nlp)
    insts[1]["a_offset"] += 1
    src = tmp_path / "instances.parquet"
    write_records(insts, src, schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "row 2" in err
    assert not (out / "quadruples.parquet").exists() and not (out / "quadruples.tsv").exists()
    assert main(["generate", "--instances", str(src), "--out", str(out), "--skip-bad-rows"]) == 0
    assert "row 2" in capsys.readouterr().err      # a logged warning naming the row
    assert len(pd.read_parquet(out / "quadruples.parquet")) == 4


def test_cli_missing_input(tmp_path, capsys):
    assert main(["generate", "--instances", str(tmp_path / "nope.parquet"), "--out", str(tmp_path)]) == 2
    assert "file not found" in capsys.readouterr().err




# ------------------------------------------------------------------ new options --------

def _titled_instance(nlp):
    return build_instance(
        nlp, "Mrs. Goddard met Mr. Knightley and Harriet. Tom said, sir, that she was late.",
        {"C1": ("Goddard", F, ["Mrs. Goddard"]), "C2": ("Harriet", F, ["Harriet"]),
         "O1": ("Knightley", M, ["Mr. Knightley"]), "O2": ("Tom", M, ["Tom"])},
        ("she", 0), ("C1", 0), ("C2", 0), instance_id="158-1200")


def test_instances_takes_the_extract_directory(nlp, tmp_path, capsys):
    extract_out = tmp_path / "extract"
    extract_out.mkdir()
    write_records(_two_instances(nlp), extract_out / "instances.parquet", schemas.INSTANCES, fill_missing=True)
    assert main(["generate", "--instances", str(extract_out), "--out", str(tmp_path / "o")]) == 0
    assert len(pd.read_parquet(tmp_path / "o" / "quadruples.parquet")) == 8
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["generate", "--instances", str(empty), "--out", str(tmp_path / "o2")]) == 2
    assert "no instances.parquet in this directory" in capsys.readouterr().err


def test_gendered_words_option(nlp, tmp_path, capsys):
    src = tmp_path / "instances.parquet"
    write_records([_titled_instance(nlp)], src, schemas.INSTANCES, fill_missing=True)
    plain = tmp_path / "address.txt"
    plain.write_text("# direction: one-way\nsir\tma'am\n", encoding="utf-8")
    # only the given list: "Mrs." and "Mr." are not flipped as words, "sir" is; pronouns always
    assert main(["generate", "--instances", str(src), "--out", str(tmp_path / "a"), "--gendered-words", str(plain)]) == 0
    assert f"gendered words    {plain}" in capsys.readouterr().out
    df = pd.read_parquet(tmp_path / "a" / "quadruples.parquet").set_index("variant")
    assert df.loc["swap-1", "text"] == "Mr. Knightley met Mrs. Goddard and Tom. Harriet said, ma'am, that he was late."
    # the built-in list by default: "sir" -> "madam"
    assert main(["generate", "--instances", str(src), "--out", str(tmp_path / "b")]) == 0
    df = pd.read_parquet(tmp_path / "b" / "quadruples.parquet").set_index("variant")
    assert df.loc["swap-1", "text"] == "Mr. Knightley met Mrs. Goddard and Tom. Harriet said, madam, that he was late."
    bad = tmp_path / "bad.txt"
    bad.write_text("sir ma'am\n", encoding="utf-8")
    assert main(["generate", "--instances", str(src), "--out", str(tmp_path / "c"), "--gendered-words", str(bad)]) == 2
    assert "bad.txt, row 1: expected two words" in capsys.readouterr().err
    assert not (tmp_path / "c").exists()


def test_no_title_period_variant(nlp, tmp_path, capsys):
    src = tmp_path / "instances.parquet"
    write_records([_titled_instance(nlp)], src, schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out), "--no-title-period"]) == 0
    dot = pd.read_parquet(out / "quadruples.parquet").set_index("variant")
    nodot = pd.read_parquet(out / "quadruples-nodot.parquet").set_index("variant")
    assert nodot.loc["original", "text"] == "Mrs Goddard met Mr Knightley and Harriet. Tom said, sir, that she was late."
    assert nodot.loc["swap-1", "text"] == "Mr Knightley met Mrs Goddard and Tom. Harriet said, madam, that he was late."
    for v in ("original", "control", "swap-1", "swap-2"):
        d, n = dot.loc[v], nodot.loc[v]
        removed = d["text"][:d["pronoun_offset"]].count(". ") - n["text"][:n["pronoun_offset"]].count(". ")
        assert n["pronoun_offset"] == d["pronoun_offset"] - removed
        for x in ("pronoun", "a", "b"):
            assert n["text"][n[f"{x}_offset"]:n[f"{x}_offset"] + len(n[x])] == n[x]
            assert n[x] == d[x].replace(".", "")
    # the GAP TSV of the variant reads back with every offset right
    rows, bad = read_gap_tsv(out / "quadruples-nodot.tsv")
    assert bad == 0 and rows[0]["A"] == "Mrs Goddard" and rows[0]["A-offset"] == 0 and rows[0]["B-offset"] == 33
    # any dataset of ours: --dataset FILE --no-title-period (Parquet, or a GAP TSV)
    assert main(["generate", "--dataset", str(out / "quadruples.tsv"), "--no-title-period", "--out", str(tmp_path / "d")]) == 0
    again, _ = read_gap_tsv(tmp_path / "d" / "quadruples-nodot.tsv")
    assert [r["Text"] for r in again] == [r["Text"] for r in rows]
    assert [(r["A-offset"], r["B-offset"], r["Pronoun-offset"]) for r in again] == \
        [(r["A-offset"], r["B-offset"], r["Pronoun-offset"]) for r in rows]
    assert main(["generate", "--dataset", str(out / "quadruples.parquet"), "--no-title-period", "--out", str(tmp_path / "e")]) == 0
    assert pd.read_parquet(tmp_path / "e" / "quadruples-nodot.parquet")["text"].tolist() == nodot["text"].tolist()
    assert main(["generate", "--dataset", str(out / "quadruples.tsv"), "--out", str(tmp_path / "f")]) == 2
    assert "--dataset is only used with --no-title-period" in capsys.readouterr().err


def test_a_failing_guard_is_a_one_line_error_and_nothing_is_written(nlp, tmp_path, capsys, monkeypatch):
    from pipeline.core import quadruples as core      # quadruple() checks every row's offsets

    src = tmp_path / "instances.parquet"
    write_records(_two_instances(nlp), src, schemas.INSTANCES, fill_missing=True)
    real = core.check_offsets

    def broken(row):        # the guard fires on the second quadruple
        if row["quadruple_id"] == "158-3400":
            raise core.GenerateError(f"{row['id']}: a offset 3 does not point at 'Tom'")
        real(row)

    monkeypatch.setattr(core, "check_offsets", broken)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "error: " in err and "cannot generate quadruple 158-3400" in err
    assert not (out / "quadruples.parquet").exists() and not (out / "quadruples.tsv").exists()
    assert main(["generate", "--instances", str(src), "--out", str(out), "--skip-bad-rows"]) == 0
    assert len(pd.read_parquet(out / "quadruples.parquet")) == 4


def test_recheck_drops_a_quadruple_with_a_fifth_person(nlp, tmp_path, capsys):
    insts = _two_instances(nlp)
    insts.append(build_instance(
        nlp, "Mrs. Goddard met Mr. Knightley and Harriet. Tom said to Lydia that she was late.",
        {"C1": ("Goddard", F, ["Mrs. Goddard"]), "C2": ("Harriet", F, ["Harriet"]),
         "O1": ("Knightley", M, ["Mr. Knightley"]), "O2": ("Tom", M, ["Tom"])},
        ("she", 0), ("C1", 0), ("C2", 0), instance_id="158-5600"))
    src = tmp_path / "instances.parquet"
    write_records(insts, src, schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "re-check          3 quadruples through the person detection again, 2 kept, 1 dropped:" in printed
    assert "     1  a person that is none of the four appears" in printed
    assert "quadruples        2 (8 instances)" in printed
    df = pd.read_parquet(out / "quadruples.parquet")
    assert "158-5600" not in set(df["quadruple_id"])
    import json

    report = json.loads((out / "recheck.json").read_text())
    assert report["checked"] == 3 and report["kept"] == 2
    assert report["dropped"] == {"a person that is none of the four appears": 1}
    assert report["quadruples"] == [{"quadruple_id": "158-5600", "variant": "original",
                                     "reason": "a person that is none of the four appears", "detail": "Lydia"}]
    # --no-recheck keeps it and writes no report
    out2 = tmp_path / "out2"
    assert main(["generate", "--instances", str(src), "--out", str(out2), "--no-recheck"]) == 0
    assert "re-check          off (--no-recheck)" in capsys.readouterr().out
    assert len(pd.read_parquet(out2 / "quadruples.parquet")) == 12
    assert not (out2 / "recheck.json").exists()


def test_recheck_applies_a_cast_file(nlp, tmp_path, capsys):
    """--cast: a form the researcher marks as no person is not found as a person in the
    re-check, so the quadruple that swapped it is dropped; a bad cast file stops the run."""
    insts = _two_instances(nlp)
    src = tmp_path / "instances.parquet"
    write_records(insts, src, schemas.INSTANCES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["generate", "--instances", str(src), "--out", str(out)]) == 0
    kept = set(pd.read_parquet(out / "quadruples.parquet")["quadruple_id"])
    assert len(kept) == 2
    first = insts[0]
    name = "Mrs. Goddard"           # only in the first quadruple ("Tom" is in both)
    cast = tmp_path / "cast.tsv"
    cast.write_text(f"{first['book_id']}\t{name}\tnot-a-person\n", encoding="utf-8")
    capsys.readouterr()
    out2 = tmp_path / "out2"
    assert main(["generate", "--instances", str(src), "--out", str(out2), "--cast", str(cast)]) == 0
    left = set(pd.read_parquet(out2 / "quadruples.parquet")["quadruple_id"])
    assert left == {"158-3400"}
    assert "a swapped name is not found as a person" in capsys.readouterr().out
    cast.write_text(f"{first['book_id']}\t{name}\tmaybe\n", encoding="utf-8")
    assert main(["generate", "--instances", str(src), "--out", str(tmp_path / "out3"), "--cast", str(cast)]) == 2
    assert "row 1: gender must be one of" in capsys.readouterr().err


@pytest.mark.slow
def test_recheck_consults_the_books_cast_beside_the_instances(tmp_path, capsys):
    """Generate on an extract directory judges persons with the evidence extract stored; an
    instances file with no evidence beside it falls back to the sentence rules and says so."""
    from pathlib import Path
    import shutil

    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    ext = tmp_path / "extract"
    assert main(["extract", "--corpus", str(sample), "--out", str(ext)]) == 0
    capsys.readouterr()
    assert main(["generate", "--instances", str(ext), "--out", str(tmp_path / "g")]) == 0
    printed = capsys.readouterr().out
    assert "persons judged with the book's cast (extract's evidence.parquet)" in printed
    import json

    report = json.loads((tmp_path / "g" / "recheck.json").read_text())
    assert report["with_book_cast"] is True
    alone = tmp_path / "alone"
    alone.mkdir()
    shutil.copy(ext / "instances.parquet", alone / "instances.parquet")
    assert main(["generate", "--instances", str(alone), "--out", str(tmp_path / "g2")]) == 0
    assert "the sentence rules only: no evidence.parquet beside the instances" in capsys.readouterr().out
    # a stored evidence row of another version: one line naming the file and row, exit 2
    import pyarrow.parquet as pq

    t = pq.read_table(ext / "evidence.parquet").to_pylist()
    t[0]["evidence"] = t[0]["evidence"].replace('{"version":1', '{"version":99', 1)
    write_records(t, alone / "evidence.parquet", schemas.EVIDENCE)
    assert main(["generate", "--instances", str(alone), "--out", str(tmp_path / "g3")]) == 2
    err = capsys.readouterr().err
    assert "evidence.parquet" in err and "row 1" in err and "run extract again" in err
    assert not (tmp_path / "g3" / "quadruples.parquet").exists()


@pytest.mark.slow
def test_a_cast_file_holds_in_the_recheck_with_the_books_cast(tmp_path, capsys):
    """generate --cast on an extract directory (the book's cast consulted): a name the file
    makes no person drops every quadruple that holds it."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    ext = tmp_path / "extract"
    assert main(["extract", "--corpus", str(sample), "--out", str(ext)]) == 0
    assert main(["generate", "--instances", str(ext), "--out", str(tmp_path / "g")]) == 0
    kept = pd.read_parquet(tmp_path / "g" / "quadruples.parquet")
    originals = kept[kept.variant == "original"]
    with_thomas = {r.quadruple_id for r in originals.itertuples() if any(n["name"] == "Thomas" for n in r.names)}
    assert with_thomas
    cast = tmp_path / "cast.tsv"
    cast.write_text("the-orchard-at-hollins-end\tThomas\tnot-a-person\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["generate", "--instances", str(ext), "--out", str(tmp_path / "g2"), "--cast", str(cast)]) == 0
    assert "persons judged with the book's cast" in capsys.readouterr().out
    left = set(pd.read_parquet(tmp_path / "g2" / "quadruples.parquet").quadruple_id)
    assert left and not (left & with_thomas)
