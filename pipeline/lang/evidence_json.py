"""A book's evidence (:class:`pipeline.lang.book_evidence.BookEvidence`) as JSON text and back.

Extract gathers the evidence once per book and stores it with its outputs
(``evidence.parquet``: one row per book, the JSON below); generate's re-check reads it back, so
the variants of a quadruple are judged with the book behind them, as extract judged the
original (docs/persons.md, "One cast per book").

The encoding is generic over the evidence's dataclasses: every field is written, whatever its
type among dataclasses of the English layer (:mod:`pipeline.lang`), ``Counter``, ``dict``, ``list``,
``tuple``, ``set``, ``frozenset`` and JSON scalars (a field added to the evidence needs no
change here). Containers are tagged so that ``loads(dumps(ev)) == ev`` exactly (tuple keys of a
Counter stay tuples). :data:`VERSION` changes when the layout of the encoding does; a row of
another version is refused by the reader with the command that makes a new one.

May import: the modules of :mod:`pipeline.lang` whose records the evidence holds (by name), the
standard library.
"""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

VERSION = 1
# fields derived from the stored ones when the evidence is made (the learned decision bound to the
# book: ``BookEvidence.model``): not stored, bound again by :func:`loads`
DERIVED = frozenset({"model"})


class EvidenceVersionError(ValueError):
    """Evidence written by another version of the encoding."""


def _enc(x):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        cls = type(x)
        return {"$dc": f"{cls.__module__}:{cls.__qualname__}",
                "f": {f.name: _enc(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name not in DERIVED}}
    if isinstance(x, Counter):
        return {"$counter": [[_enc(k), v] for k, v in x.items()]}
    if isinstance(x, dict):
        if all(isinstance(k, str) for k in x):
            return {"$dict": {k: _enc(v) for k, v in x.items()}}
        return {"$pairs": [[_enc(k), _enc(v)] for k, v in x.items()]}
    if isinstance(x, tuple):
        return {"$tuple": [_enc(v) for v in x]}
    if isinstance(x, frozenset):
        return {"$frozenset": sorted((_enc(v) for v in x), key=repr)}
    if isinstance(x, set):
        return {"$set": sorted((_enc(v) for v in x), key=repr)}
    if isinstance(x, list):
        return [_enc(v) for v in x]
    if x is None or isinstance(x, (str, int, float, bool)):
        return x
    raise TypeError(f"evidence field of type {type(x).__name__} cannot be stored")


class _Classes(dict):
    """module:name -> a dataclass of the English layer (the only records evidence holds)."""

    def __missing__(self, key: str):
        import importlib

        module, _, name = key.partition(":")
        if not module.startswith("pipeline.lang."):
            raise EvidenceVersionError(f"unknown evidence record {key!r}")
        try:
            obj = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            raise EvidenceVersionError(f"unknown evidence record {key!r}") from None
        if not (isinstance(obj, type) and dataclasses.is_dataclass(obj)):
            raise EvidenceVersionError(f"unknown evidence record {key!r}")
        self[key] = obj
        return obj


def _classes() -> dict:
    return _Classes()


def _dec(x, classes: dict):
    if isinstance(x, list):
        return [_dec(v, classes) for v in x]
    if not isinstance(x, dict):
        return x
    if "$dc" in x:
        cls = classes[x["$dc"]]
        names = {f.name for f in dataclasses.fields(cls)}
        values = {k: _dec(v, classes) for k, v in x["f"].items() if k in names}
        return cls(**values)        # fields the stored row lacks take their defaults
    if "$counter" in x:
        return Counter({_key(_dec(k, classes)): v for k, v in x["$counter"]})
    if "$dict" in x:
        return {k: _dec(v, classes) for k, v in x["$dict"].items()}
    if "$pairs" in x:
        return {_key(_dec(k, classes)): _dec(v, classes) for k, v in x["$pairs"]}
    if "$tuple" in x:
        return tuple(_dec(v, classes) for v in x["$tuple"])
    if "$frozenset" in x:
        return frozenset(_key(_dec(v, classes)) for v in x["$frozenset"])
    if "$set" in x:
        return {_key(_dec(v, classes)) for v in x["$set"]}
    raise EvidenceVersionError(f"unknown evidence encoding {sorted(x)[:3]}")


def _key(k):
    return tuple(_key(v) for v in k) if isinstance(k, list) else k


def dumps(evidence) -> str:
    """The evidence as one JSON text (compact; ``VERSION`` inside)."""
    return json.dumps({"version": VERSION, "evidence": _enc(evidence)}, separators=(",", ":"), ensure_ascii=False)


def loads(text: str):
    """The :class:`~pipeline.lang.book_evidence.BookEvidence` of :func:`dumps`'s text. Raises
    :class:`EvidenceVersionError` for text of another version."""
    data = json.loads(text)
    if not isinstance(data, dict) or data.get("version") != VERSION:
        got = data.get("version") if isinstance(data, dict) else None
        raise EvidenceVersionError(f"book evidence of version {got!r}, this code reads version {VERSION}: "
                                   "run extract again into a new directory")
    evidence = _dec(data["evidence"], _classes())
    from pipeline.lang import book_evidence as be

    bind = getattr(be, "bind_model", None)
    return bind(evidence) if bind is not None else evidence
