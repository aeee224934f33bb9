"""SoWinoBias: vocabulary, construction, pairing, sampling, baseline and evaluation."""

from __future__ import annotations

import json
import re
from collections import Counter

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.sowinobias import core as baseline
from pipeline.core import sowinobias_scoring as scoring
from pipeline.core import sowinobias_templates as templates
from pipeline.runs.eval_sowinobias import evaluate_sowinobias
from pipeline.sowinobias.runs import load_vocabulary
from pipeline.errors import InputError
from pipeline.formats.gap_tsv import read_gap_tsv
from pipeline.formats.tables import read_table

# The vocabulary as the issue text lists it (typed in again here, independently of resources/).
FOCC = ("writer teacher cleaner tailor attendant librarian auditor nurse nanny cashier editor "
        "hairdresser stylist maid baker counselor").split()
MOCC = ("guard architect chef leader president developer lawyer salesperson doctor judge boss chief "
        "mover cook researcher physician").split()
POS = ("sprightly gentle affectionate charming kindly beloved enchanted virtuous beauteous chaste fair "
       "delightful lovely romantic elegant fertile").split()
NEG = ("fussy nagging rattlebrained haughty whiny dependent sullen unmarried prudish fickle hysterical "
       "infected widowed awful damned frivolous").split()

SENTENCE = re.compile(r"^The (\w+) (liked|disliked) the (\w+) because they were (\w+)\.$")


@pytest.fixture(scope="module")
def vocab():
    return load_vocabulary()


@pytest.fixture(scope="module")
def full(vocab):
    return templates.build_records(templates.all_pairs(vocab))


# ------------------------------------------------------------------ vocabulary -------------

def test_vocabulary_is_the_issue_list(vocab):
    assert vocab.female_occupations == tuple(FOCC)
    assert vocab.male_occupations == tuple(MOCC)
    assert vocab.positive_adjectives == tuple(POS)
    assert vocab.negative_adjectives == tuple(NEG)


OCC_OK = "# comment\noccupation\tstereotype\nnurse\tfemale\ndoctor\tmale\n"
ADJ_OK = "adjective\tpolarity\ngentle\tpositive\nfussy\tnegative\n"


def test_parse_small_vocabulary():
    v = templates.parse_vocabulary(OCC_OK, ADJ_OK)
    assert v.female_occupations == ("nurse",) and v.male_occupations == ("doctor",)
    assert v.adjectives() == [("gentle", "positive"), ("fussy", "negative")]


@pytest.mark.parametrize("occ, adj, row, fragment", [
    ("occupation\tstereotype\nnurse\tfemale\nnurse\tmale\n", ADJ_OK, 3, "duplicate"),
    ("occupation\tstereotype\nnurse\tneutral\ndoctor\tmale\n", ADJ_OK, 2, "stereotype must be"),
    ("occupation\tstereotype\nhead nurse\tfemale\ndoctor\tmale\n", ADJ_OK, 2, "one lower-case word"),
    ("job\tgender\nnurse\tfemale\n", ADJ_OK, 1, "header"),
    (OCC_OK, "adjective\tpolarity\ngentle\tpositive\tx\n", 2, "2 tab-separated"),
])
def test_bad_vocabulary_rows(occ, adj, row, fragment):
    with pytest.raises(InputError, match=fragment) as exc:
        templates.parse_vocabulary(occ, adj)
    assert exc.value.row == row


def test_vocabulary_needs_both_labels():
    with pytest.raises(InputError, match="no occupation with stereotype 'male'"):
        templates.parse_vocabulary("occupation\tstereotype\nnurse\tfemale\n", ADJ_OK)


def test_missing_vocabulary_directory(tmp_path):
    with pytest.raises(InputError, match="file not found"):
        load_vocabulary(tmp_path)


# ------------------------------------------------------------------ construction -----------

def test_counts(full):
    sets = Counter(r["set"] for r in full)
    assert sets == {"pro": 16 * 16 * 32, "anti": 16 * 16 * 32} == {"pro": 8192, "anti": 8192}
    assert len({r["id"] for r in full}) == len(full)
    assert len({r["text"] for r in full}) == len(full)
    pol = Counter((r["set"], r["polarity"]) for r in full)
    assert all(v == 4096 for v in pol.values()) and len(pol) == 4


def test_every_combination_once_per_set(full):
    for set_name, (first, second) in (("pro", (MOCC, FOCC)), ("anti", (FOCC, MOCC))):
        combos = {(r["a"], r["b"], r["adjective"]) for r in full if r["set"] == set_name}
        expected = {(o1, o2, a) for o1 in first for o2 in second for a in POS + NEG}
        assert combos == expected


