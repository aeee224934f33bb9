"""The commands of the CDA room: ``cda``, ``namemap``; each found by :mod:`pipeline.cli` as those
of :mod:`pipeline.commands` are (``COMMAND``, ``HELP``, ``add_arguments``, ``run``).

May import: nothing of the project (a package marker).
"""
