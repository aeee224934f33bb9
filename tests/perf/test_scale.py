"""The scale benchmark's inputs (no extract run: the benchmark itself is a script, not a test):
the mirror layout, and that the mirror of zips and the Parquet table read as the same books as
the plain files, with the second copy of each Gutenberg ebook listed as a duplicate."""

from __future__ import annotations

from pathlib import Path

from pipeline.perf import scale
from pipeline.formats.books import Book, CorpusSpec, Skip, iter_corpus

ROOT = Path(__file__).resolve().parents[2]


def test_mirror_dir():
    assert [scale.mirror_dir(n) for n in ("5", "105", "1342")] == ["0/5", "1/0/105", "1/3/4/1342"]


def test_inputs_read_as_the_same_books(tmp_path):
    src = tmp_path / "src"
    (src / "gutenberg").mkdir(parents=True)
    (src / "litbank").mkdir()
    story = (ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt").read_text(encoding="utf-8")
    header = ("The Project Gutenberg EBook of X\n\nTitle: X\n\n*** START OF THIS PROJECT GUTENBERG EBOOK X ***\n\n"
              "{}\n\n*** END OF THIS PROJECT GUTENBERG EBOOK X ***\n")
    (src / "gutenberg" / "105.txt").write_text(header.format(story[:3000]), encoding="utf-8")
    (src / "litbank" / "105_persuasion.txt").write_text(story[3000:6000], encoding="utf-8")
    books = scale.select_books(src / "gutenberg", src / "litbank", None, None)
    assert [b.key for b in books] == ["g105", "l105_persuasion"]
    (tmp_path / "b").mkdir()
    inputs = scale.build_inputs(books, tmp_path / "b")
    read = {}
    for name in ("plain", "mirror", "table"):
        got = list(iter_corpus(CorpusSpec(path=str(inputs[name]))))
        read[name] = {inputs["ids"][name][b.book_id]: b.paragraphs for b in got if isinstance(b, Book)}
        if name == "mirror":
            assert [s.path for s in got if isinstance(s, Skip)] == ["1/0/105/105.zip/105.txt"]
    assert read["plain"] == read["mirror"] == read["table"] and set(read["plain"]) == {"g105", "l105_persuasion"}
    assert scale.select_books(src / "gutenberg", src / "litbank", 1, None)[0].key == "g105"
    assert [b.key for b in scale.select_books(src / "gutenberg", src / "litbank", None, ["105_persuasion"])] \
        == ["l105_persuasion"]
