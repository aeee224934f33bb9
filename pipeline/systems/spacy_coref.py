"""spaCy adapter (``spacy:PIPELINE``): any installed spaCy pipeline (a package name or a local
directory) with a coreference component.

* spacy-experimental's ``coref`` (+ ``span_resolver``), e.g. ``en_coreference_web_trf``
  (``pip install 'counter-gap[spacy-coref]'`` plus the pipeline package): clusters in
  ``doc.spans["coref_clusters_1"]``, ``["coref_clusters_2"]``, ... (one SpanGroup per cluster);
* coreferee (``nlp.add_pipe("coreferee")``): ``doc._.coref_chains``, chains of mentions, each
  mention a list of token indices (the heads; a coordination has several).

:func:`convert` reads whichever the Doc has (both: the span groups). ``spacy.load`` reads local
files only. ``--device cuda`` calls ``spacy.require_gpu()``.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.systems.base`; spaCy
inside the class.
"""

from __future__ import annotations

from pipeline.errors import InputError
from pipeline.systems.base import MissingExtra, check_device, clean_clusters

SPAN_PREFIX = "coref_clusters"


def convert(doc) -> list[list[tuple[int, int]]]:
    """Character clusters of a processed Doc (span groups, else coreferee chains)."""
    groups = [g for key, g in doc.spans.items() if key.startswith(SPAN_PREFIX)]
    if groups:
        return clean_clusters(doc.text, [[(sp.start_char, sp.end_char) for sp in g] for g in groups])
    chains = getattr(doc._, "coref_chains", None) if doc.has_extension("coref_chains") else None
    clusters = []
    for chain in chains or []:
        mentions = []
        for mention in chain:
            idx = list(mention.token_indexes)
            first, last = doc[min(idx)], doc[max(idx)]
            mentions.append((first.idx, last.idx + len(last.text)))
        clusters.append(mentions)
    return clean_clusters(doc.text, clusters)


class SpacyCorefAdapter:
    name = "spacy"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8):
        try:
            import spacy
        except ImportError:
            raise MissingExtra("spacy", "spacy", "spacy-coref") from None
        if not model:
            raise InputError("the spacy adapter needs a pipeline with a coreference component: "
                             "--system NAME=spacy:PACKAGE_OR_DIRECTORY")
        if check_device(device) == "cuda":
            spacy.require_gpu()
        try:
            self.nlp = spacy.load(model)
        except OSError as exc:
            raise InputError(f"spaCy cannot load {model!r} from local files: {str(exc).splitlines()[0]}") from None
        names = set(self.nlp.pipe_names)
        if not names & {"coref", "span_resolver", "span_cleaner", "coreferee"} and not any(
                "coref" in n for n in names):
            raise InputError(f"spaCy pipeline {model!r} has no coreference component (its components: "
                             f"{', '.join(self.nlp.pipe_names) or 'none'})")
        self.batch_size = batch_size

    def predict(self, texts):
        return [convert(doc) for doc in self.nlp.pipe(list(texts), batch_size=self.batch_size)]
