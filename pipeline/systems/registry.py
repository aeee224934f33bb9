"""The adapter registry: adapter name -> factory, a ``catalogue`` registry (spaCy's).

Built-in adapters are registered by name with a factory that imports their module only when
the adapter is used. A user adds an adapter from their own package without editing this one,
in either of two ways:

* an entry point in the group ``counter_gap_systems`` of their package's ``pyproject.toml``::

      [project.entry-points.counter_gap_systems]
      mysys = "mypackage.coref:MyAdapter"

  (after ``pip install`` of that package, ``--system NAME=mysys:MODEL`` finds it: catalogue
  reads the installed entry points when it is first imported);
* or, in code run before the command (a plugin imported by a wrapper script)::

      from pipeline.systems.registry import systems

      @systems.register("mysys")
      class MyAdapter: ...

A factory is called as ``factory(model, device=..., batch_size=...)`` and returns an object
with ``predict(texts) -> list of character clusters`` (:mod:`pipeline.systems.base`).

May import: the standard library, catalogue, :mod:`pipeline.errors`, :mod:`pipeline.systems`.
"""

from __future__ import annotations

import importlib

import catalogue

from pipeline.errors import InputError

ENTRY_POINT_GROUP = "counter_gap_systems"
systems = catalogue.create("counter_gap", "systems", entry_points=True)

# name -> (module, class, keyword arguments, extra): imported only when used
BUILTIN = {
    "fastcoref": ("pipeline.systems.fastcoref", "FastcorefAdapter", {}, "fastcoref"),
    "lingmess": ("pipeline.systems.fastcoref", "FastcorefAdapter", {"lingmess": True}, "fastcoref"),
    "maverick": ("pipeline.systems.maverick", "MaverickAdapter", {}, "maverick"),
    "spacy": ("pipeline.systems.spacy_coref", "SpacyCorefAdapter", {}, "spacy-coref"),
    "allennlp": ("pipeline.systems.allennlp", "AllennlpAdapter", {}, "allennlp"),
    "xrenner": ("pipeline.systems.xrenner", "XrennerAdapter", {}, "xrenner"),
    "command": ("pipeline.systems.command", "CommandAdapter", {}, None),
}


def _lazy(module: str, cls: str, kwargs: dict):
    def factory(model, **options):
        return getattr(importlib.import_module(module), cls)(model, **{**kwargs, **options})
    factory.__qualname__ = f"{module}.{cls}"
    return factory


for _name, (_module, _cls, _kwargs, _extra) in BUILTIN.items():
    systems.register(_name, func=_lazy(_module, _cls, _kwargs))


def adapter_names() -> list[str]:
    """Every adapter name: the built-in ones and those of installed entry points."""
    return sorted(systems.get_all())


def is_adapter(name: str) -> bool:
    return name in systems.get_all()


def make_adapter(spec, device: str = "cpu", batch_size: int = 8):
    """The adapter of a :class:`pipeline.systems.base.SystemSpec`, loaded."""
    if not is_adapter(spec.adapter):
        raise InputError(f"unknown system adapter {spec.adapter!r} in --system {spec}; known: "
                         f"{', '.join(adapter_names())} (add one: docs/evaluate.md, 'Your own adapter')")
    return systems.get(spec.adapter)(spec.model, device=device, batch_size=batch_size)
