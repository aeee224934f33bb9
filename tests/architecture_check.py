"""The reader behind tests/test_architecture.py: what a package's modules import and call,
read from their syntax trees (``ast``), never from their docstrings or comments.

:class:`Package` reads a copy of ``pipeline/`` wherever it lies (the real one, or one a test
has planted violations in), so every rule can be shown to catch what it forbids.

What counts as an import of a project module ``pipeline.a.b``:

- ``import pipeline.a.b``, ``from pipeline.a import b``, relative imports, at any depth;
- attribute access through a bound project name: ``import pipeline`` then
  ``pipeline.a.b.f()``, ``from pipeline import a`` then ``a.b``, ``p = pipeline`` then
  ``p.a.b``, ``getattr(pipeline.a, "b")``;
- ``importlib.import_module`` / ``__import__`` (under any alias) with a name whose value is
  known: a constant, constants joined by ``+``, ``%``, ``.format`` or an f-string. A name with
  a literal prefix (``f"pipeline.commands.{name}"``) imports every module whose name starts with
  that prefix. A name with no literal prefix that could be a project module is a *computed
  import* (:meth:`Package.computed_imports`), and so is an import function passed around
  (``f = importlib.import_module``), ``getattr`` of a project module by a computed name, or
  ``sys.modules[...]`` by one.

File I/O (:meth:`Package.file_io`): ``open`` (with the mode it is given), ``Path.open``,
``read_text``/``write_text``/``read_bytes``/``write_bytes``, pandas' and pyarrow's readers and
writers (``to_parquet``, ``read_csv``, ``pq.write_table``...), ``savefig``, ``os.replace`` and
the other ``os``/``shutil``/``tempfile`` file calls, ``numpy.save``/``load``, ``pickle``/``json``
``dump``/``load``, ``sqlite3.connect``, ``mkdir``/``unlink``/``touch``. Calls are resolved
through the module's imports (``from os import replace as r`` then ``r(...)`` is
``os.replace``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

IMPORT_FUNCTIONS = {"importlib.import_module", "importlib.__import__", "__import__",
                    "builtins.__import__"}
CODE_RUNNERS = {"exec", "eval", "builtins.exec", "builtins.eval", "runpy.run_module", "runpy.run_path",
                "pkgutil.resolve_name", "importlib.util.spec_from_file_location",
                "importlib.machinery.SourceFileLoader"}

# calls that read or write files, by qualified name (after the module's imports are resolved)
IO_QUALIFIED = {
    "open", "io.open", "builtins.open", "os.open", "os.fdopen", "codecs.open",
    "os.replace", "os.rename", "os.renames", "os.remove", "os.unlink", "os.makedirs", "os.mkdir",
    "os.rmdir", "os.removedirs", "os.truncate", "os.link", "os.symlink", "os.write", "os.utime",
    "numpy.save", "numpy.savez", "numpy.savez_compressed", "numpy.savetxt", "numpy.load",
    "numpy.loadtxt", "numpy.genfromtxt", "numpy.fromfile", "numpy.memmap",
    "pickle.dump", "pickle.load", "json.dump", "json.load", "sqlite3.connect",
    "pandas.read_csv", "pandas.read_parquet", "pandas.read_json", "pandas.read_table",
    "pandas.read_feather", "pandas.read_pickle", "pandas.read_excel",
    "logging.FileHandler", "logging.handlers.RotatingFileHandler", "logging.handlers.TimedRotatingFileHandler",
}
IO_PREFIXES = ("shutil.", "tempfile.", "pyarrow.parquet.", "pyarrow.csv.", "pyarrow.feather.",
               "pyarrow.dataset.write", "gzip.", "bz2.", "lzma.", "zipfile.", "tarfile.")
# ...and by method name whatever the object (a Path, a DataFrame, a Figure, pq)
IO_METHODS = {
    "write_text", "write_bytes", "read_text", "read_bytes", "open",
    "to_parquet", "to_pickle", "to_feather", "to_excel", "to_hdf", "to_sql", "to_stata",
    "savefig", "write_table", "write_to_dataset", "write_dataset", "read_table", "read_parquet",
    "read_csv", "read_feather", "read_pickle", "ParquetWriter", "ParquetFile",
    "mkdir", "touch", "unlink", "rmdir", "symlink_to", "hardlink_to", "tofile",
}
# these write only when given a path (without one they return a string)
IO_METHODS_WITH_PATH = {"to_csv", "to_json", "to_html", "to_markdown", "to_latex", "to_string"}
WRITE_MODES = set("wax+")
WRITE_METHODS = {"write_text", "write_bytes", "savefig", "write_table", "write_to_dataset",
                 "write_dataset", "ParquetWriter", "mkdir", "touch", "unlink", "rmdir", "tofile",
                 "symlink_to", "hardlink_to"} | {m for m in IO_METHODS if m.startswith("to_")} | IO_METHODS_WITH_PATH

PROGRESS_BARS = ("tqdm", "rich.progress", "alive_progress", "progressbar", "enlighten")


def literal_prefix(node: ast.AST) -> tuple[str, bool] | None:
    """(the literal text a string expression starts with, whether that is all of it); None when
    it starts with something computed."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, True
    if isinstance(node, ast.JoinedStr):
        text = ""
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text += part.value
            else:
                return (text, False) if text else None
        return text, True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = literal_prefix(node.left)
        if left is None:
            return None
        if not left[1]:
            return left
        right = literal_prefix(node.right)
        if right is None:
            return (left[0], False) if left[0] else None
        return left[0] + right[0], right[1]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = literal_prefix(node.left)
        if left and "%" in left[0]:
            head = left[0].split("%", 1)[0]
            return (head, False) if head else None
        return left
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"):
        base = literal_prefix(node.func.value)
        if base and "{" in base[0]:
            head = base[0].split("{", 1)[0]
            return (head, False) if head else None
        return base
    return None


