"""c2f-coref's GAP jsonlines input layout (``evaluate --write-jsonlines``), for systems run
elsewhere on our datasets.

One JSON object per dataset row, as c2f-coref's ``gap_to_jsonlines.py`` writes it (with a
BERT ``vocab.txt``, ``--jsonlines-vocab``: every word split into WordPiece subtokens by BERT's
cased basic + WordPiece tokenizer, ``[CLS]``/``[SEP]`` around, speakers ``[SPL]`` on those two,
as c2f-coref's ``predict.py`` reads it; without one: word tokens, its "tok" layout): ``doc_key`` (the row's ID), ``sentences`` (ONE list of word tokens: every
``. , ` " ' ( ) - / *`` is a token of its own, other characters join until whitespace),
``speakers`` (``Speaker#1`` per token, same nesting), ``sentence_map`` (a sentence number per
token, incremented after each ``.`` token), ``clusters`` (the gold: one cluster holding the
coreferent candidate and the pronoun, empty when neither is), and ``a_subtoken_span``,
``b_subtoken_span``, ``pronoun_subtoken_span`` (inclusive token indices; the mention's last
character's token, where c2f's script takes the token of the character after the mention).
Its output
(``predicted_clusters`` over the same tokens) is read back by ``evaluate --system``.

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats.files`.
"""

from __future__ import annotations

import json
import os
import unicodedata

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


def read_vocab(path: str | os.PathLike) -> set[str]:
    """A BERT ``vocab.txt``: one (sub)token a line."""
    from pipeline.errors import InputError

    try:
        with open(path, encoding="utf-8") as fh:
            vocab = {ln.rstrip("\n") for ln in fh if ln.strip()}
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    if "[UNK]" not in vocab:
        raise InputError("not a BERT vocabulary (no [UNK] line)", path)
    return vocab


def _is_punct(c: str) -> bool:
    o = ord(c)
    if 33 <= o <= 47 or 58 <= o <= 64 or 91 <= o <= 96 or 123 <= o <= 126:
        return True
    return unicodedata.category(c).startswith("P")


def wordpiece(word: str, vocab: set[str]) -> list[str]:
    """BERT's cased FullTokenizer on one word: split at punctuation, then greedy
    longest-match-first WordPiece (``##`` continuations); ``[UNK]`` when a piece fails."""
    pieces, cur = [], ""
    for c in word:
        if _is_punct(c):
            if cur:
                pieces.append(cur)
            pieces.append(c)
            cur = ""
        elif unicodedata.category(c) not in ("Cc", "Cf") and not c.isspace():
            cur += c
    if cur:
        pieces.append(cur)
    out = []
    for piece in pieces:
        if len(piece) > 100:
            out.append("[UNK]")
            continue
        subs, start = [], 0
        while start < len(piece):
            end, found = len(piece), None
            while start < end:
                cand = ("##" if start else "") + piece[start:end]
                if cand in vocab:
                    found = cand
                    break
                end -= 1
            if found is None:
                subs = ["[UNK]"]
                break
            subs.append(found)
            start = end
        out += subs
    return out


def gap_jsonlines_record(row: dict, vocab: set[str] | None = None) -> dict:
    """``row``: id, text, pronoun / a / b character spans (end exclusive), a_coref, b_coref."""
    tokens, char_tok = c2f_tokens(row["text"])
    if vocab is None:
        subtokens, tok_sub = tokens, [(i, i) for i in range(len(tokens))]
    else:
        subtokens, tok_sub = ["[CLS]"], []
        for t in tokens:
            subs = wordpiece(t, vocab) or ["[UNK]"]
            tok_sub.append((len(subtokens), len(subtokens) + len(subs) - 1))
            subtokens += subs
        subtokens.append("[SEP]")

    def span(s):
        return [tok_sub[char_tok[s[0]]][0], tok_sub[char_tok[s[1] - 1]][1]]

    a, b, p = span(row["a"]), span(row["b"]), span(row["pronoun"])
    sentence_map, sent = [], 0
    for t in subtokens:
        sentence_map.append(sent)
        if t == ".":
            sent += 1
    if vocab is not None:
        sentence_map[-1] = sentence_map[-2] if len(sentence_map) > 1 else 0
        speakers = ["[SPL]"] + ["Speaker#1"] * (len(subtokens) - 2) + ["[SPL]"]
    else:
        speakers = ["Speaker#1"] * len(subtokens)
    cluster = []
    if row["a_coref"] or row["b_coref"]:
        cluster = [a if row["a_coref"] else b, p]
    return {"doc_key": row["id"], "sentences": [subtokens], "speakers": [speakers],
            "sentence_map": sentence_map, "clusters": [cluster], "a_subtoken_span": a,
            "b_subtoken_span": b, "pronoun_subtoken_span": p}


def write_gap_jsonlines(rows, target: str | os.PathLike, vocab: set[str] | None = None) -> int:
    from pipeline.formats.files import atomic_path

    n = 0
    with atomic_path(target) as tmp, open(tmp, "w", encoding="utf-8") as fh:
        for row in rows:
            fh.write(json.dumps(gap_jsonlines_record(row, vocab), ensure_ascii=False) + "\n")
            n += 1
    return n
