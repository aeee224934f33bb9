"""The ``command`` adapter: any external program (``command:COMMAND LINE``), e.g. c2f-coref's
own scripts in their own environment.

For each batch the adapter writes the texts to a temporary directory and runs the command line
(split like a shell would, no shell; placeholders replaced):

* ``{input}`` -- JSON lines, one document a line: ``{"doc_key": ..., "text": ..., "tokens":
  [...], "sentences": [[...]]}`` (regex tokens of :func:`pipeline.core.alignment.simple_tokens`);
* ``{conll}`` -- the same documents as a CoNLL-2012 file (no clusters);
* ``{output}`` -- where the program writes its clusters, in any layout ``evaluate`` reads
  (:mod:`pipeline.formats.system_outputs`: cluster JSON lines with tokens or character offsets,
  or a CoNLL-2012 response); without ``{output}`` its standard output is read instead.

Documents are matched by ``doc_key`` (or by order when the output has no keys). A document the
output lacks is recorded as unanswered; a program that fails (non-zero exit) fails its batch,
and the batch is retried one document at a time (:mod:`pipeline.systems.run`).

May import: the standard library, :mod:`pipeline.errors`, :mod:`pipeline.formats`,
:mod:`pipeline.core.alignment`, :mod:`pipeline.systems.base`.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pipeline.errors import InputError
from pipeline.systems.base import clean_clusters, clusters_from_tokens

@dataclass
class _Doc:
    key: str
    tokens: list[str]
    clusters: list


class CommandAdapter:
    name = "command"

    def __init__(self, model: str | None, device: str = "cpu", batch_size: int = 8, timeout: float | None = None):
        if not model:
            raise InputError("the command adapter needs a command line: --system 'NAME=command:PROGRAM {input} {output}'")
        self.argv = shlex.split(model)
        if not self.argv:
            raise InputError("the command adapter needs a command line")
        self.device = device
        self.timeout = timeout

    def predict(self, texts):
        from pipeline.core.alignment import simple_tokens
        from pipeline.formats.conll import write_conll
        from pipeline.formats.system_outputs import detect_system_format, read_cluster_conll, read_cluster_jsonl

        texts = list(texts)
        keys = [f"doc{i}" for i in range(len(texts))]
        with tempfile.TemporaryDirectory(prefix="counter-gap-command-") as tmp:
            tmp = Path(tmp)
            inp, conll, out = tmp / "input.jsonl", tmp / "input.conll", tmp / "output"
            docs = []
            with open(inp, "w", encoding="utf-8") as fh:
                for k, t in zip(keys, texts):
                    toks, _ = simple_tokens(t)
                    fh.write(json.dumps({"doc_key": k, "text": t, "tokens": toks, "sentences": [toks]},
                                        ensure_ascii=False) + "\n")
                    docs.append(_Doc(k, toks, []))
            write_conll(docs, conll)
            argv = [a.replace("{input}", str(inp)).replace("{conll}", str(conll)).replace("{output}", str(out))
                    for a in self.argv]
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=self.timeout,
                                  env=None, stdin=subprocess.DEVNULL)
            if proc.returncode != 0:
                tail = " ".join(proc.stderr.split()[-30:])
                raise RuntimeError(f"{self.argv[0]} exited with status {proc.returncode}: {tail}")
            if not any("{output}" in a for a in self.argv):
                out.write_text(proc.stdout, encoding="utf-8")
            if not out.exists() or not out.read_text(encoding="utf-8").strip():
                raise RuntimeError(f"{self.argv[0]} wrote no output")
            fmt = detect_system_format(out)
            if fmt == "gap-tsv":
                raise InputError(f"{self.argv[0]} wrote a GAP TSV; the command adapter needs clusters "
                                 "(cluster JSON lines or CoNLL-2012)", out)
            got = read_cluster_jsonl(out) if fmt == "jsonl-clusters" else read_cluster_conll(out)
        if all(d.key is None for d in got) and len(got) == len(texts):
            by_key = dict(zip(keys, got))
        else:
            by_key = {}
            for d in got:
                k = d.key
                if k is not None and k not in keys and k.split("/")[-1].split(":")[-1] in keys:
                    k = k.split("/")[-1].split(":")[-1]          # a genre prefix such as nw/
                by_key[k] = d
        results = []
        for k, t in zip(keys, texts):
            d = by_key.get(k)
            if d is None:
                results.append(RuntimeError(f"{self.argv[0]}'s output has no document {k}"))
            elif d.error:
                results.append(RuntimeError(d.error))
            else:
                results.append(clean_clusters(t, clusters_from_tokens(t, d.tokens, d.clusters)))
        return results
