"""``cda``: counterfactual data augmentation of CoNLL-2012 coreference training files.

Declares the options (click), parses them and calls :func:`pipeline.cda.runs.cda.cda` (a-CDA or n-CDA of one CoNLL-2012
file: the originals followed by the augmented copies, PERSON spans from the NE column or the
person detection, a summary; docs/cda.md). The mode and the resolved spaCy model go into
``run.json``'s settings through the run's result, returned to the CLI.

May import: the standard library, :mod:`pipeline.runs`, :mod:`pipeline.formats` (name_map).
Never another command.
"""

from __future__ import annotations

from pipeline import options as opt
from pipeline.cda.formats.name_map import DEFAULT_MAP_DIR
from pipeline.cda.runs.cda import MODES, PERSON_CHOICES, POS_CHOICES

command = opt.command("cda", "a-CDA / n-CDA of CoNLL-2012 training files", [
    opt.option("--conll", type=opt.PATH, required=True,
               help="CoNLL-2012 file (OntoNotes *_gold_conll, WinoBias *.v4_auto_conll, LitBank *.conll)"),
    opt.option("--mode", choices=MODES, required=True,
               help="acda: gendered words + every word of a name -> E1, E2, ...; ncda: gendered words, "
                    "first names by the name map (a fallback of the other gender for names it lacks), "
                    "surnames by surnames (resources/surnames.tsv)"),
    opt.out_path("output file: the originals followed by the augmented copies"),
    opt.option("--name-map", type=opt.PATH, default=None,
               help="ncda: name_map.parquet or .tsv (default: built on first use and cached)"),
    opt.option("--name-map-cache", type=opt.PATH, default=DEFAULT_MAP_DIR,
               help=f"ncda: where the built map is cached (default {DEFAULT_MAP_DIR})"),
    opt.option("--pos", choices=POS_CHOICES, default="auto",
               help="auto (default): predict POS tags with spaCy for documents whose POS column "
                    "holds none (- or _); file: always use the file's column; predict: always predict"),
    opt.option("--persons", choices=PERSON_CHOICES, default="auto",
               help="where the PERSON spans (the only tokens replaced as names) come from: auto "
                    "(default): the named-entity column when the document has one (OntoNotes), "
                    "else the project's person detection; column: the column only (error "
                    "without one); detect: always the person detection"),
    opt.cast("for the person detection, the book id being the CoNLL document id (* = every "
             "document); not used where the NE column decides"),
    opt.option("--books", type=opt.PATH, default=None, metavar="DIR",
               help="a folder of the whole books behind the documents (e.g. LitBank's novels): the "
                    "person detection takes each document's evidence from its whole book (matched "
                    "by id: 105_persuasion_brat -> 105_persuasion.txt), as extract does"),
    opt.model("for predicted tags and person detection"),
    opt.option("--min-columns", type=int, default=None,
               help="fewest columns of a token line (default 12, the CoNLL-2012 minimum)"),
    opt.no_progress(),
])


def run(args):
    from dataclasses import fields

    from pipeline.cda.runs.cda import CdaSettings, cda

    return cda(CdaSettings(**{f.name: getattr(args, f.name) for f in fields(CdaSettings)}))
