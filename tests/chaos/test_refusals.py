"""Issue 45, item 5: what cannot be right is refused in the field's formats, with one line
naming the file and row. Each case was accepted without a word before the issue."""

from __future__ import annotations

import pytest

from pipeline.cli import main
from pipeline.errors import InputError
from pipeline.formats.gap_tsv import read_gap_file, read_gap_tsv, write_gap_tsv
from tests.chaos.malformed import CONLL, GAP_HEADER, GAP_ROW

pytestmark = pytest.mark.chaos


def gap_file(tmp_path, row: str, name: str = "g.tsv"):
    path = tmp_path / name
    path.write_text(GAP_HEADER + row, encoding="utf-8")
    return path


def refused(path, *needles, row=2):
    with pytest.raises(InputError) as exc:
        read_gap_tsv(path)
    text = str(exc.value)
    assert text.startswith(f"{path}, row {row}: "), text
    for n in needles:
        assert n in text, text
    return text


# ------------------------------------------------------------------ GAP TSV ---------------

@pytest.mark.parametrize("written", ["1_23", "\u0663\u0661", " +31 ", "31.0", "3e1", "\uff13\uff11"])
def test_gap_offsets_must_be_plain_ascii_decimal(tmp_path, written):
    row = GAP_ROW.format(id="1").replace("\t31\t", f"\t{written}\t")
    refused(gap_file(tmp_path, row), "Pronoun-offset is not an integer")


def test_gap_offsets_with_spaces_around_are_still_read(tmp_path):
    rows, _ = read_gap_tsv(gap_file(tmp_path, GAP_ROW.format(id="1").replace("\t31\t", "\t 31 \t")))
    assert rows[0]["Pronoun-offset"] == 31


def test_a_pronoun_offset_inside_a_word_is_refused(tmp_path):
    text = "Catherine met Ann, and her sister smiled."
    row = f"1\t{text}\ther\t{text.index('her')}\tCatherine\t0\tTRUE\tAnn\t14\tFALSE\t\n"
    refused(gap_file(tmp_path, row), "inside the word 'Catherine'")
    good = row.replace(f"\t{text.index('her')}\t", f"\t{text.index(' her ') + 1}\t")
    assert read_gap_tsv(gap_file(tmp_path, good, "ok.tsv"))[0][0]["Pronoun"] == "her"


def test_both_a_and_b_coreferent_in_gold_is_refused(tmp_path):
    row = GAP_ROW.format(id="1").replace("TRUE\tCleo\t8\tFALSE", "TRUE\tCleo\t8\tTRUE")
    refused(gap_file(tmp_path, row), "both TRUE")
    # --skip-bad-rows counts it as a bad row instead
    got = read_gap_file(gap_file(tmp_path, row + GAP_ROW.format(id="2"), "two.tsv"), skip_bad_rows=True)
    assert got.n_bad == 1 and [r["ID"] for r in got.rows] == ["2"]


