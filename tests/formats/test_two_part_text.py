"""formats.files.two_part_text: one text file written as two streams, joined atomically."""

from __future__ import annotations

import pytest

from pipeline.formats.files import two_part_text


def test_head_then_tail_line_ends_as_written(tmp_path):
    target = tmp_path / "sub" / "out.conll"
    with two_part_text(target) as (head, tail):
        head.write("orig 1\r\n")
        tail.write("copy 1\n")
        head.write("orig 2é\n")
        tail.writelines(["copy 2\n", "copy 3"])
        assert not target.exists()                       # nothing in place before the end
    assert target.read_bytes() == "orig 1\r\norig 2é\ncopy 1\ncopy 2\ncopy 3".encode("utf-8")
    assert [p.name for p in target.parent.iterdir()] == ["out.conll"]      # no temporary file left


def test_a_failure_leaves_the_old_file_and_nothing_behind(tmp_path):
    target = tmp_path / "out.conll"
    target.write_text("old\n", encoding="utf-8")
    with pytest.raises(ValueError, match="no documents"):
        with two_part_text(target) as (head, tail):
            head.write("half")
            tail.write("a copy")
            raise ValueError("no documents")
    assert target.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.conll"]


def test_read_head_and_read_utf8(tmp_path):
    """The small readers the runs use instead of open(): a file's magic, a UTF-8 vocabulary."""
    from pipeline.errors import InputError
    from pipeline.formats.files import read_head, read_utf8

    p = tmp_path / "a.parquet"
    p.write_bytes(b"PAR1 and more")
    assert read_head(p, 4) == b"PAR1" and read_head(p, 100) == b"PAR1 and more"
    with pytest.raises(OSError) as exc:
        read_head(tmp_path / "missing", 4)
    assert exc.value.filename == str(tmp_path / "missing")
    t = tmp_path / "words.tsv"
    t.write_text("mécanicien\tmasculine\n", encoding="utf-8")
    assert read_utf8(t) == "mécanicien\tmasculine\n"
    t.write_bytes(b"m\xe9canicien\n")
    with pytest.raises(InputError, match=r"words.tsv: not a UTF-8 vocabulary file \(byte 1: invalid"):
        read_utf8(t, "vocabulary")
    with pytest.raises(InputError, match="file not found"):
        read_utf8(tmp_path / "missing")
    with pytest.raises(InputError, match="a directory, not a text file"):
        read_utf8(tmp_path)
