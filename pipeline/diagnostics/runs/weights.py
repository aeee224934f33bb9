"""``weights`` with its output file locked: one writer per ``--out FILE``
(:func:`pipeline.formats.files.output_file_lock`); the run itself is
:func:`pipeline.diagnostics.runs.diagnostics.weights`.

May import: :mod:`pipeline.formats`, :mod:`pipeline.runs`.
"""

from __future__ import annotations

from pipeline.diagnostics.runs.diagnostics import WeightsSettings
from pipeline.runs.settings import RunResult

__all__ = ["WeightsSettings", "weights"]


def weights(s: WeightsSettings) -> RunResult:
    """The ``weights`` run (:class:`pipeline.diagnostics.runs.diagnostics.WeightsSettings`) -> its result; a
    second run into the same file is refused."""
    from pipeline.formats.files import output_file_lock
    from pipeline.diagnostics.runs.diagnostics import weights as run_weights

    with output_file_lock(s.out):
        return run_weights(s)