_TREES: dict[str, ast.Module] = {}            # source text -> its tree, shared by every Package
_READINGS: dict[tuple, "Reading"] = {}        # (what a reading depends on) -> the reading


def _parse(text: str) -> ast.Module:
    if text not in _TREES:
        _TREES[text] = ast.parse(text)
    return _TREES[text]


@dataclass
class Module:
    name: str
    path: Path
    is_package: bool
    text: str

    @property
    def tree(self) -> ast.Module:
        return _parse(self.text)

    @property
    def nodes(self) -> list[ast.AST]:
        """Every node of the tree, walked once (per source text)."""
        tree = self.tree
        if not hasattr(tree, "_all_nodes"):
            tree._all_nodes = list(ast.walk(tree))
        return tree._all_nodes

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


@dataclass
class Reading:
    """What one module's tree says: project modules it imports, computed imports, calls."""
    imports: set[str] = field(default_factory=set)
    reach: set[str] = field(default_factory=set)      # the declared reach of allowed computed imports
    computed: list[str] = field(default_factory=list)
    io: list[tuple[int, str, bool]] = field(default_factory=list)   # (line, call, writes)
    progress: list[str] = field(default_factory=list)


class Package:
    """The modules of a package directory ``root`` (named ``name``), read with ``ast``.

    ``computed_allowed``: module -> the package (or a tuple of packages) its computed imports may
    reach (they then count as imports of every module of those packages, so the layer rules
    still apply)."""

    def __init__(self, root: Path, name: str = "pipeline", layers: dict[str, int] | None = None,
                 computed_allowed: dict[str, str | tuple[str, ...]] | None = None):
        self.root = Path(root)
        self.name = name
        self.layers = layers or {}
        self.computed_allowed = computed_allowed or {}
        self.modules: dict[str, Module] = {}
        for path in sorted(self.root.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = (name,) + path.relative_to(self.root).with_suffix("").parts
            is_package = parts[-1] == "__init__"
            if is_package:
                parts = parts[:-1]
            self.modules[".".join(parts)] = Module(".".join(parts), path, is_package,
                                                    path.read_text(encoding="utf-8"))
        self._key = (name, frozenset(self.modules), tuple(sorted(map(str, self.computed_allowed.items()))))

    # ------------------------------------------------------------------ names ----
    def known(self, dotted: str) -> str | None:
        """The longest project module that ``dotted`` is or lies in."""
        while dotted:
            if dotted in self.modules:
                return dotted
            dotted = dotted.rpartition(".")[0]
        return None

    def starting_with(self, prefix: str) -> set[str]:
        return {m for m in self.modules if m.startswith(prefix)}

    def rank(self, module: str) -> int | None:
        prefix = self.layer(module)
        return None if prefix is None else self.layers[prefix]

    def layer(self, module: str) -> str | None:
        """The longest prefix of :attr:`layers` that ``module`` is or lies in."""
        best = None
        for prefix in self.layers:
            if (module == prefix or module.startswith(prefix + ".")) and (best is None or len(prefix) > len(best)):
                best = prefix
        return best

    def is_command_package(self, package: str) -> bool:
        """``NAME.commands`` (the spine's commands) or ``NAME.ROOM.commands`` (a feature room's)."""
        parts = package.split(".")
        return package == f"{self.name}.commands" or (
            len(parts) == 3 and parts[0] == self.name and parts[2] == "commands")

    @cached_property
    def commands(self) -> set[str]:
        """Modules of ``NAME.commands`` and of ``NAME.ROOM.commands`` that define ``command`` (the
        click command) at the top level."""
        out = set()
        for name, mod in self.modules.items():
            if mod.is_package or not self.is_command_package(name.rpartition(".")[0]):
                continue
            for node in mod.tree.body:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
                if any(isinstance(t, ast.Name) and t.id == "command" for t in targets):
                    out.add(name)
        return out

    # --------------------------------------------------------------- reading ----
    def reading(self, module: str) -> Reading:
        """What the module's tree says (cached by its text and the package's module names)."""
        key = (self._key, module, self.modules[module].is_package, self.modules[module].text)
        if key not in _READINGS:
            _READINGS[key] = self._read(self.modules[module])
        return _READINGS[key]

    def imports_of(self, module: str) -> frozenset[str]:
        """The project modules ``module`` imports, the declared reach of its computed imports
        included."""
        reading = self.reading(module)
        return frozenset(reading.imports | reading.reach)

    def named_imports_of(self, module: str) -> frozenset[str]:
        """Without the declared reach: the imports whose names are written out (for cycles: a
        registry that imports its adapters by name is not imported back by each of them)."""
        return frozenset(self.reading(module).imports)

    def computed_imports(self, module: str) -> list[str]:
        return list(self.reading(module).computed)

    def file_io(self, module: str, writes_only: bool = False) -> list[str]:
        """``line N: call`` for each file I/O call (only those that write or change the file
        system with ``writes_only``)."""
        return [f"line {n}: {what}" for n, what, write in self.reading(module).io if write or not writes_only]

    def progress_bars(self, module: str) -> list[str]:
        return list(self.reading(module).progress)

    def _resolve_from(self, mod: Module, node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        package = mod.package
        for _ in range(node.level - 1):
            package = package.rpartition(".")[0]
        return f"{package}.{node.module}" if node.module else package

    def _bindings(self, mod: Module) -> dict[str, str]:
        """Every name the module's imports bind (at any depth) -> the dotted name it stands for;
        then names assigned from those (``p = pipeline``, ``im = importlib.import_module``)."""
        bound: dict[str, str] = {}
        for node in mod.nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    if a.asname:
                        bound[a.asname] = a.name
                    else:
                        top = a.name.split(".")[0]
                        bound[top] = top
            elif isinstance(node, ast.ImportFrom):
                base = self._resolve_from(mod, node)
                for a in node.names:
                    if a.name != "*":
                        bound[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
        assigns = [n for n in mod.nodes if isinstance(n, (ast.Assign, ast.AnnAssign, ast.NamedExpr))]
        for _ in range(3):                       # aliases of aliases
            for node in assigns:
                if (isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    value = self._qualified(node.value, bound)
                    if value is None:
                        continue
                    for t in targets:
                        if isinstance(t, ast.Name) and t.id not in bound:
                            bound[t.id] = value
                elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                    value = self._qualified(node.value, bound)
                    if value is not None and node.target.id not in bound:
                        bound[node.target.id] = value
        return bound

    @staticmethod
    def _qualified(node: ast.AST, bound: dict[str, str]) -> str | None:
        """``a.b.c`` with ``a`` replaced by what it is bound to; ``__import__``, ``open``,
        ``exec``... as themselves; None for anything else."""
        attrs = []
        while isinstance(node, ast.Attribute):
            attrs.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        if node.id in bound:
            base = bound[node.id]
        elif node.id in ("__import__", "open", "exec", "eval", "getattr"):
            base = node.id
        else:
            return None
        return ".".join([base, *reversed(attrs)])

    def _target_modules(self, mod: Module, call: ast.Call) -> tuple[set[str], bool]:
        """The project modules an import call may import (its first argument), and whether
        the name is computed beyond knowing."""
        if not call.args:
            return set(), True
        name = literal_prefix(call.args[0])
        if name is None:
            return set(), True
        text, whole = name
        if text.startswith("."):                 # relative, against ``package=`` or the module's own
            package = mod.package
            for kw in call.keywords:
                if kw.arg == "package" and isinstance(kw.value, ast.Constant):
                    package = kw.value.value
            if len(call.args) > 1 and isinstance(call.args[1], ast.Constant):
                package = call.args[1].value
            level = len(text) - len(text.lstrip("."))
            for _ in range(level - 1):
                package = package.rpartition(".")[0]
            text = f"{package}.{text[level:]}" if text[level:] else package
        root = self.name + "."
        if whole:
            if text == self.name or text.startswith(root):
                known = self.known(text)
                return ({known} if known else set()), False
            return set(), False
        if text.startswith(root):                  # a literal prefix inside the package
            found = self.starting_with(text)
            package = self.known(text.rstrip("."))
            if package and package != self.name:
                found.add(package)
            return found, False
        if root.startswith(text) or text == self.name:   # "", "pipe", "pipeline": could be any
            return set(), True
        return set(), False                          # a prefix outside the package

    def _read(self, mod: Module) -> Reading:
        out = Reading()
        bound = self._bindings(mod)
        root = self.name

        def add(dotted: str | None):
            if dotted and (dotted == root or dotted.startswith(root + ".")):
                known = self.known(dotted)
                if known and known != mod.name and known != root:
                    out.imports.add(known)

        def computed(line: int, what: str):
            allowed = self.computed_allowed.get(mod.name)
            if allowed:
                for package in (allowed,) if isinstance(allowed, str) else allowed:
                    out.reach |= {m for m in self.starting_with(package + ".") | ({package} & set(self.modules))
                                  if m != mod.name}
            else:
                out.computed.append(f"line {line}: {what}")

        call_funcs = {id(n.func) for n in mod.nodes if isinstance(n, ast.Call)}
        # ``load = importlib.import_module`` binds a name (followed when called), not a leak
        call_funcs |= {id(n.value) for n in mod.nodes if isinstance(n, ast.Assign)
                       and all(isinstance(t, ast.Name) for t in n.targets)}
        attribute_values = {id(n.value) for n in mod.nodes if isinstance(n, ast.Attribute)}
        for node in mod.nodes:
            if isinstance(node, ast.Import):
                for a in node.names:
                    add(a.name)
                    if not a.asname:      # ``import pipeline.x`` binds ``pipeline``: reads below
                        pass
                    if a.name.split(".")[0] in PROGRESS_BARS or a.name in PROGRESS_BARS:
                        out.progress.append(f"line {node.lineno}: import {a.name}")
            elif isinstance(node, ast.ImportFrom):
                base = self._resolve_from(mod, node)
                add(base)
                for a in node.names:
                    if a.name != "*":
                        add(f"{base}.{a.name}")
                if base.split(".")[0] in PROGRESS_BARS or any(base == p or base.startswith(p + ".") for p in PROGRESS_BARS):
                    out.progress.append(f"line {node.lineno}: from {base} import ...")
            elif isinstance(node, ast.Attribute) and id(node) not in attribute_values:
                # the outermost attribute of a chain: pipeline.runs.extract.process_book
                q = self._qualified(node, bound)
                if q:
                    add(q)
                    if q in IMPORT_FUNCTIONS and id(node) not in call_funcs:
                        computed(node.lineno, f"{q} passed around (an import by a name not seen)")
            elif (isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in call_funcs
                  and id(node) not in attribute_values):
                q = bound.get(node.id) or (node.id if node.id == "__import__" else None)
                if q in IMPORT_FUNCTIONS:
                    computed(node.lineno, f"{q} passed around (an import by a name not seen)")
            elif isinstance(node, ast.Subscript):
                q = self._qualified(node.value, bound)
                if q == "sys.modules":
                    key = literal_prefix(node.slice)
                    if key and key[1]:
                        add(key[0])
                    else:
                        computed(node.lineno, "sys.modules[<computed>]")
            if isinstance(node, ast.Call):
                self._read_call(mod, node, bound, out, add, computed)
        line = lambda entry: int(entry.split(":")[0].removeprefix("line "))
        out.computed.sort(key=line)
        out.progress.sort(key=line)
        out.io.sort()
        return out

    def _read_call(self, mod, node: ast.Call, bound, out: Reading, add, computed):
        q = self._qualified(node.func, bound)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if q in IMPORT_FUNCTIONS:
            targets, unknown = self._target_modules(mod, node)
            for t in targets:
                add(t)
            if unknown:
                computed(node.lineno, f"{q}(<computed name>)")
        elif q in CODE_RUNNERS:
            computed(node.lineno, f"{q}(...)")
        elif q in ("sys.modules.get", "sys.modules.__getitem__", "sys.modules.setdefault") and node.args:
            key = literal_prefix(node.args[0])
            if key and key[1]:
                add(key[0])
            else:
                computed(node.lineno, f"{q}(<computed>)")
        elif q == "getattr" and len(node.args) >= 2:
            obj = self._qualified(node.args[0], bound)
            if obj and (obj == self.name or obj.startswith(self.name + ".")):
                attr = literal_prefix(node.args[1])
                if attr and attr[1]:
                    add(f"{obj}.{attr[0]}")
                elif obj in self.modules and self.modules[obj].is_package:
                    computed(node.lineno, f"getattr({obj}, <computed name>)")
        # file I/O
        what, write = None, False
        if q is not None and (q in IO_QUALIFIED or q.startswith(IO_PREFIXES)):
            what = q
            last = q.rpartition(".")[2]
            write = not (last.startswith(("read", "load")) or last in ("loadtxt", "genfromtxt", "fromfile",
                                                                      "ParquetFile", "connect", "which"))
            if q in ("open", "io.open", "builtins.open", "codecs.open", "os.fdopen"):
                mode = node.args[1] if len(node.args) > 1 else next((k.value for k in node.keywords if k.arg == "mode"), None)
                what, write = self._mode(q, mode)
            elif q == "sqlite3.connect":
                write = True
        elif method in IO_METHODS:
            what, write = f".{method}()", method in WRITE_METHODS
            if method == "open":
                mode = node.args[0] if node.args else next((k.value for k in node.keywords if k.arg == "mode"), None)
                what, write = self._mode(".open", mode)
        elif method in IO_METHODS_WITH_PATH and (node.args or any(k.arg in ("path_or_buf", "buf") for k in node.keywords)):
            what, write = f".{method}(path)", True
        if what:
            out.io.append((node.lineno, what, write))

    @staticmethod
    def _mode(name: str, mode) -> tuple[str, bool]:
        if mode is None:
            return f"{name}(..., 'r')", False
        if isinstance(mode, ast.Constant) and isinstance(mode.value, str):
            return f"{name}(..., {mode.value!r})", bool(WRITE_MODES & set(mode.value))
        return f"{name}(..., <computed mode>)", True
