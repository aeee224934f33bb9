"""System outputs: GAP predictions validator, JSON-lines clusters, CoNLL responses, detection."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.errors import InputError
from pipeline.formats import system_outputs as so

TOKENS = ["Anna", "told", "Bella", "that", "her", "mother", "called", "."]
CLUSTERS = [[[0, 0], [4, 4]], [[4, 5]]]


def jsonl(path, objs):
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def test_document_sentences_and_subtokens_agree(tmp_path):
    by_doc = so.read_cluster_jsonl(jsonl(tmp_path / "a.jsonl", [{"doc_key": "t1", "document": TOKENS,
                                                                 "clusters": CLUSTERS}]))
    by_sent = so.read_cluster_jsonl(jsonl(tmp_path / "b.jsonl", [{"ID": "t1", "sentences": [TOKENS[:4], TOKENS[4:]],
                                                                  "clusters": CLUSTERS}]))
    # c2f-coref's predict.py: [CLS]/[SEP], WordPiece subtokens, subtoken_map, predicted_clusters
    sub = ["[CLS]", "Anna", "told", "Bel", "##la", "that", "her", "mother", "call", "##ed", ".", "[SEP]"]
    smap = [0, 0, 1, 2, 2, 3, 4, 5, 6, 6, 7, 7]
    by_sub = so.read_cluster_jsonl(jsonl(tmp_path / "c.jsonl", [{
        "doc_key": "t1", "sentences": [sub], "subtoken_map": smap, "clusters": [],
        "predicted_clusters": [[[1, 1], [6, 6]], [[6, 7]]]}]))
    for docs in (by_doc, by_sent, by_sub):
        [d] = docs
        assert d.key == "t1" and d.line == 1
        assert d.tokens == TOKENS
        assert d.clusters == [[(0, 0), (4, 4)], [(4, 5)]]


@pytest.mark.parametrize("line, message", [
    ("{not json", "not JSON"),
    ('["a list"]', "expected a JSON object"),
    ('{"document": ["a", "b"], "clusters": [[[0, 2]]]}', r"mention \[0, 2\] lies outside the 2 tokens"),
    ('{"document": ["a", "b"], "clusters": [[[1, 0]]]}', "lies outside"),
    ('{"document": ["a", "b"], "clusters": [[["0", 1]]]}', "is not \\[start, end\\]"),
    ('{"document": ["a", "b"]}', "no clusters"),
    ('{"clusters": []}', "no tokens"),
    ('{"sentences": [["a"]], "subtoken_map": [0, 1], "clusters": []}', "subtoken_map"),
])
def test_bad_json_lines_name_the_line(tmp_path, line, message):
    p = tmp_path / "bad.jsonl"
    p.write_text('{"document": ["ok"], "clusters": []}\n\n' + line + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=message) as exc:
        so.read_cluster_jsonl(p)
    assert exc.value.row == 3 and exc.value.path == p


def test_detect_system_format(tmp_path):
    (tmp_path / "a.tsv").write_text("ID\tA-coref\tB-coref\n1\tTRUE\tFALSE\n")
    jsonl(tmp_path / "b.jsonl", [{"document": ["a"], "clusters": []}])
    (tmp_path / "c.conll").write_text("\n#begin document (x); part 000\nx\t0\t0\ta\t-\t(0)\n\n#end document\n")
    assert [so.detect_system_format(tmp_path / n) for n in ("a.tsv", "b.jsonl", "c.conll")] == \
        ["gap-tsv", "jsonl-clusters", "conll"]
    (tmp_path / "empty").write_text("\n\n")
    with pytest.raises(InputError, match="empty"):
        so.detect_system_format(tmp_path / "empty")


def test_conll_response(tmp_path):
    p = tmp_path / "r.conll"
    p.write_text("#begin document (t1); part 000\n" + "".join(
        f"t1\t0\t{i}\t{w}\t-\t{c}\n" for i, (w, c) in enumerate(zip(
            TOKENS, ["(0)", "-", "-", "-", "(1|(0)", "1)", "-", "-"]))) + "\n#end document\n")
    [d] = so.read_cluster_conll(p)
    assert d.key == "t1" and d.tokens == TOKENS and d.clusters == [[(0, 0), (4, 4)], [(4, 5)]]
    p.write_text(p.read_text().replace("\t1)\n", "\t-\n"))
    with pytest.raises(InputError, match="never closed") as exc:
        so.read_cluster_conll(p)
    assert exc.value.row == 6


def test_read_gap_predictions(tmp_path):
    ids = ["a", "b", "c"]
    p = tmp_path / "s.tsv"
    p.write_text("ID\tA-coref\tB-coref\nb\ttrue\tFALSE\na\tFALSE\tTRUE\n")
    with pytest.raises(InputError, match="1 dataset ID\\(s\\) missing .* 'c'"):
        so.read_gap_predictions(p, ids)
    pred = so.read_gap_predictions(p, ids, allow_missing=True)
    assert pred.a.tolist() == [False, True, False] and pred.b.tolist() == [True, False, False]
    assert pred.present.tolist() == [True, True, False] and pred.n_missing == 1 and not pred.probabilistic
    other = tmp_path / "other.tsv"
    other.write_text("ID\tA-coref\tB-coref\nx1\tTRUE\tFALSE\nx2\tTRUE\tFALSE\n")
    with pytest.raises(InputError, match="another dataset") as exc:
        so.read_gap_predictions(other, ids)
    assert exc.value.row == 2
    extra = tmp_path / "extra.tsv"
    extra.write_text("ID\tA-coref\tB-coref\na\tTRUE\tFALSE\nb\tTRUE\tFALSE\nc\tTRUE\tFALSE\nz\tTRUE\tFALSE\n")
    with pytest.raises(InputError, match="row 5: unknown ID 'z'"):
        so.read_gap_predictions(extra, ids)
    pred = so.read_gap_predictions(extra, ids, allow_extra=True)
    assert pred.n_extra == 1 and pred.present.all()
    probs = tmp_path / "p.tsv"
    probs.write_text("ID\tA-coref\tB-coref\tA-prob\tB-prob\na\t\t\t0.2\t0.3\nb\t\t\t0.5\t0.5\nc\t\t\t1\t0\n")
    pred = so.read_gap_predictions(probs, ids)
    assert pred.probabilistic and np.allclose(pred.probs["A-prob"], [0.2, 0.5, 1.0])


def test_native_cluster_layouts(tmp_path):
    from pipeline.formats.system_outputs import char_segments, cluster_doc

    text = "Anna told Bella that her mother called."
    # fastcoref / predict: character offsets, end exclusive
    d = cluster_doc({"doc_key": "x", "text": text, "clusters": [[[10, 15], [21, 24]]]}, "f", 1)
    assert [" ".join(d.tokens[s:e + 1]) for s, e in d.clusters[0]] == ["Bella", "her"]
    # Maverick: end inclusive
    d = cluster_doc({"text": text, "clusters_char_offsets": [[[10, 14], [21, 23]]]}, "f", 1)
    assert [" ".join(d.tokens[s:e + 1]) for s, e in d.clusters[0]] == ["Bella", "her"]
    # a mention inside a word cuts the word: "her" of "mother"
    pieces, spans = char_segments("her mother", [7, 10])
    assert pieces == ["her", "mot", "her"] and spans == [(0, 3), (4, 7), (7, 10)]
    with pytest.raises(InputError, match="outside the text"):
        cluster_doc({"text": text, "clusters_char_offsets": [[[30, len(text)]]]}, "f", 3)
    # Maverick token layout
    d = cluster_doc({"tokens": ["Anna", "told", "her"], "clusters_token_offsets": [[[0, 0], [2, 2]]],
                     "clusters_char_offsets": None}, "f", 1)
    assert d.clusters == [[(0, 0), (2, 2)]]
    # a document the system failed on
    d = cluster_doc({"doc_key": "x", "text": text, "clusters": None, "error": "RuntimeError: boom"}, "f", 1)
    assert d.error == "RuntimeError: boom" and d.clusters == []
    # c2f GAP layout: WordPiece without subtoken_map
    d = cluster_doc({"doc_key": "x", "sentences": [["[CLS]", "Anna", "met", "Bel", "##la", "[SEP]"]],
                     "predicted_clusters": [[[1, 1], [3, 4]]]}, "f", 1)
    assert d.tokens == ["", "Anna", "met", "Bella", ""] and d.clusters == [[(1, 1), (3, 3)]]
