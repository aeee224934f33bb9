"""The file formats only the humans room reads or writes: the experiment's store and the
released results' CSVs (shared formats stay in :mod:`pipeline.formats`).

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.errors`,
:mod:`pipeline.formats`.
"""
