"""The file formats only the CDA room reads or writes: gender-guesser's dictionary and the name
map files (shared formats, CoNLL-2012 among them, stay in :mod:`pipeline.formats`).

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.errors`,
:mod:`pipeline.formats`.
"""
