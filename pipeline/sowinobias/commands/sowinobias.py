"""``sowinobias``: build the SoWinoBias template test set (Dawkins 2021), its nearest-candidate
baseline and that baseline's evaluation. The run is :mod:`pipeline.sowinobias.runs` (reading the
vocabulary, writing the outputs); the construction is
:mod:`pipeline.core.sowinobias_templates`, the baseline :mod:`pipeline.sowinobias.core`,
the metrics :mod:`pipeline.core.sowinobias_scoring`; the table, plot and Markdown
:mod:`pipeline.report.sowinobias` (docs/sowinobias.md).

May import: :mod:`pipeline.core` (the defaults), :mod:`pipeline.sowinobias.runs` (the
vocabulary's default directory; the run inside :func:`run`); never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.core.sowinobias_scoring import DEFAULT_RESAMPLES
from pipeline.core.sowinobias_templates import DEFAULT_SEED, PUBLISHED_SIZE

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("sowinobias", "build the SoWinoBias template test set", [
    opt.out_dir(),
    opt.option("--sample", type=int, default=None, metavar="N",
               help=f"keep a seeded sample of N pairs, i.e. N sentences per set (the published "
                    f"set has {PUBLISHED_SIZE}); default: all combinations (8,192 per set)"),
    opt.seed("the sample and of the bootstrap", DEFAULT_SEED),
    opt.resamples(DEFAULT_RESAMPLES),
    opt.option("--vocab", type=opt.PATH, default=None,
               help="directory with occupations.tsv and adjectives.tsv (default: resources/sowinobias)"),
])


def run(args):
    from pipeline.sowinobias.runs import SowinobiasSettings, sowinobias

    return sowinobias(SowinobiasSettings(out=args.out, sample=args.sample, seed=args.seed, resamples=args.resamples,
                                         vocab=args.vocab))
