"""The command line: every command is discovered, has --help, and building the parser is cheap."""

from __future__ import annotations

import subprocess
import sys

import pytest

from pipeline.cli import commands, main

HEAVY = ("spacy", "matplotlib", "sklearn", "gensim", "datasets", "flask", "torch", "dask")


def test_every_stage_module_is_a_command():
    found = commands()
    assert {"extract", "generate", "evaluate", "cda", "namemap", "annotate-serve"} <= set(found)
    for name, module in found.items():
        assert module.__name__.startswith("pipeline.stages."), name
        assert module.HELP and callable(module.add_arguments) and callable(module.run)


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


def test_no_module_imports_a_command_module():
    """Layering: only the CLI (by name) and tests may import pipeline.stages.*."""
    import ast
    from pathlib import Path

    import pipeline

    root = Path(pipeline.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root).as_posix()
        if rel == "cli.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            if any(n.startswith("pipeline.stages.") for n in names) or \
                    (isinstance(node, ast.ImportFrom) and node.module == "pipeline.stages"):
                if not rel.startswith("benchmarks/"):
                    offenders.append(f"{rel}:{node.lineno}")
    assert offenders == []


def _module_imports() -> dict[str, set[str]]:
    """Every pipeline module -> the pipeline modules it imports (at any depth in its body)."""
    import ast
    from pathlib import Path

    import pipeline

    root = Path(pipeline.__file__).parent
    modules = {}
    for path in root.rglob("*.py"):
        parts = ("pipeline",) + path.relative_to(root).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    graph = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                cands = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                cands = [a.name for a in node.names]
            else:
                continue
            deps.update(c for c in cands if c in modules and c != name and c != "pipeline")
        graph[name] = deps
    return graph


# Lower layers may not import higher ones (docs/architecture.md): rank of each layer.
_LAYERS = [("pipeline.vocab", 0), ("pipeline.errors", 0), ("pipeline.formats", 1), ("pipeline.lang", 2),
           ("pipeline.nlp", 3), ("pipeline.core", 4), ("pipeline.engines", 4), ("pipeline.systems", 5),
           ("pipeline.report", 6), ("pipeline.runs", 7), ("pipeline.web", 8), ("pipeline.stages", 9),
           ("pipeline.benchmarks", 10), ("pipeline.cli", 10), ("pipeline.__main__", 11)]


def _rank(module: str) -> int | None:
    for prefix, rank in _LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return rank
    return None


def test_imports_point_one_way():
    """No module imports one of a higher layer (lazy imports inside functions included)."""
    upward = [f"{m} -> {d}" for m, deps in _module_imports().items() for d in deps
              if _rank(m) is not None and _rank(d) is not None and _rank(d) > _rank(m)]
    assert upward == []


def test_no_import_cycle():
    graph = _module_imports()
    state, cycles = {}, []

    def visit(node, stack):
        state[node] = "open"
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == "open":
                cycles.append(stack[stack.index(dep):] + [dep] if dep in stack else [node, dep])
            elif dep not in state:
                visit(dep, stack + [dep])
        state[node] = "done"

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])
    assert cycles == []