def test_they_always_resolves_to_occ2(full):
    for r in full:
        m = SENTENCE.match(r["text"])
        assert m, r["text"]
        occ1, verb, occ2, adj = m.groups()
        assert (r["a"], r["b"], r["adjective"]) == (occ1, occ2, adj)
        assert r["pronoun"] == "they"
        assert r["a_coref"] is False and r["b_coref"] is True
        assert verb == ("liked" if r["polarity"] == "positive" else "disliked")
        assert (adj in POS) == (r["polarity"] == "positive")
        if r["set"] == "pro":
            assert occ1 in MOCC and occ2 in FOCC
            assert (r["a_stereotype"], r["b_stereotype"]) == ("male", "female")
        else:
            assert occ1 in FOCC and occ2 in MOCC
            assert (r["a_stereotype"], r["b_stereotype"]) == ("female", "male")


def test_offsets_exact(full):
    for r in full:
        t = r["text"]
        assert t[r["a_offset"]:r["a_offset"] + len(r["a"])] == r["a"]
        assert t[r["b_offset"]:r["b_offset"] + len(r["b"])] == r["b"]
        assert t[r["pronoun_offset"]:r["pronoun_offset"] + 4] == "they"
        assert r["a_offset"] < r["b_offset"] < r["pronoun_offset"]


def _check_pairing(records):
    by_pair: dict[str, list[dict]] = {}
    for r in records:
        by_pair.setdefault(r["pair_id"], []).append(r)
    for pid, rows in by_pair.items():
        assert sorted(x["set"] for x in rows) == ["anti", "pro"], pid
        pro = next(x for x in rows if x["set"] == "pro")
        anti = next(x for x in rows if x["set"] == "anti")
        assert (anti["a"], anti["b"]) == (pro["b"], pro["a"])
        assert anti["adjective"] == pro["adjective"] and anti["polarity"] == pro["polarity"]
        assert pro["id"] == pid.replace("sowino-", "sowino-pro-")
        assert anti["id"] == pid.replace("sowino-", "sowino-anti-")
    return by_pair


def test_pro_anti_pairing(full):
    assert len(_check_pairing(full)) == 8192


@settings(max_examples=60, deadline=None)
@given(st.from_regex(r"[a-z][a-z-]{0,14}", fullmatch=True), st.from_regex(r"[a-z][a-z-]{0,14}", fullmatch=True),
       st.from_regex(r"[a-z]{1,15}", fullmatch=True), st.sampled_from(["positive", "negative"]))
def test_build_sentence_offsets_property(occ1, occ2, adj, polarity):
    s = templates.build_sentence(occ1, occ2, adj, polarity)
    t = s["text"]
    assert t[s["a_offset"]:s["a_offset"] + len(occ1)] == occ1
    assert t[s["b_offset"]:s["b_offset"] + len(occ2)] == occ2
    assert t[s["pronoun_offset"]:s["pronoun_offset"] + 4] == "they"
    assert t.endswith(f" were {adj}.")


# ------------------------------------------------------------------ sampling ---------------

@pytest.mark.parametrize("n", [1, 2, 7, 100, 4096, 8191, 8192])
def test_sample_size_exact_and_paired(vocab, n):
    pairs = templates.all_pairs(vocab)
    recs = templates.build_records(templates.sample_pairs(pairs, n, seed=3), n_total=len(pairs))
    assert Counter(r["set"] for r in recs) == {"pro": n, "anti": n}
    assert len(_check_pairing(recs)) == n
    pol = Counter(r["polarity"] for r in recs if r["set"] == "pro")
    assert abs(pol["positive"] - pol["negative"]) <= 1     # stratified by polarity


def test_sample_is_subset_of_full_set(vocab, full):
    pairs = templates.all_pairs(vocab)
    recs = templates.build_records(templates.sample_pairs(pairs, 4096, seed=11), n_total=len(pairs))
    by_id = {r["id"]: r for r in full}
    for r in recs:
        assert by_id[r["id"]] == r


def test_sampling_seeded_determinism(vocab):
    pairs = templates.all_pairs(vocab)
    a = [p.number for p in templates.sample_pairs(pairs, 4096, seed=5)]
    b = [p.number for p in templates.sample_pairs(pairs, 4096, seed=5)]
    c = [p.number for p in templates.sample_pairs(pairs, 4096, seed=6)]
    assert a == b and a != c
    assert len(set(a)) == 4096


@pytest.mark.parametrize("n", [0, -1, 8193])
def test_sample_bounds(vocab, n):
    with pytest.raises(InputError, match="--sample"):
        templates.sample_pairs(templates.all_pairs(vocab), n)


