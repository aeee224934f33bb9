"""Command line: ``python -m pipeline COMMAND ...``.

Every command lives in its own module, which defines ``add_arguments(parser)`` and
``run(args) -> int``. Modules are imported only when their command runs, so ``--help`` is
fast. An :class:`pipeline.io.InputError` anywhere becomes a one-line error and exit status 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

# command -> (module, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "extract": ("pipeline.extract", "books -> GAP-pattern original instances (Parquet)"),
    "generate": ("pipeline.generate", "instances or GAP TSV -> counterfactual quadruples"),
    "namemap": ("pipeline.namemap", "n-CDA name map by optimal bipartite matching"),
    "cda": ("pipeline.cda", "a-CDA / n-CDA of CoNLL-2012 training files"),
    "evaluate": ("pipeline.evaluate", "bias metrics with bootstrap significance"),
    "baseline": ("pipeline.baselines", "name-blind baseline system outputs"),
    "analyze": ("pipeline.analyze", "dataset diagnostics: names per example, candidate rank"),
    "weights": ("pipeline.weights", "LP test-set weights (The Gap on GAP)"),
    "sowinobias": ("pipeline.sowinobias", "build the SoWinoBias template test set"),
    "annotate-export": ("pipeline.annotate.export", "export annotation tasks (MTurk CSV + HTML)"),
    "annotate-serve": ("pipeline.annotate.serve", "local annotation web app (127.0.0.1)"),
    "annotate-import": ("pipeline.annotate.aggregate", "import votes, filter, balance, publish"),
}


def build_parser(argv: list[str]) -> tuple[argparse.ArgumentParser, object | None]:
    parser = argparse.ArgumentParser(
        prog="python -m pipeline",
        description="counter-gap: build and evaluate counterfactual gender-bias coreference test sets.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    module = None
    wanted = next((a for a in argv if not a.startswith("-")), None)
    for name, (modname, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == wanted:
            module = importlib.import_module(modname)
            module.add_arguments(p)
    return parser, module


def main(argv: list[str] | None = None) -> int:
    from pipeline.io import InputError

    argv = sys.argv[1:] if argv is None else argv
    parser, module = build_parser(argv)
    args = parser.parse_args(argv)
    if module is None:
        parser.print_help()
        return 2
    try:
        return int(module.run(args) or 0)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted; completed outputs are kept, rerun to resume", file=sys.stderr)
        return 130
