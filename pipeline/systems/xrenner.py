"""xrenner adapter (``xrenner[:MODEL]``): Zeldes' rule-based coreferencer, offline.

Install: ``pip install 'counter-gap[xrenner]'`` and ``pip install --no-deps xrenner==2.2.1.1``
(xrenner's own requirements pin scikit-learn 0.22, numpy <= 1.24 and flair 0.6, none of which
installs on Python 3.11; its rule-based mode needs none of them). MODEL: xrenner's model name
(``eng``, the default; shipped inside the package).

Each text is parsed by the project's spaCy pipeline (``--model`` / ``$SPACY_MODEL``,
:func:`pipeline.nlp.load.load`), written as CoNLL-U (:func:`to_conllu`: space tokens dropped,
heads renumbered within the sentence), analysed by ``Xrenner(model, rule_based=True,
no_seq=True).analyze(conllu, "conll")``, and the coreference column of its output (one line
per token: index, word, brackets) is read back into character clusters
(:func:`clusters_from_output`). Its ``force_single_type_chains`` filter is switched off (it
crashes on 21 of the 300 development documents and changes entity types only). xrenner ends
the process on input it rejects (``sys.exit``): that is caught; the document is tried once more
with hyphenated words joined into one token (:func:`join_hyphenated`: xrenner's parser
post-processing turns spaCy's "cross - questioned Margaret" into a cycle in the tree, "Cycle
detected in syntax tree"), and if xrenner refuses that too, the document is recorded as
unanswered with one line naming the reason and the fix (:func:`rejection_message`; ``predict``
and ``evaluate`` add the row's id).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.nlp`,
:mod:`pipeline.systems.base`; xrenner inside the class.
"""

from __future__ import annotations

import contextlib
import io
import re

from pipeline.systems.base import MissingExtra, clean_clusters

INSTALL = "pip install 'counter-gap[xrenner]' && pip install --no-deps xrenner==2.2.1.1"
ENTITY_TYPE_FILTER = "force_single_type_chains"
_PART = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")


def to_conllu(doc) -> tuple[str, list[tuple[int, int]]]:
    """CoNLL-U of a parsed spaCy Doc (tab-separated: id, form, lemma, upos=tag, xpos=tag, _,
    head, deprel) and the character span of every written token, in order."""
    lines, spans = [], []
    for sent in doc.sents:
        toks = [t for t in sent if not t.is_space and t.text.strip()]
        num = {t.i: k for k, t in enumerate(toks, start=1)}
        for t in toks:
            h = t.head
            while h.i not in num and h.head.i != h.i:      # a head that is a space token
                h = h.head
            head = 0 if h.i == t.i or h.i not in num else num[h.i]
            form = t.text.replace("\t", " ")
            lines.append("\t".join([str(num[t.i]), form, t.lemma_ or form, t.tag_ or "_", t.tag_ or "_", "_",
                                    str(head), "root" if head == 0 else (t.dep_.lower() or "dep"), "_", "_"]))
            spans.append((t.idx, t.idx + len(t.text)))
        if toks:
            lines.append("")
    return "\n".join(lines) + "\n", spans


def clusters_from_output(output: str, token_spans: list[tuple[int, int]], text: str):
    """Character clusters from xrenner's ``conll`` output (token lines ``index<TAB>word<TAB>
    brackets``; ``#`` lines skipped) over the tokens written by :func:`to_conllu`."""
    rows = [ln.split("\t") for ln in output.splitlines() if ln.strip() and not ln.startswith("#")]
    if len(rows) != len(token_spans):
        raise ValueError(f"xrenner returned {len(rows)} tokens for {len(token_spans)}")
    open_: dict[str, list[int]] = {}
    found: dict[str, list[tuple[int, int]]] = {}
    for i, row in enumerate(rows):
        value = row[2].strip() if len(row) > 2 else ""
        if value in ("", "_", "-"):
            continue
        for part in value.split("|"):
            m = _PART.fullmatch(part.strip())
            if not m:
                continue
            single, opening, closing = m.groups()
            if single is not None:
                found.setdefault(single, []).append((i, i))
            elif opening is not None:
                open_.setdefault(opening, []).append(i)
            elif open_.get(closing):
                found.setdefault(closing, []).append((open_[closing].pop(), i))
    clusters = [[(token_spans[s][0], token_spans[e][1]) for s, e in spans] for spans in found.values()]
    return clean_clusters(text, [c for c in clusters if len(c) > 1])


