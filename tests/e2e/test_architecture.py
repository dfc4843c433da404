"""docs/architecture.md has one paragraph per sub-package that names every module in it, and names
no module that is gone; the stage packages do not import the command line; imports run one way,
down the package order (``LAYERS``, which docs/architecture.md draws), and no import closes a circle."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PKG = ROOT / "fp8triage"
DOC = ROOT / "docs" / "architecture.md"


def _sections() -> dict[str, str]:
    """Folder (relative to fp8triage/, "" for the top) -> its section's text."""
    text = DOC.read_text(encoding="utf-8")
    out = {}
    for m in re.finditer(r"^### `fp8triage/`.*?$|^### `(\w+)/`.*?$", text, re.M):
        end = text.find("\n### ", m.end())
        end = text.find("\n## ", m.end()) if end < 0 else end
        out[m.group(1) or ""] = text[m.end(): end if end > 0 else len(text)]
    return out


def _packages() -> list[Path]:
    return [PKG] + sorted(p for p in PKG.iterdir() if p.is_dir() and (p / "__init__.py").exists())


def test_every_sub_package_has_a_paragraph():
    sections = _sections()
    folders = {"" if p == PKG else p.name for p in _packages()}
    assert folders == set(sections), f"packages {sorted(folders)} vs sections {sorted(sections)}"


def test_every_module_is_named_in_its_package_paragraph():
    sections = _sections()
    missing = []
    for pkg in _packages():
        body = sections["" if pkg == PKG else pkg.name]
        for mod in sorted(pkg.glob("*.py")):
            if mod.name == "__init__.py" and pkg != PKG and pkg.name != "cli":
                continue  # a package's docstring is its paragraph's first line
            if f"`{mod.name}`" not in body:
                missing.append(str(mod.relative_to(PKG)))
    assert missing == [], f"docs/architecture.md does not name: {missing}"


def test_no_paragraph_names_a_module_that_is_gone():
    gone = []
    for folder, body in _sections().items():
        base = PKG / folder
        for name in re.findall(r"`(\w+\.py)`", body):
            if not (base / name).exists():
                gone.append(f"{folder or 'fp8triage'}/{name}")
    assert gone == []


def test_only_the_cli_imports_click():
    offenders = [str(p.relative_to(PKG)) for p in PKG.rglob("*.py")
                 if "cli" not in p.relative_to(PKG).parts and re.search(r"^\s*(import click|from click)", p.read_text(), re.M)]
    assert offenders == []


def test_the_tests_mirror_the_package():
    """tests/<stage>/ holds the tests of fp8triage/<stage>/; the other folders are named here
    (cross-cutting tests, the fleet services, shared data), so a stray folder fails."""
    tests = ROOT / "tests"
    others = {"e2e", "fleet", "fixtures", "golden", "__pycache__"}
    stages = {p.name for p in _packages() if p != PKG}
    folders = {p.name for p in tests.iterdir() if p.is_dir() and not p.name.startswith(".")}
    assert folders - others <= stages, f"test folders with no fp8triage sub-package: {sorted(folders - others - stages)}"
    for folder in folders - others:
        assert list((tests / folder).glob("test_*.py")), f"tests/{folder}/ holds no tests"


# -- the package order: imports run down it ---------------------------------------------------------

# The packages and top-level modules of fp8triage/, lowest first. A module may import from its own
# package and from any name of a lower line, never from its own line or a higher one. The same order
# is drawn in docs/architecture.md ("Layers"), which ``test_the_doc_draws_the_package_order`` checks.
LAYERS: list[tuple[str, ...]] = [
    ("version", "errors", "paths"),
    ("model",),
    ("common",),
    ("facts",),
    ("catalogue",),
    ("judge",),
    ("scan",),
    ("store",),
    ("confirm",),
    ("render",),
    ("drivers",),
    ("api",),
    ("authoring",),
    ("cli",),
    ("__main__", "__init__"),
]
RANK = {name: i for i, line in enumerate(LAYERS) for name in line}


def _modules() -> dict[str, Path]:
    out = {}
    for p in PKG.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__" and len(parts) > 2:
            parts = parts[:-1]
        out[".".join(parts)] = p
    return out


def _imports() -> list[tuple[str, str, int]]:
    """(importer, imported module, line) for every fp8triage import, at module level or inside a
    function; ``from pkg import name`` counts as an import of ``pkg.name`` when that is a module."""
    mods = _modules()
    edges = []
    for mod, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = mod.split(".")[:-1] if mod.endswith(".__init__") or not is_pkg else mod.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                elif node.module and node.module.split(".")[0] == "fp8triage":
                    target = node.module
                else:
                    continue
                edges += [(mod, f"{target}.{a.name}" if f"{target}.{a.name}" in mods else target, node.lineno)
                          for a in node.names]
            elif isinstance(node, ast.Import):
                edges += [(mod, a.name, node.lineno) for a in node.names if a.name.split(".")[0] == "fp8triage"]
    return [(a, b, n) for a, b, n in edges if a != b]


def _part(mod: str) -> str:
    """The entry of ``LAYERS`` a module belongs to (its package, or the top-level module)."""
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def test_every_package_has_a_place_in_the_order():
    names = {_part(m) for m in _modules()}
    assert names == set(RANK), f"not in LAYERS: {sorted(names - set(RANK))}; gone: {sorted(set(RANK) - names)}"


