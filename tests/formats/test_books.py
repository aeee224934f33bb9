"""Corpus reading: Gutenberg header stripping and unwrapping, plain text, epub, bad files,
and book identity (the path relative to the corpus root)."""


import pytest
from hypothesis import given
from hypothesis import strategies as st

from pipeline.formats.books import BookSkipped, book_id_for, find_books, read_book

GUTENBERG = (
    "\ufeffThe Project Gutenberg EBook of A Test Book, by Ann Author\r\n"
    "\r\n"
    "This eBook is for the use of anyone anywhere at no cost.\r\n"
    "\r\n"
    "Title: A Test Book\r\n"
    "\r\n"
    "Author: Ann Author\r\n"
    "\r\n"
    "Release Date: May 5, 2008 [EBook #98765]\r\n"
    "\r\n"
    "*** START OF THIS PROJECT GUTENBERG EBOOK A TEST BOOK ***\r\n"
    "\r\n"
    "Produced by A Volunteer\r\n"
    "\r\n"
    "CHAPTER I\r\n"
    "\r\n"
    "Mary walked to the\r\n"
    "village with _great_ care, and\r\n"
    "  John followed her.\r\n"
    "\r\n"
    "\r\n"
    "The end.\r\n"
    "\r\n"
    "End of the Project Gutenberg EBook of A Test Book, by Ann Author\r\n"
    "\r\n"
    "*** END OF THIS PROJECT GUTENBERG EBOOK A TEST BOOK ***\r\n"
    "\r\n"
    "Licence text that must not be read as the book.\r\n"
)


def test_gutenberg_header_footer_and_unwrapping(tmp_path):
    f = tmp_path / "98765.txt"
    f.write_bytes(GUTENBERG.encode("utf-8"))
    book = read_book(f, tmp_path)
    assert (book.book_id, book.title, book.author, book.format) == ("98765", "A Test Book", "Ann Author", "gutenberg")
    assert book.ebook == "98765" and book.path == "98765.txt"
    assert book.paragraphs == ["CHAPTER I",
                               "Mary walked to the village with _great_ care, and John followed her.",
                               "The end."]
    assert "Licence" not in book.text and "Project Gutenberg" not in book.text


def test_gutenberg_number_is_kept_apart_from_the_id(tmp_path):
    f = tmp_path / "book.txt"
    f.write_text(GUTENBERG.replace("[EBook #98765]", ""), encoding="utf-8")
    assert (read_book(f, tmp_path).book_id, read_book(f, tmp_path).ebook) == ("book", "")
    (tmp_path / "a").mkdir()
    g = tmp_path / "a" / "pg98765.txt"
    g.write_text(GUTENBERG, encoding="utf-8")
    assert (read_book(g, tmp_path).book_id, read_book(g, tmp_path).ebook) == ("a/pg98765", "98765")


def test_same_stem_in_two_folders_gives_two_ids(tmp_path):
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "story.txt").write_text(f"A story from {folder}.\n", encoding="utf-8")
    books = [read_book(p, tmp_path) for p in find_books(tmp_path)]
    assert [(b.book_id, b.path) for b in books] == [("a/story", "a/story.txt"), ("b/story", "b/story.txt")]


@pytest.mark.parametrize("rel,book_id", [
    ("105.txt", "105"), ("a/story.txt", "a/story"), ("a__b.txt", "a__b"), ("a/b.txt", "a/b"),
    ("a/story.epub", "a/story.epub"), ("x.epub.txt", "x.epub.txt"), ("x.TXT", "x.TXT"),
    ("x.txt.txt", "x.txt.txt"),
])
def test_book_id_rule(rel, book_id):
    assert book_id_for(rel) == book_id


@pytest.mark.slow
@given(st.lists(st.lists(st.sampled_from(["a", "b", "a.txt", "b.epub", "_", "x.TXT"]), min_size=1, max_size=3)
                .map(lambda parts: "/".join(parts)), min_size=2, max_size=20))
def test_book_ids_never_collide(stems):
    # every book file ends in a book suffix; distinct paths must give distinct ids
    rels = {stem + suffix for stem in stems for suffix in (".txt", ".epub", ".TXT", ".Epub")}
    ids = [book_id_for(rel) for rel in rels]
    assert len(set(ids)) == len(ids)


def test_latin1_gutenberg_declared(tmp_path):
    text = GUTENBERG.replace("Title: A Test Book", "Title: Caf\u00e9\r\n\r\nCharacter set encoding: ISO-8859-1")
    f = tmp_path / "x.txt"
    f.write_bytes(text.replace("\ufeff", "").encode("latin-1"))
    assert read_book(f, tmp_path).title == "Caf\u00e9"


def test_plain_text_blank_line_paragraphs(tmp_path):
    f = tmp_path / "novel.txt"
    f.write_text("One line\nwrapped here.\n\nSecond para\nalso wrapped.\n", encoding="utf-8")
    book = read_book(f, tmp_path)
    assert book.format == "txt-paragraphs"
    assert book.paragraphs == ["One line wrapped here.", "Second para also wrapped."]


def test_plain_text_one_paragraph_per_line(tmp_path):
    f = tmp_path / "bc.txt"
    long1, long2 = "First paragraph " + "word " * 40, "Second paragraph " + "word " * 40
    f.write_text(f"{long1}\n{long2}\n\nThird one.\n", encoding="utf-8")
    book = read_book(f, tmp_path)
    assert book.format == "txt-lines"
    assert book.paragraphs == [long1.strip(), long2.strip(), "Third one."]


def test_epub(tmp_path):
    from ebooklib import epub

    book = epub.EpubBook()
    book.set_identifier("id1")
    book.set_title("An Epub Story")
    book.add_author("Ed Writer")
    ch = epub.EpubHtml(title="One", file_name="one.xhtml", lang="en")
    ch.content = "<html><body><h1>Chapter One</h1><p>Mary met <i>John</i> at the gate.</p><p>They left.</p></body></html>"
    book.add_item(ch)
    book.add_item(epub.EpubNcx())
    book.add_item(epub.EpubNav())
    book.spine = [ch]
    path = tmp_path / "story.epub"
    epub.write_epub(str(path), book)
    got = read_book(path, tmp_path)
    assert (got.title, got.author, got.format) == ("An Epub Story", "Ed Writer", "epub")
    assert got.paragraphs == ["Chapter One", "Mary met John at the gate.", "They left."]


_RNG = __import__("random").Random(0)
RANDOM_BYTES = bytes(_RNG.randrange(1, 256) for _ in range(2000))     # no NUL byte, no encoding fits


@pytest.mark.parametrize("content,reason", [
    (b"", "empty"), (b"   \n\n", "empty"), (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    (RANDOM_BYTES, "undecodable"),
])
def test_bad_files_are_skipped_with_reason(tmp_path, content, reason):
    f = tmp_path / "bad.txt"
    f.write_bytes(content)
    with pytest.raises(BookSkipped) as exc:
        read_book(f, tmp_path)
    assert exc.value.reason == reason


def test_find_books_recursive(tmp_path):
    (tmp_path / "a" / "b").mkdir(parents=True)
    for p in ["x.txt", "a/y.TXT", "a/b/z.epub", "a/notes.md", ".hidden/w.txt"]:
        (tmp_path / p).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / p).write_text("x")
    assert [str(p.relative_to(tmp_path)) for p in find_books(tmp_path)] == ["a/b/z.epub", "a/y.TXT", "x.txt"]
