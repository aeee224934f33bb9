"""AllenNLP adapter (``allennlp:ARCHIVE``): a coreference model archive (c2f / SpanBERT,
``coref-spanbert-large-*.tar.gz``) on local disk.

``pip install 'counter-gap[allennlp]'`` (allennlp and allennlp-models 2.10.1: they pin torch
< 1.13 and Python < 3.11, so on this project's Python they do not install; run AllenNLP in its
own environment behind the ``command`` adapter, see docs/evaluate.md).

``Predictor.predict(document=text)`` returns ``document`` (tokens) and ``clusters``
(``[start, end]`` inclusive token indices); :func:`convert` aligns the tokens with the text.

May import: the standard library, :mod:`pipeline.errors` (a missing model archive),
:mod:`pipeline.systems.base`; allennlp inside the class.
"""

from __future__ import annotations

from pipeline.errors import InputError
from pipeline.systems.base import MissingExtra, check_device, clean_clusters, clusters_from_tokens, local_only


def convert(text: str, out: dict) -> list[list[tuple[int, int]]]:
    return clean_clusters(text, clusters_from_tokens(text, out["document"], out["clusters"]))


class AllennlpAdapter:
    name = "allennlp"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8):
        try:
            from allennlp.predictors.predictor import Predictor
            import allennlp_models.coref  # noqa: F401 -- registers the coreference predictor
        except ImportError:
            raise MissingExtra("allennlp", "allennlp", "allennlp") from None
        if not model:
            raise InputError("the allennlp adapter needs a model archive: --system NAME=allennlp:PATH.tar.gz")
        local_only()
        self.predictor = Predictor.from_path(model, cuda_device=0 if check_device(device) == "cuda" else -1)
        self.batch_size = batch_size

    def predict(self, texts):
        texts = list(texts)
        outs = self.predictor.predict_batch_json([{"document": t} for t in texts])
        return [convert(t, o) for t, o in zip(texts, outs)]