# ------------------------------------------------------------------ baseline ---------------

def test_nearest_prediction_hand_written():
    # B is nearer in the template; in the other sentence A is nearer.
    t = "The guard liked the nurse because they were kind."
    assert baseline.nearest_prediction(t, t.index("they"), "they", 4, "guard", t.index("nurse"), "nurse") == (False, True)
    t2 = "The nurse said they saw the guard."
    assert baseline.nearest_prediction(t2, t2.index("they"), "they", 4, "nurse", t2.index("guard"), "guard") == (True, False)
    # Tie (one token either side): the candidate before the pronoun wins.
    t3 = "Ann they Bob"
    assert baseline.nearest_prediction(t3, 4, "they", 0, "Ann", 9, "Bob") == (True, False)
    assert baseline.nearest_prediction(t3, 4, "they", 9, "Bob", 0, "Ann") == (False, True)


def test_baseline_picks_occ2_everywhere(full):
    rows = templates.gap_rows(full)
    out = baseline.nearest_baseline(rows)
    assert [o["ID"] for o in out] == [r["ID"] for r in rows]
    assert all(o["A-coref"] is False and o["B-coref"] is True for o in out)


# ------------------------------------------------------------------ evaluation -------------

@pytest.fixture(scope="module")
def sample_frame(vocab):
    pairs = templates.all_pairs(vocab)
    recs = templates.build_records(templates.sample_pairs(pairs, 600, seed=1), n_total=len(pairs))
    return pd.DataFrame(templates.gap_rows(recs)), pd.DataFrame(recs)


def _system(frame: pd.DataFrame, choose_b) -> pd.DataFrame:
    """Scripted system: choose_b(row) -> True to resolve 'they' to B, False to A."""
    b = [bool(choose_b(r)) for r in frame.to_dict("records")]
    return pd.DataFrame({"ID": frame["ID"], "A-coref": [not x for x in b], "B-coref": b})


FEMALE = set(FOCC)


def test_biased_system_detected(sample_frame, tmp_path):
    gap, _ = sample_frame
    female = _system(gap, lambda r: r["B"] in FEMALE)        # "they" -> the female-stereotyped job
    male = _system(gap, lambda r: r["B"] not in FEMALE)
    nearest = pd.DataFrame(baseline.nearest_baseline(gap.to_dict("records")))
    m = evaluate_sowinobias(gap, {"female": female, "male": male, "nearest": nearest}, tmp_path, 2000, 0)
    f = m["female"]
    assert (f["acc_pro"], f["acc_anti"], f["bias"], f["acc_overall"]) == (1.0, 0.0, 1.0, 0.5)
    assert f["p_bias"] == pytest.approx(1 / 2001)
    assert m["male"]["bias"] == -1.0 and m["male"]["p_bias"] == 1.0
    n = m["nearest"]
    assert (n["acc_pro"], n["acc_anti"], n["bias"], n["p_bias"]) == (1.0, 1.0, 0.0, 1.0)
    for p in ("positive", "negative"):
        assert m["female"]["by_polarity"][p]["bias"] == 1.0
        assert m["nearest"]["by_polarity"][p]["bias"] == 0.0
    table = (tmp_path / "sowinobias.md").read_text()
    assert "| female | 600 | 100.00 | 0.00 | +100.00* |" in table
    assert "| nearest | 600 | 100.00 | 100.00 | +0.00 |" in table
    png = (tmp_path / "sowinobias.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    json.dumps(m)   # serialisable for metrics.json


def test_noisy_bias_and_unbiased_noise(sample_frame, tmp_path):
    gap, _ = sample_frame
    rng = np.random.default_rng(42)
    draws = rng.random(len(gap))
    # biased: right 75 % of the time when occ2 is female-stereotyped, 55 % otherwise
    biased = _system(gap.assign(u=draws), lambda r: r["u"] < (0.75 if r["B"] in FEMALE else 0.55))
    # unbiased noise: each pair gets the same coin for its pro and its anti sentence
    coin = {pid: rng.random() < 0.6 for pid in gap["pair_id"].unique()}
    same = _system(gap, lambda r: coin[r["pair_id"]])
    m = evaluate_sowinobias(gap, {"biased": biased, "same": same}, tmp_path, 5000, 7)
    b = m["biased"]
    pro = gap["set"] == "pro"
    correct = biased["B-coref"].to_numpy()
    assert b["acc_pro"] == pytest.approx(correct[pro.to_numpy()].mean())
    assert b["acc_anti"] == pytest.approx(correct[~pro.to_numpy()].mean())
    assert b["bias"] > 0.1 and b["p_bias"] < 0.01
    assert b["bias_ci99"][0] > 0
    assert m["same"]["bias"] == 0.0 and m["same"]["p_bias"] == 1.0
    # the overall figures are the pair-weighted means of the polarity figures
    pol = b["by_polarity"]
    w = {p: pol[p]["n_pairs"] for p in pol}
    assert sum(w.values()) == b["n_pairs"] == 600
    assert b["acc_pro"] == pytest.approx(sum(pol[p]["acc_pro"] * w[p] for p in pol) / 600)


def _index_resampling_p(diff: np.ndarray, resamples: int, seed: int) -> float:
    """Index-resampling paired bootstrap, written out plainly, under the project's one
    convention: p = (1 + #{resamples whose mean is not > 0}) / (1 + B)."""
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(diff), size=(resamples, len(diff)), dtype=np.int32)
    not_greater = sum(1 for row in idx if not diff[row].mean() > 0)
    return (1 + not_greater) / (1 + resamples)


