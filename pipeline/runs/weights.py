"""``weights`` with its output file locked: one writer per ``--out FILE``
(:func:`pipeline.formats.files.output_file_lock`); the run itself is
:func:`pipeline.runs.diagnostics.weights`.

May import: :mod:`pipeline.formats`, :mod:`pipeline.runs`.
"""

from __future__ import annotations


def weights(args) -> int:
    """The ``weights`` command -> the exit status; a second run into the same file is refused."""
    from pipeline.formats.files import output_file_lock
    from pipeline.runs.diagnostics import weights as run_weights

    with output_file_lock(args.out):
        return run_weights(args)
