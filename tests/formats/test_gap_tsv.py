"""GAP TSV on top of csv: both quoting conventions read, the choice proven by the offsets;
QUOTE_MINIMAL writing that plain csv.DictReader reads back exactly."""

from __future__ import annotations

import csv
import io

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.errors import InputError
from pipeline.formats.gap_tsv import (GAP_COLUMNS, parse_bool, read_gap_file, read_gap_tsv, read_tsv,
                                      write_gap_tsv, write_system_tsv, write_tsv)

HEADER = "\t".join(GAP_COLUMNS[:-1])


def gap_row(text, pronoun, a, b, rid="r1", a_coref=True, b_coref=False, **extra):
    row = {"ID": rid, "Text": text, "Pronoun": pronoun, "Pronoun-offset": text.index(pronoun),
           "A": a, "A-offset": text.index(a), "A-coref": a_coref,
           "B": b, "B-offset": text.index(b), "B-coref": b_coref}
    row.update(extra)
    return row


def raw_line(r, cols):
    return "\t".join("TRUE" if r[c] is True else "FALSE" if r[c] is False else str(r[c]) for c in cols)


def test_raw_file_with_a_text_that_starts_with_a_quote(tmp_path):
    """GAP's own files: nothing quoted, a leading quote is part of the text."""
    text = '"Foo" is a song by Anna, and she sang it with Bella.'
    r = gap_row(text, "she", "Anna", "Bella")
    p = tmp_path / "gap.tsv"
    cols = GAP_COLUMNS[:-1]
    p.write_text(HEADER + "\n" + raw_line(r, cols) + "\n", encoding="utf-8")
    got = read_gap_file(p)
    assert got.quoting == "raw" and got.rows[0]["Text"] == text
    assert got.rows[0]["Pronoun-offset"] == text.index("she")


def test_csv_quoted_file_with_book_column(tmp_path):
    """Counter-GAP's releases: csv quoting, a Book column; the raw reading would be off by one."""
    text = '"Yes," said Emma, and Harriet saw that she meant it.'
    r = gap_row(text, "she", "Emma", "Harriet", Book="158 Emma (by Jane Austen)")
    p = tmp_path / "cgap.tsv"
    with open(p, "w", encoding="utf-8", newline="") as fh:
        w = csv.writer(fh, delimiter="\t")
        cols = GAP_COLUMNS[:-1] + ["Book"]
        w.writerow(cols)
        w.writerow(["TRUE" if r[c] is True else "FALSE" if r[c] is False else r[c] for c in cols])
    assert p.read_text(encoding="utf-8").splitlines()[1].split("\t")[1].startswith('"""Yes,""')
    got = read_gap_file(p)
    assert got.quoting == "csv"
    row = got.rows[0]
    assert row["Text"] == text and row["Book"] == "158 Emma (by Jane Austen)"
    assert (row["A-coref"], row["B-coref"]) == (True, False)


def test_bad_offset_is_bad_input_under_the_chosen_reading(tmp_path):
    good = gap_row("Anna met Bella; she waved.", "she", "Anna", "Bella")
    bad = dict(good, ID="r2", **{"A-offset": 3})
    cols = GAP_COLUMNS[:-1]
    p = tmp_path / "g.tsv"
    p.write_text("\n".join([HEADER, raw_line(good, cols), raw_line(bad, cols)]) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="A-offset 3 does not point at A 'Anna'") as exc:
        read_gap_tsv(p)
    assert exc.value.row == 3 and exc.value.path == p
    warnings = []
    rows, n_bad = read_gap_tsv(p, skip_bad_rows=True, warn=warnings.append)
    assert [r["ID"] for r in rows] == ["r1"] and n_bad == 1 and "row 3" in warnings[0]


