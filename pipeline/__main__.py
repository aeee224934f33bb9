"""``python -m pipeline``: the command line (:func:`pipeline.cli.main`), its exit status the process's.

May import: :mod:`pipeline.cli` only (the CLI finds the commands and imports the one run).
"""

from pipeline.cli import main

raise SystemExit(main())
