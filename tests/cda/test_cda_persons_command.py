"""``cda`` replaces persons only: PERSON spans of the named-entity column when
the file has one (OntoNotes-like file written here), the project's person detection otherwise
(LitBank-like file: 13 tab-separated columns, ``_``); months, days, feasts and places stay; the
person source is printed and written per document to ``OUT.persons.tsv``."""

from __future__ import annotations

import pytest

from pipeline.cli import main
from pipeline.cda.runs.cda import PersonFinder, name_swap

MAP_TSV = ("name\tpartner\tclass\tweight\n"
           + "".join(f"{a}\t{b}\tmale\t0.5\n{b}\t{a}\tfemale\t0.5\n"
                     for a, b in [("Walter", "Wilma"), ("March", "Marcia"), ("Julian", "June"),
                                  ("August", "Augusta"), ("Kent", "Kendra"), ("Charles", "Charlotte")]))

# One OntoNotes-like sentence per row list: (word, POS, NE). "March", "June", "August", "Kent"
# and "London" are all in gender-guesser's list; only the PERSON spans may be replaced.
SENTENCES = [
    [("Walter", "NNP", "(PERSON*"), ("Elliot", "NNP", "*)"), (",", ",", "*"), ("born", "VBN", "*"),
     ("March", "NNP", "(DATE*"), ("1", "CD", "*"), (",", ",", "*"), ("1760", "CD", "*)"), (",", ",", "*"),
     ("lived", "VBD", "*"), ("in", "IN", "*"), ("Kent", "NNP", "(GPE)"), ("and", "CC", "*"),
     ("London", "NNP", "(GPE)"), (".", ".", "*")],
    [("Kent", "NNP", "(PERSON)"), ("said", "VBD", "*"), ("that", "IN", "*"), ("June", "NNP", "(PERSON)"),
     ("would", "MD", "*"), ("come", "VB", "*"), ("in", "IN", "*"), ("August", "NNP", "(DATE)"), (".", ".", "*")],
    [("March", "NNP", "(DATE)"), ("came", "VBD", "*"), ("in", "RP", "*"), ("like", "IN", "*"), ("a", "DT", "*"),
     ("lamb", "NN", "*"), (";", ":", "*"), ("Charles", "NNP", "(PERSON*"), ("March", "NNP", "*)"),
     ("came", "VBD", "*"), ("in", "RP", "*"), ("with", "IN", "*"), ("him", "PRP", "*"), (".", ".", "*")],
]


def ontonotes_file(doc_id="bc/test/00/test_0001"):
    lines = [f"#begin document ({doc_id}); part 000\n"]
    for sent in SENTENCES:
        for i, (w, pos, ne) in enumerate(sent):
            coref = "(0)" if w in ("Walter", "Kent", "him") and ne != "(GPE)" else "-"
            lines.append(f"{doc_id}   0   {i:>3}   {w:>10}   {pos:>4}   *   -   -   -   Speaker#1   "
                         f"{ne:>10}   {coref}\n")
        lines.append("\n")
    return "".join(lines) + "#end document\n"


def copy_words(out, original: str, sep=None):
    data = out.read_text(encoding="utf-8")
    assert data.startswith(original)
    rows = [ln.split(sep) for ln in data[len(original):].splitlines() if ln.strip() and not ln.startswith("#")]
    orig = [ln.split(sep) for ln in original.splitlines() if ln.strip() and not ln.startswith("#")]
    for a, b in zip(orig, rows):                        # every column but the word, as today
        assert a[:3] + a[4:] == b[:3] + b[4:]
    return [r[3] for r in rows]


@pytest.fixture
def onto(tmp_path):
    src = tmp_path / "test.v4_gold_conll"
    text = ontonotes_file()
    src.write_text(text, encoding="utf-8")
    return src, text


def words_of(text):
    return [w for sent in SENTENCES for w, _, _ in sent]


