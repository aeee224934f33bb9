"""The pure cores of the CDA room: records in, records out, no file I/O.

May import: :mod:`pipeline.vocab`, :mod:`pipeline.errors`, :mod:`pipeline.lang`, the spine's cores
(:mod:`pipeline.core`), the record types of this room's formats, and the other cores of this
room. Never a reader or writer, a run or a command.
"""
