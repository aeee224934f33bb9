"""Coreference systems behind one interface (``python -m pipeline predict``).

* :mod:`pipeline.systems.base` -- the adapter interface, ``NAME=ADAPTER[:MODEL]``, helpers
  turning token clusters into character clusters;
* :mod:`pipeline.systems.registry` -- adapter name -> factory (``catalogue``; entry points in
  the group ``counter_gap_systems`` add a user's own adapters);
* one module per library, imported only when its adapter is used: ``fastcoref`` (FCoref and
  LingMess), ``maverick``, ``spacy_coref`` (spacy-experimental's coref, coreferee),
  ``allennlp``, ``xrenner`` (rule-based, offline), ``command`` (any external program);
* :mod:`pipeline.systems.run` -- running systems on a dataset: batches, progress bar,
  resumable per-document cache, a crash on one document recorded as an unanswered document.

Layer: above the cores and engines, below the reports (docs/architecture.md).

May import: nothing of the project (the adapters are imported by the registry when used).
"""
