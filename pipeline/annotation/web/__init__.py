"""The annotation web layer: the Flask app (:mod:`.app`), the MTurk layout and batch
(:mod:`.mturk`), and the page templates and static assets (HTML, JavaScript, CSS) they share,
shipped as package data next to this file. The app only serves: its SQLite store is
:mod:`pipeline.annotation.formats.store`, the rows to annotate (a quadruples Parquet or a GAP
TSV file, spaCy run) come from :mod:`pipeline.annotation.runs.rows`.

May import: the standard library (this module); see each module for its own imports.
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_DIR / "templates"
STATIC = PACKAGE_DIR / "static"
