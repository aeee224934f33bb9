"""evaluate --system with cluster outputs: JSON lines (tokens, sentences, subtokens) and CoNLL
responses, scored by aligning the system's tokens with the dataset's texts."""

from __future__ import annotations

import json
import re

import pytest

from pipeline.cli import main
from pipeline.formats.gap_tsv import read_gap_tsv, write_gap_tsv

# Two quadruples (original, control, swap-1, swap-2), "Mr." titles, a quote-led text.
TEMPLATES = [
    ('\u201cWell,\u201d said Mr. {a}, and {b} laughed; {p} was amused.', "{p}"),
    ("{a} (the baker) met {b} at noon, and {p} waved.", "{p}"),
]
NAMES = {"original": ("Darcy", "Jane", "he"), "control": ("Bingley", "Jane", "he"),
         "swap-1": ("Emma", "John", "she"), "swap-2": ("Harriet", "John", "she")}
SUFFIX = {"original": "", "control": "-control", "swap-1": "-swap-1", "swap-2": "-swap-2"}


def dataset_rows():
    rows = []
    for q, (tpl, _) in enumerate(TEMPLATES):
        for variant, (a, b, p) in NAMES.items():
            text = tpl.format(a=a, b=b, p=p)
            a_coref = q == 0          # quadruple 0: the pronoun is A; quadruple 1: B
            rows.append({"ID": f"{q}{SUFFIX[variant]}", "Text": text, "Pronoun": p,
                         "Pronoun-offset": text.rindex(f" {p} ") + 1, "A": a, "A-offset": text.index(a),
                         "A-coref": a_coref, "B": b, "B-offset": text.index(b), "B-coref": not a_coref,
                         "URL": ""})
    return rows


def tokens_of(text):
    """A system's tokenization: PTB escapes, split punctuation, lower case."""
    toks = re.findall(r"\w+|[^\w\s]", text)
    esc = {"(": "-LRB-", ")": "-RRB-", "\u201c": "``", "\u201d": "''"}
    return [esc.get(t, t.lower()) for t in toks]


def mention(tokens_text, text, start, length):
    """Token index span of the characters [start, start+length) under tokens_of()."""
    spans = []
    for m in re.finditer(r"\w+|[^\w\s]", text):
        spans.append(m.span())
    idx = [i for i, (s, e) in enumerate(spans) if s < start + length and start < e]
    return [idx[0], idx[-1]]


def oracle_clusters(r, both=False):
    p = mention(None, r["Text"], r["Pronoun-offset"], len(r["Pronoun"]))
    a = mention(None, r["Text"], r["A-offset"], len(r["A"]))
    b = mention(None, r["Text"], r["B-offset"], len(r["B"]))
    if both:
        return [[a, b, p]]
    main_ = sorted([p] + [m for m, flag in ((a, r["A-coref"]), (b, r["B-coref"])) if flag])
    return [main_] + [[m] for m, flag in ((a, r["A-coref"]), (b, r["B-coref"])) if not flag]


@pytest.fixture
def data(tmp_path):
    path = tmp_path / "quadruples.tsv"
    write_gap_tsv(dataset_rows(), path)
    return path


def run_eval(tmp_path, dataset, system, *more, out="out"):
    return main(["evaluate", "--dataset", str(dataset), "--out", str(tmp_path / out), "--resamples", "100",
                 "--system", f"s={system}", *more])


def metrics(tmp_path, out="out"):
    return json.loads((tmp_path / out / "metrics.json").read_text())["s"]


def write_jsonl(path, objs):
    path.write_text("".join(json.dumps(o) + "\n" for o in objs), encoding="utf-8")
    return path


