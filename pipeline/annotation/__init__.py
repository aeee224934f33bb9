"""Room: annotation -- crowd (MTurk) or local annotation of the quadruples, and the import of the
answers into the published dataset.

Its own small layers, imports pointing one way (ranked just above the spine's layer of the same
name: a room's layer may import the shared ones below it):

- :mod:`pipeline.annotation.formats`: the annotate-serve store (SQLite), the MTurk CSV layout,
  the annotator key, the Hugging Face dataset folder;
- :mod:`pipeline.annotation.core`: questions and answer checks, votes, pseudonyms, the persons
  of a GAP row (pure);
- :mod:`pipeline.annotation.report`: the dataset card;
- :mod:`pipeline.annotation.runs`: the rows to annotate, ``annotate-export``,
  ``annotate-import``;
- :mod:`pipeline.annotation.web`: the annotation app and the MTurk layout it renders;
- :mod:`pipeline.annotation.commands`: ``annotate-export``, ``annotate-serve``,
  ``annotate-import`` (found by :mod:`pipeline.cli`).

The spine (and every other room) imports nothing of this one; a span's trimming, shared with the
GAP rows of generate, is the spine's (:mod:`pipeline.core.spans`).

May import: nothing of the project (a package marker).
"""
