"""The runs of the annotation room: what its commands do once their options are parsed (load
through formats, call the cores, save through formats).

May import: every lower layer of the spine and of this room (:mod:`pipeline.runs` for the
settings and result types).
"""
