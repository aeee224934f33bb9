"""The commands of the annotation room: ``annotate-export``, ``annotate-serve``,
``annotate-import``; each found by :mod:`pipeline.cli` as those of :mod:`pipeline.commands` are
(``command``, a click command, and ``run``).

May import: nothing of the project (a package marker).
"""
