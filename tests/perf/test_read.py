"""The reading harness (``pipeline.perf.read``) on a hand-made quadruples Parquet: the marks
sit at the right offsets, the sample is fixed by its seed and spread over the books, a filled
verdict TSV is counted and a malformed one refused with its row."""

from __future__ import annotations

import csv

import pytest

from pipeline.errors import InputError
from pipeline.formats.schemas import QUADRUPLES
from pipeline.formats.tables import write_records
from pipeline.perf import read

ORIGINAL = "{C1} met {O1} at the gate. {O2} said that {C2} was late, and {P} laughed at her brother."
PERSONS = {"C1": ("Emma", "feminine"), "C2": ("Mrs. Weston", "feminine"),
           "O1": ("Frank", "masculine"), "O2": ("Mr. Knightley", "masculine")}
# who sits in each slot, per variant; swaps flip the pronoun and "her brother"
SLOTS = {"original": ("C1", "C2", "O1", "O2"), "control": ("C2", "C1", "O2", "O1"),
         "swap-1": ("O1", "O2", "C1", "C2"), "swap-2": ("O2", "O1", "C2", "C1")}
SUFFIX = {"original": "", "control": "-control", "swap-1": "-swap-1", "swap-2": "-swap-2"}


def variant_row(qid: str, book_id: str, variant: str, lead: str = "") -> dict:
    swapped = variant.startswith("swap")
    template = lead + (ORIGINAL.replace("her brother", "his sister") if swapped else ORIGINAL)
    pronoun = "he" if swapped else "she"
    text, names, pos, parts = "", {}, 0, template.split("{")
    text = parts[0]
    for part in parts[1:]:
        key, rest = part.split("}", 1)
        if key == "P":
            p_off = len(text)
            text += pronoun
        else:
            person = SLOTS[variant][("C1", "C2", "O1", "O2").index(key)]
            form = PERSONS[person][0]
            names.setdefault(key, (person, []))[1].append((len(text), len(text) + len(form), form))
            text += form
        text += rest
    rows = []
    for role, (person, ms) in names.items():
        form, gender = PERSONS[person]
        rows.append({"role": role, "name": form.split()[-1], "gender": gender,
                     "mentions": [{"start": s, "end": e, "text": t, "title": t.split()[0] if " " in t else ""}
                                  for s, e, t in ms]})
    a, b = names["C1"][1][0], names["C2"][1][0]
    return {"id": qid + SUFFIX[variant], "quadruple_id": qid, "variant": variant, "instance_id": qid,
            "pronoun_gender": "masculine" if swapped else "feminine", "original_gender": "feminine",
            "pattern": "FINALPRO", "book_id": book_id, "book": f"Book {book_id}", "text": text,
            "pronoun": pronoun, "pronoun_offset": p_off, "a": a[2], "a_offset": a[0], "b": b[2], "b_offset": b[0],
            "a_coref": None, "b_coref": None, "names": rows, "source": "extract", "url": ""}


@pytest.fixture()
def quadruples(tmp_path):
    rows = []
    for book_id, n in (("11", 6), ("22", 3), ("33", 9)):
        for k in range(n):
            qid = f"{book_id}-{1000 + 17 * k}"
            rows += [variant_row(qid, book_id, v, f"Day {k}. " if k else "") for v in SUFFIX]
    path = tmp_path / "quadruples.parquet"
    write_records(rows, path, QUADRUPLES)
    return path


def test_marks_sit_at_the_offsets(quadruples):
    quad = read.load_quadruples(quadruples)["11-1000"]
    o = quad["original"]
    marked = read.mark(o["text"], read.marked_spans(o))
    assert marked == ("[[A=C1:Emma]] met [[O1:Frank]] at the gate. [[O2:Mr. Knightley]] said that "
                      "[[B=C2:Mrs. Weston]] was late, and {{she}} laughed at her brother.")
    s1 = quad["swap-1"]
    assert read.mark(s1["text"], read.marked_spans(s1)).startswith("[[A=C1:Frank]] met [[O1:Emma]] at the gate. "
                                                            "[[O2:Mrs. Weston]] said that [[B=C2:Mr. Knightley]]")
    # marks on a plain string: every bracket where the offsets say
    assert read.mark("Ann saw Bob; he ran.", [(0, 3, "C1"), (8, 11, "O1"), (13, 15, "P")]) == \
        "[[C1:Ann]] saw [[O1:Bob]]; {{he}} ran."
    assert "(!overlap" in read.mark("Ann Lee", [(0, 7, "C1"), (4, 7, "C2")])


