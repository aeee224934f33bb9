"""``python -m pipeline predict``: run coreference systems on every instance text of a dataset.

Declares the options, parses them into :class:`pipeline.runs.predict.PredictSettings` and calls
:func:`pipeline.runs.predict.predict` (read the rows, run each system with its adapter from
:mod:`pipeline.systems.registry`, write the outputs, a summary). Writes into
``--out`` together: ``NAME.jsonl`` (clusters, character offsets), ``NAME.tsv`` (GAP answers,
no header line), ``answers.parquet``, ``predict.json``; ``--out/cache/NAME.jsonl`` is the
resumable cache (docs/evaluate.md, "predict").

May import: :mod:`pipeline.options`, :mod:`pipeline.systems` (``base``: the ``--system`` spelling),
:mod:`pipeline.runs.predict`; never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.systems.base import DEVICES, parse_spec

command = opt.command("predict", "run coreference systems (adapters) on a dataset's texts", [
    opt.option("--dataset", required=True, type=opt.PATH,
               help="quadruples Parquet, GAP TSV, pro/anti benchmark Parquet, or SoWinoBias (Parquet/TSV)"),
    opt.repeated("--system", required=True, type=opt.Converted(parse_spec, "NAME=ADAPTER[:MODEL]"),
                 metavar="NAME=ADAPTER[:MODEL]",
                 help="a system: adapter fastcoref, lingmess, maverick, spacy, allennlp, xrenner, command, or "
                      "one registered by an installed package; MODEL a local path or cache name (never "
                      "downloaded); repeatable"),
    opt.out_dir(),
    opt.device(DEVICES),
    opt.batch_size(8, "texts per call of a system"),
    opt.flag("--retry-failed", "run the documents again that failed in an earlier (cached) run"),
    opt.no_progress(),
])


def run(args) -> int:
    from pipeline.runs.predict import PredictSettings, predict

    return predict(PredictSettings(dataset=args.dataset, systems=tuple(args.system), out=args.out, device=args.device,
                                   batch_size=args.batch_size, retry_failed=args.retry_failed,
                                   progress=not args.no_progress))
