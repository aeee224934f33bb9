"""What every coreference system adapter is: the interface, the system spec, and the helpers
that turn a library's output into character-offset clusters.

An adapter is a class (or any callable returning an object) built as
``Adapter(model, device=..., batch_size=...)`` whose ``predict(texts)`` returns, for each
text, its clusters as lists of ``(start, end)`` CHARACTER offsets into that text, end
exclusive (``text[start:end]`` is the mention). It imports its library inside ``__init__``
(never at module import) and raises :class:`MissingExtra` when the library is absent. It
never downloads: ``model`` is a local path or a name the library resolves from the user's
own cache (:func:`local_only`).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.core.alignment`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Protocol, Sequence

from pipeline.errors import InputError

CharSpan = tuple[int, int]
CharClusters = list[list[CharSpan]]
DEVICES = ("cpu", "cuda", "mps")


class MissingExtra(InputError):
    """The library of an adapter is not installed: one line naming the extra to install."""

    def __init__(self, adapter: str, module: str, extra: str | None = None, how: str | None = None):
        how = how or f"pip install 'counter-gap[{extra or adapter}]'"
        super().__init__(f"system adapter {adapter!r} needs the Python module {module!r}, which is not "
                         f"installed: {how}")


class Adapter(Protocol):
    name: str

    def predict(self, texts: Sequence[str]) -> list[CharClusters]: ...


@dataclass(frozen=True)
class SystemSpec:
    """``NAME=ADAPTER[:MODEL]`` from the command line."""
    name: str
    adapter: str
    model: str | None

    def __str__(self) -> str:
        return f"{self.name}={self.adapter}" + (f":{self.model}" if self.model else "")


def parse_spec(text: str) -> SystemSpec:
    """``NAME=ADAPTER[:MODEL]``; MODEL is everything after the first colon (a path, a cache
    name, or the command line of the ``command`` adapter). Anything else is an
    :class:`pipeline.errors.InputError` (on the command line: a usage error naming ``--system``)."""
    name, sep, rest = text.partition("=")
    if not sep or not name or not rest:
        raise InputError(f"--system expects NAME=ADAPTER[:MODEL], got {text!r}")
    adapter, _, model = rest.partition(":")
    if not adapter:
        raise InputError(f"--system expects NAME=ADAPTER[:MODEL], got {text!r}")
    return SystemSpec(name, adapter, model or None)


def local_only() -> None:
    """Make the Hugging Face libraries resolve names from the local cache only: an adapter
    never downloads weights on its own."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")


def check_device(device: str) -> str:
    if device not in DEVICES:
        raise InputError(f"--device must be one of {', '.join(DEVICES)}, got {device!r}")
    return device


def clusters_from_tokens(text: str, tokens: Sequence[str], clusters, end_inclusive: bool = True) -> CharClusters:
    """Character clusters of token-index clusters (``[start, end]`` token indices, end
    inclusive by default, as AllenNLP, Maverick and c2f-coref write them) over ``tokens``
    that re-tokenize ``text``: the tokens are aligned with the text
    (:func:`pipeline.core.alignment.align_tokens`); a mention whose tokens align nowhere is
    dropped."""
    from pipeline.core.alignment import align_tokens

    spans = align_tokens(text, list(tokens))
    out = []
    for cluster in clusters:
        mentions = []
        for m in cluster:
            s, e = int(m[0]), int(m[1]) if end_inclusive else int(m[1]) - 1
            covered = [spans[i] for i in range(s, e + 1) if 0 <= i < len(spans) and spans[i] is not None]
            if covered:
                mentions.append((min(c[0] for c in covered), max(c[1] for c in covered)))
        if mentions:
            out.append(mentions)
    return out


def clean_clusters(text: str, clusters) -> CharClusters:
    """Validated ``(start, end)`` character clusters (ints, inside the text, start < end),
    duplicates dropped, in order of their first mention."""
    out = []
    for cluster in clusters:
        seen, mentions = set(), []
        for m in cluster:
            s, e = int(m[0]), int(m[1])
            if not (0 <= s < e <= len(text)):
                raise ValueError(f"mention {(s, e)} lies outside the text ({len(text)} characters)")
            if (s, e) not in seen:
                seen.add((s, e))
                mentions.append((s, e))
        if mentions:
            out.append(sorted(mentions))
    out.sort(key=lambda c: c[0])
    return out