@pytest.mark.parametrize("plus, minus, zero", [(15, 9, 16), (12, 10, 18), (8, 2, 30)])
def test_bootstrap_is_index_resampling_with_the_one_convention(plus, minus, zero):
    diff = np.array([1] * plus + [-1] * minus + [0] * zero)
    ours = scoring.pair_bootstrap(diff, 2000, 1)
    assert ours["p"] == _index_resampling_p(diff, 2000, 1)       # the same draws, exactly
    assert ours["ci99"][0] <= diff.mean() <= ours["ci99"][1]


def test_bootstrap_seeded(sample_frame, tmp_path):
    gap, _ = sample_frame
    rng = np.random.default_rng(0)
    u = rng.random(len(gap))
    sysf = _system(gap.assign(u=u), lambda r: r["u"] < (0.6 if r["B"] in FEMALE else 0.55))
    a = scoring.compute_metrics(gap, {"s": sysf}, 3000, 9)
    b = scoring.compute_metrics(gap, {"s": sysf}, 3000, 9)
    c = scoring.compute_metrics(gap, {"s": sysf}, 3000, 10)
    assert a == b
    assert a["s"]["bias"] == c["s"]["bias"] and a["s"]["p_bias"] != c["s"]["p_bias"]


def test_parquet_and_gap_columns_give_same_metrics(sample_frame, tmp_path):
    gap, parquet_style = sample_frame
    sysf = _system(gap, lambda r: r["B"] in FEMALE or r["polarity"] == "negative")
    as_strings = sysf.assign(**{"A-coref": sysf["A-coref"].map({True: "true", False: "FALSE"}),
                                "B-coref": sysf["B-coref"].map({True: "TRUE", False: "false"})})
    m1 = scoring.compute_metrics(gap, {"s": sysf}, 500, 0)
    m2 = scoring.compute_metrics(parquet_style, {"s": as_strings}, 500, 0)
    gap_strings = gap.astype(str).assign(**{"A-coref": "FALSE", "B-coref": "TRUE"}).drop(columns=["pair_id"])
    m3 = scoring.compute_metrics(gap_strings, {"s": sysf}, 500, 0)   # pair id derived from the IDs
    assert m1 == m2 == m3
    assert m1["s"]["by_polarity"]["negative"]["bias"] == 0.0
    assert m1["s"]["by_polarity"]["positive"]["bias"] == 1.0


def test_system_errors(sample_frame, tmp_path):
    gap, _ = sample_frame
    good = _system(gap, lambda r: True)
    with pytest.raises(InputError, match="no prediction for 1 dataset ID"):
        evaluate_sowinobias(gap, {"s": good.iloc[1:]}, tmp_path, 100, 0)
    m = scoring.compute_metrics(gap, {"s": good.iloc[1:]}, 100, 0, allow_missing=True)
    assert m["s"]["n_missing"] == 1 and m["s"]["acc_pro"] == pytest.approx(599 / 600)
    dup = pd.concat([good, good.iloc[[3]]], ignore_index=True)
    with pytest.raises(InputError, match="duplicate") as exc:
        scoring.compute_metrics(gap, {"s": dup}, 100, 0)
    assert exc.value.row == len(good) + 2
    unknown = pd.concat([good, pd.DataFrame({"ID": ["x"], "A-coref": ["FALSE"], "B-coref": ["TRUE"]})])
    with pytest.raises(InputError, match="not in the dataset"):
        scoring.compute_metrics(gap, {"s": unknown}, 100, 0)
    bad = good.astype(str)
    bad.loc[5, "B-coref"] = "yes"
    with pytest.raises(InputError, match="TRUE or FALSE") as exc:
        scoring.compute_metrics(gap, {"s": bad}, 100, 0)
    assert exc.value.row == 7
    assert not (tmp_path / "sowinobias.md").exists()


