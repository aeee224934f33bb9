"""The evaluate command: reading and validating inputs, the report files, dispatching."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pipeline.formats import schemas
from pipeline.cli import main
from pipeline.formats.tables import write_records

# The hand-made quadruples of test_evaluate_metrics: per-variant correctness and original gender.
CORRECT = [[1, 0, 1, 1], [1, 1, 0, 1], [0, 0, 1, 1]]
ORIG = ["masculine", "feminine", "masculine"]
SUFFIX = ["", "-control", "-swap-1", "-swap-2"]
PRONOUN = {"masculine": "he", "feminine": "She"}
OTHER = {"masculine": "feminine", "feminine": "masculine"}


def gold_rows(n=3):
    """(ID, pronoun, gender, A-coref, B-coref) of n quadruples (original genders cycling through
    ORIG); gold alternates A/B."""
    rows = []
    for q in range(n):
        orig = ORIG[q % len(ORIG)]
        for v, suffix in enumerate(SUFFIX):
            gender = orig if v < 2 else OTHER[orig]
            a = (q + v) % 2 == 0
            rows.append((f"{q}{suffix}", PRONOUN[gender], gender, a, not a))
    return rows


def write_gold(path, rows=None, header="ID\tPronoun\tA-coref\tB-coref"):
    rows = gold_rows() if rows is None else rows
    lines = [header] + [f"{i}\t{p}\t{'TRUE' if a else 'FALSE'}\t{'TRUE' if b else 'FALSE'}"
                        for i, p, _, a, b in rows]
    path.write_text("\r\n".join(lines) + "\r\n", encoding="utf-8")
    return path


def write_system(path, correct=CORRECT, rows=None, drop=(), extra=(), lower=False, final_newline=False):
    """A system output right exactly where ``correct`` says (else it swaps A and B)."""
    rows = gold_rows() if rows is None else rows
    flat = [c for quad in correct for c in quad]
    lines = ["ID\tA-coref\tB-coref\tScore"]
    for (i, _, _, a, b), ok in zip(rows, flat):
        if i in drop:
            continue
        pa, pb = (a, b) if ok else (b, a)
        t, f = ("true", "false") if lower else ("TRUE", "FALSE")
        lines.append(f"{i}\t{t if pa else f}\t{t if pb else f}\t0.5")
    lines += list(extra)
    path.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    return path


def evaluate(tmp_path, dataset, systems, *more):
    argv = ["evaluate", "--dataset", str(dataset), "--out", str(tmp_path / "out"), "--resamples", "200"]
    for name, path in systems.items():
        argv += ["--system", f"{name}={path}"]
    return main(argv + list(more))


def load_metrics(tmp_path):
    return json.loads((tmp_path / "out" / "metrics.json").read_text())


REQUIRED = ["acc_m", "acc_f", "acc_diff", "i_within", "i_within_m", "i_within_f", "i_across",
            "i_across_m2f", "i_across_f2m", "delta_i", "acc_overall", "acc_original",
            "acc_counterfactual", "spearman_rho", "p_acc_diff", "p_delta_i", "p_original_counterfactual"]


def test_report_files_and_hand_computed_values(tmp_path, capsys):
    gold = write_gold(tmp_path / "gold.tsv")
    sys_a = write_system(tmp_path / "a.tsv", lower=True)
    perfect = write_system(tmp_path / "b.tsv", correct=[[1] * 4] * 3, final_newline=True)
    assert evaluate(tmp_path, gold, {"a": sys_a, "perfect": perfect}) == 0
    m = load_metrics(tmp_path)
    assert list(m) == ["a", "perfect"]
    for key in REQUIRED:
        assert key in m["a"]
    a = m["a"]
    assert a["acc_m"] == pytest.approx(2 / 6) and a["acc_f"] == pytest.approx(1.0)
    assert a["i_within"] == pytest.approx(1 / 3) and a["i_across"] == pytest.approx(2 / 3)
    assert a["i_across_m2f"] == pytest.approx(0.75) and a["i_across_f2m"] == pytest.approx(0.5)
    assert a["gap_acc_m"] == pytest.approx(0.5) and a["gap_acc_f"] == pytest.approx(1.0)
    assert a["spearman_rho"] == pytest.approx(0.5)
    assert m["perfect"]["acc_overall"] == 1.0 and m["perfect"]["delta_i"] == 0.0
    assert m["perfect"]["spearman_rho"] is None and m["perfect"]["p_delta_i"] == 1.0
    md = (tmp_path / "out" / "metrics.md").read_text()
    assert "| model | Acc_M | Acc_F | Acc_Diff | I_within (M / F) | I_across (M2F / F2M) | ΔI" in md
    assert "| a | 33.33 | 100.00 | \u221266.67" in md
    assert "| 33.33 (66.67 / 0.00) | 66.67 (75.00 / 50.00) | +33.33" in md
    assert "| 50.00 / 83.33" in md and "| 0.500 | 50.00 / 100.00 / 66.67 |" in md
    png = (tmp_path / "out" / "metrics.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert "3 quadruples" in capsys.readouterr().out


@pytest.mark.slow
def test_parquet_dataset_gives_the_same_metrics(tmp_path):
    records = []
    for i, pronoun, gender, a, b in gold_rows():
        q, _, variant = i.partition("-")
        records.append({"id": i, "quadruple_id": q, "variant": variant or "original",
                        "pronoun_gender": gender, "original_gender": ORIG[int(q)],
                        "pronoun": pronoun, "a_coref": a, "b_coref": b, "text": "", "names": []})
    write_records(records, tmp_path / "q.parquet", schemas.QUADRUPLES, fill_missing=True)
    sys_a = write_system(tmp_path / "a.tsv")
    assert evaluate(tmp_path / "p", tmp_path / "q.parquet", {"a": sys_a}) == 0
    assert evaluate(tmp_path / "t", write_gold(tmp_path / "gold.tsv"), {"a": sys_a}) == 0
    assert load_metrics(tmp_path / "p") == load_metrics(tmp_path / "t")


def test_parquet_labelled_on_some_rows_only_is_an_error(tmp_path, capsys):
    # no label at all is the unlabelled path (tests/stages/test_evaluate_unlabelled.py); a
    # label missing on some rows is an error naming them
    records = [{"id": i, "quadruple_id": i.split("-")[0], "variant": "original" if "-" not in i
                else i.split("-", 1)[1], "pronoun_gender": g, "a_coref": None if k == 0 else a,
                "b_coref": None if k == 0 else b}
               for k, (i, _, g, a, b) in enumerate(gold_rows())]
    write_records(records, tmp_path / "q.parquet", schemas.QUADRUPLES, fill_missing=True)
    assert evaluate(tmp_path, tmp_path / "q.parquet", {"a": write_system(tmp_path / "a.tsv")}) == 2
    assert "a_coref must be TRUE or FALSE: row 1: a_coref is empty" in capsys.readouterr().err


@pytest.mark.parametrize("case, expected", [
    ("missing", "2 dataset ID(s) missing from the system output (first: '0-control', '2-swap-2')"),
    ("unknown", "row 14: unknown ID '9' (not in the dataset)"),
    ("duplicate", "row 14: duplicate ID '0'"),
    ("value", "row 13: A-coref='yes' is not TRUE/FALSE"),
])
def test_bad_system_output(tmp_path, capsys, case, expected):
    gold = write_gold(tmp_path / "gold.tsv")
    kwargs = {"missing": {"drop": ("0-control", "2-swap-2")},
              "unknown": {"extra": ["9\tTRUE\tFALSE\t0"]},
              "duplicate": {"extra": ["0\tTRUE\tFALSE\t0"]},
              "value": {"extra": ["0\tyes\tFALSE\t0"]}}[case]
    if case == "value":   # replace row 0 instead of adding a duplicate
        kwargs = {"drop": ("0",), "extra": ["0\tyes\tFALSE\t0"]}
    bad = write_system(tmp_path / "bad.tsv", **kwargs)
    assert evaluate(tmp_path, gold, {"bad": bad}) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}")
    assert expected in err
    assert not (tmp_path / "out").exists()          # nothing written


def test_error_lists_the_first_offending_rows(tmp_path, capsys):
    gold = write_gold(tmp_path / "gold.tsv")
    extra = [f"x{i}\tTRUE\tFALSE\t0" for i in range(8)]
    bad = write_system(tmp_path / "bad.tsv", extra=extra)
    assert evaluate(tmp_path, gold, {"bad": bad}) == 2
    err = capsys.readouterr().err
    assert f"error: {bad}, row 14: " in err
    assert "row 18: unknown ID 'x4'" in err and "x5" not in err and "(and 3 more)" in err


def test_allow_missing_counts_missing_as_wrong(tmp_path, capsys):
    gold = write_gold(tmp_path / "gold.tsv")
    perfect = write_system(tmp_path / "p.tsv", correct=[[1] * 4] * 3, drop=("0-control", "2-swap-2"))
    assert evaluate(tmp_path, gold, {"p": perfect}, "--allow-missing") == 0
    m = load_metrics(tmp_path)["p"]
    assert m["n_missing"] == 2
    assert m["acc_overall"] == pytest.approx(10 / 12)
    assert m["acc_m"] == pytest.approx(5 / 6) and m["acc_f"] == pytest.approx(5 / 6)
    assert m["i_within"] == pytest.approx(2 / 6)
    out = capsys.readouterr().out
    assert "p: GAP TSV predictions" in out and "2 dataset row(s) missing, counted as wrong" in out
    assert "p: 2 missing ID(s) counted as wrong" in (tmp_path / "out" / "metrics.md").read_text()


def test_incomplete_quadruples_are_named(tmp_path, capsys):
    rows = [r for r in gold_rows() if r[0] not in ("1-swap-2", "2-control")]
    gold = write_gold(tmp_path / "gold.tsv", rows)
    assert evaluate(tmp_path, gold, {"a": write_system(tmp_path / "a.tsv", rows=rows)}) == 2
    err = capsys.readouterr().err
    assert "2 incomplete quadruple(s): 1 (no swap-2), 2 (no control)" in err


def test_quadruple_with_unflipped_gender_is_an_error(tmp_path, capsys):
    rows = [(i, "he", "masculine", a, b) if i == "1-control" else (i, p, g, a, b)
            for i, p, g, a, b in gold_rows()]
    gold = write_gold(tmp_path / "gold.tsv", rows)
    assert evaluate(tmp_path, gold, {"a": write_system(tmp_path / "a.tsv")}) == 2
    assert "do not flip" in capsys.readouterr().err


def test_dataset_errors(tmp_path, capsys):
    rows = gold_rows()
    rows[5] = (rows[5][0], "they", "masculine", True, False)
    assert evaluate(tmp_path, write_gold(tmp_path / "g1.tsv", rows), {"a": write_system(tmp_path / "a.tsv")}) == 2
    assert "row 7: Pronoun='they'" in capsys.readouterr().err
    rows = gold_rows() + [gold_rows()[0]]
    assert evaluate(tmp_path, write_gold(tmp_path / "g2.tsv", rows), {"a": write_system(tmp_path / "a.tsv")}) == 2
    assert "duplicate ID(s) in the dataset: row 14: ID '0' again" in capsys.readouterr().err
    (tmp_path / "g3.tsv").write_text("ID\tPronoun\n0\the\n")
    assert evaluate(tmp_path, tmp_path / "g3.tsv", {"a": write_system(tmp_path / "a.tsv")}) == 2
    assert "lacks column(s) A-coref, B-coref" in capsys.readouterr().err


def test_gap_style_dataset(tmp_path):
    rows = [("test-1", "he", "masculine", True, False), ("test-2", "him", "masculine", False, True),
            ("test-3", "She", "feminine", True, False), ("test-4", "her", "feminine", False, False),
            ("test-5", "hers", "feminine", False, True)]
    gold = write_gold(tmp_path / "gap.tsv", rows)
    system = write_system(tmp_path / "s.tsv", correct=[[1, 0, 1, 1, 0]], rows=rows)
    assert evaluate(tmp_path, gold, {"s": system}) == 0
    m = load_metrics(tmp_path)["s"]
    assert m["view"] == "gap"
    assert m["acc_m"] == pytest.approx(0.5) and m["acc_f"] == pytest.approx(2 / 3)
    assert m["acc_overall"] == pytest.approx(0.6) and m["acc_bias"] == pytest.approx(4 / 3)
    assert "p_acc_diff" in m and "delta_i" not in m
    md = (tmp_path / "out" / "metrics.md").read_text()
    assert "| s | 50.00 | 66.67 | \u221216.67 | 60.00 | 1.333 |" in md
    assert (tmp_path / "out" / "metrics.png").exists()


@pytest.mark.slow
def test_probabilistic_system_gets_exact_expected_scores(tmp_path):
    gold = write_gold(tmp_path / "gold.tsv")
    rng = np.random.default_rng(0)
    lines = ["ID\tA-coref\tB-coref\tA-prob\tB-prob"]
    expected = []
    for i, _, _, a, b in gold_rows():
        pa, pb = rng.uniform(0, 0.5, size=2).round(3)
        lines.append(f"{i}\tFALSE\tFALSE\t{pa}\t{pb}")
        expected.append(pa if a else pb)           # gold is (TRUE, FALSE) or (FALSE, TRUE)
    (tmp_path / "r.tsv").write_text("\n".join(lines))
    assert evaluate(tmp_path, gold, {"r": tmp_path / "r.tsv"}) == 0
    m = load_metrics(tmp_path)["r"]
    assert m["expected_scores"] is True
    assert m["acc_overall"] == pytest.approx(np.mean(expected))
    e = np.array(expected).reshape(3, 4)
    d = lambda p, q: p * (1 - q) + q * (1 - p)   # noqa: E731
    within = (d(e[:, 0], e[:, 1]) + d(e[:, 2], e[:, 3])) / 2
    assert m["i_within"] == pytest.approx(within.mean())


def test_probabilities_must_be_valid(tmp_path, capsys):
    gold = write_gold(tmp_path / "gold.tsv")
    lines = ["ID\tA-coref\tB-coref\tA-prob\tB-prob"]
    lines += [f"{i}\tFALSE\tFALSE\t0.7\t{0.6 if i == '1' else 0.1}" for i, *_ in gold_rows()]
    (tmp_path / "r.tsv").write_text("\n".join(lines))
    assert evaluate(tmp_path, gold, {"r": tmp_path / "r.tsv"}) == 2
    assert "row 6: A-prob + B-prob - AB-prob > 1" in capsys.readouterr().err


def test_ab_prob_gives_the_joint_distribution(tmp_path):
    """AB-prob = P(both TRUE): P(TRUE, FALSE) = A-prob - AB-prob, P(FALSE, TRUE) = B-prob - AB-prob,
    P(FALSE, FALSE) = 1 - A - B + AB. (Gold never has both TRUE: refused, issue 45 item 5.)"""
    rows = [("0", "he", "masculine", True, False), ("1", "she", "feminine", False, False),
            ("2", "she", "feminine", False, True)]
    gold = write_gold(tmp_path / "gap.tsv", rows)
    (tmp_path / "r.tsv").write_text("ID\tA-coref\tB-coref\tA-prob\tB-prob\tAB-prob\n"
                                    "0\tTRUE\tFALSE\t0.5\t0.4\t0.1\n1\t\t\t0.5\t0.4\t0.1\n"
                                    "2\tTRUE\tTRUE\t0.5\t0.4\t0.1")
    assert evaluate(tmp_path, gold, {"r": tmp_path / "r.tsv"}) == 0
    m = load_metrics(tmp_path)["r"]
    assert m["acc_m"] == pytest.approx(0.5 - 0.1)
    assert m["acc_f"] == pytest.approx(((1 - 0.5 - 0.4 + 0.1) + (0.4 - 0.1)) / 2)


@pytest.mark.slow
def test_seed_and_resamples_options(tmp_path):
    rows = gold_rows(40)
    gold = write_gold(tmp_path / "gold.tsv", rows)
    correct = (np.random.default_rng(0).random((40, 4)) < 0.6).astype(int).tolist()
    sys_a = write_system(tmp_path / "a.tsv", correct=correct, rows=rows)
    runs = {}
    for tag, seed in (("x", "1"), ("y", "1"), ("z", "2")):
        assert main(["evaluate", "--dataset", str(gold), "--system", f"a={sys_a}", "--out",
                     str(tmp_path / tag), "--resamples", "50", "--seed", seed]) == 0
        runs[tag] = json.loads((tmp_path / tag / "metrics.json").read_text())["a"]
    assert runs["x"] == runs["y"]
    assert runs["x"]["resamples"] == 50 and runs["z"]["seed"] == 2
    assert runs["x"]["ci99_delta_i"] != runs["z"]["ci99_delta_i"]


def test_weights_real_run(tmp_path):
    """A real --weights run: uniform weights give the unweighted accuracies; weights that keep
    only the masculine examples leave the feminine accuracy undefined or unchanged."""
    from pipeline.core.weights import weighted_bias_scores

    w = tmp_path / "w.json"
    w.write_text(json.dumps({i: 1.0 for i, *_ in gold_rows()}))
    gold = write_gold(tmp_path / "gold.tsv")
    assert evaluate(tmp_path, gold, {"a": write_system(tmp_path / "a.tsv")}, "--weights", f"lp={w}") == 0
    m = load_metrics(tmp_path)["a"]
    got = m["weighted"]["lp"]
    import pandas as pd

    g = pd.DataFrame([(i, p, a, b) for i, p, _, a, b in gold_rows()], columns=["ID", "Pronoun", "A-coref", "B-coref"])
    flat = [c for q in CORRECT for c in q]
    s = pd.DataFrame([(i, a if ok else b, b if ok else a) for (i, _, _, a, b), ok in zip(gold_rows(), flat)],
                     columns=["ID", "A-coref", "B-coref"])
    expected = weighted_bias_scores(g, s, {i: 1.0 for i, *_ in gold_rows()})
    for k, v in expected.items():
        if isinstance(v, float):
            assert got[k] == pytest.approx(v), k
    md = (tmp_path / "out" / "metrics.md").read_text()
    assert "### Weighted scores" in md and "| a | lp |" in md


def test_sowinobias_dataset_real_run(tmp_path):
    """A dataset with a pro/anti ``set`` column is scored as SoWinoBias (no stub)."""
    ds = tmp_path / "sowino.tsv"
    ds.write_text("ID\tset\tpolarity\tpair_id\tPronoun\tA-coref\tB-coref\n"
                  "p1\tpro\tpositive\tq1\tthey\tFALSE\tTRUE\na1\tanti\tpositive\tq1\tthey\tFALSE\tTRUE\n"
                  "p2\tpro\tnegative\tq2\tthey\tFALSE\tTRUE\na2\tanti\tnegative\tq2\tthey\tFALSE\tTRUE\n")
    sysout = tmp_path / "s.tsv"
    sysout.write_text("ID\tA-coref\tB-coref\np1\tFALSE\tTRUE\na1\tTRUE\tFALSE\np2\tFALSE\tTRUE\na2\tFALSE\tTRUE")
    assert evaluate(tmp_path, ds, {"s": sysout}) == 0
    m = load_metrics(tmp_path)["s"]
    assert m["acc_pro"] == 1.0 and m["acc_anti"] == 0.5 and m["bias"] == 0.5 and m["n_pairs"] == 2
    assert (tmp_path / "out" / "sowinobias.md").exists() and (tmp_path / "out" / "sowinobias.png").exists()
    import pandas as pd

    ans = pd.read_parquet(tmp_path / "out" / "answers.parquet").set_index("id")   # no texts needed
    assert ans.loc["a1", "answer"] == "A" and ans.loc["a1", "gold"] == "B" and not ans.loc["a1", "correct"]
    assert ans.loc["a1", "variant"] == "anti" and ans.loc["a1", "quadruple_id"] == "q1"


def test_bad_option_values(tmp_path, capsys):
    gold = write_gold(tmp_path / "gold.tsv")
    a = write_system(tmp_path / "a.tsv")
    assert evaluate(tmp_path, gold, {"a": a}, "--system", f"a={a}") == 2
    assert "given more than once: a" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["evaluate", "--dataset", str(gold), "--system", "nofile", "--out", str(tmp_path)])
    w = tmp_path / "w.json"
    w.write_text('["not", "a", "mapping"]')
    assert evaluate(tmp_path, gold, {"a": a}, "--weights", f"x={w}") == 2
    assert "weights must be a JSON object" in capsys.readouterr().err


def test_help_lists_the_system_formats(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["evaluate", "--help"])
    assert exc.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "JSON lines with clusters" in text and "CoNLL-2012 response" in text and "--write-conll" in text
