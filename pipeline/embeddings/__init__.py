"""Room: bias diagnostics of word embeddings (WEAT, clustering, GIPE) over gendered word lists.

Its own small layers, one module each, imports pointing one way (ranked just above the spine's
layer of the same name):

- :mod:`pipeline.embeddings.formats`: word vectors read from the files;
- :mod:`pipeline.embeddings.core`: the diagnostics (pure);
- :mod:`pipeline.embeddings.report`: their Markdown;
- :mod:`pipeline.embeddings.runs`: the ``embeddings`` run;
- :mod:`pipeline.embeddings.commands`: the ``embeddings`` command (found by :mod:`pipeline.cli`).

The spine (and every other room) imports nothing of this one.

May import: nothing of the project (a package marker).
"""