def test_changes_show_the_flips_and_nothing_else(quadruples):
    quad = read.load_quadruples(quadruples)["22-1017"]
    changed, kept = read.changes(quad["original"], quad["swap-1"])
    assert changed == {"she>he": 1, "her brother>his sister": 1} and kept == []
    assert read.changes(quad["original"], quad["control"]) == ({}, ["she", "her", "brother"])
    text = read.render_quadruple(1, 1, quad)
    assert "changed: she>he, her brother>his sister" in text and "besides names vs original: none" in text


def test_sample_is_fixed_by_its_seed_and_spread_over_books(quadruples):
    quads = read.load_quadruples(quadruples)
    first = read.sample(quads, 7, 6)
    assert first == read.sample(quads, 7, 6)
    assert first != read.sample(quads, 8, 6)
    assert len(set(first)) == 6
    assert {quads[q]["original"]["book_id"] for q in first} == {"11", "22", "33"}
    assert all(sum(quads[q]["original"]["book_id"] == b for q in first) == 2 for b in ("11", "22", "33"))
    assert sorted(read.sample(quads, 7, 100)) == sorted(quads)      # n above the total: all of them


def test_one_quadruple_per_window_unless_asked(quadruples):
    quads = read.load_quadruples(quadruples)
    # a second pronoun of the window of 33-1000: the same text, another quadruple
    quads["33-1099"] = {v: {**row, "quadruple_id": "33-1099"} for v, row in quads["33-1000"].items()}
    every = read.sample(quads, 7, 100, per_window=False)
    assert sorted(every) == sorted(quads)
    one = read.sample(quads, 7, 100)
    assert len(one) == len(quads) - 1 and len({"33-1000", "33-1099"} & set(one)) == 1
    assert read.sample(quads, 7, 100) == one


