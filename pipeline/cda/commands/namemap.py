"""``namemap``: build the n-CDA name map (see :mod:`pipeline.cda.core.namemap` for the method).

Parses the options into :class:`pipeline.cda.runs.namemap.NamemapSettings` and calls
:func:`pipeline.cda.runs.namemap.namemap` (gender-guesser's dictionary
-> the matchings -> ``name_map.parquet`` and ``name_map.tsv`` in ``--out``).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.cda.formats.name_map`
(its default directory), :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

COMMAND = "namemap"
HELP = "n-CDA name map by optimal bipartite matching"
OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

import argparse
from pathlib import Path

from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR as DEFAULT_OUT


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from pipeline import options as opt

    opt.out_dir(parser, "name_map.parquet and name_map.tsv", required=False, default=DEFAULT_OUT)
    parser.add_argument("--alpha", type=opt.finite_float, default=None,
                        help="alpha in w = ||vi - vj|| * (alpha - cos(vi, vj)) (default 12/11)")
    parser.add_argument("--nam-dict", type=Path, default=None,
                        help="a nam_dict.txt to use instead of the one in the installed gender-guesser")


def run(args):
    from pipeline.cda.runs.namemap import NamemapSettings, namemap

    return namemap(NamemapSettings(out=args.out, alpha=args.alpha, nam_dict=args.nam_dict))
