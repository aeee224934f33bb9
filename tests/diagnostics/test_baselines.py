"""Name-blind baselines: Random (exact expectations) and Dist-k."""

from __future__ import annotations

import json
from fractions import Fraction

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.diagnostics.core import baselines as B
from pipeline.diagnostics.core.analysis import NameSpan, RankedName
from tests.stages.gap_fixtures import gap_test_features, span_of, starts_of, toy_spans, write_toy_gap


def ranked(*flags):
    """RankedName list from (is_a, is_b) pairs, closest first."""
    return [RankedName(NameSpan(i, i + 1, "X"), i, True, a, b) for i, (a, b) in enumerate(flags)]


def test_dist_k_picks_the_kth_closest_and_abstains_when_too_few():
    names = ranked((False, False), (True, False), (False, True))
    assert B.predict_ranked("dist1", names) == B.Prediction(False, False, 0.0, 0.0, 0.0)
    assert B.predict_ranked("dist2", names) == B.Prediction(True, False, 1.0, 0.0, 0.0)
    assert B.predict_ranked("dist3", names) == B.Prediction(False, True, 0.0, 1.0, 0.0)
    assert B.predict_ranked("dist3", names[:2]) == B.Prediction(False, False, 0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        B.predict_ranked("dist4", names)


def test_random_probabilities_are_exact():
    names = ranked((False, False), (True, False), (False, True), (False, False))
    p = B.predict_ranked("random", names)
    assert (p.a_prob, p.b_prob, p.ab_prob) == (0.25, 0.25, 0.0)
    assert (p.a, p.b) == (False, False)                 # no draw given
    assert B.predict_ranked("random", names, draw=2)[:2] == (False, True)
    assert B.predict_ranked("random", []) == B.Prediction(False, False, 0.0, 0.0, 0.0)
    # one name span that is both candidates' name
    p = B.predict_ranked("random", ranked((True, True), (False, False)))
    assert (p.a_prob, p.b_prob, p.ab_prob) == (0.5, 0.5, 0.5)


@pytest.mark.slow
@given(st.lists(st.tuples(st.booleans(), st.booleans()), max_size=12), st.integers(0, 10**6))
def test_random_is_the_average_of_its_draws(flags, seed):
    names = ranked(*flags)
    p = B.predict_ranked("random", names)
    draws = [B.predict_ranked("random", names, draw=i) for i in range(len(names))]
    if names:
        assert Fraction(p.a_prob).limit_denominator(100) == Fraction(sum(d.a for d in draws), len(names))
        assert Fraction(p.b_prob).limit_denominator(100) == Fraction(sum(d.b for d in draws), len(names))
    rows = B.system_rows("random", ["x"], [names], seed=seed)
    assert rows[0]["A-coref"] in ("TRUE", "FALSE") and float(rows[0]["A-prob"]) == p.a_prob


def test_predict_from_spans_uses_token_distance_and_the_candidates_name():
    text = "Ann met Cleo Rose and she smiled at Bob"
    ts = starts_of(text)
    names = [NameSpan(*span_of(text, w), w) for w in ("Ann", "Cleo Rose", "Bob")]
    pron, a, b = span_of(text, "she"), span_of(text, "Cleo"), span_of(text, "Ann")
    # Cleo Rose: 1 token between; Bob: 2 ("smiled at"); Ann: 4
    assert B.baseline_prediction("dist1", text, pron, a, b, names, ts)[:2] == (True, False)
    assert B.baseline_prediction("dist2", text, pron, a, b, names, ts)[:2] == (False, False)
    assert B.baseline_prediction("dist3", text, pron, a, b, names, ts)[:2] == (False, True)
    p = B.baseline_prediction("random", text, pron, a, b, names, ts)
    assert (p.a_prob, p.b_prob) == (1 / 3, 1 / 3)


def test_baseline_command_writes_gap_system_tsv(tmp_path, nlp):
    from pipeline.cli import main
    from pipeline.formats.system_outputs import read_system_table

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    for kind in B.KINDS:
        out = tmp_path / f"{kind}.tsv"
        assert main(["baseline", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                     "--kind", kind, "--out", str(out), "--no-progress"]) == 0
        df = read_system_table(out)                   # no header line: GAP's scorer layout
        assert not out.read_text().startswith("ID\t")
        assert list(df["ID"]) == ["t1", "t2", "t3", "t4"]
        assert set(df["A-coref"]) | set(df["B-coref"]) <= {"TRUE", "FALSE"}
        if kind == "random":
            assert list(df.columns) == ["ID", "A-coref", "B-coref", "A-prob", "B-prob", "AB-prob"]
            # t1: Ann, Cleo, Bob -> A (Cleo) 1/3, B (Ann) 1/3
            assert float(df["A-prob"][0]) == pytest.approx(1 / 3) and float(df["B-prob"][0]) == pytest.approx(1 / 3)
        else:
            assert list(df.columns) == ["ID", "A-coref", "B-coref"]
    dist1 = read_system_table(tmp_path / "dist1.tsv")
    # t1 Cleo (A) closest; t2 Bob Smith (B); t3 "Dora told Eve that her": Eve (B); t4 Otto: neither
    assert [tuple(r) for r in dist1[["A-coref", "B-coref"]].values] == [
        ("TRUE", "FALSE"), ("FALSE", "TRUE"), ("FALSE", "TRUE"), ("FALSE", "FALSE")]


@pytest.mark.slow
@pytest.mark.shared
def test_gap_test_reference_baselines(shared_dir):
    """Ground-Truth baselines on GAP test ("The Gap on GAP"): accuracy on the positive candidate
    and acc-Bias. Random exactly (expectation), Dist-k within 0.015."""
    from pipeline.core.weights import weighted_bias_scores

    exs, feats = gap_test_features(shared_dir)
    gold = pd.DataFrame({"ID": [e.id for e in exs], "Pronoun": [e.pronoun for e in exs],
                         "A-coref": [e.a_coref for e in exs], "B-coref": [e.b_coref for e in exs]})
    reference = {"random": (0.224, 0.849), "dist1": (0.412, 0.776), "dist2": (0.310, 0.882),
                 "dist3": (0.156, 1.347)}
    for kind, (acc, bias) in reference.items():
        system = pd.DataFrame(B.system_rows(kind, [f.id for f in feats], [f.ranked for f in feats]))
        s = weighted_bias_scores(gold, system)
        if kind == "random":
            assert (round(s["acc"], 3), round(s["acc_bias"], 3)) == (acc, bias)
        else:
            assert s["acc"] == pytest.approx(acc, abs=0.015), kind
            assert s["acc_bias"] == pytest.approx(bias, abs=0.015), kind


def test_baseline_on_quadruples_uses_ner_on_every_variant(tmp_path, nlp):
    from pipeline.cli import main
    from pipeline.formats.tables import write_records
    from pipeline.formats.schemas import QUADRUPLES
    from tests.stages.gap_fixtures import quad_record

    recs = [quad_record("1", "original", "Elizabeth Bennet met Jane Bennet, and she laughed.", "she",
                         "Elizabeth Bennet", "Jane Bennet"),
            quad_record("1", "control", "Elizabeth Bennet met Jane Bennet, and he laughed.", "he",
                         "Elizabeth Bennet", "Jane Bennet")]
    write_records(recs, tmp_path / "q.parquet", QUADRUPLES, fill_missing=True)
    out = tmp_path / "dist1.tsv"
    assert main(["baseline", "--dataset", str(tmp_path / "q.parquet"), "--kind", "dist1",
                 "--out", str(out), "--no-progress"]) == 0
    from pipeline.formats.system_outputs import read_system_table

    df = read_system_table(out)
    assert list(df["ID"]) == ["1", "1-control"]
    # spaCy finds both names in both texts; Jane Bennet is the closest
    assert [tuple(r) for r in df[["A-coref", "B-coref"]].values] == [("FALSE", "TRUE")] * 2
