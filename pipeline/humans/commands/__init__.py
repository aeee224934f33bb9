"""The commands of the humans room: ``benchmark``, ``experiment-plan``, ``experiment-serve``,
``experiment-export``, ``humans``; each found by :mod:`pipeline.cli` as those of
:mod:`pipeline.commands` are (``command``, a click command, and ``run``).

May import: nothing of the project (a package marker).
"""
