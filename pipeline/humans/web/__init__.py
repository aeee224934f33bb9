"""The human experiment app (timed QA and Maze): templates and static assets.

May import: the standard library (the paths of the templates and assets).
"""

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATES = PACKAGE_DIR / "templates"
STATIC = PACKAGE_DIR / "static"
