"""The report shows the interval that matches the test: each tested statistic with the one-sided
99 % bound of its one-sided test beside the two-sided 99 % interval, both labelled; a starred
value's bound excludes zero, in the table and in metrics.json (issue 46, item 5)."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from pipeline.cli import main
from tests.stages.test_evaluate import gold_rows, write_gold, write_system


@pytest.mark.slow
def test_star_and_one_sided_bound_agree_in_the_report(tmp_path):
    n = 30
    rows = gold_rows(n)
    # right on every masculine instance, wrong on a third of the feminine ones: Acc_Diff > 0
    rng = np.random.default_rng(3)
    correct = [[int(g == "masculine" or rng.random() > 1 / 3) for (_, _, g, _, _) in rows[4 * q:4 * q + 4]]
               for q in range(n)]
    gold = write_gold(tmp_path / "gold.tsv", rows)
    sys_ = write_system(tmp_path / "s.tsv", correct, rows)
    out = tmp_path / "out"
    assert main(["evaluate", "--dataset", str(gold), "--system", f"s={sys_}", "--out", str(out),
                 "--resamples", "2000", "--report"]) == 0
    m = json.loads((out / "metrics.json").read_text())["s"]
    assert m["p_acc_diff"] < 0.01 and m["bound99_acc_diff"]["side"] == "lower"
    assert m["bound99_acc_diff"]["bound"] > 0
    md = (out / "metrics.md").read_text()
    assert "| model | statistic | value | one-sided 99 % bound (the test's) | two-sided 99 % interval |" in md
    table = [ln for ln in md.splitlines() if ln.startswith("| s | ")][1:]
    assert len(table) == 3
    for line in table:
        _, _, stat, value, bound, two_sided, p, _ = [c.strip() for c in line.split("|")]
        numbers = [float(x.replace("−", "-")) for x in re.findall(r"[+−-]?\d+\.\d+", bound)]
        if value.endswith("*"):      # starred: the bound lies strictly on H1's side of zero
            assert (numbers[0] > 0) if bound.endswith("+∞)") else (numbers[0] < 0), line
            assert float(p) < 0.01
        else:
            assert float(p) >= 0.01 or not m["testable"]
    acc = next(ln for ln in table if "Acc_Diff (H1 > 0)" in ln)
    assert acc.split("|")[3].strip().endswith("*") and "+∞)" in acc
    assert "The star and the one-sided bound come from the same one-sided test" in md
    page = (out / "report.md").read_text()
    assert "one-sided 99 % bound (the test's)" in page and page.count("### Tested statistics") == 1
    assert "one-sided 99 % bound" in (out / "report.html").read_text()
    assert (out / "metrics.png").read_bytes()[:4] == b"\x89PNG"
