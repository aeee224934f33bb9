"""``make help`` lists every target of the Makefile with its one-line description: each target
line carries a ``## description`` comment, which the help recipe prints, so the list cannot
drift from the targets."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TARGET = re.compile(r"^([A-Za-z0-9_-]+):(?!=)(.*)$")


def targets() -> dict[str, str]:
    """target -> its ``##`` description ('' when it has none), for every rule of the Makefile
    (not the venv's stamp file, not special targets such as ``.PHONY``)."""
    found = {}
    for line in (ROOT / "Makefile").read_text().splitlines():
        m = TARGET.match(line)
        if m:
            found[m.group(1)] = m.group(2).partition("##")[2].strip()
    return found


def test_every_target_has_a_description():
    found = targets()
    assert {"help", "setup", "extract", "generate", "persons", "predict", "browser", "test"} <= set(found)
    assert not [t for t, d in found.items() if not d], "add `## description` to these target lines"


@pytest.mark.skipif(shutil.which("make") is None, reason="no make")
def test_make_help_lists_every_target():
    done = subprocess.run(["make", "--no-print-directory", "-s", "help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    listed = {}
    for line in done.stdout.splitlines()[1:]:
        name, _, description = line.strip().partition(" ")
        listed[name] = description.strip()
    assert listed == targets()
