"""Issue 45: the findings the audit (docs/chaos.md) found without a test of their own: Maze
plan positions outside the sentence (item 5), a non-UTF-8 system file naming its file and the
row of the bad byte (item 6), a Parquet cell over the cap never turned into a Python string
(item 3, the 5.4 GB peak), and a WinoBias folder missing one of its eight files (item 5; open:
the fix belongs in pipeline/lang/benchmarks.py)."""

from __future__ import annotations

import json

import pytest

from pipeline.cli import main
from pipeline.errors import InputError

pytestmark = pytest.mark.chaos


# ------------------------------------------------------------------ Maze plan positions ---

@pytest.mark.parametrize("change,message", [
    (lambda r: r.update(pronoun_index=99), "pronoun_index 99 is outside the sentence's words 1..10"),
    (lambda r: r.update(pronoun_index=-1), "pronoun_index -1 is outside"),
    (lambda r: r.update(pronoun_index=0), "pronoun_index 0 is outside"),       # the first word is shown alone, untimed
    (lambda r: r.update(sides=r["sides"][:2]), "sides must have one entry per word (11), got 2"),
    (lambda r: r.update(distractors=r["distractors"] + ["extra"]), "distractors must have one entry per word"),
    (lambda r: r.update(sides=[None] + ["up"] * 10), "sides must be 'left' or 'right'"),
])
def test_a_maze_plan_whose_positions_leave_the_sentence_is_refused(tmp_path, change, message):
    """A plan row whose pronoun index or sides point outside its sentence was served: the page
    failed mid-sentence (IndexError, 500) or never recorded the pronoun's times."""
    from pipeline.humans.web.app import create_app
    from tests.humans.experiment_helpers import maze_plan_file, write_plan

    rows = maze_plan_file(tmp_path / "plan.parquet")
    assert len(rows[0]["tokens"]) == 11
    create_app(tmp_path / "plan.parquet", tmp_path / "ok.sqlite")          # the plan as made: served
    bad = [dict(r) for r in rows]
    change(bad[0])
    write_plan(bad, tmp_path / "bad.parquet")
    with pytest.raises(InputError) as exc:
        create_app(tmp_path / "bad.parquet", tmp_path / "bad.sqlite")
    text = str(exc.value)
    assert text.startswith(f"{tmp_path / 'bad.parquet'}, row 1: participant {bad[0]['participant']}, position 0: ")
    assert message in text, text


# ------------------------------------------------------------------ non-UTF-8 system files

