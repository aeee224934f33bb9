"""Coreference system outputs: GAP predictions, JSON lines with clusters, CoNLL-2012 responses.

* :func:`read_gap_predictions` -- the project's one validator of GAP system outputs
  (ID, A-coref, B-coref; optional A-prob, B-prob, AB-prob for exact expected scores),
  checked against the dataset's IDs;
* :func:`read_cluster_jsonl` -- one JSON object per line (c2f-coref and its descendants,
  AllenNLP, s2e, LingMess, Maverick, fastcoref as commonly dumped): tokens as ``document``
  (a token list), ``sentences`` (a list of token lists), or subtokens in ``sentences`` with
  ``subtoken_map`` (subtoken -> word index, as c2f-coref's ``predict.py`` writes them);
  clusters in ``predicted_clusters`` (c2f-coref's predictions) or else ``clusters``: a list
  of clusters, each a list of ``[start, end]`` inclusive token (subtoken) indices. An id in
  ``doc_key``, ``ID`` or ``id``;
  With or without a header line: GAP's own ``gap_scorer.py`` reads system files without
  one (:func:`headerless_system_columns`), published outputs have one;
* :func:`read_cluster_conll` -- CoNLL-2012 response files (the coreference column);
* :func:`detect_system_format` -- which of the three a file is, by its content.

Errors are :class:`pipeline.errors.InputError` naming the file and line, one line each.

May import: the standard library, numpy, pandas, :mod:`pipeline.errors`,
:mod:`pipeline.formats` (gap_tsv, conll).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pipeline.errors import InputError

MAX_LISTED = 5
PROB_COLUMNS = ("A-prob", "B-prob")
AB_PROB = "AB-prob"       # optional with PROB_COLUMNS: P(both TRUE), default 0
ID_KEYS = ("doc_key", "ID", "id")
TOKEN_KEYS = ("document", "sentences", "tokens")
CLUSTER_KEYS = ("predicted_clusters", "clusters", "clusters_token_offsets")
CHAR_CLUSTER_KEYS = {"clusters_char_offsets": True, "predicted_clusters": False, "clusters": False}
# key -> end inclusive? (Maverick's clusters_char_offsets: text[start:end + 1]; fastcoref: text[start:end])
SPECIAL_SUBTOKENS = frozenset({"[CLS]", "[SEP]", "<s>", "</s>", "[PAD]", "<pad>"})
FORMATS = ("gap-tsv", "jsonl-clusters", "conll")


def rows_list(rows: list[tuple[int, str]]) -> str:
    """'row 3: what; row 7: what (and 2 more)' -- the first few problems of a file."""
    shown = "; ".join(f"row {r}: {what}" for r, what in rows[:MAX_LISTED])
    more = f" (and {len(rows) - MAX_LISTED} more)" if len(rows) > MAX_LISTED else ""
    return shown + more


# ------------------------------------------------------------------------------ GAP TSV

@dataclass
class Predictions:
    """A system's answers aligned to the dataset's rows (dataset order).

    ``present[i]`` is False for a dataset row the system did not answer (missing ID, or a
    cluster output that could not be aligned); ``a``/``b`` are then False and ``probs`` NaN.
    """
    path: Path
    ids: np.ndarray                       # dataset IDs (object array)
    a: np.ndarray                         # bool
    b: np.ndarray                         # bool
    present: np.ndarray                   # bool
    probs: dict[str, np.ndarray] | None = None   # A-prob, B-prob (+ AB-prob), per dataset row
    format: str = "gap-tsv"
    matched_by: str = "ID"
    n_missing: int = 0                    # dataset rows the output does not answer
    n_unaligned: int = 0                  # cluster outputs: rows whose spans could not be aligned
    unaligned_ids: list[str] = field(default_factory=list)
    n_extra: int = 0                      # output rows for IDs the dataset lacks (allow_extra)
    failed: dict[str, str] = field(default_factory=dict)   # id -> error of a document the system failed on

    @property
    def probabilistic(self) -> bool:
        return self.probs is not None


HEADERLESS_COLUMNS = {3: ["ID", "A-coref", "B-coref"], 5: ["ID", "A-coref", "B-coref", *PROB_COLUMNS],
                      6: ["ID", "A-coref", "B-coref", *PROB_COLUMNS, AB_PROB]}


def headerless_system_columns(first: list[str]) -> list[str] | None:
    """Column names of a GAP system output WITHOUT a header line (the layout GAP's scorer
    reads), by position, when the first line is data: its 2nd and 3rd fields are TRUE/FALSE
    (or empty) and it has 3, 5 or 6 fields. None when the first line is a header."""
    if len(first) not in HEADERLESS_COLUMNS or first[0].strip() == "ID":
        return None
    if not all(f.strip().upper() in ("TRUE", "FALSE", "") for f in first[1:3]):
        return None
    return HEADERLESS_COLUMNS[len(first)]


def read_system_table(path: str | os.PathLike):
    """A GAP system output, with or without a header line, as a DataFrame of strings."""
    import pandas as pd

    from pipeline.formats.gap_tsv import read_tsv_records

    header, rows, _ = read_tsv_records(path, ["ID", "A-coref", "B-coref"], headerless_system_columns)
    return pd.DataFrame(rows, columns=header, dtype=object).astype(str) if rows else \
        pd.DataFrame({c: pd.Series([], dtype=str) for c in header})


def read_gap_predictions(path: str | os.PathLike, ids, allow_missing: bool = False,
                         allow_extra: bool = False) -> Predictions:
    """Read and validate a GAP system output against the dataset's ``ids``.

    Every problem (a label that is not TRUE/FALSE, a probability outside [0, 1], a duplicate
    ID, an ID not in the dataset) is collected; the error names the first rows. IDs of the
    dataset the output lacks are an error unless ``allow_missing``; IDs the dataset lacks are
    an error unless ``allow_extra`` (then they are ignored and counted: scoring a subset, such
    as Counter-GAP's development quadruples, with predictions for the whole set). An output
    none of whose IDs is in the dataset is always an error.
    """
    import pandas as pd

    from pipeline.formats.gap_tsv import read_tsv_records

    path = Path(path)
    header, rows, lines = read_tsv_records(path, ["ID", "A-coref", "B-coref"], headerless_system_columns)
    gold_ids = np.asarray(list(ids), dtype=object)
    rowno = np.asarray(lines, dtype=np.int64)
    col = {c: np.asarray([r[c] for r in rows], dtype=object) for c in header}
    sys_ids = np.asarray([s.strip() for s in col["ID"]], dtype=object)
    known = pd.Index(gold_ids).get_indexer(sys_ids) >= 0
    dup = pd.Index(sys_ids).duplicated(keep="first")
    probabilistic = any(c in header for c in PROB_COLUMNS)
    if (probabilistic or AB_PROB in header) and not all(c in header for c in PROB_COLUMNS):
        raise InputError(f"{' and '.join(PROB_COLUMNS)} must come together ({AB_PROB} needs both)", path)

    problems: list[tuple[int, str]] = []
    flags = {}
    for c in ("A-coref", "B-coref"):
        text = np.asarray([s.strip().upper() for s in col[c]], dtype=object)
        flags[c] = text == "TRUE"
        ok = flags[c] | (text == "FALSE")
        if probabilistic:   # the labels are then one draw, informative only: empty is fine too
            ok |= text == ""
        problems += [(int(r), f"{c}={v!r} is not TRUE/FALSE") for r, v in zip(rowno[~ok], col[c][~ok])]
    probs = {}
    if probabilistic:
        prob_cols = PROB_COLUMNS + ((AB_PROB,) if AB_PROB in header else ())
        for c in prob_cols:
            probs[c] = pd.to_numeric(pd.Series(col[c]).str.strip(), errors="coerce").to_numpy(dtype=float)
            bad = ~((probs[c] >= 0) & (probs[c] <= 1))
            problems += [(int(r), f"{c}={v!r} is not a probability") for r, v in zip(rowno[bad], col[c][bad])]
        pab = probs.get(AB_PROB, np.zeros(len(rows)))
        over = probs["A-prob"] + probs["B-prob"] - pab > 1 + 1e-9
        problems += [(int(r), "A-prob + B-prob - AB-prob > 1") for r in rowno[over]]
        if AB_PROB in probs:
            big = pab > np.minimum(probs["A-prob"], probs["B-prob"]) + 1e-9
            problems += [(int(r), "AB-prob exceeds A-prob or B-prob") for r in rowno[big]]
    problems += [(int(r), f"duplicate ID {i!r}") for r, i in zip(rowno[dup], sys_ids[dup])]
    unknown = [(int(r), f"unknown ID {i!r} (not in the dataset)") for r, i in zip(rowno[~known], sys_ids[~known])]
    if rows and len(unknown) == len(rows):
        raise InputError(f"no ID of the output is in the dataset (first: {sys_ids[0]!r}, dataset's "
                         f"first: {gold_ids[0] if len(gold_ids) else None!r}): a prediction file for "
                         "another dataset?", path, int(rowno[0]))
    if not allow_extra:
        problems += unknown
    problems.sort(key=lambda p: p[0])

    absent = pd.Index(sys_ids).drop_duplicates().get_indexer(gold_ids) < 0
    n_missing = int(absent.sum())
    if problems:
        extra = f"; also {n_missing} dataset ID(s) missing" if n_missing else ""
        raise InputError(f"bad system output: {rows_list(problems)}{extra}", path, problems[0][0])
    if n_missing and not allow_missing:
        first = ", ".join(repr(i) for i in gold_ids[absent][:MAX_LISTED])
        raise InputError(f"{n_missing} dataset ID(s) missing from the system output (first: {first}); "
                         "--allow-missing counts them as wrong", path)

    pos = pd.Index(sys_ids).get_indexer(gold_ids)          # dataset row -> system row (-1: missing)
    present = pos >= 0
    take = np.where(present, pos, 0)
    a = np.where(present, flags["A-coref"][take] if len(rows) else False, False)
    b = np.where(present, flags["B-coref"][take] if len(rows) else False, False)
    out_probs = None
    if probabilistic:
        out_probs = {c: np.where(present, v[take], np.nan) for c, v in probs.items()}
    return Predictions(path, gold_ids, a.astype(bool), b.astype(bool), present, out_probs,
                       "gap-tsv", "ID", n_missing, n_extra=len(unknown))


# ------------------------------------------------------------------------------ clusters

@dataclass
class ClusterDoc:
    """One document of a cluster output: word tokens (subtokens already merged) and clusters
    of inclusive word-index spans."""
    key: str | None
    line: int
    tokens: list[str]
    clusters: list[list[tuple[int, int]]]
    error: str | None = None          # the system failed on this document: unanswered
    path: str | None = None           # the file, when several files' documents are matched together


def _strip_piece(sub: str) -> str:
    if sub.startswith("##"):
        return sub[2:]
    if sub[:1] in ("\u2581", "\u0120"):        # SentencePiece / GPT-2 word-start markers
        return sub[1:]
    return sub


def _tokens_of(obj: dict, path, line: int) -> tuple[list[str], bool]:
    """The token list and whether it is subtokens."""
    if "document" in obj:
        toks = obj["document"]
        if not isinstance(toks, list) or (toks and isinstance(toks[0], list)):
            # some dumps keep sentences under "document"
            if isinstance(toks, list) and all(isinstance(s, list) for s in toks):
                toks = [t for s in toks for t in s]
            else:
                raise InputError("'document' must be a list of tokens", path, line)
    elif "sentences" in obj:
        sents = obj["sentences"]
        if not isinstance(sents, list) or not all(isinstance(s, list) for s in sents):
            raise InputError("'sentences' must be a list of token lists", path, line)
        toks = [t for s in sents for t in s]
    elif "tokens" in obj:
        toks = obj["tokens"]
    else:
        raise InputError(f"no tokens: expected one of {', '.join(TOKEN_KEYS)}", path, line)
    if not isinstance(toks, list) or not all(isinstance(t, str) for t in toks):
        raise InputError("tokens must be strings", path, line)
    return toks, "subtoken_map" in obj


def _checked_clusters(raw, key: str, path, line: int):
    """(index, cluster) of a clusters value, each cluster a list of [start, end] integer pairs
    (a one-line error at ``path``, ``line`` otherwise)."""
    if not isinstance(raw, list):
        raise InputError(f"'{key}' must be a list of clusters", path, line)
    for ci, cluster in enumerate(raw):
        if not isinstance(cluster, list):
            raise InputError(f"cluster {ci} of '{key}' is not a list of [start, end] spans", path, line)
        for m in cluster:
            if (not isinstance(m, (list, tuple)) or len(m) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in m)):
                raise InputError(f"cluster {ci}: mention {m!r} is not [start, end] (integers)", path, line)
        yield ci, cluster


def _clusters_of(obj: dict, n: int, path, line: int, unit: str) -> list[list[tuple[int, int]]]:
    key = next((k for k in CLUSTER_KEYS if obj.get(k) is not None), None)
    if key is None:
        raise InputError(f"no clusters: expected {' or '.join(CLUSTER_KEYS)}", path, line)
    out = []
    for ci, cluster in _checked_clusters(obj[key], key, path, line):
        spans = []
        for m in cluster:
            s, e = m
            if not (0 <= s <= e < n):
                raise InputError(f"cluster {ci}: mention [{s}, {e}] lies outside the {n} {unit}", path, line)
            spans.append((s, e))
        out.append(spans)
    return out


def _merge_subtokens(subtokens: list[str], smap, clusters, path, line: int):
    if not isinstance(smap, list) or len(smap) != len(subtokens) or not all(
            isinstance(x, int) and x >= 0 for x in smap):
        raise InputError(f"'subtoken_map' must hold one word index >= 0 per subtoken "
                         f"({len(subtokens)})", path, line)
    if smap and max(smap) >= len(subtokens):
        raise InputError(f"'subtoken_map' holds word index {max(smap)}, but there are only "
                         f"{len(subtokens)} subtokens (a word index is below the number of subtokens)",
                         path, line)
    n_words = max(smap) + 1 if smap else 0
    words = [""] * n_words
    for sub, w in zip(subtokens, smap):
        if sub not in SPECIAL_SUBTOKENS:
            words[w] += _strip_piece(sub)
    merged = [[(smap[s], smap[e]) for s, e in cluster] for cluster in clusters]
    return words, merged


def _wordpiece_map(toks: list[str]) -> list[int] | None:
    """A subtoken map for WordPiece subtokens written without one (c2f-coref's GAP layout):
    ``##`` pieces join the previous word; None when the tokens are no WordPiece output."""
    if not any(t in SPECIAL_SUBTOKENS or t.startswith("##") for t in toks):
        return None
    smap, w = [], -1
    for t in toks:
        if not (t.startswith("##") and w >= 0):
            w += 1
        smap.append(w)
    return smap


def char_segments(text: str, bounds) -> tuple[list[str], list[tuple[int, int]]]:
    """The text cut at whitespace and at every offset in ``bounds``: pieces and their
    character spans (end exclusive). Mentions given in character offsets become exact token
    ranges of these pieces."""
    cuts = sorted({0, len(text), *(b for b in bounds if 0 <= b <= len(text))})
    pieces, spans = [], []
    for lo, hi in zip(cuts, cuts[1:]):
        i = lo
        while i < hi:
            while i < hi and text[i].isspace():
                i += 1
            j = i
            while j < hi and not text[j].isspace():
                j += 1
            if j > i:
                pieces.append(text[i:j])
                spans.append((i, j))
            i = j
    return pieces, spans


def _char_doc(obj: dict, key: str, path, line: int) -> tuple[list[str], list[list[tuple[int, int]]]]:
    text = obj["text"]
    if not isinstance(text, str):
        raise InputError("'text' must be a string", path, line)
    inclusive = CHAR_CLUSTER_KEYS[key]
    clusters = []
    for ci, cluster in _checked_clusters(obj[key], key, path, line):
        spans = []
        for m in cluster:
            s, e = m[0], m[1] + 1 if inclusive else m[1]
            if not (0 <= s < e <= len(text)):
                raise InputError(f"cluster {ci}: mention {list(m)} lies outside the text's {len(text)} "
                                 f"characters ({'end inclusive' if inclusive else 'end exclusive'})", path, line)
            spans.append((s, e))
        clusters.append(spans)
    pieces, pspans = char_segments(text, [b for c in clusters for m in c for b in m])
    starts = {s: i for i, (s, _) in enumerate(pspans)}
    ends = {e: i for i, (_, e) in enumerate(pspans)}
    out = []
    for cluster in clusters:
        mentions = []
        for s, e in cluster:
            while s < e and text[s].isspace():
                s += 1
            while e > s and text[e - 1].isspace():
                e -= 1
            if s < e:
                mentions.append((starts[s], ends[e]))
        out.append(mentions)
    return pieces, out


def cluster_doc(obj, path, line: int) -> ClusterDoc:
    """One JSON object of a cluster output as a :class:`ClusterDoc` (validated)."""
    if not isinstance(obj, dict):
        raise InputError(f"expected a JSON object, got {type(obj).__name__}", path, line)
    key = next((obj[k] for k in ID_KEYS if k in obj), None)
    key = None if key is None else str(key)
    if obj.get("error"):
        return ClusterDoc(key, line, [], [], str(obj["error"]))
    if not any(k in obj for k in TOKEN_KEYS) and "text" in obj:
        ck = next((k for k in CHAR_CLUSTER_KEYS if obj.get(k) is not None), None)
        if ck is None:
            raise InputError(f"no clusters: expected {' or '.join(CHAR_CLUSTER_KEYS)} with 'text'", path, line)
        toks, clusters = _char_doc(obj, ck, path, line)
        return ClusterDoc(key, line, toks, clusters)
    toks, sub = _tokens_of(obj, path, line)
    clusters = _clusters_of(obj, len(toks), path, line, "subtokens" if sub else "tokens")
    smap = obj["subtoken_map"] if sub else _wordpiece_map(toks)
    if smap is not None:
        toks, clusters = _merge_subtokens(toks, smap, clusters, path, line)
    return ClusterDoc(key, line, toks, clusters)


def read_cluster_jsonl(path: str | os.PathLike) -> list[ClusterDoc]:
    """Every document of a JSON-lines cluster output (blank lines skipped)."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    docs = []
    try:
        with open(path, encoding="utf-8-sig") as fh:
            for lineno, text in enumerate(fh, start=1):
                if not text.strip():
                    continue
                try:
                    obj = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise InputError(f"not JSON ({exc.msg} at column {exc.colno})", path, lineno) from None
                except RecursionError:
                    raise InputError("JSON nested too deeply to read", path, lineno) from None
                docs.append(cluster_doc(obj, path, lineno))
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 ({exc.reason})", path) from None
    if not docs:
        raise InputError("no documents in the file", path)
    return docs


def read_cluster_conll(path: str | os.PathLike) -> list[ClusterDoc]:
    """A CoNLL-2012 response file: one :class:`ClusterDoc` per document, keyed by the document
    id (one document per dataset row; at least 5 columns: id, part, number, word, ...,
    coreference last)."""
    from pipeline.formats.conll import document_clusters, read_documents

    docs = []
    for d in read_documents(path, min_columns=5):
        docs.append(ClusterDoc(d.doc_id, d.begin, list(d.words), document_clusters(d)))
    return docs


def detect_system_format(path: str | os.PathLike) -> str:
    """``gap-tsv``, ``jsonl-clusters`` or ``conll``, by the first meaningful line: a JSON
    object, a ``#begin document`` line, else a tab-separated table."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if path.is_dir():
        raise InputError("a directory, not a system output file", path)
    with open(path, "rb") as fh:
        head = fh.read(1 << 16)
    text = head.decode("utf-8", errors="replace").lstrip("\ufeff")
    for line in text.splitlines():
        s = line.strip()
        if not s:
            continue
        if s.startswith("{"):
            return "jsonl-clusters"
        if s.startswith("#begin document"):
            return "conll"
        if s.startswith("#"):
            continue
        return "gap-tsv"
    raise InputError("empty system output", path)
