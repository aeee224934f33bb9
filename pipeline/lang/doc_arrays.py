"""Token attributes of a spaCy Doc read in bulk.

``doc[i]`` and ``for tok in doc`` build a new Python ``Token`` object every time, and
``Doc.text`` joins every token's text anew on every call; on the extraction path that was
most of the project's own time. :class:`DocArrays` reads the attributes the
project's token loops need with one ``Doc.to_array`` call and keeps them as plain Python lists
(indexing a list is several times cheaper than building a ``Token``); the hot loops
(:mod:`pipeline.nlp.prune`'s pass 0, :mod:`pipeline.core.extract`, :mod:`pipeline.core.cast`)
then build ``Token`` objects only for the few tokens they keep.

The values are exactly those of the ``Token`` properties: ``texts[i] == doc[i].text``,
``idx[i] == doc[i].idx``, ``space_after[i] == bool(doc[i].whitespace_)``,
``punct[i] == doc[i].is_punct``, ``space[i] == doc[i].is_space``, ``sent_start[i]`` is 1 where
``doc[i].is_sent_start`` is True (token 0 included), -1 where it is False, 0 where unset.

May import: spacy (attribute ids, string hashes), numpy, :mod:`pipeline.lang.pronouns`, the
standard library.
"""

from __future__ import annotations

import functools


class DocArrays:
    """Bulk token attributes of one Doc (see the module docstring). Read them before the Doc
    is changed: a later component (tags, sentence starts) is not reflected."""

    __slots__ = ("n", "texts", "idx", "space_after", "punct", "space", "sent_start", "upper")

    def __init__(self, doc, text: str | None = None):
        """``text``: ``doc.text`` when the caller has it (the texts of the tokens are then
        cut from it instead of looked up one by one)."""
        from spacy.attrs import IDX, IS_PUNCT, IS_SPACE, LENGTH, ORTH, SENT_START, SPACY

        self.n = len(doc)
        if not self.n:
            self.texts, self.idx, self.space_after, self.punct, self.space, self.sent_start, self.upper = (
                [], [], [], [], [], [], [])
            return
        cols = doc.to_array([ORTH, IDX, SPACY, IS_PUNCT, IS_SPACE, SENT_START, LENGTH])
        self.idx = cols[:, 1].tolist()
        if text is not None:
            self.texts = [text[i:i + k] for i, k in zip(self.idx, cols[:, 6].tolist())]
        else:
            strings = doc.vocab.strings
            self.texts = [strings[o] for o in cols[:, 0].tolist()]
        self.space_after = cols[:, 2].astype(bool).tolist()
        self.punct = cols[:, 3].astype(bool).tolist()
        self.space = cols[:, 4].astype(bool).tolist()
        # SENT_START is read as an unsigned column: -1 comes back as 2**64 - 1
        self.sent_start = cols[:, 5].astype("int64").tolist()
        self.sent_start[0] = 1
        self.upper = [t[:1].isupper() for t in self.texts]

    def is_sent_start(self, i: int) -> bool:
        """``doc[i].is_sent_start is True``."""
        return self.sent_start[i] == 1


@functools.lru_cache(maxsize=1)
def _pronoun_hashes():
    import numpy as np
    from spacy.strings import hash_string

    from pipeline.lang.pronouns import PRONOUNS

    return np.array(sorted(hash_string(p) for p in PRONOUNS), dtype="uint64")


@functools.lru_cache(maxsize=1)
def _pronoun_tag_hashes():
    import numpy as np
    from spacy.strings import hash_string

    return np.array([0, hash_string("PRP"), hash_string("PRP$")], dtype="uint64")


def pronoun_indices(doc, tags: bool = False) -> list[int]:
    """Indices of the tokens spelled as a target pronoun (he, him, his, she, her, hers, in any
    case: :func:`pipeline.lang.pronouns.target_pronoun_gender`), in order. ``tags``: only
    those tagged PRP or PRP$, or not tagged at all."""
    import numpy as np
    from spacy.attrs import LOWER, TAG

    if not len(doc):
        return []
    cols = doc.to_array([LOWER, TAG])
    keep = np.isin(cols[:, 0], _pronoun_hashes())
    if tags:
        keep &= np.isin(cols[:, 1], _pronoun_tag_hashes())
    return np.flatnonzero(keep).tolist()


def count_words(doc, from_char: int = 0) -> int:
    """Tokens that are neither punctuation nor space (those starting at character
    ``from_char`` or later)."""
    import numpy as np
    from spacy.attrs import IDX, IS_PUNCT, IS_SPACE

    if not len(doc):
        return 0
    cols = doc.to_array([IS_PUNCT, IS_SPACE, IDX]).astype(np.int64)
    word = (cols[:, 0] | cols[:, 1]) == 0
    if from_char > 0:
        word &= cols[:, 2] >= from_char
    return int(np.count_nonzero(word))
