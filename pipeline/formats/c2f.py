"""c2f-coref's GAP jsonlines input layout (``evaluate --write-jsonlines``), for systems run
elsewhere on our datasets.

One JSON object per dataset row, as c2f-coref's ``gap_to_jsonlines.py`` writes it without a
BERT vocabulary: ``doc_key`` (the row's ID), ``sentences`` (ONE list of word tokens: every
``. , ` " ' ( ) - / *`` is a token of its own, other characters join until whitespace),
``speakers`` (``Speaker#1`` per token, same nesting), ``sentence_map`` (a sentence number per
token, incremented after each ``.`` token), ``clusters`` (the gold: one cluster holding the
coreferent candidate and the pronoun, empty when neither is), and ``a_subtoken_span``,
``b_subtoken_span``, ``pronoun_subtoken_span`` (inclusive token indices). Its output
(``predicted_clusters`` over the same tokens) is read back by ``evaluate --system``.

May import: the standard library, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import json
import os

PUNCTUATION = frozenset('.,`"\'()-/*')


def c2f_tokens(text: str) -> tuple[list[str], list[int]]:
    """c2f-coref's GAP tokenization: tokens and, per character, its token index (-1 before
    the first token)."""
    tokens, char_tok = [], []
    prev_space, prev_punct = True, True
    for c in text:
        if c in PUNCTUATION:
            prev_punct = True
            tokens.append(c)
        elif c in " \t\r\n\u202f":
            prev_space = True
        else:
            if prev_space or prev_punct:
                tokens.append(c)
            else:
                tokens[-1] += c
            prev_space = prev_punct = False
        char_tok.append(len(tokens) - 1)
    return tokens, char_tok


def gap_jsonlines_record(row: dict) -> dict:
    """``row``: id, text, pronoun / a / b character spans (end exclusive), a_coref, b_coref."""
    tokens, char_tok = c2f_tokens(row["text"])

    def span(s):
        return [char_tok[s[0]], char_tok[s[1] - 1]]

    a, b, p = span(row["a"]), span(row["b"]), span(row["pronoun"])
    sentence_map, sent = [], 0
    for t in tokens:
        sentence_map.append(sent)
        if t == ".":
            sent += 1
    cluster = []
    if row["a_coref"] or row["b_coref"]:
        cluster = [a if row["a_coref"] else b, p]
    return {"doc_key": row["id"], "sentences": [tokens], "speakers": [["Speaker#1"] * len(tokens)],
            "sentence_map": sentence_map, "clusters": [cluster], "a_subtoken_span": a,
            "b_subtoken_span": b, "pronoun_subtoken_span": p}


def write_gap_jsonlines(rows, target: str | os.PathLike) -> int:
    from pipeline.formats.files import atomic_path

    n = 0
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(gap_jsonlines_record(row), ensure_ascii=False) + "\n")
            n += 1
    return n
