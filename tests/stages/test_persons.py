"""The persons command: cast of a small corpus, overrides, resume, bad cast files."""

from __future__ import annotations

import pandas as pd
from pipeline.cli import main

BOOK = ("Mr. Holmes lit his pipe and looked at the fire. Mr. Holmes was silent for a long time.\n\n"
        "Holmes said nothing, and he smiled at Mary Morstan. Mary Morstan smiled back at him.\n\n"
        "They had lived in Kent for years. In the spring she went to Kent again.\n\n"
        "Demi ran out, and he laughed. Demi came back, and he sat down. Demi looked up and he grinned.\n\n")


def corpus(tmp_path):
    c = tmp_path / "corpus"
    c.mkdir()
    (c / "story.txt").write_text(BOOK * 3, encoding="utf-8")
    (c / "empty-of-people.txt").write_text("The rain fell on the fields all day long.\n\nIt rained.\n", encoding="utf-8")
    return c


def test_persons_writes_the_cast_and_overrides_apply(tmp_path, capsys):
    c, out = corpus(tmp_path), tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    persons = pd.read_parquet(out / "persons.parquet")
    cast = pd.read_parquet(out / "cast.parquet")
    story = persons[persons.book_id == "story"]
    book_text = "\n\n".join([p for p in (BOOK * 3).split("\n\n") if p.strip()])
    assert all(book_text[s:e] == t for s, e, t in zip(story.start, story.end, story.text))
    by_name = {r.name: r for r in cast.itertuples()}
    assert by_name["Holmes"].gender == "masculine"
    assert by_name["Demi"].gender == "masculine"
    assert "Kent" not in by_name
    assert set(cast.book_id) == {"story"}
    out_text = capsys.readouterr().out
    assert "persons summary" in out_text and "no person        empty-of-people.txt" in out_text
    assert (out / "cast.tsv").read_text(encoding="utf-8").startswith("book_id\tperson\tname\tforms")

    # a researcher's override: Demi is a girl in this corpus, Holmes no person
    over = tmp_path / "over.tsv"
    over.write_text("story\tDemi\tfeminine\nstory\tHolmes\tnot-a-person\n", encoding="utf-8")
    # other settings into the same OUT: refused
    assert main(["persons", "--corpus", str(c), "--out", str(out), "--cast", str(over)]) == 2
    assert main(["persons", "--corpus", str(c), "--out", str(out), "--cast", str(over), "--overwrite"]) == 0
    cast = pd.read_parquet(out / "cast.parquet")
    by_name = {r.name: r for r in cast.itertuples()}
    assert by_name["Demi"].gender == "feminine" and "Holmes" not in by_name


def test_a_cast_file_naming_an_unknown_book_is_refused(tmp_path, capsys):
    c, out = corpus(tmp_path), tmp_path / "out"
    over = tmp_path / "over.tsv"
    over.write_text("nope\tDemi\tfeminine\n", encoding="utf-8")
    assert main(["persons", "--corpus", str(c), "--out", str(out), "--cast", str(over)]) == 2
    assert "not in the corpus: nope" in capsys.readouterr().err
    over.write_text("story\tDemi\tgirl\n", encoding="utf-8")
    assert main(["extract", "--corpus", str(c), "--out", str(out), "--cast", str(over)]) == 2
    assert "row 1" in capsys.readouterr().err
    assert not out.exists()


