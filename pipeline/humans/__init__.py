"""Room: humans vs models -- the pro/anti-stereotype benchmarks, the human experiment (timed QA
and Maze) with its web app, and the analysis comparing humans and models on a similar scale.

Its own small layers, imports pointing one way (the same ranks as the spine's layers, each just
above the spine's layer of the same name: a room's layer may import the shared ones below it):

- :mod:`pipeline.humans.formats`: the experiment's store (SQLite) and the released results' CSVs;
- :mod:`pipeline.humans.nlp`: spaCy tags for the Maze and the filler questions;
- :mod:`pipeline.humans.core`: stereotype categories, the experiment plan, pace and Maze
  distractors, the human-vs-model analysis (pure);
- :mod:`pipeline.humans.report`: the analysis' tables and plots;
- :mod:`pipeline.humans.runs`: ``benchmark``, ``experiment-plan``, ``experiment-export``,
  ``humans``;
- :mod:`pipeline.humans.web`: the experiment app;
- :mod:`pipeline.humans.commands`: the commands of the room (found by :mod:`pipeline.cli`).

The spine (and every other room) imports nothing of this one. Shared formats and vocabulary
(``formats.benchmarks``, ``lang.benchmarks``, ``core.benchmark_scoring`` -- the evaluation of a
benchmark is the spine's ``evaluate``) stay shared.

May import: nothing of the project (a package marker).
"""
