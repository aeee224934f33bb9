"""fastcoref adapter: FCoref (``fastcoref:MODEL``) and LingMess (``lingmess:MODEL``).

``pip install 'counter-gap[fastcoref]'``. MODEL: a local directory saved by the library, or a
Hugging Face name already in the user's cache (``biu-nlp/f-coref``, ``biu-nlp/lingmess-coref``
when omitted); nothing is downloaded (offline mode is set before loading).

The library returns one ``CorefResult`` per text; ``get_clusters(as_strings=False)`` gives
clusters of ``(start, end)`` character offsets, end exclusive -- our layout already
(:func:`convert`).

fastcoref 2.1.6 (the last release) does not run with transformers 5 (its models skip
``post_init``: ``AttributeError: 'FCorefModel' object has no attribute 'all_tied_weights_keys'``),
and transformers 4.x needs huggingface_hub < 1.0, which this project's ``datasets`` pin excludes:
in the project's environment the adapter cannot load a model; use it in an environment with
transformers 4.x, or run fastcoref behind the ``command`` adapter (docs/evaluate.md).

May import: the standard library, :mod:`pipeline.nlp`, :mod:`pipeline.systems.base`; fastcoref
inside the class.
"""

from __future__ import annotations

from pipeline.systems.base import MissingExtra, check_device, clean_clusters, local_only

DEFAULTS = {False: "biu-nlp/f-coref", True: "biu-nlp/lingmess-coref"}


def convert(text: str, result) -> list[list[tuple[int, int]]]:
    """Character clusters of one ``CorefResult`` (or of an object with the same method)."""
    return clean_clusters(text, result.get_clusters(as_strings=False))


class FastcorefAdapter:
    name = "fastcoref"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8, lingmess: bool = False):
        try:
            import fastcoref
        except ImportError:
            raise MissingExtra("lingmess" if lingmess else "fastcoref", "fastcoref", "fastcoref") from None
        local_only()
        from pipeline.nlp.load import resolve_model_name

        cls = fastcoref.LingMessCoref if lingmess else fastcoref.FCoref
        # fastcoref tokenizes with spaCy and DOWNLOADS en_core_web_sm when it cannot load it:
        # it gets the project's installed pipeline instead
        self.model = cls(model_name_or_path=model or DEFAULTS[lingmess], device=check_device(device),
                         nlp=resolve_model_name(None), enable_progress_bar=False)
        self.batch_size = batch_size

    def predict(self, texts):
        texts = list(texts)
        results = self.model.predict(texts=texts, max_tokens_in_batch=max(1, self.batch_size) * 1000)
        if not isinstance(results, list):
            results = [results]
        return [convert(t, r) for t, r in zip(texts, results)]