def test_unterminated_quote_names_the_line(tmp_path):
    p = tmp_path / "broken.tsv"
    r = gap_row("Anna met Bella; she waved.", "she", "Anna", "Bella")
    cols = GAP_COLUMNS[:-1]
    line = raw_line(r, cols).replace("Anna met", '"Anna met', 1)
    p.write_text("\n".join([HEADER, raw_line(dict(r, ID="r0"), cols), line, raw_line(dict(r, ID="r3"), cols)]) + "\n",
                 encoding="utf-8")
    with pytest.raises(InputError, match="unterminated quote") as exc:
        read_gap_tsv(p)
    assert exc.value.row == 3
    with pytest.raises(InputError, match="unterminated quote") as exc:
        read_tsv(p, ["ID"])
    assert exc.value.row == 3


def test_missing_columns_and_field_counts(tmp_path):
    p = tmp_path / "x.tsv"
    p.write_text("ID\tText\n1\thello\n", encoding="utf-8")
    with pytest.raises(InputError, match="missing column"):
        read_gap_tsv(p)
    p.write_text("ID\tA-coref\tB-coref\n1\tTRUE\n", encoding="utf-8")
    with pytest.raises(InputError, match="2 tab-separated fields, the header has 3") as exc:
        read_tsv(p, ["ID"])
    assert exc.value.row == 2


def test_writer_needs_no_quotes_for_plain_texts(tmp_path):
    r = gap_row("Anna met Bella; she waved.", "she", "Anna", "Bella", URL="http://x")
    p = tmp_path / "plain.tsv"
    write_gap_tsv([r], p)
    assert p.read_text(encoding="utf-8") == "\t".join(GAP_COLUMNS) + "\n" + raw_line(r, GAP_COLUMNS) + "\n"


def test_write_tsv_and_system_tsv(tmp_path):
    write_tsv([{"name": "Al", "partner": 'E"ve', "n": 3, "ok": True, "x": None}], tmp_path / "t.tsv",
              ["name", "partner", "n", "ok", "x"])
    assert (tmp_path / "t.tsv").read_text() == 'name\tpartner\tn\tok\tx\nAl\t"E""ve"\t3\tTRUE\t\n'
    write_system_tsv([{"ID": "a", "A-coref": True, "B-coref": False, "Text": "ignored"}], tmp_path / "s.tsv")
    assert (tmp_path / "s.tsv").read_text() == "a\tTRUE\tFALSE\n"     # no header: GAP's scorer layout


def test_system_tsv_reads_as_gap_scorer_reads_it(tmp_path):
    """GAP's gap_scorer.py reads a system file with csv.DictReader(f, fieldnames=['ID',
    'A-coref', 'B-coref'], delimiter='\\t') and skips no line: every line must be a data row
    with TRUE/FALSE labels. Our reader reads the same file back, by position."""
    import csv

    from pipeline.formats.system_outputs import read_gap_predictions, read_system_table

    rows = [{"ID": "1", "A-coref": True, "B-coref": False}, {"ID": "1-control", "A-coref": False,
                                                             "B-coref": False}]
    write_system_tsv(rows, tmp_path / "s.tsv")
    with open(tmp_path / "s.tsv", newline="") as fh:
        read = list(csv.DictReader(fh, fieldnames=["ID", "A-coref", "B-coref"], delimiter="\t"))
    assert [(r["ID"], r["A-coref"].lower(), r["B-coref"].lower()) for r in read] == [
        ("1", "true", "false"), ("1-control", "false", "false")]
    pred = read_gap_predictions(tmp_path / "s.tsv", ["1", "1-control"])
    assert list(pred.a) == [True, False] and list(pred.b) == [False, False]
    assert list(read_system_table(tmp_path / "s.tsv")["ID"]) == ["1", "1-control"]
    # with the probabilities (baseline random): by position as well
    write_system_tsv([{"ID": "1", "A-coref": True, "B-coref": False, "A-prob": 0.5, "B-prob": 0.25,
                       "AB-prob": 0.0}], tmp_path / "p.tsv",
                     ["ID", "A-coref", "B-coref", "A-prob", "B-prob", "AB-prob"])
    pred = read_gap_predictions(tmp_path / "p.tsv", ["1"])
    assert pred.probs["A-prob"][0] == 0.5 and pred.probs["B-prob"][0] == 0.25
    # a file with a header line (the published outputs) still reads
    (tmp_path / "h.tsv").write_text("ID\tA-coref\tB-coref\n1\tFALSE\tTRUE\n", encoding="utf-8")
    assert list(read_gap_predictions(tmp_path / "h.tsv", ["1"]).b) == [True]


