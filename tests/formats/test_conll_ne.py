"""The named-entity column of CoNLL-2012 files (OntoNotes bracket notation), read for CDA's
person spans; files without one (LitBank '_', WinoBias '*' everywhere) give None."""

from __future__ import annotations

import pytest

from pipeline.errors import InputError
from pipeline.formats import conll

from tests.formats.test_conll import LITBANK, WINOBIAS


def ontonotes(rows, doc_id="bc/test/00/test_0001"):
    """A space-aligned OntoNotes-like document: (word, POS, NE) per token, one sentence."""
    lines = [f"#begin document ({doc_id}); part 000\n"]
    for i, (w, pos, ne) in enumerate(rows):
        lines.append(f"{doc_id}   0   {i:>3}   {w:>10}   {pos:>4}   *   -   -   -   Speaker#1   {ne:>10}   -\n")
    return "".join(lines) + "\n#end document\n"


ROWS = [("Walter", "NNP", "(PERSON*"), ("Elliot", "NNP", "*)"), (",", ",", "*"), ("born", "VBN", "*"),
        ("March", "NNP", "(DATE*"), ("1", "CD", "*"), (",", ",", "*"), ("1760", "CD", "*)"),
        ("in", "IN", "*"), ("Kent", "NNP", "(GPE)"), (",", ",", "*"), ("met", "VBD", "*"),
        ("Kent", "NNP", "(PERSON)"), ("and", "CC", "*"), ("June", "NNP", "(PERSON*)"), (".", ".", "*")]


def read(tmp_path, text, name="f_gold_conll"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p, list(conll.read_documents(p))


def test_person_spans_of_the_ne_column(tmp_path):
    _, [doc] = read(tmp_path, ontonotes(ROWS))
    assert doc.nes[:2] == ["(PERSON*", "*)"]
    assert conll.ne_spans(doc) == [(0, 1), (12, 12), (14, 14)]
    assert conll.ne_spans(doc, "DATE") == [(4, 7)]
    assert conll.ne_spans(doc, "GPE") == [(9, 9)]


def test_files_without_named_entities_give_none(tmp_path):
    _, [lit1] = read(tmp_path, LITBANK.split("\n\n")[0] + "\n#end document\n", "lb.conll")
    assert lit1.nes[0] == "_" and conll.ne_spans(lit1) is None          # LitBank: '_'
    _, [wino] = read(tmp_path, WINOBIAS, "w.v4_auto_conll")
    assert set(wino.nes) == {"*"} and conll.ne_spans(wino) is None       # WinoBias: '*' only
    # an OntoNotes-like document whose column holds no entity at all carries no NE information
    _, [plain] = read(tmp_path, ontonotes([(w, p, "*") for w, p, _ in ROWS]))
    assert conll.ne_spans(plain) is None


@pytest.mark.parametrize("change, row, message", [
    ({14: "(PERSON*"}, 16, "never closed"),                         # June opens, nothing closes it
    ({1: "*", 4: "(DATE*"}, 6, "opened inside"),
    ({0: "*"}, 3, "not open"),                                      # Elliot's "*)" closes nothing
])
def test_unbalanced_ne_column_is_bad_input(tmp_path, change, row, message):
    rows = [(w, p, change.get(i, ne)) for i, (w, p, ne) in enumerate(ROWS)]
    p, [doc] = read(tmp_path, ontonotes(rows))
    with pytest.raises(InputError, match=message) as exc:
        conll.ne_spans(doc, path=p)
    assert exc.value.row == row and str(exc.value.path) == str(p)


def test_person_sources_report(tmp_path):
    target = tmp_path / "out.persons.tsv"
    conll.write_person_sources([{"document": "d1", "person_source": "ne-column", "person_spans": 3,
                                 "person_tokens": 4, "names_replaced": 2}], target)
    assert target.read_text(encoding="utf-8").splitlines() == [
        "document\tperson_source\tperson_spans\tperson_tokens\tnames_replaced", "d1\tne-column\t3\t4\t2"]