def test_a_run_writes_the_listing_and_an_empty_verdict_file(quadruples, tmp_path, capsys):
    out = tmp_path / "out"
    assert read.main(["--quadruples", str(quadruples), "--seed", "3", "--n", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.count("=== ") == 4 and "{{she}}" in printed
    assert (out / "read-3.txt").read_text(encoding="utf-8").strip() == printed.strip()
    with open(out / "read-3.tsv", encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    assert [r["quadruple_id"] for r in rows] == read.sample(read.load_quadruples(quadruples), 3, 4)
    assert rows[0]["names"].startswith("C1=") and all(r["verdict"] == "" for r in rows)


def test_excluded_quadruples_and_their_windows_are_not_drawn_again(quadruples, tmp_path, capsys):
    quads = read.load_quadruples(quadruples)
    quads["33-1099"] = {v: {**row, "quadruple_id": "33-1099"} for v, row in quads["33-1000"].items()}
    first = read.sample(quads, 7, 4)
    again = read.sample(quads, 7, 100, exclude=frozenset(first + ["33-1000"]))
    assert not set(again) & set(first)
    assert "33-1099" not in again                                 # its window was read as 33-1000
    assert len(again) == len(quads) - len(set(first) | {"33-1000", "33-1099"})
    assert "33-1099" in read.sample(quads, 7, 100, per_window=False, exclude=frozenset({"33-1000"}))
    # from the command line: an earlier verdict file (filled or not) leaves its ids out
    out = tmp_path / "out"
    assert read.main(["--quadruples", str(quadruples), "--seed", "3", "--n", "4", "--out", str(out)]) == 0
    assert read.main(["--quadruples", str(quadruples), "--seed", "4", "--n", "100", "--out", str(out),
                      "--exclude", str(out / "read-3.tsv")]) == 0
    printed = capsys.readouterr().out
    assert "(4 read before left out, with their windows)" in printed
    with open(out / "read-3.tsv", encoding="utf-8") as f3, open(out / "read-4.tsv", encoding="utf-8") as f4:
        ids3 = {r["quadruple_id"] for r in csv.DictReader(f3, delimiter="\t")}
        ids4 = [r["quadruple_id"] for r in csv.DictReader(f4, delimiter="\t")]
    assert len(ids4) == 18 - 4 and not ids3 & set(ids4)
    # everything read before: one line, exit 2; a file that is no verdict file: one line naming it
    assert read.main(["--quadruples", str(quadruples), "--seed", "5", "--out", str(out),
                      "--exclude", str(out / "read-3.tsv"), str(out / "read-4.tsv")]) == 2
    assert "every quadruple was read before" in capsys.readouterr().err
    (tmp_path / "x.tsv").write_text("id\tverdict\nA\tclean\n", encoding="utf-8")
    assert read.main(["--quadruples", str(quadruples), "--seed", "5", "--out", str(out),
                      "--exclude", str(tmp_path / "x.tsv")]) == 2
    err = capsys.readouterr().err
    assert "x.tsv" in err and "not a verdict file" in err and len(err.strip().splitlines()) == 1


def write_verdicts(path, rows):
    with open(path, "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, delimiter="\t", lineterminator="\n")
        w.writerow(read.COLUMNS)
        w.writerows(rows)


def test_summary_counts_a_filled_file(tmp_path, capsys):
    path = tmp_path / "read-1.tsv"
    write_verdicts(path, [
        ("1-1", "Emma", "FINALPRO", "C1=Emma", "clean", "", ""),
        ("1-2", "Emma", "FINALPRO", "C1=Emma", "not-clean", "allusion", "Don Juan"),
        ("2-1", "Vanity Fair", "MEDIALPRO", "C1=Amelia", "not-clean", "one-person-as-two,gender-wrong", ""),
        ("2-2", "Vanity Fair", "FINALPRO", "C1=Becky", "clean", "", "")])
    assert read.main(["--summarise", str(path)]) == 0
    out = capsys.readouterr().out
    assert "clean 2/4 (50 %)" in out
    assert "| allusion | 1 |" in out and "| one-person-as-two | 1 |" in out and "| gender-wrong | 1 |" in out
    assert "| Emma | 2 | 1 |" in out and "| Vanity Fair | 2 | 1 |" in out


@pytest.mark.parametrize("bad, message", [
    (("1-2", "Emma", "FINALPRO", "C1=Emma", "maybe", "", ""), "verdict 'maybe'"),
    (("1-2", "Emma", "FINALPRO", "C1=Emma", "", "", ""), "verdict ''"),
    (("1-2", "Emma", "FINALPRO", "C1=Emma", "not-clean", "ghost", ""), "kind 'ghost'"),
    (("1-2", "Emma", "FINALPRO", "C1=Emma", "not-clean", "", ""), "needs a kind"),
    (("1-2", "Emma", "FINALPRO", "C1=Emma", "clean", "allusion", ""), "has no kind"),
])
def test_a_bad_row_is_refused_with_its_row(tmp_path, capsys, bad, message):
    path = tmp_path / "read-1.tsv"
    write_verdicts(path, [("1-1", "Emma", "FINALPRO", "C1=Emma", "clean", "", ""), bad])
    with pytest.raises(InputError, match="row 3"):
        read.read_verdicts(path)
    assert read.main(["--summarise", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}, row 3: ") and message in err and err.count("\n") == 1


def test_a_bad_header_or_missing_file_is_one_line(tmp_path, capsys):
    path = tmp_path / "x.tsv"
    path.write_text("id\tverdict\n1\tclean\n", encoding="utf-8")
    assert read.main(["--summarise", str(path)]) == 2
    assert capsys.readouterr().err.startswith(f"error: {path}, row 1: the header")
    assert read.main(["--summarise", str(tmp_path / "none.tsv")]) == 2
    assert "not a file" in capsys.readouterr().err


def test_help_names_the_kinds(capsys):
    with pytest.raises(SystemExit) as exc:
        read.main(["--help"])
    assert exc.value.code == 0
    assert "one-person-as-two" in capsys.readouterr().out


def test_the_text_before_the_window_is_found_near_the_ids_offset():
    book = "CHAPTER I\n\nIt rained. " + "Ann saw Bob; he ran." + " The end. Ann saw Bob; he ran."
    row = {"instance_id": f"9-{len('CHAPTER I  It rained. Ann saw Bob; ')}", "pronoun_offset": 13,
           "text": "Ann saw Bob; he ran."}
    assert read.before_window(book, row, width=14) == "I It rained."     # offset off by one: found nearby
    assert read.before_window(book, {**row, "instance_id": ""}, width=5) == "ned."
    assert read.before_window(book, {**row, "text": "Nothing like it"}) is None
    assert read.before_window(None, row) is None


def test_paragraph_breaks_of_the_book_are_shown_in_the_window():
    book = "It rained.\n\nCHAPTER II.\n\nAnn saw\nBob; he ran.\n\nThe end."
    row = {"instance_id": "9-40", "pronoun_offset": 36, "text": "CHAPTER II. Ann saw Bob; he ran. The end."}
    breaks = read.paragraph_breaks(book, row)
    assert breaks == [11, 32]                        # a hard-wrapped line inside a paragraph is no break
    marks = [(20, 23, "C1"), (25, 27, "P")] + [(b, b, "¶") for b in breaks]
    assert read.mark(row["text"], marks) == "CHAPTER II. ¶ Ann saw [[C1:Bob]]; {{he}} ran. ¶ The end."
    assert read.unmarked_capitalised(row["text"], marks) == ["II"]            # "Ann" starts a sentence
    assert read.paragraph_breaks(book, {**row, "text": "CHAPTER II. Ann met Bob"}) == []   # the texts part
