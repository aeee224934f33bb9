"""Generate a synthetic CoNLL-2012 ``*_gold_conll`` file of a given size (for tests and the
CDA runs; never committed).

    python -m pipeline.perf.make_conll --tokens 200000 --out outputs/cda/synthetic_gold_conll

Documents of a few hundred tokens, sentences built from a small grammar with personal names
(NNP), gendered pronouns (PRP, PRP$ -- including both kinds of "her"), gendered nouns,
nested coreference brackets, a varying number of predicate-argument columns per sentence,
and OntoNotes-style space-aligned columns. Deterministic for a given seed.

May import: the standard library.
"""

from __future__ import annotations

import random
from pathlib import Path

FIRST = {"m": ["John", "David", "Michael", "James", "Robert", "Thomas", "Peter", "Paul", "George", "Henry"],
         "f": ["Mary", "Susan", "Linda", "Anna", "Emma", "Sarah", "Laura", "Alice", "Helen", "Julia"]}
SURNAMES = ["Smith", "Baker", "Okafor", "Lindqvist", "Moreau", "Tanaka"]
NOUNS = {"m": [("man", "NN"), ("father", "NN"), ("brother", "NN"), ("boy", "NN")],
         "f": [("woman", "NN"), ("mother", "NN"), ("sister", "NN"), ("girl", "NN")]}
PRON = {"m": {"subj": "he", "obj": "him", "poss": "his"}, "f": {"subj": "she", "obj": "her", "poss": "her"}}
VERBS = ["met", "told", "saw", "called", "thanked", "visited"]
OBJECTS = [("the", "DT", "report", "NN"), ("a", "DT", "letter", "NN"), ("the", "DT", "car", "NN")]


class _Doc:
    def __init__(self, rng: random.Random):
        self.rng = rng
        self.people = []          # (first, surname, gender, cluster id)
        self.next_id = 0

    def person(self):
        rng = self.rng
        if self.people and rng.random() < 0.6:
            return rng.choice(self.people)
        g = rng.choice("mf")
        p = (rng.choice(FIRST[g]), rng.choice(SURNAMES), g, self.next_id)
        self.next_id += 1
        self.people.append(p)
        return p

    def mention(self, role: str):
        """Tokens (word, pos, coref-cluster or None) of a mention of a person."""
        rng = self.rng
        first, last, g, cid = self.person()
        r = rng.random()
        if r < 0.35:
            toks = [(first, "NNP"), (last, "NNP")] if rng.random() < 0.5 else [(first, "NNP")]
        elif r < 0.7:
            toks = [(PRON[g][role], "PRP")]
        elif r < 0.85:
            noun, tag = rng.choice(NOUNS[g])
            toks = [("the", "DT"), (noun, tag)]
        else:   # "her/his mother": possessive inside a larger mention of another entity
            other = self.person()
            noun, tag = rng.choice(NOUNS[rng.choice("mf")])
            return [(PRON[g]["poss"], "PRP$", cid, True), (noun, tag, other[3], False)]
        return [(w, t, cid, None) for w, t in toks]

    def sentence(self):
        rng = self.rng
        subj = self.mention("subj")
        verb = rng.choice(VERBS)
        if rng.random() < 0.7:
            obj = self.mention("obj")
        else:
            det, dtag, noun, ntag = rng.choice(OBJECTS)
            obj = [(det, dtag, None, None), (noun, ntag, None, None)]
        toks = subj + [(verb, "VBD", None, None)] + obj + [(".", ".", None, None)]
        if toks[0][0].islower():
            w, t, c, s = toks[0]
            toks[0] = (w[:1].upper() + w[1:], t, c, s)
        return toks


def _coref_columns(toks) -> list[str]:
    """Brackets: a possessive (True) is its own single-token mention; a run of tokens with
    the same cluster is one mention; a (poss, noun) pair is a two-token mention of the noun's
    cluster enclosing the possessive."""
    cols = ["-"] * len(toks)
    i = 0
    while i < len(toks):
        w, t, cid, special = toks[i]
        if cid is None:
            i += 1
            continue
        if special is True:                       # "her mother": (k) (j ... j)
            other = toks[i + 1][2]
            cols[i] = f"({other}|({cid})"
            cols[i + 1] = f"{other})"
            i += 2
            continue
        j = i
        while j + 1 < len(toks) and toks[j + 1][2] == cid and toks[j + 1][3] is None:
            j += 1
        if i == j:
            cols[i] = f"({cid})"
        else:
            cols[i] = f"({cid}"
            cols[j] = f"{cid})"
        i = j + 1
    return cols


def document_lines(doc_id: str, part: int, n_tokens: int, rng: random.Random) -> tuple[list[str], int]:
    """Lines of one document with about ``n_tokens`` tokens, and its token count."""
    d = _Doc(rng)
    lines = [f"#begin document ({doc_id}); part {part:03d}\n"]
    count = 0
    while count < n_tokens:
        toks = d.sentence()
        coref = _coref_columns(toks)
        n_pred = rng.choice([0, 1, 1, 2])
        for i, (w, t, _, _) in enumerate(toks):
            parse = "(TOP(S*" if i == 0 else ("*))" if i == len(toks) - 1 else "*")
            ne = "(PERSON)" if t == "NNP" else "*"
            lemma = w.lower() if t == "VBD" else "-"
            preds = ["(V*)" if t == "VBD" else "*" for _ in range(n_pred)]
            cols = [f"{doc_id:<24}", f"{part:>3}", f"{i:>4}", f"{w:>12}", f"{t:>6}", f"{parse:>9}",
                    f"{lemma:>8}", "-", "-", f"{'Speaker#1':>10}", f"{ne:>10}", *[f"{p:>6}" for p in preds],
                    f"{coref[i]:>6}"]
            lines.append("   ".join(cols) + "\n")
        lines.append("\n")
        count += len(toks)
    lines.append("#end document\n")
    return lines, count


def generate_conll(path: str | Path, n_tokens: int, seed: int = 0, doc_tokens: int = 500) -> tuple[int, int]:
    """Write a file of at least ``n_tokens`` tokens; returns (documents, tokens)."""
    rng = random.Random(seed)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    docs = tokens = 0
    with open(path, "w", encoding="utf-8", newline="") as fh:
        while tokens < n_tokens:
            lines, n = document_lines(f"synthetic/{seed:02d}/doc_{docs:05d}", docs % 3,
                                      rng.randint(doc_tokens // 2, doc_tokens * 3 // 2), rng)
            fh.writelines(lines)
            docs += 1
            tokens += n
    return docs, tokens


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.make_conll", __doc__.splitlines()[0], [
        opt.option("--tokens", type=int, default=200_000),
        opt.option("--out", type=opt.PATH, required=True),
        opt.option("--seed", type=int, default=0),
        opt.option("--doc-tokens", type=int, default=500, help="mean tokens per document"),
    ])
    docs, tokens = generate_conll(args.out, args.tokens, args.seed, args.doc_tokens)
    print(f"wrote {args.out}: {docs} documents, {tokens} tokens, {args.out.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