def test_evaluate_refuses_a_gold_row_with_both_coreferent(tmp_path, capsys):
    gold = gap_file(tmp_path, GAP_ROW.format(id="1").replace("TRUE\tCleo\t8\tFALSE", "TRUE\tCleo\t8\tTRUE"))
    system = tmp_path / "sys.tsv"
    system.write_text("1\tTRUE\tFALSE\n", encoding="utf-8")
    code = main(["evaluate", "--dataset", str(gold), "--system", f"s={system}", "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "both TRUE" in err and str(gold) in err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


def test_a_nul_byte_in_a_gap_field_is_refused_reading_and_writing(tmp_path):
    row = GAP_ROW.format(id="1").replace("\t\n", "\thttp://x\x00y\n")
    refused(gap_file(tmp_path, row), "NUL byte")
    rows, _ = read_gap_tsv(gap_file(tmp_path, GAP_ROW.format(id="1"), "ok.tsv"))
    rows[0]["URL"] = "a\x00b"
    target = tmp_path / "out.tsv"
    with pytest.raises(InputError, match="NUL byte in column 'URL'"):
        write_gap_tsv(rows, target)
    assert not target.exists()


def test_the_published_gap_files_still_read_whole(shared_dir):
    for name, n in (("gap-development.tsv", 2000), ("gap-test.tsv", 2000), ("gap-validation.tsv", 454)):
        got = read_gap_file(shared_dir / "reference" / "gap" / name)
        assert got.n_bad == 0 and len(got.rows) == n


# ------------------------------------------------------------------ CoNLL -----------------

def test_a_conll_document_given_twice_is_refused(tmp_path):
    from pipeline.formats.conll import read_documents

    path = tmp_path / "dup.conll"
    path.write_text(CONLL + CONLL, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        list(read_documents(path))
    assert f"{path}, row 10: " in str(exc.value) and "given twice (first at line 1)" in str(exc.value)
    # another part of the same document is a document of its own (OntoNotes)
    path.write_text(CONLL + CONLL.replace("part 000", "part 001"), encoding="utf-8")
    assert len(list(read_documents(path))) == 2


def test_a_conll_document_id_holding_a_parenthesis_is_read_whole(tmp_path):
    from pipeline.formats.conll import read_documents

    path = tmp_path / "paren.conll"
    path.write_text(CONLL.replace("(tiny)", "(tiny (1811))"), encoding="utf-8")
    [doc] = read_documents(path)
    assert doc.doc_id == "tiny (1811)"
    assert doc.lines[0][doc.id_span[0]:doc.id_span[1]] == "tiny (1811)"


def test_cda_refuses_a_conll_file_with_every_document_twice(tmp_path, capsys):
    path = tmp_path / "dup.conll"
    path.write_text(CONLL + CONLL, encoding="utf-8")
    code = main(["cda", "--conll", str(path), "--mode", "acda", "--out", str(tmp_path / "o.conll"),
                 "--no-progress"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "given twice" in err and not (tmp_path / "o.conll").exists()


# ------------------------------------------------------------------ cast files ------------

@pytest.mark.parametrize("body,row,message", [
    ("b\tThomas\tmasculine\nb\tthomas\tfeminine\n", 2, "as 'Thomas' on row 1"),
    ("b\tThomas\tmasculine\nb\tTHOMAS\tmasculine\n", 2, "differing in case only"),
    ("*\tThomas\tmasculine\nb\tThomas\tfeminine\n", 2, "feminine for book 'b' but masculine for every book"),
    ("b\tthomas\tfeminine\n*\tThomas\tmasculine\n", 1, "('*', row 2)"),
])
def test_cast_file_contradictions_are_refused(tmp_path, body, row, message):
    from pipeline.formats.cast import read_cast_overrides

    p = tmp_path / "cast.tsv"
    p.write_text(body, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_cast_overrides(p)
    assert str(exc.value).startswith(f"{p}, row {row}: ") and message in str(exc.value), str(exc.value)


def test_cast_file_agreements_are_kept(tmp_path):
    from pipeline.formats.cast import read_cast_overrides

    p = tmp_path / "cast.tsv"
    p.write_text("*\tPolly\tnot-a-person\nb\tPolly\tnot-a-person\nb\tDemi\tmasculine\n", encoding="utf-8")
    assert read_cast_overrides(p) == {"*": {"Polly": "not-a-person"},
                                      "b": {"Polly": "not-a-person", "Demi": "masculine"}}


# ------------------------------------------------------------------ word lists, options ---

def test_a_name_map_mapping_a_name_to_itself_is_refused(tmp_path):
    from pipeline.cda.formats.name_map import read_map

    p = tmp_path / "name_map.tsv"
    p.write_text("name\tpartner\nJohn\tJohn\nMary\tPeter\nPeter\tMary\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"name_map.tsv, row 2: 'John' is mapped to itself"):
        read_map(p)


@pytest.mark.parametrize("argv", [
    ["annotate-import", "--results", "r.csv", "--quadruples", "q.parquet", "--out", "o",
     "--min-check-accuracy", "nan"],
    ["namemap", "--alpha", "inf"],
    ["evaluate", "--dataset", "d.tsv", "--system", "s=x.tsv", "--out", "o", "--max-unmatched", "NaN"],
])
def test_nan_for_a_numeric_option_is_a_usage_error(argv, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    assert "a finite number is needed" in capsys.readouterr().err


# ------------------------------------------------------------------ NUL bytes in CSV ------

def test_a_nul_byte_in_a_metadata_csv_is_refused(tmp_path):
    from pipeline.formats import books as B
    from tests.formats.test_corpus_readers import gutenberg, spec

    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "11.txt").write_text(gutenberg(number=11, title="Eleven"))
    meta = tmp_path / "pg_catalog.csv"
    meta.write_text("Text#,Title,Subjects\n11,Elev\x00en,Fiction\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"pg_catalog.csv, row 2: a NUL byte"):
        B.plan_corpus(spec(corpus, metadata=str(meta), where=("subjects~fiction",)))


def test_a_nul_byte_in_a_csv_corpus_row_skips_that_row_with_the_reason(tmp_path):
    import csv as csv_mod

    from tests.formats.test_corpus_readers import BOOKS, read

    path = tmp_path / "c.csv"
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv_mod.writer(f)
        w.writerow(["book_id", "title", "text"])
        for k, r in enumerate(BOOKS[:3]):
            w.writerow([r["id"], r["title"], r["text"].replace(" ", " \x00", 1) if k == 1 else r["text"]])
    books, skips = read(path)
    assert list(books) == ["b0", "b2"]
    assert skips[("c.csv", 2)].reason.startswith("a NUL byte")


# ------------------------------------------------------------------ declared encodings ----

@pytest.mark.parametrize("declared", ["base64", "rot-13", "zlib", "hex"])
def test_a_header_declaring_a_codec_that_is_no_text_encoding_skips_the_book(tmp_path, declared):
    from tests.formats.test_corpus_readers import gutenberg, read

    c = tmp_path / "c"
    c.mkdir()
    (c / "11.txt").write_text(gutenberg(number=11).replace("Language: English",
                                                          f"Language: English\nCharacter set encoding: {declared}"),
                              encoding="utf-8")
    books, skips = read(c)
    assert not books
    assert skips["11.txt"].status == "skipped" and "unknown encoding declared" in skips["11.txt"].reason


# ------------------------------------------------------------------ word vectors ----------

def test_word_vectors_with_nan_are_refused_naming_the_word_and_line(tmp_path):
    from pipeline.embeddings.formats import load_vectors

    path = tmp_path / "v.txt"
    path.write_text("3 2\nhe 0.1 0.2\nshe nan 0.3\nit 0.5 0.5\n", encoding="utf-8")
    with pytest.raises(InputError) as exc:
        load_vectors(path)
    assert str(exc.value).startswith(f"{path}, row 3: 1 vector(s) hold NaN or infinity, the first of word 'she'")
    glove = tmp_path / "g.txt"
    glove.write_text("he 0.1 0.2 0.3\nshe inf 0.3 0.1\n", encoding="utf-8")
    with pytest.raises(InputError, match="row 2: 1 vector"):
        load_vectors(glove)


def test_a_vectors_header_claiming_10_to_the_12_words_is_refused_at_once(tmp_path):
    import time

    from pipeline.embeddings.formats import load_vectors

    path = tmp_path / "v.txt"
    path.write_text("1000000000000 300\nhe " + " ".join(["0.1"] * 300) + "\n", encoding="utf-8")
    t0 = time.monotonic()
    with pytest.raises(InputError, match=r"row 1: the header claims 1,000,000,000,000 words of 300 dimensions"):
        load_vectors(path)
    assert time.monotonic() - t0 < 5


# ------------------------------------------------------------------ archives --------------

def test_a_zip_with_two_members_of_one_name_reads_the_first_and_lists_the_second(tmp_path):
    import warnings
    import zipfile

    from tests.formats.test_corpus_readers import read

    path = tmp_path / "dump.zip"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")                     # zipfile warns of the duplicate name
        with zipfile.ZipFile(path, "w") as z:
            z.writestr("book.txt", "The first copy. Mary smiled at John.\n")
            z.writestr("book.txt", "The SECOND copy. Anne waved.\n")
    books, skips = read(path)
    [book] = books.values()
    assert "The first copy" in " ".join(book.paragraphs)
    assert any("duplicate member name" in s.reason for s in skips.values())


# ------------------------------------------------------------------ dataset card ----------

@pytest.mark.parametrize("license", ["mit\n---\nfoo: bar", "cc-by-4.0\r", "{a: 1}", "x" * 500, "--- mit"])
def test_a_dataset_card_field_that_is_not_one_line_of_plain_text_is_refused(tmp_path, license):
    import pyarrow as pa

    from pipeline.annotation.formats.hf_dataset import Config, Split, write_hf_dataset

    configs = [Config("default", [Split("test", "data/test.parquet", pa.table({"ID": ["1"]}))])]
    with pytest.raises(InputError, match="dataset card field license: one line of plain text"):
        write_hf_dataset(tmp_path / "out", configs, "# card", license=license)
    assert not (tmp_path / "out" / "README.md").exists()
    write_hf_dataset(tmp_path / "ok", configs, "# card", license="cc-by-4.0")
    text = (tmp_path / "ok" / "README.md").read_text(encoding="utf-8")
    assert text.count("\n---\n") == 1 and "license: cc-by-4.0" in text


# ------------------------------------------------------------------ --name-spans ----------

def test_name_spans_for_ids_the_dataset_lacks_or_with_bad_offsets_are_refused(tmp_path):
    import json

    from pipeline.formats.dataset_files import read_name_spans

    texts = {"t-1": "Ann met Cleo.", "t-2": "Bob left."}
    good = {"t-1": [[0, 3, "Ann"], [8, 12, "Cleo"]], "t-2": [[0, 3, "Bob"]], "t-1-swap-1": [[0, 3, "Ann"]]}
    path = tmp_path / "spans.json"
    path.write_text(json.dumps(good), encoding="utf-8")
    assert read_name_spans(path, texts)["t-1"] == [(0, 3, "Ann"), (8, 12, "Cleo")]
    for data, message in (({**good, "other-9": []}, "the dataset does not have, first: 'other-9'"),
                          ({**good, "t-2": [[1e400, 3, "Bob"]]}, "integer offsets"),
                          ({**good, "t-2": [[0.0, 3, "Bob"]]}, "integer offsets"),
                          ({**good, "t-2": [[-9, -6, "Bob"]]}, "span [-9, -6]"),
                          ({**good, "t-2": "Bob"}, "expected a list")):
        path.write_text(json.dumps(data), encoding="utf-8")
        with pytest.raises(InputError) as exc:
            read_name_spans(path, texts)
        assert str(exc.value).startswith(str(path)) and message in str(exc.value), str(exc.value)
