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


@pytest.mark.parametrize("argv,cap", [
    (["evaluate", "--dataset", "d.tsv", "--system", "s=x.tsv", "--out", "o", "--resamples", "100000000"],
     "outside 0..1,000,000 (the cap of --resamples)"),
    (["evaluate", "--dataset", "d", "--system", "s=x", "--out", "o", "--resamples", "-1"], "outside 0..1,000,000"),
    (["experiment-plan", "--benchmark", "b.parquet", "--experiment", "qa", "--participants", "100000", "--out", "o"],
     "outside 1..10,000 (the cap of --participants)"),
    (["experiment-plan", "--benchmark", "b.parquet", "--experiment", "maze", "--participants", "4",
      "--items", "10000000", "--out", "o"], "the cap of --items"),
])
def test_options_that_would_allocate_without_bound_are_capped(argv, cap, capsys):
    from pipeline.cli import main

    t0 = time.monotonic()
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2 and cap in capsys.readouterr().err
    assert time.monotonic() - t0 < 10
