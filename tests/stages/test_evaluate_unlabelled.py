"""Bias before annotation: predict and evaluate on quadruples without gold labels (generate's
output), figures counted by hand on small hand-made files (issue 46, item 2)."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.formats import schemas
from pipeline.formats.tables import write_records
from pipeline.systems.registry import systems
from tests.stages.test_evaluate_systems import dataset_rows

VARIANTS = ["original", "control", "swap-1", "swap-2"]
SUFFIX = {"original": "", "control": "-control", "swap-1": "-swap-1", "swap-2": "-swap-2"}
OTHER = {"masculine": "feminine", "feminine": "masculine"}


def write_unlabelled(path, original_genders):
    """Quadruples as generate writes them before annotation: a_coref / b_coref empty."""
    recs = []
    for q, og in enumerate(original_genders):
        for v in VARIANTS:
            g = og if v in ("original", "control") else OTHER[og]
            recs.append({"id": f"{q}{SUFFIX[v]}", "quadruple_id": str(q), "variant": v, "pronoun_gender": g,
                         "original_gender": og, "pronoun": "he" if g == "masculine" else "she",
                         "a_coref": None, "b_coref": None, "names": []})
    write_records(recs, path, schemas.QUADRUPLES, fill_missing=True)
    return path


def write_answers(path, answers):
    """GAP TSV predictions (no header line); None: the row is missing."""
    lines = []
    for q, row in enumerate(answers):
        for v, a in zip(VARIANTS, row):
            if a is not None:
                lines.append(f"{q}{SUFFIX[v]}\t{'TRUE' if a in ('A', 'both') else 'FALSE'}\t"
                             f"{'TRUE' if a in ('B', 'both') else 'FALSE'}")
    path.write_text("\n".join(lines) + "\n")
    return path


def test_evaluate_unlabelled_figures_counted_by_hand(tmp_path, capsys):
    data = write_unlabelled(tmp_path / "q.parquet", ["masculine", "feminine", "masculine", "feminine"])
    sys_ = write_answers(tmp_path / "s.tsv", [
        ["A", "A", "B", "B"],                       # q0 (M): within 0 + 0; across 4 of 4 pairs differ
        ["A", "B", "A", "A"],                       # q1 (F): within 1 (x_o/x_c) + 0; across 2 of 4
        ["neither", "neither", "neither", "both"],  # q2 (M): within 0 + 1 (x~_o/x~_c); across 2 of 4
        ["A", "A", "B", None],                      # q3: swap-2 unanswered -> left out
    ])
    out = tmp_path / "ev"
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={sys_}", "--out", str(out),
                 "--allow-missing", "--resamples", "500", "--report"]) == 0
    m = json.loads((out / "metrics.json").read_text())["s"]
    # by hand: per quadruple within = mean of its two within pairs, across = mean of its four
    # across pairs: q0 (0, 1), q1 (0.5, 0.5), q2 (0.5, 0.5)
    assert m["labelled"] is False and m["view"] == "counter-gap-unlabelled"
    assert (m["n_quadruples"], m["n_quadruples_scored"], m["n_quadruples_unanswered"]) == (4, 3, 1)
    assert m["i_within"] == pytest.approx((0 + 0.5 + 0.5) / 3)
    assert m["i_across"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    assert m["delta_i"] == pytest.approx(1 / 3)
    # the masculine within pair: q0 x_o/x_c 0, q1 x~_o/x~_c 0, q2 x_o/x_c 0; the feminine one: 0, 1, 1
    assert m["i_within_m"] == pytest.approx(0) and m["i_within_f"] == pytest.approx(2 / 3)
    assert m["i_across_m2f"] == pytest.approx((1 + 0.5) / 2) and m["i_across_f2m"] == pytest.approx(0.5)
    # the bootstrap is run and reported, but 3 quadruples cannot reach p < 0.01
    assert m["resamples"] == 500 and "p_delta_i" in m and m["testable"] is False
    # answers per variant, over every answered row of the file (q3 included)
    orig = m["answers_by_variant"]["original"]
    assert (orig["A"], orig["B"], orig["both"], orig["neither"]) == (0.75, 0.0, 0.0, 0.25)
    sw2 = m["answers_by_variant"]["swap-2"]
    assert sw2["n_unanswered"] == 1 and sw2["A"] == sw2["B"] == sw2["both"] == pytest.approx(1 / 3)
    assert "acc_m" not in m and "Acc_Diff" in m["need_gold"]
    md = (out / "metrics.md").read_text()
    assert "| s | 33.33 (0.00 / 66.67) | 66.67 (75.00 / 50.00) | +33.33 |" in md
    assert "**Need labels** (not computed): Acc_M, Acc_F, Acc_Diff" in md
    said = capsys.readouterr().out
    assert "no gold labels:" in said and "need labels" in said and "their quadruples left out" in said
    ans = pd.read_parquet(out / "answers.parquet")
    assert len(ans) == 16 and ans["gold"].isna().all() and ans["correct"].isna().all()
    assert ans.loc[ans["id"] == "3-swap-2", "error"].item() == "missing from the system output"
    page = (out / "report.md").read_text()
    assert (out / "report.html").exists() and "| 0 | ? ? ? ? | A A B B ≠ |" in page
    assert "3 quadruple(s) answered differently across their variants" in page and "✓" not in page


def test_evaluate_unlabelled_delta_i_significant_with_its_bound(tmp_path):
    # 20 quadruples answered A A B B: every across pair differs, no within pair: Delta-I = 1
    data = write_unlabelled(tmp_path / "q.parquet", ["masculine", "feminine"] * 10)
    sys_ = write_answers(tmp_path / "s.tsv", [["A", "A", "B", "B"]] * 19 + [["A", "A", "A", "A"]])
    out = tmp_path / "ev"
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={sys_}", "--out", str(out),
                 "--resamples", "1000"]) == 0
    m = json.loads((out / "metrics.json").read_text())["s"]
    assert m["i_within"] == 0 and m["i_across"] == pytest.approx(19 / 20) and m["testable"]
    assert m["p_delta_i"] < 0.01 and m["bound99_delta_i"]["side"] == "lower"
    assert m["bound99_delta_i"]["bound"] > 0
    md = (out / "metrics.md").read_text()
    assert "| +95.00* |" in md
    assert "| s | ΔI (H1 > 0) | +95.00* | [+" in md


def test_evaluate_unlabelled_says_what_needs_labels(tmp_path, capsys):
    data = write_unlabelled(tmp_path / "q.parquet", ["masculine"])
    sys_ = write_answers(tmp_path / "s.tsv", [["A", "A", "B", "B"]])
    w = tmp_path / "w.json"
    w.write_text('{"0": 1.0}')
    assert main(["evaluate", "--dataset", str(data), "--system", f"s={sys_}", "--out", str(tmp_path / "o"),
                 "--weights", f"w={w}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "weighted scores need gold labels" in err
    assert main(["evaluate", "--dataset", str(data), "--write-conll", str(tmp_path / "k.conll")]) == 2
    assert "no labels" in capsys.readouterr().err
    # no quadruples and no labels: nothing to measure
    gap = tmp_path / "gap.tsv"
    gap.write_text("ID\tPronoun\tA-coref\tB-coref\n1\the\t\t\n2\tshe\t\t\n")
    assert main(["evaluate", "--dataset", str(gap), "--system", f"s={sys_}", "--out", str(tmp_path / "g")]) == 2
    assert "no gold labels and no quadruples" in capsys.readouterr().err


@systems.register("test-he-is-a")
class HeIsA:
    """'he' corefers with A, 'she' with B (a gender-biased system); fails on the swap-2 text of
    the second quadruple ('Harriet (the baker)')."""

    def __init__(self, model, device="cpu", batch_size=8):
        pass

    def predict(self, texts):
        out = []
        for t in texts:
            if "Harriet (the baker)" in t:
                out.append(RuntimeError("cannot parse Harriet"))
                continue
            r = next(r for r in dataset_rows() if r["Text"] == t)
            p = (r["Pronoun-offset"], r["Pronoun-offset"] + len(r["Pronoun"]))
            c = (r["A-offset"], r["A-offset"] + len(r["A"])) if r["Pronoun"] == "he" else \
                (r["B-offset"], r["B-offset"] + len(r["B"]))
            out.append([[c, p]])
        return out


def test_predict_then_evaluate_on_unlabelled_quadruples(tmp_path, capsys):
    recs = []
    for r in dataset_rows():
        q, _, variant = r["ID"].partition("-")
        recs.append({"id": r["ID"], "quadruple_id": q, "variant": variant or "original",
                     "pronoun_gender": "masculine" if r["Pronoun"] == "he" else "feminine",
                     "text": r["Text"], "pronoun": r["Pronoun"], "pronoun_offset": r["Pronoun-offset"],
                     "a": r["A"], "a_offset": r["A-offset"], "b": r["B"], "b_offset": r["B-offset"],
                     "a_coref": None, "b_coref": None, "names": []})
    data = tmp_path / "quadruples.parquet"
    write_records(recs, data, schemas.QUADRUPLES, fill_missing=True)
    pred = tmp_path / "pred"
    assert main(["predict", "--dataset", str(data), "--system", "h=test-he-is-a", "--out", str(pred),
                 "--no-progress"]) == 0
    said = capsys.readouterr().out
    assert "7/8 documents answered" in said and "no gold labels" in said
    ans = pd.read_parquet(pred / "answers.parquet")
    assert ans["gold"].isna().all() and ans["correct"].isna().all()
    assert list(ans.loc[ans["answered"], "answer"]) == ["A", "A", "B", "B", "A", "A", "B"]
    assert "cannot parse Harriet" in ans.loc[~ans["answered"], "error"].item()
    assert json.loads((pred / "predict.json").read_text())["labelled"] is False
    out = tmp_path / "ev"
    assert main(["evaluate", "--dataset", str(data), "--system", f"h={pred / 'h.jsonl'}", "--out", str(out),
                 "--resamples", "200"]) == 0
    m = json.loads((out / "metrics.json").read_text())["h"]
    # quadruple 0: A A B B -> within 0, across 1; quadruple 1 lacks swap-2 -> left out
    assert (m["n_quadruples_scored"], m["n_failed"]) == (1, 1)
    assert (m["i_within"], m["i_across"], m["delta_i"]) == (0.0, 1.0, 1.0)
