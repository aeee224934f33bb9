"""``namemap``: build the n-CDA name map (see :mod:`pipeline.cda.core.namemap` for the method).

Declares the options (click), parses them into :class:`pipeline.cda.runs.namemap.NamemapSettings` and calls
:func:`pipeline.cda.runs.namemap.namemap` (gender-guesser's dictionary
-> the matchings -> ``name_map.parquet`` and ``name_map.tsv`` in ``--out``).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.cda.formats.name_map`
(its default directory), :mod:`pipeline.runs`. Never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR as DEFAULT_OUT

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("namemap", "n-CDA name map by optimal bipartite matching", [
    opt.out_dir("name_map.parquet and name_map.tsv", required=False, default=DEFAULT_OUT),
    opt.option("--alpha", type=opt.finite_float, default=None,
               help="alpha in w = ||vi - vj|| * (alpha - cos(vi, vj)) (default 12/11)"),
    opt.option("--nam-dict", type=opt.PATH, default=None,
               help="a nam_dict.txt to use instead of the one in the installed gender-guesser"),
])


def run(args):
    from pipeline.cda.runs.namemap import NamemapSettings, namemap

    return namemap(NamemapSettings(out=args.out, alpha=args.alpha, nam_dict=args.nam_dict))
