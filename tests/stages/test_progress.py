"""The progress display: plain lines off a terminal (counts, rate, ETA, one line at the end),
tqdm bars on one, and the lines a command writes into a log."""

from __future__ import annotations

import io

from pipeline.runs import progress


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_lines_every_interval_with_count_rate_and_eta():
    clock, out = Clock(), io.StringIO()
    p = progress.LineProgress(total=100, desc="generate: books", unit="book", file=out, interval=30, clock=clock)
    for _ in range(10):
        clock.t += 1
        p.update(1)             # 10 s: no line yet
    assert out.getvalue() == ""
    for _ in range(30):
        clock.t += 1
        p.update(1)
    lines = out.getvalue().splitlines()
    assert lines == ["generate: books: 30/100 books (30 %), 1.00 books/s, ETA 1:10"]
    clock.t += 5
    p.close()
    p.close()                   # once only
    lines = out.getvalue().splitlines()
    assert len(lines) == 2 and lines[1] == "generate: books: 40/100 books (40 %), 0.89 books/s, done in 0:45"
    assert "\r" not in out.getvalue()


def test_no_total_and_scaled_units():
    clock, out = Clock(), io.StringIO()
    with progress.LineProgress(desc="extract: words", unit="word", unit_scale=True, file=out, interval=30,
                               clock=clock) as p:
        clock.t = 40
        p.update(2_500_000)
    assert out.getvalue().splitlines() == ["extract: words: 2.50M words, 62.50k words/s, 0:40 elapsed",
                                           "extract: words: 2.50M words, 62.50k words/s, done in 0:40"]


def test_bar_off_and_on_a_terminal(monkeypatch):
    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.delenv(progress.ENV_MODE, raising=False)
    assert isinstance(progress.bar(3, "x", file=io.StringIO()), progress.LineProgress)
    from tqdm import tqdm

    b = progress.bar(3, "x", file=Tty())
    assert isinstance(b, tqdm)
    b.close()
    monkeypatch.setenv(progress.ENV_MODE, "lines")
    assert isinstance(progress.bar(3, "x", file=Tty()), progress.LineProgress)
    monkeypatch.setenv(progress.ENV_MODE, "bar")
    assert isinstance(progress.bar(3, "x", file=io.StringIO()), tqdm)


def test_track_yields_everything_and_ends_with_a_line():
    out = io.StringIO()
    assert list(progress.track(range(5), desc="re-check", unit="quadruple", file=out)) == list(range(5))
    lines = out.getvalue().splitlines()
    assert lines[-1].startswith("re-check: 5/5 quadruples (100 %), ") and "done in" in lines[-1]


def test_a_command_writes_lines_into_a_log(tmp_path, capsys, monkeypatch):
    """generate on a non-terminal: per stage one line every interval and one at the end, no
    carriage returns, and the summary on stdout."""
    from pipeline.cli import main
    from pipeline.formats import schemas
    from pipeline.formats.tables import write_records
    from tests.stages.test_generate import _two_instances
    from pipeline.nlp.load import load

    monkeypatch.delenv(progress.ENV_MODE, raising=False)
    monkeypatch.setenv(progress.ENV_SECONDS, "0")
    src = tmp_path / "instances.parquet"
    write_records(_two_instances(load()), src, schemas.INSTANCES, fill_missing=True)
    assert main(["generate", "--instances", str(src), "--out", str(tmp_path / "o"), "--no-recheck"]) == 0
    got = capsys.readouterr()
    assert "\r" not in got.err
    lines = [x for x in got.err.splitlines() if x.startswith("generate: ")]
    assert any(x.startswith("generate: books: 1/1 books (100 %)") and "done in" in x for x in lines)
    assert any(x.startswith("generate: quadruples: 2 quadruples") and "done in" in x for x in lines)
    assert "quadruples        2 (8 instances)" in got.out
