"""Reading corpus dumps as people have them, behind :mod:`pipeline.formats.books` (the one entry
point that yields books; import from there, not from here).

* :mod:`.base` -- the records: :class:`~.base.Book`, :class:`~.base.Skip`, :class:`~.base.Unit`
  (one unit of work: a file, a zip member, a group of Gutenberg copies, a range of table rows
  or of sentence lines), :class:`~.base.CorpusSpec` (what to read and how), book identity.
* :mod:`.text` -- bytes -> text (BOM, declared Gutenberg encoding, UTF-8, detection) and
  text -> paragraphs (Gutenberg, plain, epub).
* :mod:`.archives` -- .gz / .bz2 / .xz files and zip members, streamed with a size limit.
* :mod:`.walk` -- a directory tree -> units (symlinked folders followed once, Gutenberg copies
  of one ebook grouped) and the files that are not read, with their reasons.
* :mod:`.tables` -- Parquet, JSON lines, CSV and Hugging Face dataset directories, by row
  groups / byte ranges / record batches.
* :mod:`.sentences` -- one sentence per line (BookCorpus style) -> books of paragraphs.
* :mod:`.selection` -- ``--language``, ``--min-words``, ``--metadata`` with ``--where``.

May import: the standard library, pyarrow, charset-normalizer, EbookLib/lxml,
:mod:`pipeline.errors`.
"""
