"""Diagnostics: token distances, name ranking, loading datasets, the analyze command."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.diagnostics.core import analysis as A
from pipeline.errors import InputError
from tests.stages.gap_fixtures import (GAP_HEADER, TOY, gap_test_features, load_dataset,  # noqa: F401
                                      load_name_spans, quad_record, span_of, starts_of, toy_spans,
                                      write_toy_gap)

N = A.NameSpan


def name(text: str, word: str, nth: int = 0) -> A.NameSpan:
    s, e = span_of(text, word, nth)
    return N(s, e, word)


# ------------------------------------------------------------------------------ token spans ---


def test_token_span_and_tokens_between():
    text = "Ann met Bob Smith and then he left"
    ts = starts_of(text)
    assert A.token_span(ts, *span_of(text, "Ann")) == (0, 1)
    assert A.token_span(ts, *span_of(text, "Bob Smith")) == (2, 4)
    smi = text.index("Smith")
    assert A.token_span(ts, smi + 1, smi + 3) == (3, 4)     # part of a token -> that token
    he = A.token_span(ts, *span_of(text, "he"))
    assert he == (6, 7)
    assert A.tokens_between((2, 4), he) == 2    # "and then"
    assert A.tokens_between(he, (2, 4)) == 2    # symmetric
    assert A.tokens_between((0, 1), (1, 2)) == 0
    assert A.tokens_between((0, 3), (1, 2)) == 0


@pytest.mark.slow
@given(st.lists(st.integers(0, 50), min_size=1, max_size=20, unique=True),
       st.integers(0, 60), st.integers(1, 10))
def test_token_span_covers_the_characters(starts, s, length):
    starts = sorted(starts)
    first, stop = A.token_span(starts, s, s + length)
    assert 0 <= first < stop
    # the first token starts at or before s (or is token 0), the last token starts before the end
    assert starts[first] <= s or first == 0
    assert stop - 1 == first or starts[stop - 1] < s + length


# ------------------------------------------------------------------------------ ranking -------


def test_rank_names_orders_by_tokens_between_with_before_first_on_ties():
    #       0    1   2    3  4     5   6   7   8
    text = "Ann saw Cleo and he met Bea and Dora"
    ts = starts_of(text)
    names = [name(text, "Ann"), name(text, "Cleo"), name(text, "Bea"), name(text, "Dora")]
    ranked = A.rank_names(ts, span_of(text, "he"), names)
    # Cleo: 1 token between ("and"); Bea: 1 ("met") -> tie, the name before the pronoun first
    assert [r.name.text for r in ranked] == ["Cleo", "Bea", "Ann", "Dora"]
    assert [r.distance for r in ranked] == [1, 1, 3, 3]
    assert [r.before for r in ranked] == [True, False, True, False]


def test_multi_token_names_count_tokens_between_not_from_their_start():
    text = "Mary Jane Watson Smith saw Tom and she laughed"
    ts = starts_of(text)
    names = [name(text, "Mary Jane Watson Smith"), name(text, "Tom")]
    ranked = A.rank_names(ts, span_of(text, "she"), names)
    assert [(r.name.text, r.distance) for r in ranked] == [("Tom", 1), ("Mary Jane Watson Smith", 3)]


def test_candidate_name_is_the_most_overlapping_mention():
    names = [N(0, 6, "Graham"), N(7, 14, "Cassidy"), N(20, 25, "Alice")]
    assert A.candidate_name(names, (0, 14)) == N(7, 14, "Cassidy")       # 7 > 6 characters
    assert A.candidate_name(names, (0, 13)) == N(0, 6, "Graham")         # tie -> leftmost
    assert A.candidate_name(names, (15, 19)) is None
    assert A.candidate_name(names, (21, 22)) == N(20, 25, "Alice")       # inside a longer name


def test_features_rank_and_flags():
    text = "Ann told Cleo about Ann 's sister and she smiled at Bea"
    ts = starts_of(text)
    names = [name(text, "Ann"), name(text, "Cleo"), name(text, "Ann", 1), name(text, "Bea")]
    a = span_of(text, "Cleo")
    b = span_of(text, "Ann", 1)
    ex = A.Example("x", text, "she", span_of(text, "she")[0], "Cleo", a[0], "Ann", b[0], False, True)
    f = A.example_features(ex, ts, names)
    assert f.gender == "feminine"
    assert f.n_names == 4           # mentions, not distinct names: Ann counts twice
    assert f.correct == "B"
    # distances: Ann#2: 3 ('s sister and), Bea: 2 (smiled at), Cleo: 6, Ann#1: 8
    assert [r.name.text for r in f.ranked] == ["Bea", "Ann", "Cleo", "Ann"]
    assert f.rank == 2 and f.rank_b == 2 and f.rank_a == 3
    assert [r.is_b for r in f.ranked] == [False, True, False, False]   # only THAT mention of Ann
    assert [r.is_a for r in f.ranked] == [False, False, True, False]


def test_correct_candidate_that_is_not_a_name_is_ranked_by_its_own_span():
    text = "The footman saw Tom and he ran"
    ts = starts_of(text)
    ex = A.Example("x", text, "he", span_of(text, "he")[0], "footman", span_of(text, "footman")[0],
                   "Tom", span_of(text, "Tom")[0], True, False)
    f = A.example_features(ex, ts, [name(text, "Tom")])
    # Tom: 1 token between ("and"); footman: 3 ("saw Tom and") -> rank 2, not counted as a name
    assert f.correct == "A" and f.rank == 2 and f.rank_from_own_span and f.rank_b == 1
    assert f.n_names == 1 and [r.name.text for r in f.ranked] == ["Tom"]
    # nearer than every name -> rank 1
    text = "Tom saw the footman and he ran"
    ex = A.Example("y", text, "he", span_of(text, "he")[0], "footman", span_of(text, "footman")[0],
                   "Tom", 0, True, False)
    f = A.example_features(ex, starts_of(text), [name(text, "Tom")])
    assert f.rank == 1 and f.rank_from_own_span


def test_no_labels_no_rank():
    text = "Tom saw Bob and he ran"
    ts = starts_of(text)
    ex = A.Example("x", text, "he", span_of(text, "he")[0], "Tom", 0, "Bob", 8)
    f = A.example_features(ex, ts, [name(text, "Tom"), name(text, "Bob")])
    assert f.correct is None and f.rank is None and (f.rank_a, f.rank_b) == (2, 1)


def test_summarize_and_markdown():
    def feat(g, n, rank, correct="A"):
        return A.Features("i", g, n, [], correct, rank, rank, None)

    unnamed = feat("feminine", 3, 4, "B")
    unnamed.rank_from_own_span = True
    feats = [feat("masculine", 2, 1), feat("masculine", 4, 3), feat("feminine", 5, 2),
             feat("feminine", 7, None, None), unnamed]
    s = A.summarize(feats)
    assert s["masculine"]["names"]["mean"] == 3 and s["masculine"]["names"]["sd"] == 1  # population sd
    assert s["masculine"]["rank"]["histogram"] == {1: 1, 3: 1}
    assert s["feminine"]["rank"]["n"] == 2 and s["feminine"]["rank"]["mean"] == 3
    assert s["feminine"]["with_correct_candidate"] == 2
    assert s["feminine"]["correct_candidate_not_a_name"] == 1
    from pipeline.diagnostics.report import markdown_summary

    md = markdown_summary(s, "toy", "given spans")
    assert "| masculine | 2 | 3.00 ± 1.00 |" in md
    assert A.mean_sd([])[0] != A.mean_sd([])[0]   # NaN for no values
    assert math.isclose(A.mean_sd([1, 2, 3, 4])[1], math.sqrt(1.25))


# ------------------------------------------------------------------------------ loading -------

def test_load_gap_tsv_and_name_spans(tmp_path):
    path = write_toy_gap(tmp_path / "toy.tsv")
    exs, kind = load_dataset(path)
    assert kind == "gap-tsv" and [e.id for e in exs] == ["t1", "t2", "t3", "t4"]
    assert exs[0].correct == "A" and exs[1].correct == "B" and exs[2].correct is None
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    spans = load_name_spans(tmp_path / "spans.json", exs)
    assert spans["t2"][1] == N(8, 17, "Bob Smith")


def test_name_spans_errors(tmp_path):
    exs, _ = load_dataset(write_toy_gap(tmp_path / "toy.tsv"))
    bad = toy_spans()
    bad["t2"][0] = [0, 3, "Bob"]
    (tmp_path / "bad.json").write_text(json.dumps(bad))
    with pytest.raises(InputError, match=r"row t2: span \[0, 3\] is 'Tom', not 'Bob'"):
        load_name_spans(tmp_path / "bad.json", exs)
    partial = toy_spans()
    del partial["t3"]
    (tmp_path / "partial.json").write_text(json.dumps(partial))
    with pytest.raises(InputError, match="no name spans for 1 example"):
        load_name_spans(tmp_path / "partial.json", exs)
    (tmp_path / "junk.json").write_text("[1, 2")
    with pytest.raises(InputError, match="not readable JSON"):
        load_name_spans(tmp_path / "junk.json", exs)


def test_load_quadruples_originals_only_and_names_column(tmp_path):
    from pipeline.formats.tables import write_records
    from pipeline.formats.schemas import QUADRUPLES

    recs = [quad_record("1", "original", "Ann met Cleo and she smiled.", "she", "Ann", "Cleo",
                         mentions=("Ann", "Cleo")),
            quad_record("1", "control", "Ann met Cleo and he smiled.", "he", "Ann", "Cleo",
                         mentions=("Ann", "Cleo"))]
    write_records(recs, tmp_path / "q.parquet", QUADRUPLES, fill_missing=True)
    exs, kind = load_dataset(tmp_path / "q.parquet")
    assert kind == "quadruples" and [e.id for e in exs] == ["1"]
    assert exs[0].names == [N(0, 3, "Ann"), N(8, 12, "Cleo")] and exs[0].correct is None
    exs, _ = load_dataset(tmp_path / "q.parquet", originals_only=False)
    assert [e.id for e in exs] == ["1", "1-control"]


def test_load_rejects_bad_offsets_and_other_files(tmp_path):
    from pipeline.formats.tables import write_records
    from pipeline.formats.schemas import QUADRUPLES

    rec = quad_record("1", "original", "Ann met Cleo and she smiled.", "she", "Ann", "Cleo")
    rec["a_offset"] = 1
    write_records([rec], tmp_path / "q.parquet", QUADRUPLES, fill_missing=True)
    with pytest.raises(InputError, match="a_offset 1 does not point at a 'Ann'"):
        load_dataset(tmp_path / "q.parquet")
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"x": [1]}), tmp_path / "other.parquet")
    with pytest.raises(InputError, match="neither a quadruples nor an instances"):
        load_dataset(tmp_path / "other.parquet")
    with pytest.raises(InputError, match="file not found"):
        load_dataset(tmp_path / "missing.tsv")


# ------------------------------------------------------------------------------ command -------


@pytest.mark.slow
def test_analyze_command_with_given_spans(tmp_path, nlp):
    from pipeline.cli import main

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    out = tmp_path / "out"
    assert main(["analyze", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                 "--out", str(out), "--no-progress"]) == 0
    summary = json.loads((out / "summary.json").read_text())["genders"]
    # t1 (she): Ann, Cleo, Bob -> 3 names; t3 (her): Dora, Eve -> 2
    assert summary["feminine"]["names"]["mean"] == 2.5
    # t1: correct A = Cleo ("Ann met Cleo and she smiled at Bob."): Cleo 1 token between, Ann 3,
    # Bob 2 -> rank 1; t3 has no correct candidate
    assert summary["feminine"]["rank"]["histogram"] == {"1": 1}
    # t2: Bob Smith, 1 token ("when") -> rank 1; t4: correct A = Ned, 3 tokens ("and Otto
    # before"), Otto 1, Max 4 -> rank 2
    assert summary["masculine"]["rank"]["histogram"] == {"1": 1, "2": 1}
    for f in ("summary.md", "names.png", "rank.png"):
        assert (out / f).stat().st_size > 0
    assert (out / "names.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_the_core_reports_progress_and_the_run_draws_it(tmp_path, nlp, capsys, monkeypatch):
    """compute_features calls its ``progress`` once per example and draws nothing itself (issue
    47: a core draws no bar); the analyze run draws the bar (plain lines off a terminal)."""
    from pipeline.cli import main

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text(json.dumps(toy_spans()))
    exs, _ = load_dataset(data)
    calls = []
    feats = A.compute_features(exs, nlp, "spans", load_name_spans(tmp_path / "spans.json", exs),
                               progress=calls.append)
    assert calls == [1] * len(exs) == [1] * len(feats)
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("PIPELINE_PROGRESS", "lines")
    assert main(["analyze", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                 "--out", str(tmp_path / "out")]) == 0
    assert f"analyse: {len(exs)}/{len(exs)} exs (100 %)" in capsys.readouterr().err
    assert main(["analyze", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                 "--out", str(tmp_path / "quiet"), "--no-progress"]) == 0
    assert "analyse:" not in capsys.readouterr().err


@pytest.mark.slow
def test_analyze_command_with_ner_on_unlabelled_quadruples(tmp_path, nlp, capsys):
    from pipeline.cli import main
    from pipeline.formats.tables import write_records
    from pipeline.formats.schemas import QUADRUPLES

    text = "Elizabeth Bennet walked with Jane Bennet to Meryton, and she laughed at Mr. Darcy."
    rec = quad_record("1", "original", text, "she", "Elizabeth Bennet", "Jane Bennet")
    rec["names"] = None
    write_records([rec], tmp_path / "q.parquet", QUADRUPLES, fill_missing=True)
    out = tmp_path / "out"
    assert main(["analyze", "--dataset", str(tmp_path / "q.parquet"), "--names-from", "ner",
                 "--out", str(out), "--no-progress"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["names"].startswith("spaCy PERSON entities")
    fem = summary["genders"]["feminine"]
    assert fem["examples"] == 1 and fem["names"]["mean"] >= 2
    assert fem["rank"]["n"] == 0 and fem["rank"]["mean"] is None     # no gold labels yet
    assert "n/a" in (out / "summary.md").read_text()


def test_analyze_command_bad_input_exits_2(tmp_path, capsys):
    from pipeline.cli import main

    data = write_toy_gap(tmp_path / "toy.tsv")
    (tmp_path / "spans.json").write_text("{}")
    assert main(["analyze", "--dataset", str(data), "--name-spans", str(tmp_path / "spans.json"),
                 "--out", str(tmp_path / "o")]) == 2
    assert "no name spans for 4 example(s)" in capsys.readouterr().err
    assert not (tmp_path / "o" / "summary.json").exists()


# ------------------------------------------------------------------------------ reference -----


@pytest.mark.slow
@pytest.mark.shared
def test_gap_test_reference_distributions(shared_dir):
    """The Gap on GAP: masculine 5.55 ± 3.18 names, feminine 6.30 ± 3.44; rank 1.86 ± 1.19 vs
    2.32 ± 1.54 (GAP test, manual name spans)."""
    _, feats = gap_test_features(shared_dir)
    s = A.summarize(feats)
    # the 9 correct candidates that overlap no name span are ranked by their own span
    assert [s[g]["correct_candidate_not_a_name"] for g in A.GENDERS] == [4, 5]
    assert [s[g]["rank"]["n"] for g in A.GENDERS] == [889, 884]
    got = {g: (round(s[g]["names"]["mean"], 2), round(s[g]["names"]["sd"], 2),
               round(s[g]["rank"]["mean"], 2), round(s[g]["rank"]["sd"], 2)) for g in A.GENDERS}
    assert got == {"masculine": (5.55, 3.18, 1.86, 1.19), "feminine": (6.30, 3.44, 2.32, 1.54)}


def _default(pa_type):
    import pyarrow as pa

    if pa.types.is_string(pa_type):
        return ""
    if pa.types.is_integer(pa_type):
        return 0
    if pa.types.is_list(pa_type):
        return []
    return None


def test_load_instances_parquet_with_names_column(tmp_path, nlp):
    from pipeline.formats.tables import write_records
    from pipeline.formats.schemas import INSTANCES

    text = "Emma visited Harriet Smith, and she smiled at Mr. Knightley."
    rec = {f.name: _default(f.type) for f in INSTANCES}
    mention = lambda m: {"start": text.index(m), "end": text.index(m) + len(m), "text": m, "title": ""}
    rec.update({"instance_id": "158-100", "text": text, "pronoun": "she",
                "pronoun_offset": text.index(" she ") + 1, "a": "Emma", "a_offset": 0,
                "b": "Harriet Smith", "b_offset": text.index("Harriet"),
                "names": [{"role": "C1", "name": "Emma", "gender": "feminine", "mentions": [mention("Emma")]},
                          {"role": "C2", "name": "Harriet Smith", "gender": "feminine",
                           "mentions": [mention("Harriet Smith")]},
                          {"role": "O1", "name": "Knightley", "gender": "masculine",
                           "mentions": [mention("Mr. Knightley")]}]})
    write_records([rec], tmp_path / "i.parquet", INSTANCES, fill_missing=True)
    exs, kind = load_dataset(tmp_path / "i.parquet")
    assert kind == "instances" and exs[0].id == "158-100" and exs[0].correct is None
    assert A.names_source(exs, False) == "column"
    feats = A.compute_features(exs, nlp, "column", progress=False)
    f = feats[0]
    # Harriet Smith: 2 tokens between (", and"), Mr. Knightley: 2 ("smiled at"), tie -> the
    # name before the pronoun first; Emma: 5
    assert f.n_names == 3 and (f.rank_a, f.rank_b) == (3, 1)
    assert [r.name.text for r in f.ranked] == ["Harriet Smith", "Mr. Knightley", "Emma"]
    assert A.names_source(exs, False, "ner") == "ner"
    feats = A.compute_features(exs, nlp, "ner", progress=False)
