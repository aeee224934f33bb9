"""The command line: every command is discovered, has --help, and building the parser is cheap.
The layering rules are checked in tests/test_architecture.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import pipeline.perf
from pipeline.cli import commands, main

HEAVY = ("numpy", "pandas", "pyarrow", "spacy", "matplotlib", "sklearn", "gensim", "datasets", "flask", "torch",
         "dask", "distributed")


def test_every_stage_module_is_a_command():
    found = commands()
    assert {"extract", "generate", "evaluate", "cda", "namemap", "annotate-serve"} <= set(found)
    for name, module in found.items():
        package = module.__name__.rpartition(".")[0]
        assert package == "pipeline.commands" or (package.startswith("pipeline.")
                                                and package.endswith(".commands")), name
        assert module.HELP and callable(module.add_arguments) and callable(module.run)


def test_the_index_names_the_same_commands_as_importing_them():
    from pipeline.cli import command_index

    index = command_index()
    assert {name: module for name, (module, _) in index.items()} == \
        {name: module.__name__ for name, module in commands().items()}
    assert all(help_text == commands()[name].HELP for name, (_, help_text) in index.items())


@pytest.mark.parametrize("argv", [["--help"]] + [[name, "--help"] for name in sorted(commands())],
                         ids=lambda a: a[0])
def test_help_imports_no_heavy_library(argv):
    """``python -m pipeline [COMMAND] --help`` loads neither numpy, pandas, pyarrow nor spaCy."""
    code = ("import sys, io, contextlib\nfrom pipeline.cli import main\n"
            "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
            f"    try: main({argv!r})\n"
            "    except SystemExit as exc: assert exc.code == 0\n"
            "assert out.getvalue().startswith('usage:')\n"
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"imported by {' '.join(argv)}: {out.stdout.strip()}"


def test_version():
    import pipeline

    out = subprocess.run([sys.executable, "-m", "pipeline", "--version"], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == f"counter-gap {pipeline.__version__}"


def test_building_the_parser_imports_no_heavy_library():
    code = ("import sys; from pipeline.cli import build_parser, commands; build_parser(); "
            "[build_parser([name]) for name in commands()]; "
            f"print(','.join(m for m in {HEAVY!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "", f"imported while building the parser: {out.stdout.strip()}"


@pytest.mark.parametrize("name", sorted(commands()))
def test_help_of_every_command(name, capsys):
    with pytest.raises(SystemExit) as exc:
        main([name, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: python -m pipeline " + name)
    assert commands()[name].HELP.split()[0] in out


def test_no_command_gives_usage_and_status_2(capsys):
    assert main([]) == 2
    assert "COMMAND" in capsys.readouterr().out


PERF_SCRIPTS = sorted(p.stem for p in Path(pipeline.perf.__file__).parent.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", PERF_SCRIPTS)
def test_help_of_every_perf_script(name):
    """``python -m pipeline.perf.NAME --help`` prints a usage and runs nothing (exit 0)."""
    done = subprocess.run([sys.executable, "-m", f"pipeline.perf.{name}", "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage:")
