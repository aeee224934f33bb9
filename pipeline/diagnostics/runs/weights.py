"""``weights``: the run is :func:`pipeline.diagnostics.runs.diagnostics.weights` (its output file
locked: one writer per ``--out FILE``), imported here with its settings for the command.

May import: :mod:`pipeline.diagnostics.runs`.
"""

from __future__ import annotations

from pipeline.diagnostics.runs.diagnostics import WeightsSettings, weights

__all__ = ["WeightsSettings", "weights"]
