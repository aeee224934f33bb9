"""Issue 45, item 3: bounds on what a file or an option can make the program loop over or
allocate. Each case hung or grew without bound before the issue."""

from __future__ import annotations

import time

import pytest

from pipeline.errors import InputError

pytestmark = pytest.mark.chaos


def test_a_catastrophic_where_regex_is_stopped_with_one_line(monkeypatch):
    from pipeline.formats.corpus import selection

    monkeypatch.setattr(selection, "WHERE_TIMEOUT", 0.2)
    for pattern in ("(a+)+$", "(a|aa)+$"):          # the issue's, and one the regex module backtracks on too
        where = selection.parse_where(f"subjects~{pattern}")
        t0 = time.monotonic()
        with pytest.raises(InputError) as exc:
            where.holds({"subjects": "a" * 5000 + "b"})
        assert str(exc.value).startswith(f"--where subjects~{pattern}: the regular expression took more than 0.2 s")
        assert time.monotonic() - t0 < 30
    assert selection.parse_where(r"subjects~\bfiction\b").holds({"subjects": "England -- Fiction"})
