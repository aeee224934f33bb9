"""Progress of a run's stages, fit for a terminal and for a log.

On a terminal (stderr is a tty) a stage shows a tqdm bar. Anywhere else (``nohup``, a batch
scheduler, CI, a pipe) a bar would write hundreds of carriage-return frames into the log; there
a stage writes one plain line about every :data:`INTERVAL_SECONDS` seconds instead, with the
count done, the total, the rate and the ETA, and one last line when it ends::

    generate: books: 7/18 books (39 %), 0.35 books/s, ETA 0:31
    generate: books: 18/18 books (100 %), 0.36 books/s, done in 0:50

The summary a command prints at its end stays on stdout. ``PIPELINE_PROGRESS`` forces a mode
(``bar`` or ``lines``) and ``PIPELINE_PROGRESS_SECONDS`` sets the line interval (tests and
short jobs).

:func:`bar` is the one progress display of generate, extract, build and the engines (which
take it as their ``bar`` argument: :func:`pipeline.engines.run_books`).

May import: the standard library, tqdm.
"""

from __future__ import annotations

import os
import sys
import time
from typing import Iterable, Iterator, TextIO

INTERVAL_SECONDS = 30.0
ENV_MODE = "PIPELINE_PROGRESS"              # "bar" or "lines"; default: bar on a terminal
ENV_SECONDS = "PIPELINE_PROGRESS_SECONDS"


def _clock(seconds: float) -> str:
    seconds = int(max(0, seconds))
    h, rest = divmod(seconds, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def _count(n: float, scale: bool) -> str:
    if not scale or n < 10_000:
        return f"{n:,.0f}"
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if n >= div:
            return f"{n / div:.2f}{suffix}"
    return f"{n:,.0f}"


class LineProgress:
    """A progress display of plain lines: one every ``interval`` seconds (when the count
    moved) and one at :meth:`close`. The subset of tqdm's interface the runs use."""

    def __init__(self, total: int | None = None, desc: str = "", unit: str = "it", *,
                 unit_scale: bool = False, file: TextIO | None = None, interval: float | None = None,
                 clock=time.monotonic) -> None:
        self.total, self.desc, self.unit, self.unit_scale = total, desc, unit, unit_scale
        self.file = file
        self.interval = interval_seconds() if interval is None else interval
        self.clock = clock
        self.n = 0
        self.start = self.last = clock()
        self.shown = None
        self.closed = False

    def line(self, final: bool = False) -> str:
        unit = self.unit if self.unit.endswith("s") else self.unit + "s"
        elapsed = self.clock() - self.start
        rate = self.n / elapsed if elapsed > 0 else 0.0
        done = _count(self.n, self.unit_scale)
        if self.total:
            done += f"/{_count(self.total, self.unit_scale)} {unit} ({100 * self.n / self.total:.0f} %)"
        else:
            done += f" {unit}"
        text = f"{self.desc}: {done}, {_count(rate, self.unit_scale) if rate >= 10 else f'{rate:.2f}'} {unit}/s"
        if final:
            return text + f", done in {_clock(elapsed)}"
        if self.total and rate > 0:
            return text + f", ETA {_clock((self.total - self.n) / rate)}"
        return text + f", {_clock(elapsed)} elapsed"

    def _write(self, final: bool = False) -> None:
        out = self.file or sys.stderr
        out.write(self.line(final) + "\n")
        out.flush()
        self.shown = self.n

    def update(self, n: int = 1) -> None:
        self.n += n
        now = self.clock()
        if now - self.last >= self.interval and self.n != self.shown and self.n != self.total:
            self.last = now
            self._write()

    def refresh(self) -> None:
        pass

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self._write(final=True)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def interval_seconds() -> float:
    try:
        return float(os.environ.get(ENV_SECONDS, INTERVAL_SECONDS))
    except ValueError:
        return INTERVAL_SECONDS


def on_terminal(file: TextIO | None = None) -> bool:
    """True when progress should be a bar: ``PIPELINE_PROGRESS`` says so, or the stream is a tty."""
    mode = os.environ.get(ENV_MODE, "").strip().lower()
    if mode in ("bar", "lines"):
        return mode == "bar"
    stream = file or sys.stderr
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def bar(total: int | None = None, desc: str = "", unit: str = "it", *, unit_scale: bool = False,
        position: int | None = None, file: TextIO | None = None, interval: float | None = None):
    """A progress display for one stage: a tqdm bar on a terminal, else :class:`LineProgress`."""
    if on_terminal(file):
        from tqdm import tqdm

        return tqdm(total=total, desc=desc, unit=unit, unit_scale=unit_scale, position=position, file=file)
    return LineProgress(total, desc, unit, unit_scale=unit_scale, file=file, interval=interval)


def track(items: Iterable, desc: str = "", unit: str = "it", total: int | None = None,
          file: TextIO | None = None) -> Iterator:
    """``items`` with a progress display (:func:`bar`) that closes when they are exhausted."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)      # type: ignore[arg-type]
    with bar(total, desc, unit, file=file) as b:
        for item in items:
            yield item
            b.update(1)