@pytest.mark.parametrize("name,make,row", [
    ("s.tsv", lambda rows: ("ID\tA-coref\tB-coref\n" + "".join(f"{r['ID']}\tTRUE\tFALSE\n" for r in rows)).encode()
     + "caf\u00e9\tTRUE\tFALSE\n".encode("latin-1"), None),
    ("s.jsonl", lambda rows: json.dumps({"doc_key": "0", "document": ["a"], "clusters": []}).encode() + b"\n\xff\xfe\n",
     None),
    ("s.conll", None, 3),
])
def test_a_non_utf8_system_file_is_one_line_naming_it(tmp_path, capsys, name, make, row):
    """evaluate --system s=FILE with bytes that are not UTF-8: one line naming the file (and, for
    CoNLL, the line of the bad byte: the text reader's own count said row 1, a block early)."""
    from pipeline.formats.gap_tsv import write_gap_tsv
    from tests.chaos.malformed import CONLL, gap_dataset_rows

    rows = gap_dataset_rows()
    write_gap_tsv(rows, tmp_path / "d.tsv")
    system = tmp_path / name
    system.write_bytes(make(rows) if make else CONLL.encode().replace(b"waved", b"wa\xffved"))
    code = main(["evaluate", "--dataset", str(tmp_path / "d.tsv"), "--system", f"s={system}",
                 "--out", str(tmp_path / "out"), "--resamples", "10"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "not UTF-8" in err, err
    where = f"{system}, row {row}: " if row else f"{system}: "
    assert err.startswith(f"error: {where}"), err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# ------------------------------------------------------------------ a Parquet cell, traced

def test_a_parquet_cell_over_the_cap_is_never_a_python_string(tmp_path, monkeypatch):
    """The 200 MB Parquet cell (5.4 GB peak): a 24 MB cell under a 1 MB cap is skipped and the
    Python heap never holds it (the old reader turned a row group into Python objects)."""
    import tracemalloc

    import pyarrow as pa
    import pyarrow.parquet as pq

    from pipeline.formats.corpus import tables
    from tests.formats.test_corpus_readers import BOOKS, read

    cap, big = 1 << 20, 24 << 20
    monkeypatch.setattr(tables, "MAX_FIELD", cap)
    rows = [dict(BOOKS[0]), {**BOOKS[1], "id": "big", "text": "z" * big}, dict(BOOKS[2])]
    pq.write_table(pa.Table.from_pylist(rows), tmp_path / "c.parquet", row_group_size=3)
    del rows
    tracemalloc.start()
    try:
        books, skips = read(tmp_path / "c.parquet")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert list(books) == [BOOKS[0]["id"], BOOKS[2]["id"]]
    [skip] = skips.values()
    assert skip.reason.startswith(f"too large: a text cell of {big:,} bytes")
    assert peak < 4 * cap, f"peak {peak:,} bytes"


# ------------------------------------------------------------------ benchmark folders -----

def test_a_winobias_folder_missing_one_of_its_files_is_refused(tmp_path):
    from pipeline.lang.benchmarks import load_winobias

    d = tmp_path / "winobias"
    d.mkdir()
    (d / "male_occupations.txt").write_text("developer\n", encoding="utf-8")
    (d / "female_occupations.txt").write_text("nurse\n", encoding="utf-8")
    for s in ("pro", "anti"):
        for t in ("1", "2"):
            for split in ("dev", "test"):
                if (s, t, split) == ("anti", "2", "test"):
                    continue                                       # the eighth file is missing
                (d / f"{s}_stereotyped_type{t}.txt.{split}").write_text(
                    "1 [The developer] argued with the nurse because [he] was angry.\n", encoding="utf-8")
    with pytest.raises(InputError, match="anti_stereotyped_type2.txt.test"):
        load_winobias(d)


# ------------------------------------------------------------------ gold A and B, every layout

@pytest.mark.parametrize("layout", ["tsv", "parquet"])
def test_a_gold_row_with_a_and_b_both_coreferent_is_refused_in_every_layout(tmp_path, capsys, layout):
    """The GAP TSV reader refused it (test_refusals.py); a gold TSV without the text columns and
    a Parquet gold (quadruples, instances) were still scored."""
    import pandas as pd

    if layout == "tsv":
        gold = tmp_path / "gold.tsv"
        gold.write_text("ID\tPronoun\tA-coref\tB-coref\n1\the\tTRUE\tFALSE\n2\tshe\ttrue\tTRUE\n", encoding="utf-8")
        where = f"{gold}, row 3: A-coref and B-coref are both TRUE"
    else:
        gold = tmp_path / "gold.parquet"
        pd.DataFrame({"id": ["1", "2"], "pronoun": ["he", "she"], "a_coref": [True, True],
                      "b_coref": [False, True]}).to_parquet(gold)
        where = f"{gold}, row 2: a_coref and b_coref are both TRUE"
    system = tmp_path / "s.tsv"
    system.write_text("ID\tA-coref\tB-coref\n1\tTRUE\tFALSE\n2\tTRUE\tFALSE\n", encoding="utf-8")
    code = main(["evaluate", "--dataset", str(gold), "--system", f"s={system}", "--out", str(tmp_path / "out"),
                 "--resamples", "10"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and err.startswith(f"error: {where}"), err
    assert not (tmp_path / "out").exists() or not any((tmp_path / "out").iterdir())


# ------------------------------------------------------------------ NUL bytes, the other files

@pytest.mark.parametrize("kind", ["cast", "name map", "system", "results"])
def test_a_nul_byte_in_any_tsv_or_csv_field_is_refused_naming_the_file(tmp_path, kind):
    """Item 5's "NUL bytes in any TSV/CSV field" beyond the GAP TSV, the metadata and corpus CSV
    (test_refusals.py) and the word lists and CoNLL (malformed.py): the cast file, the name map,
    a system's predictions and an MTurk results CSV."""
    from tests.chaos import malformed as M

    if kind == "cast":
        from pipeline.formats.cast import read_cast_overrides

        path = tmp_path / "cast.tsv"
        path.write_text("b\tTho\x00mas\tmasculine\n", encoding="utf-8")
        with pytest.raises(InputError) as exc:
            read_cast_overrides(path)
        assert str(exc.value).startswith(f"{path}, row 1: ") and "NUL" in str(exc.value)
    elif kind == "name map":
        from pipeline.cda.formats.name_map import read_map

        path = tmp_path / "name_map.tsv"
        path.write_text("name\tpartner\nJo\x00hn\tMary\nMary\tJo\x00hn\n", encoding="utf-8")
        with pytest.raises(InputError) as exc:
            read_map(path)
        assert str(exc.value).startswith(f"{path}, row 2: ") and "NUL" in str(exc.value)
    else:
        inputs = M.make_inputs(tmp_path / "in", tmp_path / "unused.parquet")
        if kind == "system":
            def system(d):
                rows = M.gap_dataset_rows()
                text = "ID\tA-coref\tB-coref\n" + "".join(f"{r['ID']}\tTRUE\tFALSE\n" for r in rows)
                return M._w(d / "s.tsv", text.replace("TRUE", "TR\x00UE", 1))
            case = M.Case("NUL in a system TSV", M._evaluate_system(system))
        else:
            case = M.Case("NUL in a results CSV", M._import(
                "results.csv", lambda i: M._mturk_csv(i).replace("Approved", "Appro\x00ved", 1)))
        outcome = M.run_case(case, inputs, tmp_path / "case")
        assert outcome.verdict == "pass" and outcome.code == 2 and "NUL byte" in outcome.detail, outcome


# ------------------------------------------------------------------ annotator strings in the card

def test_an_annotator_supplied_string_never_reaches_the_card_raw(tmp_path, capsys):
    """Issue 45: "an annotator-supplied string reaching the dataset card's YAML". The metadata
    fields are checked (test_refusals.py); the WorkerIds of a model's answers ("model:NAME")
    went into the card's text with their line breaks and '---' lines: now a WorkerId holding a
    line break or a control character is refused, naming the file and row."""
    from tests.chaos import malformed as M

    inputs = M.make_inputs(tmp_path / "in", tmp_path / "unused.parquet")
    text = M._mturk_csv(inputs)
    for w in ("W1Zoë", "W2", "W3"):
        text = text.replace(f",{w},", f',"model:{w}\n---\nlicense: evil",')
    (tmp_path / "r.csv").write_text(text, encoding="utf-8")
    code = main(["annotate-import", "--results", str(tmp_path / "r.csv"), "--quadruples", str(inputs.quadruples),
                 "--out", str(tmp_path / "out"), "--min-check-accuracy", "0"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"error: {tmp_path / 'r.csv'}, row 2: WorkerId 'model:W1Zoë\\n---") and "line break" in err
    assert not (tmp_path / "out" / "README.md").exists()