def test_parse_bool():
    assert parse_bool("true") is True and parse_bool(" FALSE ") is False and parse_bool("") is None
    assert parse_bool(None) is None and parse_bool(float("nan")) is None and parse_bool(False) is False
    with pytest.raises(InputError, match="must be TRUE or FALSE"):
        parse_bool("yes", "f.tsv", 4, "A-coref")


# ---------------------------------------------------------------- round trip property -------

PIECES = st.sampled_from(['"', "\u201c", "\u201d", "\u2018", "\u2019", "\t", "\r", "\n", "\r\n", "\U0001F600",
                          "\U00020000", " ", "x", "'", ",", "\\", "é"])
FILLER = st.lists(st.one_of(PIECES, st.text(alphabet="abc \"'\t\n", max_size=3)), max_size=6).map("".join)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(FILLER, FILLER, FILLER, FILLER, st.booleans(), st.booleans()), min_size=1, max_size=4))
def test_round_trip_with_our_reader_and_plain_csv(tmp_path, parts):
    rows = []
    for k, (lead, mid1, mid2, tail, ac, bc) in enumerate(parts):
        bc = bc and not ac                      # both TRUE is refused (a pronoun has one antecedent)
        if tail[:1].isalnum():
            tail = " " + tail                   # "she" stays a word of its own
        text = f"{lead}Anna{mid1} met Bella{mid2}; she{tail}"
        rows.append({"ID": f"id-{k}", "Text": text, "Pronoun": "she", "Pronoun-offset": text.index("she"),
                     "A": "Anna", "A-offset": text.index("Anna"), "A-coref": ac,
                     "B": "Bella", "B-offset": text.index("Bella"), "B-coref": bc,
                     "URL": f'{lead}u"{tail}', "Book": f"{mid1}b"})
    p = tmp_path / "rt.tsv"
    write_gap_tsv(rows, p, ["Book"])
    got, bad = read_gap_tsv(p)
    assert bad == 0 and got == rows
    with open(p, encoding="utf-8", newline="") as fh:
        plain = list(csv.DictReader(fh, delimiter="\t"))
    assert [r["Text"] for r in plain] == [r["Text"] for r in rows]
    for r, orig in zip(plain, rows):
        for c in ("Pronoun-offset", "A-offset", "B-offset"):
            assert int(r[c]) == orig[c]
        assert r["Text"][int(r["Pronoun-offset"]):].startswith("she")
        assert r["URL"] == orig["URL"] and r["Book"] == orig["Book"]
        assert r["A-coref"] == ("TRUE" if orig["A-coref"] else "FALSE")


# ---------------------------------------------------------------- published files -----------

def test_published_counter_gap_and_gap_files(shared_dir):
    cgap = shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    got = read_gap_file(cgap)
    assert got.quoting == "csv" and len(got.rows) == 300 and got.n_bad == 0
    assert got.header[-1] == "Book" and all(r["Book"] for r in got.rows)
    quoted = sum(r["Text"].startswith(("\u201c", '"')) or '"' in r["Text"] for r in got.rows)
    assert quoted > 0
    for name in ("gap-development.tsv", "gap-validation.tsv", "gap-test.tsv"):
        g = read_gap_file(shared_dir / "reference" / "gap" / name)
        assert g.quoting == "raw" and g.n_bad == 0 and len(g.rows) in (2000, 454)


def test_round_trip_of_the_published_file(shared_dir, tmp_path):
    rows, _ = read_gap_tsv(shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv")
    write_gap_tsv(rows, tmp_path / "again.tsv", ["Book"])
    again, _ = read_gap_tsv(tmp_path / "again.tsv")
    assert again == [{**r, "URL": r.get("URL", "")} for r in rows] or again == rows
    with open(tmp_path / "again.tsv", encoding="utf-8", newline="") as fh:
        plain = list(csv.DictReader(fh, delimiter="\t"))
    assert [p["Text"] for p in plain] == [r["Text"] for r in rows]
    assert io is not None