def test_imports_run_down_the_package_order():
    upward = []
    for a, b, line in _imports():
        pa, pb = _part(a), _part(b)
        if pa != pb and RANK[pb] >= RANK[pa]:
            upward.append(f"{a}:{line} imports {b} ({pb} is not below {pa})")
    assert upward == [], "imports that do not run down the package order:\n" + "\n".join(upward)


def test_no_import_closes_a_circle():
    """Between modules too (inside a package, and through imports placed inside functions)."""
    graph: dict[str, set[str]] = {}
    for a, b, _line in _imports():
        graph.setdefault(a, set()).add(b)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles = []

    def visit(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    assert circles == [], f"import circles: {circles}"


def test_the_layering_test_sees_an_upward_import_and_a_circle(tmp_path, monkeypatch):
    """The checks above find what they look for: a stage that imports a driver, two modules that
    import each other."""
    pkg = tmp_path / "fp8triage"
    for d in ("scan", "drivers"):
        (pkg / d).mkdir(parents=True)
        (pkg / d / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "scan" / "a.py").write_text("def f():\n    from ..drivers import batch\n    from . import b\n")
    (pkg / "scan" / "b.py").write_text("from .a import f\n")
    (pkg / "drivers" / "batch.py").write_text("from ..scan.a import f\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    monkeypatch.setitem(globals(), "PKG", pkg)
    edges = {(a, b) for a, b, _ in _imports()}
    assert ("fp8triage.scan.a", "fp8triage.drivers.batch") in edges  # inside a function
    assert ("fp8triage.scan.b", "fp8triage.scan.a") in edges
    assert ("fp8triage.scan.a", "fp8triage.scan.b") in edges
    try:
        test_imports_run_down_the_package_order()
    except AssertionError as e:
        assert "fp8triage.scan.a:2 imports fp8triage.drivers.batch" in str(e)
    else:
        raise AssertionError("the upward import was not found")
    try:
        test_no_import_closes_a_circle()
    except AssertionError as e:
        assert "fp8triage.scan.a" in str(e) and "fp8triage.scan.b" in str(e)
    else:
        raise AssertionError("the circle was not found")


def test_the_doc_draws_the_package_order():
    """docs/architecture.md's "Layers" block draws LAYERS top to bottom: one line each, packages as
    ``name/``, modules as ``name.py``."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(r"^## Layers\n.*?```\n(.*?)```", text, re.S | re.M)
    assert m, "docs/architecture.md has no Layers block"
    drawn = [tuple(w.removesuffix("/").removesuffix(".py") for w in line.split()) for line in m.group(1).splitlines() if line.strip()]
    assert drawn == list(reversed(LAYERS))


# -- sizes: no module over 600 lines, no function over 60 ---------------------------------------------

MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60  # from its ``def`` line to its last line, docstring included

# Modules and functions allowed over the limits, each with its reason ("split pending": not split yet).
# An entry that is no longer over its limit fails the test, so the list only shrinks.
LONG_MODULES: dict[str, str] = {}
LONG_FUNCTIONS: dict[str, str] = {
    "cli/scan.py:scan": "one job: the command; 28 of its lines are its docstring, the --help text",
}


def _function_lengths() -> dict[str, int]:
    """"folder/module.py:[Class.]function" -> its length in lines, for every function in fp8triage/."""
    out = {}
    for path in sorted(PKG.rglob("*.py")):
        rel = path.relative_to(PKG).as_posix()

        def walk(node, prefix: str) -> None:
            for child in ast.iter_child_nodes(node):
                if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    out[f"{rel}:{prefix}{child.name}"] = child.end_lineno - child.lineno + 1
                    walk(child, f"{prefix}{child.name}.")
                elif isinstance(child, ast.ClassDef):
                    walk(child, f"{prefix}{child.name}.")
                else:
                    walk(child, prefix)

        walk(ast.parse(path.read_text(encoding="utf-8")), "")
    return out


def test_no_module_is_over_600_lines():
    sizes = {p.relative_to(PKG).as_posix(): len(p.read_text(encoding="utf-8").splitlines()) for p in PKG.rglob("*.py")}
    over = sorted(f"{m} ({n} lines)" for m, n in sizes.items() if n > MAX_MODULE_LINES and m not in LONG_MODULES)
    assert over == [], "modules over 600 lines: split them where they mix jobs\n" + "\n".join(over)
    stale = sorted(m for m in LONG_MODULES if sizes.get(m, 0) <= MAX_MODULE_LINES)
    assert stale == [], f"allowed long modules that are no longer long (take them off LONG_MODULES): {stale}"


def test_no_function_is_over_60_lines():
    lengths = _function_lengths()
    over = sorted(f"{f} ({n} lines)" for f, n in lengths.items() if n > MAX_FUNCTION_LINES and f not in LONG_FUNCTIONS)
    assert over == [], "functions over 60 lines: split them where they mix jobs\n" + "\n".join(over)
    stale = sorted(f for f in LONG_FUNCTIONS if lengths.get(f, 0) <= MAX_FUNCTION_LINES)
    assert stale == [], f"allowed long functions that are no longer long (take them off LONG_FUNCTIONS): {stale}"
    assert all(LONG_FUNCTIONS.values()) and all(LONG_MODULES.values()), "every allowed entry says why"
