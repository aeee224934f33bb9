"""Room: diagnostics of a dataset -- ``analyze`` (what the instances and quadruples hold),
``weights`` (the LP weights that balance them) and ``baseline`` (the heuristic baselines).

Its own small layers, imports pointing one way (ranked just above the spine's layer of the same
name):

- :mod:`pipeline.diagnostics.core`: the analysis and the baselines (pure);
- :mod:`pipeline.diagnostics.report`: the analysis' tables and figures;
- :mod:`pipeline.diagnostics.runs`: the runs of ``analyze``, ``weights`` and ``baseline``;
- :mod:`pipeline.diagnostics.commands`: ``analyze``, ``baseline``, ``weights`` (found by
  :mod:`pipeline.cli`).

The LP weights themselves (``core/weights.py``, ``formats/weights.py``) stay shared: the spine's
``evaluate`` weighs its metrics with them. The spine (and every other room) imports nothing of
this one.

May import: nothing of the project (a package marker).
"""
