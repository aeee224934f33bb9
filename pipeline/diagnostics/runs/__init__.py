"""The runs of the diagnostics room: what ``analyze``, ``weights`` and ``baseline`` do once their
options are parsed (load through formats, call the cores, save through formats).

May import: every lower layer of the spine and of this room (:mod:`pipeline.runs` for the
settings, result types and progress).
"""
