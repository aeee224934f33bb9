"""Figures: the one writer of the matplotlib figures the reports draw.

* :func:`save_figure` -- a figure to a file, atomically (:func:`pipeline.formats.files.atomic_path`:
  a temporary file in the target's folder, fsync, rename onto the target, fsync of the
  folder), so a killed run never leaves half a PNG; the figure is closed afterwards.
* :func:`figure_png` -- a figure as PNG bytes (for a page that embeds it), closed afterwards;
  :func:`write_png` writes such bytes to a file, atomically.

The format is the target's suffix (``.png``) unless given: the temporary file's own name
ends otherwise. ``dpi`` None keeps matplotlib's default (the figure's own dpi); the bytes are
those ``fig.savefig(target, ...)`` would write.

May import: the standard library, matplotlib (inside functions), :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import io
import os
from pathlib import Path

from pipeline.formats.files import atomic_path


def _options(fmt: str | None, dpi: float | None) -> dict:
    options = {"format": fmt}
    if dpi is not None:
        options["dpi"] = dpi
    return options


def _close(fig) -> None:
    import matplotlib.pyplot as plt

    plt.close(fig)


def save_figure(fig, target: str | os.PathLike, *, dpi: float | None = None, fmt: str | None = None) -> Path:
    """Write ``fig`` to ``target`` atomically and close it; the target."""
    target = Path(target)
    fmt = fmt or target.suffix.lstrip(".").lower() or "png"
    try:
        with atomic_path(target) as tmp:
            fig.savefig(tmp, **_options(fmt, dpi))
    finally:
        _close(fig)
    return target


def figure_png(fig, *, dpi: float | None = None) -> bytes:
    """``fig`` as PNG bytes; the figure is closed."""
    buf = io.BytesIO()
    try:
        fig.savefig(buf, **_options("png", dpi))
    finally:
        _close(fig)
    return buf.getvalue()


def write_png(target: str | os.PathLike, png: bytes) -> Path:
    """PNG bytes (:func:`figure_png`) to ``target``, atomically; the target."""
    if not png.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ValueError("not PNG bytes")
    target = Path(target)
    with atomic_path(target) as tmp:
        tmp.write_bytes(png)
    return target
