"""Room: counterfactual data augmentation (CDA) and the name map of n-CDA.

Its own small layers, imports pointing one way (ranked just above the spine's layer of the same
name: a room's layer may import the shared ones below it):

- :mod:`pipeline.cda.formats`: gender-guesser's dictionary read into name entries, the name map
  files;
- :mod:`pipeline.cda.core`: augmenting one document (a-CDA, n-CDA: titles, name roles, "her")
  and the name map's weights and matching (pure);
- :mod:`pipeline.cda.runs`: ``cda`` (streaming CoNLL-2012, tagging, the books' casts) and
  ``namemap``;
- :mod:`pipeline.cda.commands`: ``cda``, ``namemap`` (found by :mod:`pipeline.cli`).

The spine (and every other room) imports nothing of this one.

May import: nothing of the project (a package marker).
"""