def test_oracle_json_lines_score_100(tmp_path, data, capsys):
    rows = dataset_rows()
    sysout = write_jsonl(tmp_path / "o.jsonl", [
        {"doc_key": f"nw/{r['ID']}", "document": tokens_of(r["Text"]), "clusters": oracle_clusters(r)}
        for r in rows])
    assert run_eval(tmp_path, data, sysout) == 0
    m = metrics(tmp_path)
    assert m["acc_overall"] == 1.0 and m["format"] == "jsonl-clusters" and m["matched_by"] == "ID"
    assert m["n_unaligned"] == 0
    assert "s: JSON-lines clusters from" in capsys.readouterr().out


@pytest.mark.slow
def test_subtokens_equal_tokens_and_order_matching(tmp_path, data, capsys):
    rows = dataset_rows()
    objs_tok, objs_sub = [], []
    for k, r in enumerate(rows):
        toks = tokens_of(r["Text"])
        # a cluster holding both candidates in the odd rows: those rows are wrong
        cl = oracle_clusters(r, both=k % 2 == 1)
        objs_tok.append({"sentences": [toks], "clusters": cl})
        sub, smap = ["[CLS]"], [0]
        for i, t in enumerate(toks):
            pieces = [t[:2], "##" + t[2:]] if len(t) > 3 else [t]
            sub += pieces
            smap += [i] * len(pieces)
        sub.append("[SEP]")
        smap.append(len(toks) - 1)
        first = {i: smap.index(i) for i in range(len(toks))}
        last = {i: len(smap) - 2 - smap[::-1][1:].index(i) for i in range(len(toks))}
        objs_sub.append({"sentences": [sub], "subtoken_map": smap, "clusters": [],
                         "predicted_clusters": [[[first[s], last[e]] for s, e in c] for c in cl]})
    assert run_eval(tmp_path, data, write_jsonl(tmp_path / "t.jsonl", objs_tok), out="t") == 0
    assert "rows matched by order" in capsys.readouterr().out
    assert run_eval(tmp_path, data, write_jsonl(tmp_path / "s.jsonl", objs_sub), out="u") == 0
    mt, ms = metrics(tmp_path, "t"), metrics(tmp_path, "u")
    assert mt["matched_by"] == "order" and mt["acc_overall"] == 0.5
    assert {k: v for k, v in mt.items() if k != "format"} == {k: v for k, v in ms.items() if k != "format"}


def test_conll_key_file_round_trip(tmp_path, data, capsys):
    key = tmp_path / "key.conll"
    assert main(["evaluate", "--dataset", str(data), "--write-conll", str(key)]) == 0
    assert "8 documents" in capsys.readouterr().out
    assert run_eval(tmp_path, data, key) == 0
    m = metrics(tmp_path)
    assert m["format"] == "conll" and m["acc_overall"] == 1.0


def test_unaligned_rows_are_reported_not_guessed(tmp_path, data, capsys):
    rows = dataset_rows()
    objs = [{"ID": r["ID"], "document": tokens_of(r["Text"]), "clusters": oracle_clusters(r)} for r in rows]
    objs[3]["document"] = ["entirely", "different", "words", "."] * 3
    objs[3]["clusters"] = []
    assert run_eval(tmp_path, data, write_jsonl(tmp_path / "u.jsonl", objs)) == 0
    m = metrics(tmp_path)
    assert m["n_unaligned"] == 1 and m["acc_overall"] == pytest.approx(7 / 8)
    out = capsys.readouterr().out
    assert "1 row(s) could not be aligned with the system's tokens (first: 0-swap-2), counted as wrong" in out