def test_ne_column_decides_in_acda(onto, tmp_path, capsys, monkeypatch):
    src, text = onto
    # the person detection must not even be loaded when the file has an NE column
    monkeypatch.setattr(PersonFinder, "_load", lambda self: pytest.fail("person detection loaded"))
    out = tmp_path / "o.acda"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out), "--no-progress"]) == 0
    summary = capsys.readouterr().out
    assert "persons from: named-entity column for 1 of 1 documents; 4 PERSON spans" in summary
    words = copy_words(out, text)
    orig = words_of(text)
    changed = {orig[i]: w for i, w in enumerate(words) if w != orig[i]}
    assert words[:15] == ["E1", "E2", ",", "born", "March", "1", ",", "1760", ",", "lived", "in", "Kent", "and",
                          "London", "."]                          # month, place, London stay
    assert words[15:24] == ["E3", "said", "that", "E4", "would", "come", "in", "August", "."]
    assert words[24:] == ["March", "came", "in", "like", "a", "lamb", ";", "E5", "E6", "came", "in", "with",
                          "her", "."]                              # the month stays, the person not
    assert set(changed) == {"Walter", "Elliot", "Kent", "June", "Charles", "March", "him"}
    report = (tmp_path / "o.acda.persons.tsv").read_text(encoding="utf-8").splitlines()
    assert report[1] == "bc/test/00/test_0001\tne-column\t4\t6\t6"


def test_ne_column_decides_in_ncda(onto, tmp_path, capsys):
    src, text = onto
    m = tmp_path / "map.tsv"
    m.write_text(MAP_TSV, encoding="utf-8")
    out = tmp_path / "o.ncda"
    assert main(["cda", "--conll", str(src), "--mode", "ncda", "--out", str(out), "--name-map", str(m),
                 "--no-progress"]) == 0
    assert "names replaced     6 (surnames 2" in capsys.readouterr().out
    words = copy_words(out, text)
    # a surname becomes a surname (resources/surnames.tsv), not the map's first name
    elliot, march = name_swap().surname_for("Elliot"), name_swap().surname_for("March")
    assert " ".join(words) == (f"Wilma {elliot} , born March 1 , 1760 , lived in Kent and London . "
                               "Kendra said that Julian would come in August . "
                               f"March came in like a lamb ; Charlotte {march} came in with her .")


def test_persons_column_without_a_column_is_bad_input(tmp_path, capsys):
    from tests.cda.test_cda_command import LITBANK_STYLE

    src = tmp_path / "lb.conll"
    src.write_text(LITBANK_STYLE, encoding="utf-8")
    out = tmp_path / "o"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out), "--no-progress",
                 "--persons", "column"]) == 2
    assert "has no named-entity column" in capsys.readouterr().err and not out.exists()


def litbank_file(sentences, doc_id="lb_0"):
    lines = [f"#begin document ({doc_id}); part 0\n"]
    for k, sent in enumerate(sentences):
        if k:
            lines.append("\n")
        lines += [f"{doc_id}\t0\t{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\t\n" for i, w in enumerate(sent.split())]
    return "".join(lines) + "\n#end document\n"


def run_litbank(tmp_path, sentences, mode="acda"):
    src = tmp_path / "lb.conll"
    text = litbank_file(sentences)
    src.write_text(text, encoding="utf-8")
    out = tmp_path / f"lb.{mode}"
    assert main(["cda", "--conll", str(src), "--mode", mode, "--out", str(out), "--no-progress"]) == 0
    words = copy_words(out, text, "\t")
    result, k = [], 0
    for sent in sentences:
        n = len(sent.split())
        result.append(" ".join(words[k:k + n]))
        k += n
    return result


def test_without_ne_column_the_person_detection_decides(tmp_path, capsys):
    got = run_litbank(tmp_path, [
        "Sir Walter Elliot , born March 1 , 1760 , married Elizabeth in London .",
        "It was June , and the roses were out .",
        "In August the heat came .",
        "March came in like a lamb .",
        "Aunt March came in .",
        "Kent said nothing .",
    ])
    summary = capsys.readouterr().out
    assert "persons from: person detection (" in summary and "for 1 of 1 documents" in summary
    assert (tmp_path / "lb.acda.persons.tsv").read_text(encoding="utf-8").splitlines()[1].startswith(
        "lb_0\tdetection\t")
    # the person's names are replaced, the date and London are not
    assert got[0].split()[1:9] == ["E1", "E2", ",", "born", "March", "1", ",", "1760"]
    assert got[0].endswith("E3 in London .")
    assert got[1] == "It was June , and the roses were out ."            # June, the month
    assert got[2] == "In August the heat came ."                         # August, the month
    # "March came in" alone is the month (as in "March came in like a lamb"): it stays; with a
    # title it is a person ("Aunt March came in")
    assert got[3] == "March came in like a lamb ."
    assert got[4].split()[1] == "E4"
    assert got[5] == "E5 said nothing ."                                 # Kent, a person


