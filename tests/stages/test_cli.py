"""The command line: every command is discovered, has --help, and building the parser is cheap.
The layering rules are checked in tests/test_architecture.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.perf
from pipeline.cli import command_of, commands, main

HEAVY = ("numpy", "pandas", "pyarrow", "spacy", "matplotlib", "sklearn", "gensim", "datasets", "flask", "torch",
         "dask", "distributed")


def test_every_stage_module_is_a_command():
    import click

    found = commands()
    assert {"extract", "generate", "evaluate", "cda", "namemap", "annotate-serve"} <= set(found)
    for name, module in found.items():
        package = module.__name__.rpartition(".")[0]
        assert package == "pipeline.commands" or (package.startswith("pipeline.")
                                                and package.endswith(".commands")), name
        assert isinstance(command_of(module), click.Command) and command_of(module).name == name, name
        assert command_of(module).help and callable(module.run), name


def test_the_group_lists_every_command_alphabetically_with_its_one_line_help(capsys):
    from pipeline.cli import build_group

    group = build_group()
    assert group.list_commands(None) == sorted(commands()) == list(commands())
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    listing = capsys.readouterr().out.split("Commands:", 1)[1]
    names = [line.split()[0] for line in listing.splitlines() if line.startswith("  ") and not line.startswith("   ")]
    assert names == sorted(commands())
    flat = " ".join(listing.split())
    for name, module in commands().items():
        assert f"{name} {' '.join(command_of(module).help.split())}" in flat


@pytest.mark.parametrize("argv", [["--help"]] + [[name, "--help"] for name in sorted(commands())],
                         ids=lambda a: a[0])
def test_help_imports_no_heavy_library(argv):
    """``python -m pipeline [COMMAND] --help`` loads neither numpy, pandas, pyarrow nor spaCy."""
    code = ("import sys, io, contextlib\nfrom pipeline.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    try: main({argv!r})\n"
            "    except SystemExit as exc: assert exc.code == 0\n"
            "assert out.getvalue().startswith('Usage:')\n"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"imported by {' '.join(argv)}: {out.stdout.strip()}"


def test_version():
    import pipeline

    out = subprocess.run([sys.executable, "-m", "pipeline", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"counter-gap {pipeline.__version__}"


def test_importing_every_command_imports_no_heavy_library_and_stays_fast():
    """Every command module is imported to list the commands (``python -m pipeline --help``):
    none may import a heavy library at its top level, and the listing stays quick."""
    code = ("import sys, time; t = time.perf_counter(); from pipeline.cli import build_group, command_of, commands; "
            "build_group(); [command_of(m) for m in commands().values()]; t = time.perf_counter() - t; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules)); print(t)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    heavy, seconds = out.stdout.rstrip("\n").split("\n")
    assert heavy == "", f"imported while building the command line: {heavy}"
    assert float(seconds) < 3, f"building the command line took {float(seconds):.2f} s"


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_of_every_command(name, capsys):
    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("Usage: python -m pipeline " + name)
    assert command_of(commands()[name]).help.split()[0] in out


def test_the_installed_script_is_called_counter_gap(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["/somewhere/bin/counter-gap", "extract", "--help"])
    with pytest.raises(SystemExit):
        main(["extract", "--help"])
    assert capsys.readouterr().out.startswith("Usage: counter-gap extract")


def test_no_command_gives_usage_and_status_2(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out
    assert main(["-v"]) == 2


@pytest.mark.parametrize("argv, says", [
    (["extract", "--corpus", "c", "--out", "o", "--strategy", "fast"], "'--strategy'"),
    (["extract", "--corpus", "c"], "'--out'"),
    (["extract", "--corpus", "c", "--out", "o", "--no-such-option"], "--no-such-option"),
    (["extract", "--corpus", "c", "--out", "o", "--workers", "many"], "'--workers'"),
    (["no-such-command"], "no-such-command"),
    (["generate", "--out", "o"], "--instances"),
    (["generate", "--out", "o", "--instances", "i", "--gap-tsv", "g"], "--gap-tsv is not allowed with --instances"),
    (["humans", "qa", "--out", "o"], "'--results'"),
    (["predict", "--dataset", "d", "--system", "nonsense", "--out", "o"], "NAME=ADAPTER[:MODEL]"),
])
def test_a_usage_error_is_one_line_naming_the_option_and_status_2(argv, says, capsys):
    with pytest.raises(SystemExit) as exc:
        main(argv)
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: ") and says in err, err


# the timing scripts: the modules of pipeline/perf with a main() (machine.py is a helper they share)
PERF_SCRIPTS = sorted(p.stem for p in Path(pipeline.perf.__file__).parent.glob("*.py")
                      if p.stem != "__init__" and "\ndef main(" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", PERF_SCRIPTS)
def test_help_of_every_perf_script(name):
    """``python -m pipeline.perf.NAME --help`` prints a usage and runs nothing (exit 0)."""
    done = subprocess.run([sys.executable, "-m", f"pipeline.perf.{name}", "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.lower().startswith("usage:")


def test_a_timing_script_s_list_option_takes_the_words_after_it():
    """``opt.many`` (the timing scripts' ``--books 105 1342``, formerly argparse's nargs) reaches
    into click's parser: a click release that changes it must fail here, not in ``make perf``."""
    from pipeline import options as opt

    params = [opt.many("--books"), opt.many("--machines", type=int, default=[1, 4]), opt.option("--n", type=int)]
    args = opt.parse_script(["--books", "105", "1342", "--n", "3", "--machines", "8", "--machines", "9"],
                            "p", "h", params)
    assert (args.books, args.machines, args.n) == (("105", "1342"), (8, 9), 3)
    args = opt.parse_script([], "p", "h", params)
    assert (args.books, args.machines) == (None, (1, 4))
    with pytest.raises(SystemExit) as exc:
        opt.parse_script(["--machines", "x"], "p", "h", params)
    assert exc.value.code == 2
