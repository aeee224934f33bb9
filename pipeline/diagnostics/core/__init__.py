"""The pure cores of the diagnostics room: records in, records out, no file I/O.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.errors`, :mod:`pipeline.lang`, the spine's cores
(:mod:`pipeline.core`) and the other cores of this room. Never a reader or writer, a run or a
command.
"""
