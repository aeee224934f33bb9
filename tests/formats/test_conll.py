"""CoNLL-2012 as distributed: WinoBias (tabs, POS '-') and LitBank (13 tab columns, '_',
empty coreference column); clusters; the key-file writer."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from pipeline.errors import InputError
from pipeline.formats import conll

WINOBIAS = (
    "#begin document (nw/dev_type1/not_stereotype//0); part 000\n"
    + "".join(f"nw/dev_type1/not_stereotype//0\t0\t{i}\t{w}\t-\t-\t-\t-\t-\tSpeaker#1\t*\t*\t*\t*\t{c}\n"
              for i, (w, c) in enumerate(zip(
                  ["The", "baker", "yelled", "at", "the", "mover", "because", "her", "stove", "was", "broken", "."],
                  ["(1", "1)", "-", "-", "-", "-", "-", "(1)", "-", "-", "-", "-"])))
    + "\n#end document\n")

LITBANK = (
    "#begin document (105_persuasion_brat); part 0\n"
    + "".join(f"105_persuasion_brat\t0\t{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\t{c}\n"
              for i, (w, c) in enumerate(zip(["Sir", "Walter", "Elliot", "saw", "her", "."],
                                             ["(0", "", "0)", "", "(1)", ""])))
    + "\n"
    + "".join(f"105_persuasion_brat\t0\t{i}\t{w}\t_\t_\t_\t_\t_\t_\t_\t_\t{c}\n"
              for i, (w, c) in enumerate(zip(["He", "called", "her", "."], ["(0)", "", "(1)", ""])))
    + "#end document\n")


def test_winobias_layout(tmp_path):
    p = tmp_path / "wb.v4_auto_conll"
    p.write_text(WINOBIAS, encoding="utf-8")
    [d] = conll.read_documents(p)
    assert d.doc_id == "nw/dev_type1/not_stereotype//0" and d.n_tokens == 12
    assert not d.has_pos and d.tags[7] == "-"
    assert conll.document_clusters(d) == [[(0, 1), (7, 7)]]
    out = conll.replace_words(d, [w if w != "her" else "his" for w in d.words], "_a")
    changed = [(a, b) for a, b in zip(d.lines, out) if a != b]
    assert len(changed) == 2                                  # the #begin line and "her"
    assert changed[1][1] == changed[1][0].replace("\ther\t", "\this\t")


def test_litbank_layout_keeps_the_empty_last_column(tmp_path):
    p = tmp_path / "lb.conll"
    p.write_text(LITBANK, encoding="utf-8")
    [d] = conll.read_documents(p)
    assert d.n_tokens == 10 and not d.has_pos and d.tags[0] == "_"
    assert d.corefs[:3] == ["(0", "", "0)"]
    assert d.sentences() == [(0, 6), (6, 10)]
    assert conll.document_clusters(d) == [[(0, 2), (6, 6)], [(4, 4), (8, 8)]]
    new = list(d.words)
    new[4], new[8] = "him", "him"
    out = conll.replace_words(d, new, "_a")
    for a, b in zip(d.lines[1:], out[1:]):
        if a.strip() and not a.startswith("#"):
            ca, cb = a.rstrip("\n").split("\t"), b.rstrip("\n").split("\t")
            assert len(ca) == len(cb) == 13
            assert ca[:3] == cb[:3] and ca[4:] == cb[4:]      # every column but the word, "" included
    assert out[5].endswith("\thim\t_\t_\t_\t_\t_\t_\t_\t_\t(1)\n")
    assert out[4].endswith("\t_\t\n")


def test_unbalanced_brackets_in_tab_files(tmp_path):
    p = tmp_path / "bad.conll"
    p.write_text(LITBANK.replace("\t0)\n", "\t\n", 1), encoding="utf-8")
    with pytest.raises(InputError, match="never closed") as exc:
        list(conll.read_documents(p))
    assert exc.value.row == 2 and exc.value.path == p


@dataclass
class Doc:
    key: str
    tokens: list
    clusters: list
    sentence_starts: list


def test_write_conll_round_trip(tmp_path):
    docs = [Doc("q1", ["Anna", "saw", "her", "mother", "."], [[(0, 0), (2, 2)], [(2, 3)]], [0]),
            Doc("q1-control", ["A", ".", "B", "went", "."], [[(0, 0), (2, 2)]], [0, 2])]
    p = tmp_path / "key.conll"
    conll.write_conll(docs, p)
    got = list(conll.read_documents(p))
    assert [d.doc_id for d in got] == ["q1", "q1-control"]
    assert [conll.document_clusters(d) for d in got] == [[[(0, 0), (2, 2)], [(2, 3)]], [[(0, 0), (2, 2)]]]
    assert got[0].corefs == ["(0)", "-", "(0)|(1", "1)", "-"]
    assert got[1].sentences() == [(0, 2), (2, 5)]
    with pytest.raises(ValueError, match="whitespace"):
        conll.write_conll([Doc("x", ["a b"], [], [0])], tmp_path / "x.conll")


@pytest.mark.slow
def test_distributed_files_read(shared_dir):
    wb = sorted((shared_dir / "reference" / "winobias" / "conll_format").glob("*_conll"))
    lb = sorted((shared_dir / "reference" / "litbank-coref").glob("*.conll"))
    assert len(wb) == 8 and len(lb) == 100
    for path in wb + lb:
        docs = list(conll.read_documents(path))
        assert docs and all(not d.has_pos for d in docs)
        assert "".join(d.raw() for d in docs) == path.read_text(encoding="utf-8")
        assert all(conll.document_clusters(d) for d in docs[:5])
