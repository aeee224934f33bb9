"""xrenner for real (rule-based, offline) on the published development quadruples, in one
command line: ``evaluate --system xrenner=xrenner``; the per-row answers agree with an
independent recount from the cluster file. Skips without xrenner or ../shared."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("xrenner", reason="xrenner not installed (pip install --no-deps xrenner==2.2.1.1)")

pytestmark = pytest.mark.shared


def _recount(doc, row):
    """Independent of pipeline.core: the pronoun's mention is the shortest mention containing
    the pronoun's characters; a candidate is coreferent when it overlaps another mention of
    that cluster."""
    p0, p1 = row["Pronoun-offset"], row["Pronoun-offset"] + len(row["Pronoun"])
    best = None
    for cluster in doc["clusters"]:
        for s, e in cluster:
            if s <= p0 and p1 <= e and (best is None or e - s < best[0]):
                best = (e - s, cluster, (s, e))
    if best is None:
        return False, False
    others = [m for m in best[1] if tuple(m) != best[2]]

    def hit(off, name):
        return any(s < off + len(name) and off < e for s, e in others)

    return hit(row["A-offset"], row["A"]), hit(row["B-offset"], row["B"])


@pytest.mark.slow
def test_xrenner_on_the_development_quadruples(shared_dir, tmp_path, capsys):
    from pipeline.cli import main
    from pipeline.formats.gap_tsv import read_gap_tsv

    dev = shared_dir / "reference" / "counter-gap-dev" / "C-GAP-withdot.dev.tsv"
    if not dev.exists():
        pytest.skip("no development quadruples in ../shared")
    out = tmp_path / "eval"
    assert main(["evaluate", "--dataset", str(dev), "--system", "xrenner=xrenner", "--out", str(out),
                 "--resamples", "1000", "--batch-size", "16", "--report"]) == 0
    said = capsys.readouterr().out
    m = json.loads((out / "metrics.json").read_text())["xrenner"]
    assert m["n_quadruples"] == 75 and m["n_unaligned"] == 0 and m["n_failed"] == 0, said
    assert m["acc_overall"] == pytest.approx(142 / 300)          # docs/evaluate.md: 47.33
    docs = {json.loads(ln)["doc_key"]: json.loads(ln) for ln in
            (out / "predictions" / "xrenner.jsonl").read_text(encoding="utf-8").splitlines()}
    rows, _ = read_gap_tsv(dev)
    ans = pd.read_parquet(out / "answers.parquet").set_index("id")
    assert len(ans) == 300 and ans["answered"].all()
    right = {"masculine": [], "feminine": []}
    for r in rows:
        a, b = _recount(docs[r["ID"]], r)
        given = "both" if a and b else "A" if a else "B" if b else "neither"
        gold = "A" if r["A-coref"] else "B" if r["B-coref"] else "neither"
        got = ans.loc[r["ID"]]
        assert (got["answer"], got["gold"], bool(got["correct"])) == (given, gold, given == gold), r["ID"]
        right["feminine" if r["Pronoun"].lower() in ("she", "her", "hers", "herself") else "masculine"].append(
            given == gold)
    assert np.mean(right["masculine"]) == pytest.approx(m["acc_m"])
    assert np.mean(right["feminine"]) == pytest.approx(m["acc_f"])
    # the system's answers are those of the predict TSV (no header line) as well
    tsv = dict(ln.split("\t", 1) for ln in (out / "predictions" / "xrenner.tsv").read_text().splitlines())
    assert len(tsv) == 300 and tsv[rows[0]["ID"]].split("\t")[0] == str(bool(ans.loc[rows[0]["ID"], "a_coref"])).upper()
    assert (out / "report.html").exists()
