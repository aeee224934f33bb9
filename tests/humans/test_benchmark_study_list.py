"""`benchmark` with WinoBias and the study's Wino list: the sentences where our rule and the list
disagree are printed; `evaluate` on a benchmark with items the model files miss: the error says
what to do, the report how many were missing."""

from __future__ import annotations

import csv
import json

import pytest

from pipeline.cli import main
from tests.lang.test_benchmarks import write_winobias
from tests.lang.test_cog_lists import WINO_HEADER, wino_row
from tests.humans.test_cog_release import make_released_models

SENTENCES = [
    "The developer argued with the designer because he did not like the design.",
    "The mechanic met a clerk and wished her well.",
]


def write_inputs(tmp_path):
    wb = tmp_path / "wb"
    wb.mkdir()
    write_winobias(wb, ["1 [The developer] argued with the designer because [he] did not like the design.",
                        "2 The mechanic met [a clerk] and wished [her] well."])
    study = tmp_path / "list.tsv"
    study.write_text(WINO_HEADER
                     + wino_row(0, "developer", 1, "male", "designer", 4, "he", SENTENCES[0], "pro-anti")
                     + wino_row(1, "clerk", 3, "female", "mechanic", 1, "her", SENTENCES[1], "anti-pro")
                     + wino_row(2, "nurse", 1, "male", "", "", "he", "The nurse said he was tired.",
                                "anti-neutral"))
    return wb, study


@pytest.mark.slow
def test_disagreements_printed_with_compare(tmp_path, capsys):
    wb, study = write_inputs(tmp_path)
    out = tmp_path / "b"
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--compare", str(study),
                 "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "1 sentence(s) where our rule and the list disagree (ours -> study):" in printed
    assert (f"  winobias-pro-type1-dev-0002 / list cog-wino-1: pro-anti -> anti-pro: {SENTENCES[1]}"
            in printed)
    assert "1 sentence(s) only one side has:\n  list cog-wino-2 (anti-neutral): The nurse said he was tired." \
        in printed
    assert "winobias-pro-type1-dev-0001 / list" not in printed        # the one that agrees


def test_study_list_next_to_winobias_is_compared_not_added(tmp_path, capsys):
    wb, study = write_inputs(tmp_path)
    out = tmp_path / "b"
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--source", "cog-wino",
                 "--path", str(study), "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "is compared with our categories (as --compare), not added to the benchmark" in printed
    assert f"2 items -> {out}/benchmark.parquet" in printed        # the list's 3 sentences not added
    assert "our category agrees on 1 of 2 matched sentences" in printed
    assert f"pro-anti -> anti-pro: {SENTENCES[1]}" in printed
    rows = list(csv.DictReader(open(out / "category_comparison.tsv"), delimiter="\t"))
    assert [r["agree"] for r in rows] == ["TRUE", "FALSE", "FALSE"]
    # the list given twice (as a source and as --compare, different files) is refused
    other = tmp_path / "other.tsv"
    other.write_text(study.read_text())
    assert main(["benchmark", "--source", "winobias", "--path", str(wb), "--source", "cog-wino",
                 "--path", str(study), "--compare", str(other), "--out", str(tmp_path / "c")]) == 2
    assert "give the study's Wino list once" in capsys.readouterr().err


@pytest.mark.slow
def test_missing_predictions_error_and_report(tmp_path, capsys):
    wl, bl, files = make_released_models(tmp_path)
    bench = tmp_path / "bench"
    assert main(["benchmark", "--source", "cog-wino", "--path", str(wl), "--out", str(bench)]) == 0
    lines = files["s2e", "wino"].read_text().splitlines()
    short = tmp_path / "s2e_short.jsonl"
    short.write_text("\n".join(lines[:-3]) + "\n")           # three items without a prediction
    capsys.readouterr()
    ev = tmp_path / "eval"
    args = ["evaluate", "--dataset", str(bench / "benchmark.parquet"), "--resamples", "0", "--out", str(ev),
            "--system", f"s2e={short}", "--system", f"SpanBERT={files['SpanBERT', 'wino']}"]
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {short}: 3 of 220 benchmark item(s) have no prediction (first: ")
    assert err.endswith("to score anyway, rerun with --allow-missing (they count as wrong and the report "
                        "says how many)")
    assert main(args + ["--allow-missing"]) == 0
    printed = capsys.readouterr().out
    assert "items without a prediction (--allow-missing, counted as wrong) of 220: s2e 3" in printed
    md = (ev / "benchmark.md").read_text()
    assert "Items without a prediction, counted as wrong (`--allow-missing`): s2e 3." in md
    assert "SpanBERT 0" not in md
    assert json.loads((ev / "metrics.json").read_text())["s2e"]["n_missing"] == 3
