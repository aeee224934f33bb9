"""--cast files: the small override TSV and an edited cast.tsv; bad rows are one-line errors."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.formats.cast import CAST_COLUMNS, check_books, read_cast_overrides, write_cast_tsv


def test_small_override_file(tmp_path):
    p = tmp_path / "cast.tsv"
    p.write_text("book_id\tform\tgender\n2788\tDemi\tmasculine\n*\tPolly\tnot-a-person\n\n# a comment\n"
                 "1342\tMr.  Darcy\tmasculine\n", encoding="utf-8")
    assert read_cast_overrides(p) == {"2788": {"Demi": "masculine"}, "*": {"Polly": "not-a-person"},
                                      "1342": {"Mr. Darcy": "masculine"}}


def test_an_edited_cast_tsv_round_trips(tmp_path):
    p = tmp_path / "cast.tsv"
    write_cast_tsv([{"book_id": "b", "person": "P0001", "name": "Demi Brooke", "forms": ["Demi", "Demi Brooke"],
                     "mentions": 3, "gender": "masculine", "evidence": "book:pronouns 3"},
                    {"book_id": "b", "person": "P0002", "name": "Kent", "forms": ["Kent"], "mentions": 1,
                     "gender": "unknown", "evidence": "gender-guesser:unknown 1"}], p)
    import csv
    with open(p, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert rows[0]["forms"] == "Demi | Demi Brooke" and rows[1]["gender"] == "unknown"
    assert read_cast_overrides(p) == {"b": {"Demi": "masculine", "Demi Brooke": "masculine"}}
    text = p.read_text(encoding="utf-8").replace("gender-guesser:unknown 1", "x").replace("\tunknown\t", "\tnot-a-person\t")
    p.write_text(text, encoding="utf-8")
    assert read_cast_overrides(p)["b"]["Kent"] == "not-a-person"


@pytest.mark.parametrize("body,row,message", [
    ("b\tDemi\tboy\n", 1, "gender must be one of"),
    ("b\tDemi\tmasculine\nb\tDemi\tfeminine\n", 2, "given twice"),
    ("b\tDemi\n", 1, "expected book_id<TAB>form<TAB>gender"),
    ("b\t\tmasculine\n", 1, "must not be empty"),
])
def test_bad_rows(tmp_path, body, row, message):
    p = tmp_path / "c.tsv"
    p.write_text(body, encoding="utf-8")
    with pytest.raises(InputError) as exc:
        read_cast_overrides(p)
    assert f"row {row}" in str(exc.value) and message in str(exc.value) and str(p) in str(exc.value)


def test_unknown_book(tmp_path):
    with pytest.raises(InputError, match="not in the corpus: nope"):
        check_books({"nope": {"A": "masculine"}, "*": {"B": "feminine"}}, {"b"}, tmp_path / "c.tsv")
    check_books({"b": {"A": "masculine"}, "*": {}}, {"b"}, tmp_path / "c.tsv")


def _cast_tsv(tmp_path, *rows):
    path = tmp_path / "cast.tsv"
    lines = ["\t".join(CAST_COLUMNS)] + ["\t".join(r) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_form_in_two_alias_clusters_is_refused_with_both_rows(tmp_path):
    path = _cast_tsv(tmp_path, ("17", "P0001", "Jos Sedley", "Jos | Mr. Joseph", "40", "masculine", ""),
                     ("17", "P0002", "Joseph", "Joseph | Mr. Joseph", "3", "unknown", ""))
    with pytest.raises(InputError, match=r"'Mr. Joseph' is in two alias clusters of book '17' \(rows 2 and 3\)") as e:
        read_cast_overrides(path)
    assert e.value.row == 3
    # the same form in two books is two persons, no error
    ok = _cast_tsv(tmp_path, ("17", "P0001", "Jos", "Jos | Mr. Joseph", "40", "masculine", ""),
                   ("18", "P0001", "Jos", "Jos | Mr. Joseph", "3", "feminine", ""))
    assert read_cast_overrides(ok) == {"17": {"Jos": "masculine", "Mr. Joseph": "masculine"},
                                       "18": {"Jos": "feminine", "Mr. Joseph": "feminine"}}


def test_an_alias_cluster_with_two_genders_is_refused(tmp_path):
    from pipeline.lang.names import title_gender

    both = _cast_tsv(tmp_path, ("9", "P0003", "Bennet", "Mr. Bennet | Mrs. Bennet", "12", "unknown", ""))
    with pytest.raises(InputError, match="alias cluster with two genders .*feminine and masculine") as e:
        read_cast_overrides(both, title_gender)
    assert e.value.row == 2
    against = _cast_tsv(tmp_path, ("9", "P0003", "Marjoribanks", "Lucilla | Miss Marjoribanks", "9", "masculine", ""))
    with pytest.raises(InputError, match="two genders"):
        read_cast_overrides(against, title_gender)
    fine = _cast_tsv(tmp_path, ("9", "P0003", "Marjoribanks", "Lucilla | Miss Marjoribanks", "9", "feminine", ""))
    assert read_cast_overrides(fine, title_gender) == {"9": {"Lucilla": "feminine", "Miss Marjoribanks": "feminine"}}


def test_a_bad_cast_file_stops_a_command_with_exit_2(tmp_path, capsys):
    from pathlib import Path

    from pipeline.cli import main

    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    bad = _cast_tsv(tmp_path, ("the-orchard-at-hollins-end", "P0001", "Thomas", "Thomas | Mrs. Ashford", "4",
                               "masculine", ""))
    assert main(["persons", "--corpus", str(sample), "--out", str(tmp_path / "o"), "--cast", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "row 2" in err and "alias cluster with two genders" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o" / "cast.tsv").exists()