def test_without_ne_column_ncda_keeps_the_date(tmp_path):
    got = run_litbank(tmp_path, ["Sir Walter Elliot , born March 1 , 1760 , married Elizabeth in London ."],
                      mode="ncda")
    words = got[0].split()
    assert words[5:8] == ["March", "1", ","] and words[-3:] == ["in", "London", "."]
    assert words[2] != "Walter" and words[-4] != "Elizabeth"             # the persons are swapped


def test_without_ne_column_a_place_of_the_document_stays_and_a_speaker_is_replaced(tmp_path):
    """One sense per discourse (the cast's document evidence): "Kent" after "in" three times is a
    place in this document, so every "in Kent" stays, while "Kent said" is a person."""
    got = run_litbank(tmp_path, ["She had lived in Kent for years .", "The roads in Kent were long .",
                                 "Since she came to live in Kent , she had written twice .", "Kent said nothing ."])
    assert got[:3] == ["He had lived in Kent for years .", "The roads in Kent were long .",
                       "Since he came to live in Kent , he had written twice ."]
    assert got[3] == "E1 said nothing ."


def test_without_ne_column_feasts_stay(tmp_path):
    got = run_litbank(tmp_path, ["He was ordained at Easter .", "They went to London on Sunday ."])
    assert got == ["She was ordained at Easter .", "They went to London on Sunday ."]


def test_cast_overrides_reach_the_detection(tmp_path, capsys):
    cast = tmp_path / "cast.tsv"
    cast.write_text("lb_0\tKent\tnot-a-person\n", encoding="utf-8")
    src = tmp_path / "lb.conll"
    text = litbank_file(["Kent said nothing .", "Walter Elliot smiled ."])
    src.write_text(text, encoding="utf-8")
    out = tmp_path / "lb.acda"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out), "--no-progress",
                 "--cast", str(cast)]) == 0
    assert copy_words(out, text, "\t")[:4] == ["Kent", "said", "nothing", "."]
    # a cast file naming a document the file does not hold: one-line error, exit 2, no output
    cast.write_text("lb_9\tKent\tnot-a-person\n", encoding="utf-8")
    out2 = tmp_path / "o2"
    assert main(["cda", "--conll", str(src), "--mode", "acda", "--out", str(out2), "--no-progress",
                 "--cast", str(cast)]) == 2
    assert "not in the corpus" in capsys.readouterr().err and not out2.exists()


def test_the_whole_book_decides_a_documents_persons(tmp_path, nlp):
    """``--books DIR``: a document's evidence comes from its whole book (matched by id), so a
    word the opening alone takes for a person is the county the book shows it to be."""
    books = tmp_path / "books"
    books.mkdir()
    (books / "77_the_garden.txt").write_text(
        "They lived in Kent. The summer in Kent was long. We went back to Kent in June, and stayed in Kent.\n\n"
        "Kent was green and quiet that year.\n", encoding="utf-8")
    (books / "78_other.txt").write_text("Nothing here.\n", encoding="utf-8")
    words = "Kent was green and quiet that year .".split()
    alone = PersonFinder()
    assert alone.find(words, [(0, len(words))], "77_the_garden_brat") == ({0}, 1)
    shelf = PersonFinder(books=books)
    assert shelf.find(words, [(0, len(words))], "77_the_garden_brat") == (set(), 0)
    assert shelf.with_book == 1
    assert shelf.books.path("77_the_garden") == books / "77_the_garden.txt"
    assert shelf.books.path("79_missing_brat") is None
    shelf.find(words, [(0, len(words))], "79_missing_brat")       # no book: the document alone
    assert shelf.with_book == 1