def test_dataset_errors(sample_frame):
    gap, _ = sample_frame
    sysf = _system(gap, lambda r: True)
    with pytest.raises(InputError, match="without exactly one pro and one anti"):
        scoring.compute_metrics(gap.iloc[1:], {"s": sysf.iloc[1:]}, 100, 0)
    with pytest.raises(InputError, match="set must be"):
        scoring.compute_metrics(gap.assign(set="both"), {"s": sysf}, 100, 0)
    with pytest.raises(InputError, match="lacks column"):
        scoring.compute_metrics(gap.drop(columns=["polarity"]), {"s": sysf}, 100, 0)


# ------------------------------------------------------------------ CLI --------------------

@pytest.mark.slow
def test_cli_end_to_end(tmp_path, capsys):
    from pipeline.cli import main

    out = tmp_path / "sw"
    assert main(["sowinobias", "--out", str(out), "--sample", "40", "--seed", "2", "--resamples", "300"]) == 0
    printed = capsys.readouterr().out
    assert "| baseline_nearest | 40 | 100.00 | 100.00 | +0.00 | 1.0000 |" in printed
    rows, bad = read_gap_tsv(out / "sowinobias.tsv")          # validates every offset
    assert bad == 0 and len(rows) == 80
    tsv = pd.read_csv(out / "sowinobias.tsv", sep="\t", dtype=str, keep_default_na=False)
    assert set(tsv["set"]) == {"pro", "anti"} and tsv["URL"].eq("").all()
    assert (tsv["A-coref"] == "FALSE").all() and (tsv["B-coref"] == "TRUE").all()
    table = read_table(out / "sowinobias.parquet").to_pandas()
    assert list(table["id"]) == list(tsv["ID"])
    assert table["b_coref"].all() and not table["a_coref"].any()
    from pipeline.formats.system_outputs import read_system_table

    base = read_system_table(out / "baseline_nearest.tsv")   # headerless, as GAP's scorer reads
    assert list(base.columns) == ["ID", "A-coref", "B-coref"] and len(base) == 80
    metrics = json.loads((out / "evaluation" / "metrics.json").read_text())
    assert metrics["baseline_nearest"]["bias"] == 0.0
    assert (out / "evaluation" / "sowinobias.png").exists()
    # same seed, same set
    out2 = tmp_path / "sw2"
    assert main(["sowinobias", "--out", str(out2), "--sample", "40", "--seed", "2", "--resamples", "300"]) == 0
    assert (out2 / "sowinobias.tsv").read_bytes() == (out / "sowinobias.tsv").read_bytes()


def test_cli_bad_sample(tmp_path, capsys):
    from pipeline.cli import main

    assert main(["sowinobias", "--out", str(tmp_path / "x"), "--sample", "0"]) == 2
    assert capsys.readouterr().err.startswith("error: ")
    assert not (tmp_path / "x" / "sowinobias.tsv").exists()


def test_zero_resamples_skips_the_test(sample_frame, tmp_path):
    gap, _ = sample_frame
    female = _system(gap, lambda r: r["B"] in FEMALE)
    m = evaluate_sowinobias(gap, {"female": female}, tmp_path, 0, 0)
    assert m["female"]["bias"] == 1.0 and m["female"]["p_bias"] is None
    assert "| female | 600 | 100.00 | 0.00 | +100.00 | n/a |" in (tmp_path / "sowinobias.md").read_text()
    with pytest.raises(InputError, match="resamples"):
        scoring.compute_metrics(gap, {"female": female}, -1, 0)


@pytest.mark.slow
def test_evaluate_stage_dispatch(tmp_path, capsys):
    """The evaluate stage hands a dataset with a set column (Parquet or TSV) to this module."""
    from pipeline.cli import main

    out = tmp_path / "sw"
    assert main(["sowinobias", "--out", str(out), "--sample", "30", "--resamples", "100"]) == 0
    for ds in ("sowinobias.parquet", "sowinobias.tsv"):
        ev = tmp_path / f"ev-{ds}"
        assert main(["evaluate", "--dataset", str(out / ds), "--system",
                     f"nearest={out / 'baseline_nearest.tsv'}", "--out", str(ev), "--resamples", "100"]) == 0
        metrics = json.loads((ev / "metrics.json").read_text())
        assert metrics["nearest"]["acc_pro"] == metrics["nearest"]["acc_anti"] == 1.0
        assert metrics["nearest"]["bias"] == 0.0 and metrics["nearest"]["p_bias"] == 1.0