class XrennerAdapter:
    name = "xrenner"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8, nlp=None):
        try:
            from xrenner import Xrenner
        except ImportError:
            raise MissingExtra("xrenner", "xrenner", how=INSTALL) from None
        if nlp is None:
            from pipeline.nlp.load import load

            nlp = load(None)
        self.nlp = nlp
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            self.xr = Xrenner(model=model or "eng", rule_based=True, no_seq=True)
        # xrenner 2.2.1.1's post-processing step that gives every chain one entity type
        # crashes on chains its coordination ("envelope") step emptied (max() of an empty
        # sequence: 21 of the 300 development documents); it changes entity types only, never
        # the clusters, so it is switched off.
        if ENTITY_TYPE_FILTER in self.xr.lex.filters:
            self.xr.lex.filters[ENTITY_TYPE_FILTER] = False
        self.batch_size = batch_size

    def _analyze(self, doc, text: str):
        """Clusters of one parsed text, or raise :class:`XrennerRejected` (xrenner's
        ``sys.exit`` on input it refuses, with what it wrote to stderr)."""
        conllu, spans = to_conllu(doc)
        err = io.StringIO()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                self.xr.set_doc_name("doc")
                result = self.xr.analyze(conllu, "conll")
        except SystemExit:
            raise XrennerRejected(" ".join(err.getvalue().split()) or "xrenner exited") from None
        return clusters_from_output(result, spans, text)

    def predict(self, texts):
        texts = list(texts)
        out = []
        for text, doc in zip(texts, self.nlp.pipe(texts, batch_size=self.batch_size)):
            try:
                out.append(self._analyze(doc, text))
            except XrennerRejected as first:
                out.append(self._repair(doc, text, first))
            except Exception as exc:  # noqa: BLE001 -- one document's failure, recorded
                out.append(exc)
        return out

    def _repair(self, doc, text: str, first: "XrennerRejected"):
        """xrenner refused the parse: once more with hyphenated words joined into one token
        (:func:`join_hyphenated`; its parser post-processing turns spaCy's three tokens of
        "cross-questioned Margaret" into a cycle), else the reason and the fix as the
        document's error (recorded unanswered in ``answers.parquet``)."""
        repaired = join_hyphenated(doc)
        if repaired is not None:
            try:
                return self._analyze(repaired, text)
            except XrennerRejected:
                pass
            except Exception as exc:  # noqa: BLE001
                return exc
        return RuntimeError(rejection_message(first.reason, tried_repair=repaired is not None))


class XrennerRejected(Exception):
    """xrenner ended the process (``sys.exit``) on a document; ``reason``: what it said."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


_CYCLE = re.compile(r"Cycle detected in syntax tree in \S+ in sentence (\d+) \(child of token: '([^']*)'\)")


def rejection_message(reason: str, tried_repair: bool = True) -> str:
    """One line for a document xrenner refused: what it said, why, what was tried, the fix."""
    m = _CYCLE.search(reason)
    if m:
        what = (f"xrenner rejected the parse: a cycle in the syntax tree of sentence {m.group(1)} at the token "
                f"{m.group(2)!r} (xrenner's own parser post-processing rewires spaCy's heads into a loop)")
    else:
        what = f"xrenner rejected the parse: {reason}"
    tried = "; joining hyphenated words did not help" if tried_repair else ""
    return (f"{what}{tried}; the row is recorded unanswered (answers.parquet, error). Fix: run with another "
            "spaCy model (--model or $SPACY_MODEL) for a different parse, or keep the row unanswered "
            "(evaluate counts it wrong, or leaves its quadruple out without gold labels)")


def join_hyphenated(doc):
    """A copy of ``doc`` with every word written with inner hyphens ("cross-questioned",
    "sister-in-law": tokens joined by ``-`` with no space) merged into one token, its tag and
    head those of the span's root; None when there is none."""
    groups, i = [], 0
    while i < len(doc) - 2:
        if doc[i + 1].text == "-" and not doc[i].whitespace_ and not doc[i + 1].whitespace_ \
                and not doc[i].is_space and not doc[i + 2].is_space:
            j = i + 2
            while j + 2 < len(doc) and doc[j + 1].text == "-" and not doc[j].whitespace_ \
                    and not doc[j + 1].whitespace_ and not doc[j + 2].is_space:
                j += 2
            groups.append((i, j + 1))
            i = j + 1
        else:
            i += 1
    if not groups:
        return None
    from spacy.tokens import Doc

    copy = Doc(doc.vocab).from_bytes(doc.to_bytes())
    with copy.retokenize() as retok:
        for a, b in groups:
            span = copy[a:b]
            if span.sent.start <= a and b <= span.sent.end:     # never across sentences
                retok.merge(span)
    return copy