def test_persons_refuses_to_resume_across_other_code(tmp_path, capsys):
    import json

    c, out = corpus(tmp_path), tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["fingerprint"]["code"]
    manifest["fingerprint"]["code"] = "0" * 64          # as if an older checkout had made it
    (out / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    capsys.readouterr()
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 2
    assert "made by other code than this run" in capsys.readouterr().err
    assert main(["persons", "--corpus", str(c), "--out", str(out), "--overwrite"]) == 0


def _story_marker(out):
    [marker] = [m for m in (out / "parts").rglob("books.json") if "story" in m.read_text()]
    return marker


def test_a_garbled_partition_marker_is_redone_never_a_traceback(tmp_path, capsys):
    """A done marker that is JSON but not book rows (another program, a hand edit) is read by
    formats.persons_output, refused, and its partition done again (it was a TypeError or
    KeyError in the summary)."""
    import json

    c, out = corpus(tmp_path), tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    want = pd.read_parquet(out / "cast.parquet")
    marker = _story_marker(out)
    good = json.loads(marker.read_text())
    for garbled in ("[1]", "[{}]", '{"book_id": "story"}', json.dumps([{**good[0], "n_persons": "3"}]), ""):
        marker.write_text(garbled, encoding="utf-8")
        capsys.readouterr()
        assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0, garbled
        assert json.loads(marker.read_text()) == [{**good[0], "seconds": json.loads(marker.read_text())[0]["seconds"]}]
        pd.testing.assert_frame_equal(pd.read_parquet(out / "cast.parquet"), want)


def test_a_marker_garbled_during_the_run_is_one_line_exit_2(tmp_path, capsys, monkeypatch):
    """The merge reads every marker again: one changed meanwhile is ``error: FILE: ...`` (exit 2),
    not a traceback, and the merged files of the last good run stay."""
    from pipeline import engines

    c, out = corpus(tmp_path), tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    before = (out / "cast.parquet").read_bytes()
    marker = _story_marker(out)
    real = engines.run_books

    def garbling(*a, **kw):
        words = real(*a, **kw)
        marker.write_text('[{"book_id": "story"}]', encoding="utf-8")     # another process, meanwhile
        return words

    monkeypatch.setattr(engines, "run_books", garbling)
    capsys.readouterr()
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"error: {marker}: partition marker row 1: no 'path'")
    assert "run again" in err and (out / "cast.parquet").read_bytes() == before


def test_a_cut_or_garbled_manifest_is_one_line_exit_2(tmp_path, capsys):
    """A cut manifest (an older non-atomic writer, kill -9) or one that is not UTF-8 says so in
    one line naming it, with or without --overwrite (whose run it was cannot be told), and
    nothing is removed; JSON of a persons run that is not an object of settings likewise."""
    c, out = corpus(tmp_path), tmp_path / "out"
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 0
    manifest = out / "manifest.json"
    text = manifest.read_text(encoding="utf-8")
    kept = lambda: {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and p.name != "run.json"}
    for garbled in (text[:25].encode(), b'{"kind": "pers\xffons"}'):
        manifest.write_bytes(garbled)
        files = kept()
        for extra in ([], ["--overwrite"]):
            capsys.readouterr()
            assert main(["persons", "--corpus", str(c), "--out", str(out), *extra]) == 2
            err = capsys.readouterr().err
            assert err.count("\n") == 1 and err.startswith(f"error: {manifest}: unreadable manifest (not readable JSON")
            assert kept() == files       # (run.json goes: it listed the manifest as it was)
    manifest.unlink()
    manifest.mkdir()
    capsys.readouterr()
    assert main(["persons", "--corpus", str(c), "--out", str(out)]) == 2
    assert capsys.readouterr().err == f"error: {manifest}: unreadable manifest: a directory, not a JSON file\n"


def test_explain_prints_every_decision_about_a_form(tmp_path, capsys):
    """--explain: the book's evidence and decisions about a form, each occurrence's NER label
    and decision, and the cast-file line that overrides it; a form no book writes is one line,
    exit 0; a cast override shows up as the decision."""
    from pathlib import Path

    sample = Path(__file__).resolve().parents[2] / "resources" / "sample"
    assert main(["persons", "--corpus", str(sample), "--explain", "Thomas"]) == 0
    out = capsys.readouterr().out
    assert "'Thomas' in book the-orchard-at-hollins-end" in out and "written 42 times" in out
    assert "gender-guesser" in out and "masculine (male)" in out
    assert "person: 'Thomas" in out and "masculine" in out
    assert "decision: a family head's surname (family_head)" in out     # the rule that genders a bare surname
    assert "the-orchard-at-hollins-end\tThomas\tnot-a-person" in out
    cast = tmp_path / "cast.tsv"
    cast.write_text("the-orchard-at-hollins-end\tThomas\tnot-a-person\n", encoding="utf-8")
    assert main(["persons", "--corpus", str(sample), "--explain", "Thomas", "--cast", str(cast)]) == 0
    out = capsys.readouterr().out
    assert "decision: the researcher's override (--cast)            not-a-person" in out
    assert "person: 'Thomas'\n" not in out and "no person: cast" in out   # "Thomas Ashford" is another form
    assert main(["persons", "--corpus", str(sample), "--explain", "Diamond"]) == 0
    out = capsys.readouterr().out
    assert out.strip() == "'Diamond' does not occur in any book of the corpus: nothing was decided about it"
    assert main(["persons", "--corpus", str(sample), "--explain", "Thomas", "--book", "nope"]) == 2
    assert "no book 'nope'" in capsys.readouterr().err
    assert main(["persons", "--corpus", str(sample)]) == 2           # no --out and no --explain
    assert "--out DIR is needed" in capsys.readouterr().err
