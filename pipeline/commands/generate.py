"""Generate command: instances (extract output) or a GAP TSV -> counterfactual quadruples.

Declares the options and calls :func:`pipeline.runs.generate.generate` (manual: ``docs/generate.md``).

May import: the standard library, :mod:`pipeline.options`, :mod:`pipeline.runs` (inside :func:`run`).
Never another command.
"""

from __future__ import annotations

from pipeline import options as opt

OUTPUT_DIR = "out"      # the CLI holds this directory's lock for the whole run

command = opt.command("generate", "instances or GAP TSV -> counterfactual quadruples", [
    opt.option("--instances", type=opt.FILE, metavar="PATH",
               help="the extract output directory, or its instances.parquet"),
    opt.option("--gap-tsv", type=opt.FILE, metavar="FILE",
               help="a GAP-format TSV file to convert (GAP's files, Counter-GAP's csv-quoted releases)"),
    opt.option("--dataset", type=opt.FILE, metavar="FILE",
               help="with --no-title-period only: a quadruples/dataset Parquet or GAP TSV to rewrite "
                    "without title periods (writes <stem>-nodot.parquet/.tsv or <stem>-nodot.tsv)"),
    opt.out_dir("quadruples.parquet, quadruples.tsv"),
    opt.repeated("--gendered-words", type=opt.FILE, metavar="FILE",
                 help="a gendered word list (project TSV or plain 'word<TAB>opposite' file; "
                      "'# direction: one-way' as first line: first word -> second only). Repeatable; "
                      "the last file wins on a conflict; with any list given the built-in list is not "
                      "used unless named as 'builtin'"),
    opt.option("--name-forms", choices=("person", "shape"), default="person",
               help="how a person is written at another's positions: 'person' (default, Counter-GAP's "
                    "convention): always their shortest form in the context, title included; 'shape': "
                    "the replaced mention's shape (full name, first name, surname, title)"),
    opt.flag("--no-title-period", "also write the evaluation variant with the period of titles removed "
                                  "('Mr' for 'Mr.'), offsets recomputed: quadruples-nodot.parquet/.tsv"),
    opt.flag("--skip-bad-rows", "warn about and skip bad input rows instead of stopping (exit 2)"),
    opt.model("for --gap-tsv (NER and POS tags) and the re-check"),
    opt.batch_size(64, "texts per nlp.pipe batch (--gap-tsv, re-check)"),
    opt.cast("applied by the re-check and by --gap-tsv (GAP rows have no book: only `*` rows apply there)"),
    opt.workers("one book at a time each (--instances)"),
    opt.option("--scheduler", default=None,
               help="address of a Dask distributed scheduler (tcp://host:8786): one task per book there"),
    opt.overwrite("the book parts of a previous generate run in OUT (default: resume them, refused "
                  "when the settings differ)"),
    opt.flag("--no-recheck", "keep every quadruple without running the person detection again on its four texts "
                             "(default: re-check them and drop a quadruple that fails, reasons in recheck.json)"),
], one_of=(("instances", "gap_tsv", "dataset"),))


def run(args) -> int:
    from dataclasses import fields

    from pipeline.runs.generate import GenerateSettings, generate

    return generate(GenerateSettings(**{f.name: getattr(args, f.name) for f in fields(GenerateSettings)}))
