"""What the runs share for their settings and results.

A run is called with one frozen settings dataclass (``BenchmarkSettings``, ``LabelSettings``,
...): typed :class:`pathlib.Path` fields, checked when it is built (``__post_init__``, a bad
value is one :class:`pipeline.errors.InputError` line). The command builds it from its parsed
options (click, :mod:`pipeline.options`); Python code and tests build it directly. The run
returns a :class:`RunResult`.

May import: the standard library, :mod:`pipeline.errors`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.errors import InputError


@dataclass(frozen=True)
class RunResult:
    """What a run returns: the exit status (0, or 1 when part of the work failed), the output
    files and directories it wrote, ``settings``: what the run adds to the ``settings`` of its
    run record (``run.json``, written by the CLI from this result; empty for most runs), and
    ``summary``: the counts it reports (annotate-export's ``export.json``...), when it has them."""
    status: int = 0
    outputs: tuple[Path, ...] = ()
    settings: dict = field(default_factory=dict)
    summary: dict = field(default_factory=dict)

    def __int__(self) -> int:
        return self.status

    def __eq__(self, other) -> bool:
        """Equal to another result with the same fields, or to its exit status as an int (a
        command's ``run(args) == 0`` holds as when it returned the status)."""
        if isinstance(other, int) and not isinstance(other, bool):
            return self.status == other
        if isinstance(other, RunResult):
            return ((self.status, self.outputs, self.settings, self.summary)
                    == (other.status, other.outputs, other.settings, other.summary))
        return NotImplemented

    __hash__ = None         # holds a dict


def as_paths(settings, *names: str) -> None:
    """Turn the fields ``names`` of a frozen settings object into :class:`Path` (a ``str`` or
    any ``os.PathLike`` given; None kept; a list or tuple of paths becomes a tuple of them)."""
    for name in names:
        value = getattr(settings, name)
        if value is None or isinstance(value, Path):
            continue
        if isinstance(value, (list, tuple)):
            value = tuple(v if isinstance(v, Path) else Path(v) for v in value)
        elif isinstance(value, (str, os.PathLike)):
            value = Path(value)
        else:
            raise InputError(f"{name} must be a path, got {type(value).__name__}")
        object.__setattr__(settings, name, value)


def as_tuple(settings, *names: str) -> None:
    """Turn list fields into tuples (a frozen settings object holds no mutable list)."""
    for name in names:
        value = getattr(settings, name)
        if isinstance(value, list):
            object.__setattr__(settings, name, tuple(value))


def check_choice(name: str, value, allowed) -> None:
    """``value`` must be one of ``allowed`` (the option's choices), else one InputError line."""
    if value not in allowed:
        raise InputError(f"{name} must be one of {', '.join(map(str, allowed))}, got {value!r}")


def check_at_least(name: str, value, low) -> None:
    """``value`` must be >= ``low``, else one InputError line."""
    if value < low:
        raise InputError(f"{name} must be >= {low}, got {value}")
