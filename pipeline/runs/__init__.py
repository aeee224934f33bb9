"""Runs: the layer between the pure cores and the commands.

A run is what one command does once its arguments are parsed: it loads its inputs (through
:mod:`pipeline.formats`), calls the cores (pure functions: records in, records out), and saves
its outputs (again through :mod:`pipeline.formats`), as a Kedro node is a pure function with
declared inputs and outputs between datasets that load and save. The commands in
:mod:`pipeline.commands` only parse options and call one function here (spaCy's thin ``cli``
modules); the benchmarks and the web apps call the same functions.

- :mod:`pipeline.runs.partitions`: units of a corpus written one partition each, with a
  manifest, resume and merge (shared by extract and persons);
- :mod:`pipeline.runs.extract`: books -> instances (the per-book pipeline);
- :mod:`pipeline.runs.persons`: books -> the cast of every book;
- :mod:`pipeline.runs.generate`: instances or a GAP TSV -> quadruples;
- :mod:`pipeline.runs.evaluate`: one evaluation entry point over every dataset kind, behind one
  interface (:mod:`pipeline.runs.eval_quadruples`, :mod:`pipeline.runs.eval_benchmark`,
  :mod:`pipeline.runs.eval_sowinobias`);
- :mod:`pipeline.runs.label`: the other spine command's run.

The feature rooms keep their runs in their own package (``pipeline/humans/runs/``,
``pipeline/annotation/runs/``, ``pipeline/cda/runs/``, ``pipeline/embeddings/runs.py``,
``pipeline/sowinobias/runs.py``, ``pipeline/diagnostics/runs/``); they use the settings helpers
here, and nothing here imports them.

Every run takes a frozen settings dataclass (``ExtractSettings``, ``EvaluateSettings``,
``GenerateSettings``, ``LabelSettings``...; the shared helpers are in
:mod:`pipeline.runs.settings`), built by its command from the parsed options, and returns a
:class:`pipeline.runs.settings.RunResult`.

May import: :mod:`pipeline.errors`, :mod:`pipeline.vocab`, :mod:`pipeline.formats`,
:mod:`pipeline.lang`, :mod:`pipeline.nlp`, :mod:`pipeline.core`, :mod:`pipeline.engines`,
:mod:`pipeline.systems`, :mod:`pipeline.report` (never a command nor a web app).
"""