@pytest.mark.parametrize("kind, message, row", [
    ("not json", "not JSON", 2),
    ("outside", "lies outside the", 1),
    ("other dataset", "another dataset", 1),
    ("unterminated", "unterminated quote", 3),
    ("conll brackets", "never closed", 2),
])
def test_bad_system_outputs_exit_2_and_write_nothing(tmp_path, data, capsys, kind, message, row):
    rows = dataset_rows()
    good = [{"doc_key": r["ID"], "document": tokens_of(r["Text"]), "clusters": oracle_clusters(r)} for r in rows]
    if kind == "not json":
        p = tmp_path / "bad.jsonl"
        p.write_text(json.dumps(good[0]) + "\n{'doc_key': 1}\n", encoding="utf-8")
    elif kind == "outside":
        good[0]["clusters"] = [[[0, 99]]]
        p = write_jsonl(tmp_path / "bad.jsonl", good)
    elif kind == "other dataset":
        p = write_jsonl(tmp_path / "bad.jsonl", [dict(o, doc_key=f"gap-{k}") for k, o in enumerate(good)])
    elif kind == "unterminated":
        p = tmp_path / "bad.tsv"
        p.write_text('ID\tA-coref\tB-coref\n0\tTRUE\tFALSE\n"0-control\tTRUE\tFALSE\n1\tTRUE\tFALSE\n')
    else:
        p = tmp_path / "bad.conll"
        p.write_text("#begin document (0); part 000\n0\t0\t0\tA\t-\t(0\n\n#end document\n")
    assert run_eval(tmp_path, data, p) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {p}, row {row}: ") and message in err and "\n" not in err
    assert not (tmp_path / "out").exists()


def test_cluster_output_needs_texts(tmp_path, capsys):
    gold = tmp_path / "gold.tsv"
    gold.write_text("ID\tPronoun\tA-coref\tB-coref\nx\the\tTRUE\tFALSE\n")
    p = write_jsonl(tmp_path / "c.jsonl", [{"doc_key": "x", "document": ["he"], "clusters": []}])
    assert run_eval(tmp_path, gold, p) == 2
    assert "need a dataset with texts and offsets" in capsys.readouterr().err


# ---------------------------------------------------------------- published Counter-GAP ------

def without_title_periods(rows):
    """Counter-GAP's evaluation variant: "Mr." -> "Mr" with every offset recomputed."""
    out = []
    pat = re.compile(r"\b(Mr|Mrs|Ms|Dr|St)\.")
    for r in rows:
        cuts = [m.end() - 1 for m in pat.finditer(r["Text"])]
        shift = lambda off: off - sum(c < off for c in cuts)   # noqa: E731
        out.append({**r, "Text": pat.sub(r"\1", r["Text"]),
                    **{c: shift(r[c]) for c in ("Pronoun-offset", "A-offset", "B-offset")},
                    "A": pat.sub(r"\1", r["A"]), "B": pat.sub(r"\1", r["B"])})
    return out


@pytest.mark.slow
def test_published_dev_set_with_published_predictions_and_an_oracle(shared_dir, tmp_path, capsys):
    dev = shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    preds = shared_dir / "reference" / "counter-gap-predictions" / "bert_base_output.tsv"
    assert run_eval(tmp_path, dev, preds, "--ignore-extra") == 0
    m = metrics(tmp_path)
    assert m["n_quadruples"] == 75 and m["n_instances"] == 300
    assert "3708 row(s) for IDs not in the dataset ignored" in capsys.readouterr().out
    # without --ignore-extra the extra IDs are an error naming the first one
    assert run_eval(tmp_path, dev, preds, out="o2") == 2
    assert "unknown ID" in capsys.readouterr().err
    # an oracle cluster file made on the with-dot texts scores 100 % on the without-dot variant
    rows, _ = read_gap_tsv(dev)
    nodot = tmp_path / "C-GAP-nodot.dev.tsv"
    write_gap_tsv(without_title_periods(rows), nodot, ["Book"])
    assert read_gap_tsv(nodot)[1] == 0
    oracle = write_jsonl(tmp_path / "oracle.jsonl", [
        {"doc_key": r["ID"], "document": tokens_of(r["Text"]), "clusters": oracle_clusters(r)} for r in rows])
    for out, ds in (("with", dev), ("without", nodot)):
        assert run_eval(tmp_path, ds, oracle, out=out) == 0
        m = metrics(tmp_path, out)
        assert m["acc_overall"] == 1.0 and m["n_unaligned"] == 0, out
