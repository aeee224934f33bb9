"""--cast files: the small override TSV and an edited cast.tsv; bad rows are one-line errors."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.formats.cast import check_books, read_cast_overrides, write_cast_tsv


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
