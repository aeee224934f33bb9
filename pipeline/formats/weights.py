"""Weights files: the JSON {example ID: weight} written by the ``weights`` command.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import math
from pathlib import Path

from pipeline.errors import InputError
from pipeline.formats.files import read_json


def read_weights(path: str | Path, ids=None) -> dict[str, float]:
    """Read a weights JSON {ID: weight} (as written by the ``weights`` command), or an object
    holding such a mapping under "weights". Every weight must be a finite number >= 0; with
    ``ids`` (the dataset's example IDs), an ID the dataset does not have is refused, naming
    this file."""
    path = Path(path)
    data = read_json(path)
    if isinstance(data, dict) and isinstance(data.get("weights"), dict):
        data = data["weights"]
    if not isinstance(data, dict):
        raise InputError("weights must be a JSON object {ID: weight} (or hold one under \"weights\")", path)
    out = {}
    for k, v in data.items():
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
            raise InputError(f"weight must be a finite number >= 0, got {v!r}", path, k)
        out[str(k)] = float(v)
    if not out:
        raise InputError("no weights in the file", path)
    if ids is not None:
        known = {str(i) for i in ids}
        unknown = sorted(k for k in out if k not in known)
        if unknown:
            raise InputError(f"weights for {len(unknown)} ID(s) the dataset does not have, first: "
                             f"{', '.join(unknown[:5])} (weights of another dataset?)", path)
    if not any(out.values()):
        raise InputError(f"all {len(out)} weights are 0: a weighted metric would divide by zero", path)
    return out
