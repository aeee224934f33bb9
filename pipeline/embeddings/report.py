"""Markdown tables of the embedding diagnostics, laid out as SoWinoBias's Tables 2 and 3:
one row per embedding, so an original and its debiased version sit side by side.

May import: :mod:`pipeline.vocab`.
"""

from __future__ import annotations

from pipeline.vocab import pct


def _f(x, digits=3) -> str:
    return "–" if x is None or x != x else f"{x:.{digits}f}"


def markdown(result: dict) -> str:
    rows = result["embeddings"]
    lines = ["# Embedding diagnostics", "",
             f"Most biased words from `{result['reference']}` (gender direction: {result['direction']}).", "",
             "## Single-attribute WEAT (Table 2)", "",
             "| embedding | S (adj, Focc vs Mocc) | p | S (adj, fem vs masc definitional) | p |",
             "|---|---|---|---|---|"]
    for name, r in rows.items():
        a, d = r["weat_adj_occ"], r["weat_adj_def"]
        lines.append(f"| {name} | {_f(a['S'])} | {_f(a['p'])} | {_f(d['S'])} | {_f(d['p'])} |")
    lines += ["", "## Clustering, recoverability and GIPE (Table 3)", "",
              "| embedding | cluster acc. (%) | v-measure | linear SVM (%) | RBF SVM (%) | GIPE neutral | GIPE SoWinoBias |",
              "|---|---|---|---|---|---|---|"]
    for name, r in rows.items():
        lines.append(f"| {name} | {pct(r['cluster_accuracy'])} | {_f(r['v_measure'])} | "
                     f"{pct(r['linear_svm_accuracy'])} | {pct(r['rbf_svm_accuracy'])} | "
                     f"{_f(r['gipe_neutral'])} | {_f(r['gipe_sowinobias'])} |")
    return "\n".join(lines) + "\n"
