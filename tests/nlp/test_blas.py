"""The models' matrix products through numpy's BLAS (pipeline/nlp/blas.py): the loaded pipeline
uses them everywhere, they multiply as thinc's BLIS does, and the parses and entities of a
real text are the same with either."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pipeline.nlp import blas

SAMPLE = Path(__file__).resolve().parents[2] / "resources" / "sample" / "the-orchard-at-hollins-end.txt"


def test_loaded_pipeline_runs_every_model_on_numpy_matmul(nlp):
    from thinc.backends.numpy_ops import NumpyOps

    seen = 0
    for name, proc in nlp.pipeline:
        model = getattr(proc, "model", None)
        if model is None or not hasattr(model, "walk"):
            continue
        for node in model.walk():
            assert node.ops.name == blas.NAME, (name, node.name)
            assert isinstance(node.ops, NumpyOps)           # every other kernel is thinc's
            seen += 1
    assert seen > 20        # tok2vec, tagger, parser, ner and their layers
    assert blas.ops_name(nlp) == blas.NAME


def test_a_blas_library_loaded_after_the_pipeline_has_one_thread_too():
    """scipy's own OpenBLAS, first imported after the pipeline set the limit (scikit-learn in a
    later test or run), starts with one thread: the CI run of 2026-11-27's fifth session met
    it with two, in a test order where scipy came last."""
    import subprocess
    import sys

    code = ("import os; os.environ.pop('OPENBLAS_NUM_THREADS', None); os.environ.pop('MKL_NUM_THREADS', None)\n"
            "from pipeline.nlp import blas; blas._one_thread()\n"
            "import scipy.linalg\n"
            "from threadpoolctl import threadpool_info\n"
            "print(sorted({p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}))")
    env = {k: v for k, v in __import__("os").environ.items() if k not in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[1]"


def test_one_blas_thread_after_loading(nlp):
    from threadpoolctl import threadpool_info

    blas_pools = [p for p in threadpool_info() if p["user_api"] == "blas"]
    assert blas_pools and all(p["num_threads"] == 1 for p in blas_pools)


@pytest.mark.parametrize("trans1,trans2", [(False, False), (True, False), (False, True), (True, True)])
def test_gemm_multiplies_as_blis_does(trans1, trans2):
    from thinc.backends.numpy_ops import NumpyOps

    rng = np.random.default_rng(0)
    x = rng.standard_normal((7, 5) if not trans1 else (5, 7)).astype("float32")
    y = rng.standard_normal((5, 3) if not trans2 else (3, 5)).astype("float32")
    ours, theirs = blas.ops_class()(), NumpyOps()
    want = theirs.gemm(x, y, trans1=trans1, trans2=trans2)
    got = ours.gemm(x, y, trans1=trans1, trans2=trans2)
    assert got.shape == (7, 3) and got.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    out = np.zeros((7, 3), dtype="float32")
    assert ours.gemm(x, y, out=out, trans1=trans1, trans2=trans2) is out
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-5)


def _analyses(nlp, text: str):
    from pipeline.nlp import load as nlp_mod
    from pipeline.nlp.prune import run_components

    comps = nlp_mod.ner_components(nlp) + nlp_mod.parse_components(nlp)
    docs = list(run_components(nlp, (nlp.make_doc(p) for p in text.split("\n\n") if p.strip()), comps))
    return [[(t.tag_, t.dep_, t.head.i, t.ent_iob_, t.ent_type_, t.is_sent_start) for t in d] for d in docs]


@pytest.mark.slow
def test_same_parses_and_entities_as_blis():
    """The sample book (1,753 words) through tok2vec, tagger, parser and NER: every token's
    tag, dependency, head, entity and sentence start are the same with BLIS and with numpy."""
    import spacy
    from thinc.backends.numpy_ops import NumpyOps

    from pipeline.nlp import load as nlp_mod

    nlp = spacy.load(nlp_mod.resolve_model_name(), exclude=["lemmatizer"])     # a private copy
    nlp_mod._register_paragraph_breaks()
    nlp.add_pipe(nlp_mod.PARAGRAPH_BREAKS, first=True)
    text = SAMPLE.read_text(encoding="utf-8")
    assert blas.ops_name(nlp) == "numpy"
    with_blis = _analyses(nlp, text)
    assert blas.use(nlp) == blas.NAME
    with_numpy = _analyses(nlp, text)
    assert sum(map(len, with_numpy)) > 2000
    assert with_numpy == with_blis
    for _, proc in nlp.pipeline:           # and back: the switch is per pipeline
        if hasattr(getattr(proc, "model", None), "walk"):
            for node in proc.model.walk():
                node.ops = NumpyOps()
    assert blas.ops_name(nlp) == "numpy"


def test_switch_keeps_blis(monkeypatch):
    class Model:
        ops = type("Ops", (), {"name": "numpy"})()

        def walk(self):
            return [self]

    class Proc:
        model = Model()

    class Nlp:
        pipeline = [("tok2vec", Proc())]

    monkeypatch.setenv(blas.ENV_SWITCH, "blis")
    nlp = Nlp()
    assert blas.use(nlp) == "numpy"
    assert blas.ops_name(nlp) == "numpy"
    monkeypatch.setenv(blas.ENV_SWITCH, "")
    assert blas.use(nlp) == blas.NAME and blas.ops_name(nlp) == blas.NAME
