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
