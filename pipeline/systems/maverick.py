"""Maverick adapter (``maverick:MODEL``; ``pip install 'counter-gap[maverick]'``).

MODEL: a local checkpoint path, or a Hugging Face name in the user's cache
(``sapienzanlp/maverick-mes-ontonotes`` when omitted); nothing is downloaded.

``Maverick.predict(text)`` returns a dict: ``tokens``, ``clusters_token_offsets`` (inclusive
token indices) and, for plain-text input, ``clusters_char_offsets`` (character offsets, end
INCLUSIVE: ``text[start:end + 1]``). :func:`convert` takes the character offsets when present,
else aligns the tokens with the text.

May import: the standard library, :mod:`pipeline.systems.base`; maverick inside the class.
"""

from __future__ import annotations

from pipeline.systems.base import MissingExtra, check_device, clean_clusters, clusters_from_tokens, local_only

DEFAULT = "sapienzanlp/maverick-mes-ontonotes"


def convert(text: str, out: dict) -> list[list[tuple[int, int]]]:
    """Character clusters (end exclusive) of one Maverick prediction dict."""
    chars = out.get("clusters_char_offsets")
    if chars is not None:
        return clean_clusters(text, [[(m[0], m[1] + 1) for m in c] for c in chars])
    return clean_clusters(text, clusters_from_tokens(text, out["tokens"], out["clusters_token_offsets"]))


class MaverickAdapter:
    name = "maverick"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8):
        try:
            from maverick import Maverick
        except ImportError:
            raise MissingExtra("maverick", "maverick", "maverick") from None
        local_only()
        self.model = Maverick(hf_name_or_path=model or DEFAULT, device=check_device(device))

    def predict(self, texts):
        return [convert(t, self.model.predict(t)) for t in texts]
