"""Which project files one book runs through on its way to one quadruple:
``python -m pipeline.perf.call_path``.

A newcomer follows the work from file to file. This script measures that path instead of
guessing it: it reads the first book of a corpus (default: ``resources/sample``), runs it once so
the model and the word lists are loaded (``--cold`` counts that first run instead), then traces,
with a :func:`sys.setprofile` hook, :func:`pipeline.runs.extract.process_book` on the book and
:func:`pipeline.core.quadruples.quadruple` on its first instance (``--from-unit`` starts earlier,
at :func:`pipeline.runs.extract.process_unit`, so reading the book counts too).

Two counts come out of one trace:

* **touched**: every project file one of whose functions was called;
* **spine**: the files that hand the work on, i.e. whose functions call a function of another
  project file (directly, or through a library: spaCy calling the project's component counts
  for the file that called spaCy). A file that is only called and returns, a word list, the
  vocabulary, a record's ``as_dict``, a progress tick, is consulted, not followed: a reader
  sees what it answers from the name of the call.

Prints each touched file in the order the trace first entered it, with its calls, whether it is
on the spine and which files call it; then both counts. ``docs/architecture.md`` quotes them and
``tests/perf/test_call_path.py`` holds them.

May import: the standard library; inside the functions: :mod:`pipeline.formats.books`,
:mod:`pipeline.runs` (its ``extract`` run), :mod:`pipeline.core.quadruples`.
"""

from __future__ import annotations

import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

PACKAGE = Path(__file__).resolve().parents[1]        # .../pipeline
SAMPLE = PACKAGE.parent / "resources" / "sample"


@dataclass
class CallPath:
    """What one trace saw: calls per project file and function, and calls between files
    (paths relative to the package, e.g. ``core/extract.py``), in first-entry order."""
    calls: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    edges: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    order: list[str] = field(default_factory=list)

    @property
    def touched(self) -> list[str]:
        return list(self.order)

    @property
    def spine(self) -> list[str]:
        """The touched files that call into another project file, in first-entry order."""
        return [f for f in self.order if self.edges.get(f)]

    def callers(self, name: str) -> list[str]:
        return [f for f in self.order if self.edges.get(f, {}).get(name)]


def trace(steps: list[Callable[[], object]], package: Path = PACKAGE) -> tuple[CallPath, list]:
    """Run each step (a function without arguments) under one profile hook -> (the path, the
    steps' results). Only files under ``package`` count; a call is attributed to the nearest
    calling frame in the package, so a library in between (spaCy, thinc) is seen through."""
    root = str(package) + "/"
    path = CallPath()
    me = str(Path(__file__).resolve())        # the steps themselves are not the path

    def ours(name: str) -> bool:
        return name.startswith(root) and name != me

    def hook(frame, event, _arg):
        if event != "call":
            return
        name = frame.f_code.co_filename
        if not ours(name):
            return
        rel = name[len(root):]
        if rel not in path.calls:
            path.order.append(rel)
        path.calls[rel][frame.f_code.co_name] += 1
        caller = frame.f_back
        while caller is not None and not ours(caller.f_code.co_filename):
            caller = caller.f_back
        if caller is not None and caller.f_code.co_filename != name:
            path.edges[caller.f_code.co_filename[len(root):]][rel] += 1

    results = []
    sys.setprofile(hook)
    try:
        for step in steps:
            results.append(step())
    finally:
        sys.setprofile(None)
    return path, results


def book_to_quadruple(corpus: Path = SAMPLE, model: str | None = None, warm: bool = True,
                      from_unit: bool = False) -> tuple[CallPath, int]:
    """Trace the first book of ``corpus`` to the quadruple of its first instance -> (the path,
    the book's number of instances). Raises ValueError when the book yields no instance."""
    from pipeline.core.quadruples import quadruple
    from pipeline.formats.books import CorpusSpec, Skip, plan_corpus, read_unit
    from pipeline.runs import extract as run

    plan = plan_corpus(CorpusSpec(path=str(corpus)))
    unit = plan.units[0]
    book = next(item for item in read_unit(unit, plan.spec) if not isinstance(item, Skip))
    if warm:
        run.process_book(book, model)
    first = (lambda: run.process_unit(unit, plan.spec, model)[0]) if from_unit else (lambda: run.process_book(book, model))
    result = {}

    def extract_step():
        result["book"] = first()

    def quadruple_step():
        instances = result["book"].instances
        if not instances:
            raise ValueError(f"{book.path}: the book yields no instance to follow")
        return quadruple(dict(instances[0]), "Q1")

    path, _ = trace([extract_step, quadruple_step])
    return path, len(result["book"].instances)


def render(path: CallPath) -> str:
    lines = [f"{'file':34s} {'calls':>7s}  spine  called from"]
    for f in path.order:
        lines.append(f"{f:34s} {sum(path.calls[f].values()):7d}  {'yes' if f in path.spine else '   '}    "
                     + ", ".join(path.callers(f)))
    lines.append(f"spine: {len(path.spine)} files ({', '.join(path.spine)})")
    lines.append(f"touched: {len(path.touched)} files")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    from pipeline import options as opt

    args = opt.parse_script(argv, "python -m pipeline.perf.call_path", __doc__.split("\n\n")[0], [
        opt.option("--corpus", type=opt.PATH, default=SAMPLE, help="the corpus whose first book is followed (default: the sample)"),
        opt.option("--model", default=None, help="spaCy pipeline (default: see pipeline.nlp.load)"),
        opt.option("--cold", is_flag=True, help="trace the first run (model and word lists loaded inside it)"),
        opt.option("--from-unit", is_flag=True, help="start at reading the book (process_unit), not at the read book"),
    ])
    path, n = book_to_quadruple(args.corpus, args.model, warm=not args.cold, from_unit=args.from_unit)
    start = "process_unit" if args.from_unit else "process_book"
    print(f"{args.corpus}: first book, {n} instances; traced {start} + quadruple() of the first instance"
          f" ({'cold' if args.cold else 'steady state'})")
    print(render(path))
    return 0


if __name__ == "__main__":
    sys.exit(main())
