"""Every file format the project reads or writes, each reader/writer once.

books (Gutenberg, plain text, epub), GAP TSV, CoNLL-2012, Parquet tables and their schemas,
shipped resources, the reports' figures (:mod:`pipeline.formats.figures`), atomic file writes.

May import: the standard library, pyarrow, pandas, :mod:`pipeline.vocab`, :mod:`pipeline.errors`.
Never imports :mod:`pipeline.lang`, :mod:`pipeline.nlp`, a core or a command.
"""
