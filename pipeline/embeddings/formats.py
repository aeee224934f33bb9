"""Word vectors: word2vec text and binary files, GloVe text files, a spaCy pipeline's vectors.

Every source becomes a gensim ``KeyedVectors`` (words in file order, which for the usual
releases is frequency order). The format of a file is decided from its content:

* word2vec binary: a ``COUNT DIM`` header line followed by bytes that are not UTF-8 text;
* word2vec text: a ``COUNT DIM`` header line followed by ``word v1 ... vDIM`` lines;
* GloVe text: no header, every line ``word v1 ... vDIM``.

``spacy:NAME`` takes the vectors of an installed spaCy pipeline, loaded by the function the
caller passes as ``load_pipeline`` (the commands pass :func:`pipeline.nlp.load.load`, so this
layer never imports the spaCy layer); a pipeline without vectors is bad input. A file of any other form is an :class:`InputError` naming the file,
and so are a ``COUNT DIM`` header claiming more words than the file can hold and vectors
holding NaN or infinity.

May import: gensim, numpy, :mod:`pipeline.errors`, :mod:`pipeline.formats.files` (the checked paths).
"""

from __future__ import annotations

import os
from pathlib import Path

from pipeline.errors import InputError

FORMATS = ("word2vec-binary", "word2vec-text", "glove-text")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def detect_format(path: str | os.PathLike) -> str:
    """One of :data:`FORMATS`, decided from the first bytes of the file."""
    path = Path(path)
    if not path.is_file():
        raise InputError("file not found", path)
    with open(path, "rb") as fh:
        head = fh.readline(1 << 16)
        body = fh.read(1 << 14)
    try:
        first = head.decode("utf-8").split()
    except UnicodeDecodeError:
        raise InputError("not a word2vec or GloVe vectors file (unreadable first line)", path, 1) from None
    if len(first) == 2 and all(f.isdigit() for f in first):
        try:
            body.decode("utf-8")
        except UnicodeDecodeError:
            return "word2vec-binary"
        second = body.decode("utf-8").split("\n", 1)[0].split()
        if len(second) == int(first[1]) + 1 and all(_is_number(x) for x in second[1:]):
            return "word2vec-text"
        return "word2vec-binary"
    if len(first) >= 3 and all(_is_number(x) for x in first[1:]):
        return "glove-text"
    raise InputError("not a word2vec (text or binary) or GloVe vectors file", path, 1)


def load_vectors(source: str | os.PathLike, load_pipeline=None):
    """A gensim KeyedVectors from a vectors file or ``spacy:PIPELINE`` (then ``load_pipeline(NAME)``
    must return the loaded spaCy Language)."""
    if str(source).startswith("spacy:"):
        name = str(source)[len("spacy:"):]
        if load_pipeline is None:
            raise InputError(f"{source}: no spaCy loader given for spaCy vectors")
        return vectors_of_pipeline(load_pipeline(name), name)
    from gensim.models import KeyedVectors

    path = Path(source)
    fmt = detect_format(path)
    if fmt != "glove-text":
        check_header(path, fmt)
    try:
        kv = KeyedVectors.load_word2vec_format(
            str(path), binary=fmt == "word2vec-binary", no_header=fmt == "glove-text",
            unicode_errors="replace")
    except (ValueError, EOFError, UnicodeDecodeError) as exc:
        raise InputError(f"malformed {fmt} vectors ({exc})", path) from exc
    check_finite(kv, path, first_line=1 if fmt == "glove-text" else 2, binary=fmt == "word2vec-binary")
    return kv


def check_header(path: Path, fmt: str) -> None:
    """Refuse a ``COUNT DIM`` header claiming more than the file can hold (a header claiming
    10^12 words would make the reader allocate for them before reading one)."""
    with open(path, "rb") as fh:
        count, dim = (int(x) for x in fh.readline(1 << 16).split())
    size = path.stat().st_size
    least = (4 * dim) if fmt == "word2vec-binary" else (2 * dim)      # bytes per vector at the least
    if dim == 0 or count * least > size:
        raise InputError(f"the header claims {count:,} words of {dim:,} dimensions, more than the file's "
                         f"{size:,} bytes can hold", path, 1)


def check_finite(kv, path: Path, first_line: int = 1, binary: bool = False) -> None:
    """Refuse vectors holding NaN or infinity (naming the first such word and, in a text
    file, its line): every later step (norms, SVD) would fail on them or give NaN."""
    import numpy as np

    bad = np.flatnonzero(~np.isfinite(np.asarray(kv.vectors)).all(axis=1))
    if bad.size:
        k = int(bad[0])
        raise InputError(f"{bad.size:,} vector(s) hold NaN or infinity, the first of word {kv.index_to_key[k]!r}",
                         path, None if binary else first_line + k)


def vectors_of_pipeline(nlp, name: str):
    """A gensim KeyedVectors of a loaded spaCy pipeline's vectors table."""
    import numpy as np
    from gensim.models import KeyedVectors

    table = nlp.vocab.vectors
    if table.shape[0] == 0 or table.shape[1] == 0:
        raise InputError(f"spaCy pipeline {name!r} has no word vectors")
    words, rows = [], []
    for key, row in table.key2row.items():
        words.append(nlp.vocab.strings[key])
        rows.append(row)
    kv = KeyedVectors(vector_size=table.shape[1])
    kv.add_vectors(words, np.asarray(table.data)[rows])
    return kv


def save_word2vec_text(kv, target: str | os.PathLike) -> None:
    """Write vectors in word2vec text format, atomically."""
    from pipeline.formats.files import atomic_path

    with atomic_path(target) as tmp:
        kv.save_word2vec_format(str(tmp), binary=False)
