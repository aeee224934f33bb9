"""Room: SoWinoBias -- building the SoWinoBias test set and its nearest-neighbour baseline.

Its own small layers, imports pointing one way (ranked just above the spine's layer of the same
name):

- :mod:`pipeline.sowinobias.core`: the baseline (pure);
- :mod:`pipeline.sowinobias.runs`: the ``sowinobias`` run (vocabulary -> the set -> baseline ->
  evaluation);
- :mod:`pipeline.sowinobias.commands`: the ``sowinobias`` command (found by :mod:`pipeline.cli`).

Scoring a system on SoWinoBias is the spine's ``evaluate`` (its templates, scoring and report
stay shared: ``core/sowinobias_templates.py``, ``core/sowinobias_scoring.py``,
``report/sowinobias.py``, ``runs/eval_sowinobias.py``); this room uses them, and nothing outside
it imports it.

May import: nothing of the project (a package marker).
"""
