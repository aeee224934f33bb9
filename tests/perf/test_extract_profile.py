"""The extract benchmark's profile (``make perf``) on a short text: it returns its
phases and groups (no figure is checked: timings are a benchmark, not a test)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from pipeline.perf import extract as bench

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
@pytest.mark.parametrize("strategy", ["prune", "full"])
def test_profile_book_returns_its_categories(nlp, strategy):
    story = (ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt").read_text(encoding="utf-8")
    paragraphs = [p for p in story[:6000].split("\n\n") if p.strip()]
    prof = bench.profile_book(paragraphs, strategy)
    phases = prof["phases"]
    assert {"book evidence", "tokenizer", "ner", "parser", "person_layer", "records"} <= set(phases)
    assert ("pass 0" in phases) == (strategy == "prune")
    assert all(v >= 0 for v in phases.values()) and prof["total"] == pytest.approx(sum(phases.values()))
    assert 0 < prof["project_share"] < 1
    assert {"project", "spacy"} <= set(prof["groups"])
    assert sum(prof["group_shares"].values()) == pytest.approx(1.0)
    assert prof["counts"]["words"] > 500
    assert ("parse cut (project)" in phases) == ("sentence copies" in phases) == (strategy == "prune")
    # the profile runs the stages itself: it must find what extract finds
    from pipeline.core.extract import BookMeta, chunk_paragraphs, extract_chunks, with_leads
    from pipeline.lang.book_evidence import book_evidence
    from pipeline.nlp.prune import parsed_docs

    text = "\n\n".join(paragraphs)
    chunks, owns = with_leads(chunk_paragraphs(paragraphs), text)
    evidence = book_evidence(text, "book")
    found, _, _ = extract_chunks(parsed_docs(nlp, chunks, strategy, 16, evidence, owns), BookMeta("book", "", ""),
                                 evidence, None, owns)
    assert found and prof["counts"]["instances"] == len(found)


def test_profile_groups_send_builtins_to_their_callers():
    project = bench._PROJECT_DIR + "nlp/prune.py"
    spacy_file = "/venv/site-packages/spacy/language.py"

    class Stats:
        stats = {(project, 1, "name_marks"): (1, 1, 2.0, 3.0, {}),
                 (project, 2, "parsed_docs"): (1, 1, 5.0, 5.0, {}),
                 (spacy_file, 3, "pipe"): (1, 1, 1.0, 1.0, {}),
                 ("~", 0, "<method 'lower' of 'str' objects>"): (4, 4, 1.0, 1.0, {
                     (project, 1, "name_marks"): (3, 3, 0.75, 0.75), (spacy_file, 3, "pipe"): (1, 1, 0.25, 0.25)}),
                 # Doc.text called by the project: a Token per token, the project's cost
                 ("spacy/tokens/doc.pyx", 724, "__get__"): (1, 1, 0.5, 2.5, {(project, 1, "name_marks"): (1, 1, 0.5, 2.5)}),
                 ("spacy/tokens/token.pxd", 22, "cinit"): (9, 9, 2.0, 2.0, {
                     ("spacy/tokens/doc.pyx", 724, "__get__"): (9, 9, 2.0, 2.0)})}

    groups = bench.profile_groups(Stats())
    assert groups == pytest.approx({"project": 5.25, "spacy": 6.25})


def test_the_baseline_runs_another_checkouts_code(tmp_path):
    """``--baseline CHECKOUT`` runs the configurations with that checkout's package: the
    subprocess environment puts it first on the path and starts there."""
    env, cwd = bench.code_env(ROOT)
    assert env["PYTHONPATH"] == str(ROOT) and cwd == str(ROOT) and env["TQDM_DISABLE"] == "1"
    env, cwd = bench.code_env(None)
    assert cwd is None
    assert [s for s, _, _ in bench._sides(None)] == ["new"]
    assert bench._sides(ROOT) == [("new", None, sys.executable), ("old", ROOT, sys.executable)]
    # --baseline-python: the old code runs under the interpreter of its own environment
    assert bench._sides(ROOT, "/opt/old/bin/python")[1] == ("old", ROOT, "/opt/old/bin/python")


def test_versions_names_the_libraries_of_an_interpreter():
    import importlib.metadata as m

    text = bench.versions(sys.executable)
    assert text == f"spacy {m.version('spacy')}, thinc {m.version('thinc')}, numpy {m.version('numpy')}"
    assert bench.versions("/nonexistent/python") == "versions unknown"


def test_a_baseline_that_is_no_checkout_and_an_existing_keep_directory_are_refused(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    assert bench.main(["--corpus", str(corpus), "--profile", "none", "--baseline", str(tmp_path)]) == 2
    assert "no checkout of this project" in capsys.readouterr().err
    assert bench.main(["--corpus", str(corpus), "--profile", "none", "--keep", str(tmp_path)]) == 2
    assert "--keep" in capsys.readouterr().err
    assert bench.main(["--corpus", str(corpus), "--profile", "none", "--baseline-python", sys.executable]) == 2
    assert "needs --baseline" in capsys.readouterr().err
    assert bench.main(["--corpus", str(corpus), "--profile", "none", "--baseline", str(ROOT),
                       "--baseline-python", str(tmp_path / "python")]) == 2
    assert "no executable interpreter" in capsys.readouterr().err


def test_parse_configs():
    assert bench.parse_configs(["full:1", "prune:2", "prune:2"]) == [("full", 1), ("prune", 2)]
    for bad in (["prune"], ["fast:1"], ["prune:0"], ["prune:x"]):
        with pytest.raises(ValueError):
            bench.parse_configs(bad)


def test_table_lines_compare_what_ran_side_by_side():
    times = {("new", "prune", 1): [10.0, 12.0, 11.0], ("new", "prune", 2): [6.0, 5.0, 7.0],
             ("old", "prune", 1): [22.0, 20.0, 24.0]}
    text = "\n".join(bench.table_lines(times, 1100, ["new", "old"]))
    assert "| prune, 1 worker | 11.0 | 3 | 100 |" in text
    assert "| prune, 2 workers | 6.0 | 3 | 183 | 1.83 x its 1 worker" in text
    assert "| prune, 1 worker | 22.0 | 3 | 50 |" in text        # the old side
    assert "prune, 1 worker(s): 100 / 50 = 2.00" in text
    assert "full" not in text and "2 worker(s):" not in text      # nothing that did not run


def test_bad_config_is_a_one_line_error(capsys):
    assert bench.main(["--configs", "prune:none", "--profile", "none"]) == 2
    assert "no configuration" in capsys.readouterr().err
