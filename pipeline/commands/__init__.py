"""Commands: one module per ``python -m pipeline COMMAND``.

Each defines ``COMMAND`` (its name), ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args)``: the parsed arguments -> the run's frozen settings -> one call of the run (read ->
core -> write -> summary) -> the exit status, or the run's
:class:`pipeline.runs.settings.RunResult` (its ``settings`` go into ``run.json``). argparse
stays here: the runs take settings objects (``predict``'s :func:`pipeline.systems.run.predict`
is the one still handed the ``Namespace``). A command module may import every other
layer, and no other module may import a command module.
"""
