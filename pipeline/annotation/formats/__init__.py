"""The file formats only the annotation room reads or writes: the annotate-serve store, the MTurk
CSV layout, the annotator key, the Hugging Face dataset folder (shared formats stay in
:mod:`pipeline.formats`).

May import: the standard library, :mod:`pipeline.vocab`, :mod:`pipeline.errors`,
:mod:`pipeline.formats`.
"""
