"""Annotation round trip: export tasks, annotate locally, import votes, publish the dataset.

* :mod:`pipeline.annotate.questions` -- the pure core shared by every step: a question built
  from a quadruple row (text, pronoun span, the persons and their name mentions), the answer
  checks (a highlight must lie inside a personal name; all highlights must name one person;
  "no names are coreferent" cannot be combined with a highlight), and the mapping of an
  answer to the label ``A`` / ``B`` / ``neither``. The known-answer check questions live in
  ``checks.txt`` beside this file.
* :mod:`pipeline.annotate.export` -- ``annotate-export``: MTurk batch CSV + HTML template.
* :mod:`pipeline.annotate.serve` -- ``annotate-serve``: the local Flask app with SQLite.
* :mod:`pipeline.annotate.aggregate` -- ``annotate-import``: votes, filters, balancing,
  the final Parquet/GAP TSV and the dataset card.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_DIR / "templates"
STATIC = PACKAGE_DIR / "static"
