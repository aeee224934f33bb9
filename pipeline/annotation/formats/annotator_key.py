"""The annotation import's private files: the salt of the annotator pseudonyms and the key
(pseudonym -> raw annotator id). Both are written atomically with mode 0600 and never inside
the published directory.

* the salt file (``RESULTS.salt`` beside an MTurk results CSV, or ``--salt-file``): one line,
  32 hex digits; created when missing, so the same file gives the same pseudonyms on every run
  (the annotate-serve database keeps its own salt: :func:`pipeline.annotation.formats.store.annotator_salt`);
* the key (``--annotator-ids FILE``): a CSV ``pseudonym,annotator``, sorted.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import csv
import io
import os
import secrets
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats.files import atomic_path

KEY_HEADER = ("pseudonym", "annotator")


def private_file(path, text: str) -> None:
    """Write ``text`` to ``path`` atomically, readable by its owner only (mode 0600)."""
    with atomic_path(Path(path)) as tmp:
        tmp.write_text(text, encoding="utf-8")
        os.chmod(tmp, 0o600)


def salt_file(path) -> str:
    """The salt kept in ``path``; a new random one written there when the file is missing.
    An empty file is refused (it would make every pseudonym guessable)."""
    path = Path(path)
    if path.is_file():
        salt = path.read_text(encoding="utf-8").strip()
        if not salt:
            raise InputError("empty salt file", path)
        return salt
    salt = secrets.token_hex(16)
    private_file(path, salt + "\n")
    return salt


def write_annotator_ids(path, key: dict[str, str], out) -> None:
    """The private key (pseudonym -> raw id) as a CSV; refused when ``path`` lies inside ``out``,
    the directory that is published (called with an empty key before any work, to refuse early)."""
    path = Path(path)
    if path.resolve().is_relative_to(Path(out).resolve()):
        raise InputError("--annotator-ids must lie outside --out (the published directory)", path)
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(KEY_HEADER)
    w.writerows(sorted(key.items()))
    private_file(path, buf.getvalue())
