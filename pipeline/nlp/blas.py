"""The matrix products of spaCy's networks through numpy's BLAS, one thread per process.

thinc's CPU backend (``NumpyOps``) multiplies matrices with its bundled BLIS. On the project's
machines (x86-64 with AVX2; measured on an AMD EPYC, 2026-11-25) numpy's OpenBLAS does the
same products 2.5-3x faster on one thread (the shapes of en_core_web_sm's token-to-vector
layers, 45,000 x 288 by 288 x 288: 26 GFLOP/s with BLIS, 65 with OpenBLAS), and the
token-to-vector layers, the parser's and the NER's precomputed feature layers are mostly such
products. :class:`MatmulOps` is ``NumpyOps`` with only ``gemm`` replaced by thinc's own generic
version (``numpy.dot``); every other kernel (embedding sums, maxout, the transition loops in
Cython) is thinc's. The parses and entities are the same as with BLIS on every text the
project measures (``tests/nlp/test_blas.py``; docs/scale.md): both compute the same float32
sums, in a different order, and no decision of the models sits that close to a tie there.

One BLAS thread per process: extraction's parallelism is its worker processes (``--workers``),
and two BLAS threads in each of two workers on two cores would fight over the cores. The
limit is set once, when the pipeline is loaded (:func:`use`), through threadpoolctl.

Switch: ``PIPELINE_BLAS=blis`` keeps thinc's BLIS (for before/after figures).

May import: the standard library, numpy, thinc, threadpoolctl (inside functions).
"""

from __future__ import annotations

import functools
import os

ENV_SWITCH = "PIPELINE_BLAS"
NAME = "numpy-matmul"


@functools.lru_cache(maxsize=1)
def ops_class():
    """``MatmulOps``: thinc's ``NumpyOps`` whose ``gemm`` is numpy's (defined on first use, so
    importing this module imports no thinc)."""
    from thinc.backends.numpy_ops import NumpyOps
    from thinc.backends.ops import Ops

    class MatmulOps(NumpyOps):
        name = NAME

        def gemm(self, x, y, *, out=None, trans1=False, trans2=False):
            return Ops.gemm(self, x, y, out=out, trans1=trans1, trans2=trans2)

    return MatmulOps


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "").strip().lower() != "blis"


@functools.lru_cache(maxsize=1)
def _one_thread():
    """Limit the process's BLAS libraries to one thread (once; the limit stays). threadpoolctl
    reaches the libraries loaded so far; one loaded later (scipy's own OpenBLAS, imported by
    scikit-learn after the pipeline) reads the environment when it starts, so that says one
    thread too, unless the user set it."""
    from threadpoolctl import threadpool_limits

    for var in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(var, "1")

    return threadpool_limits(limits=1, user_api="blas")


def use(nlp) -> str:
    """Give every model of ``nlp``'s components :class:`MatmulOps` (unless switched off) and
    one BLAS thread. Returns the name of the ops now in use."""
    if not enabled():
        return "numpy"          # thinc's NumpyOps: BLIS
    _one_thread()
    ops = ops_class()()
    for _, proc in nlp.pipeline:
        model = getattr(proc, "model", None)
        if model is not None and hasattr(model, "walk"):
            for node in model.walk():
                node.ops = ops
    return NAME


def ops_name(nlp) -> str:
    """The ops the first model of ``nlp`` runs on ("numpy-matmul", "numpy", ...)."""
    for _, proc in nlp.pipeline:
        model = getattr(proc, "model", None)
        if model is not None and hasattr(model, "ops"):
            return model.ops.name
    return ""
