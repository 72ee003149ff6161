"""Runs one snippet for the python tool: it first lowers its own limits (memory, CPU time, file size, no core
dumps) for good, then runs the code as `__main__` and shows the value of a last expression, as Python's
interactive interpreter does, or of the name a last assignment bound. An error is shown as a traceback of the
snippet's own lines.

Code whose statements were joined on one line (a model writing a program into a one-line JSON string) is read
as the program it spells, one statement a line, and said so; a program that needs no such reading runs as given.

Given a state file (an open file this process inherits, by its number), the names earlier programs of the run
defined are defined again first, as a notebook keeps them
(smolagents' CodeAgent keeps its programs' state too): their imports imported again, their functions and classes run
again from their source, and their other values unpickled. After the code ran, whether it failed or not, its names
are saved there for the next one. Values that cannot be pickled (open files, generators) are not kept.

When the code fails, the output goes on to show how the workspace files it read begin (a program of a small model
mostly fails on data it guessed the shape of), or, when it failed to find a file, which files the workspace holds.

A read-only run (the workspace mounted read-only, to learn whether the code changes files before anyone is asked to
allow it) ends at the code's first step that would change a file in the workspace, with exit status WRITES_REFUSED:
an audit hook sees it even where the code would catch the error the read-only mount gives.

The tool runs it as `python3 -I -X utf8 -u -c <this file's text> MEMORY_BYTES CPU_SECONDS FILE_BYTES MODE STATE
CODE` (MODE: `rw`, or `ro` for a read-only run; STATE: the number of the inherited state file, or empty for none),
maybe on the system's Python rather than autoagent's: it uses nothing newer than Python 3.8.
"""

from __future__ import annotations

import ast
import contextlib
import importlib
import linecache
import os
import pickle
import sys
import traceback
import types

from ._python_lines import split_joined  # written in place by tools/python.py: one program

FILENAME = "<snippet>"
EARLIER = "<an earlier program>"  # where a function or class an earlier program defined comes from
# Headers of compound statements: their colon opens a body. The clauses go on at the header's own level.
WRITES_REFUSED = 75  # the exit status of a read-only run whose code set out to change a workspace file
# Audit events of a change to the file named by one of their first two arguments (os.rename: either name)
CHANGES = frozenset({"os.remove", "os.rename", "os.mkdir", "os.rmdir", "os.truncate", "os.chmod", "os.chown",
                     "os.utime", "os.link", "os.symlink", "os.setxattr", "os.removexattr", "shutil.rmtree"})
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
SHOWN_FILES, SHOWN_LINES, LINE_CHARS = 2, 5, 100  # after a failure: the files it read, as they begin
HEAD_BYTES = 64 * 1024  # the most of a file read to show its start and count its lines
LISTED_FILES = 20  # after a file was not found: the workspace files named
MISSING = (FileNotFoundError, IsADirectoryError, NotADirectoryError)
STATE_BYTES = 16 * 1024**2  # the most the values kept for the next program may take, pickled
DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def limit(memory_bytes: int, cpu_seconds: int, file_bytes: int) -> None:
    """Set soft and hard limits alike, so neither the code nor what it starts can raise them again."""
    try:
        import resource
    except ImportError:  # not a POSIX system: no limits to set
        return
    wanted = [(resource.RLIMIT_AS, memory_bytes, memory_bytes), (resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
              (resource.RLIMIT_FSIZE, file_bytes, file_bytes), (resource.RLIMIT_CORE, 0, 0)]
    for kind, soft, hard in wanted:
        _, allowed = resource.getrlimit(kind)
        if allowed != resource.RLIM_INFINITY:  # never above what we may set
            soft, hard = min(soft, allowed), min(hard, allowed)
        resource.setrlimit(kind, (soft, hard))


def _inside(workspace: str, path: object) -> bool:
    """Whether `path` (a name, not a file descriptor) is `workspace` or a path under it."""
    if isinstance(path, int) or not isinstance(path, (str, bytes, os.PathLike)):
        return False  # a file descriptor (opened before) or no path at all
    name = os.path.abspath(os.fsdecode(path))
    return name == workspace or name.startswith(workspace.rstrip(os.sep) + os.sep)


def _writes(mode: object, flags: object) -> bool:
    """Whether an `open` audit event's mode (open()) or flags (os.open) open the file to change it."""
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return isinstance(flags, int) and bool(flags & WRITE_FLAGS)


def refuse_writes(workspace: str) -> None:
    """From now on, the first step that would change a file under `workspace` (opening one to write, removing,
    renaming, making a folder...) ends the run at once with WRITES_REFUSED. Files elsewhere (/tmp) stay writable."""

    def hook(event: str, args: tuple) -> None:
        if event == "open" and len(args) >= 3:
            if _writes(args[1], args[2]) and _inside(workspace, args[0]):
                os._exit(WRITES_REFUSED)
        elif event in CHANGES and any(_inside(workspace, arg) for arg in args[:2]):
            os._exit(WRITES_REFUSED)

    sys.addaudithook(hook)


def watch_reads(workspace: str) -> list[str]:
    """The workspace files the code opens to read from now on (their paths in the workspace, first opened first),
    in a list that grows as it runs."""
    read: list[str] = []

    def hook(event: str, args: tuple) -> None:
        if event == "open" and len(args) >= 3 and not _writes(args[1], args[2]) and _inside(workspace, args[0]):
            name = os.path.relpath(os.path.abspath(os.fsdecode(args[0])), workspace)
            if name not in read:
                read.append(name)

    sys.addaudithook(hook)
    return read


def _head(name: str, workspace: str) -> str | None:
    """How the text file `name` begins: its name, how many lines it has, and its first lines, each cut to LINE_CHARS;
    None when it cannot be read or is not text."""
    try:
        with open(os.path.join(workspace, name), "rb") as file:
            data = file.read(HEAD_BYTES + 1)
    except OSError:
        return None
    if b"\0" in data:
        return None
    lines = data[:HEAD_BYTES].decode("utf-8", "replace").splitlines()
    if not lines:
        return f"{name} (empty)"
    shown = [line if len(line) <= LINE_CHARS else line[:LINE_CHARS] + "..." for line in lines[:SHOWN_LINES]]
    count = (f"{len(lines)} line" + "s" * (len(lines) != 1)) if len(data) <= HEAD_BYTES else "many lines"
    which = "all of them" if len(shown) == len(lines) and len(data) <= HEAD_BYTES else f"the first {len(shown)}"
    return f"{name} ({count}, {which}):\n" + "\n".join("  " + line for line in shown)


def _listing(workspace: str) -> list[str]:
    """The workspace's files (paths in it, top folder first), hidden ones aside, at most LISTED_FILES + 1."""
    found: list[str] = []
    for folder, folders, names in os.walk(workspace):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if not name.startswith("."):
                found.append(os.path.relpath(os.path.join(folder, name), workspace))
            if len(found) > LISTED_FILES:
                return found
    return found


def show_context(err: BaseException, opened: list[str], workspace: str) -> None:
    """After the code failed: how the files it read begin, or, when a file was not found, what the workspace holds."""
    opened = list(opened)  # what the code read, not what is read here
    notes = [head for head in (_head(name, workspace) for name in opened[:SHOWN_FILES]) if head is not None]
    if notes:
        sys.stderr.write("[the files it read begin:]\n" + "\n".join(notes) + "\n")
    if isinstance(err, MISSING):
        names = _listing(workspace)
        listed = ", ".join(names[:LISTED_FILES]) + (", ..." if len(names) > LISTED_FILES else "")
        sys.stderr.write(f"[the workspace holds: {listed or 'no files'}]\n")


def load_state(state: int, namespace: dict) -> dict[str, str]:
    """Define again in `namespace` the names saved in the state file open as `state` (nothing when it is empty, or
    cannot be read); the definitions' sources by name, to be kept on."""
    try:
        with open(state, "rb", closefd=False) as file:
            file.seek(0)
            saved = pickle.load(file)
    except Exception:  # none yet, or one a program broke: start afresh
        return {}
    for name, module in saved.get("modules", {}).items():
        with contextlib.suppress(Exception):
            namespace[name] = importlib.import_module(module)
    definitions = saved.get("definitions", {})
    for source in definitions.values():
        with contextlib.suppress(Exception):
            exec(compile(source, EARLIER, "exec"), namespace)
    for name, data in saved.get("values", {}).items():
        with contextlib.suppress(Exception):
            namespace[name] = pickle.loads(data)
    return dict(definitions)


def definitions_of(tree: ast.Module, text: str) -> dict[str, str]:
    """The source of each function and class `tree` defines at its top level (decorators included), by name."""
    lines = text.splitlines(True)
    found = {}
    for node in tree.body:
        if isinstance(node, DEFINITIONS):
            first = min([node.lineno, *(decorator.lineno for decorator in node.decorator_list)])
            found[node.name] = "".join(lines[first - 1:node.end_lineno])
    return found


def _defined_here(value: object) -> bool:
    """Whether `value` is a function or class a program defined (it does not pickle: its source is kept)."""
    return isinstance(value, (type, types.FunctionType)) and getattr(value, "__module__", None) == "__main__"


def save_state(state: int, namespace: dict, definitions: dict[str, str]) -> None:
    """Save the names of `namespace` the next program will find defined: modules by their names, `definitions`
    (functions and classes) by their sources, and the values that pickle, up to STATE_BYTES in all."""
    modules, values, size = {}, {}, 0
    definitions = {name: source for name, source in definitions.items() if _defined_here(namespace.get(name))}
    for name, value in namespace.items():
        if name.startswith("__") or name in definitions:
            continue
        if isinstance(value, types.ModuleType):
            modules[name] = value.__name__
            continue
        if _defined_here(value):
            continue  # defined within a block: its source is not kept
        try:
            data = pickle.dumps(value, protocol=4)
        except Exception:
            continue
        if size + len(data) <= STATE_BYTES:
            values[name], size = data, size + len(data)
    try:
        with open(state, "wb", closefd=False) as file:
            file.seek(0)
            file.truncate()
            pickle.dump({"modules": modules, "definitions": definitions, "values": values}, file, protocol=4)
    except OSError:
        pass


def read(code: str) -> tuple[ast.Module, str]:
    """The parsed program and the text it was parsed from: `code`, or the program its joined statements spell.
    Raises the code's own SyntaxError when neither parses."""
    try:
        return ast.parse(code, FILENAME), code
    except SyntaxError as err:
        spelled = split_joined(code)
        if spelled is None:
            raise
        try:
            return ast.parse(spelled, FILENAME), spelled
        except SyntaxError:
            raise err from None


def run(code: str, opened: list[str] | None = None, state: int | None = None) -> int:
    """Run `code` in a namespace of its own (holding the names of earlier programs, given a `state` file by its
    number); the exit status (0, or 1 after an error). `opened`: the files it reads (see watch_reads), to show after
    a failure."""
    try:
        tree, text = read(code)
    except SyntaxError as err:
        linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)
        sys.stderr.write("".join(traceback.format_exception_only(type(err), err)))
        return 1
    linecache.cache[FILENAME] = (len(text), None, text.splitlines(True), FILENAME)  # tracebacks quote its lines
    if text != code:
        print("[its statements were joined on one line; it ran as:]\n" + text.rstrip("\n") + "\n[output:]")
    if any(isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitXor) for node in ast.walk(tree)):
        print("[note: ^ is bitwise exclusive or in Python; a power is written **]")
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    shown = ast.Expression(body=last.value) if isinstance(last, ast.Expr) else None
    bound = _bound(tree.body[-1]) if tree.body and last is None else None
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    definitions = load_state(state, namespace) if state is not None else {}
    definitions.update(definitions_of(tree, text))
    sys.argv = [FILENAME]
    try:
        exec(compile(tree, FILENAME, "exec"), namespace)
        if shown is not None:
            sys.displayhook(eval(compile(shown, FILENAME, "eval"), namespace))
        elif bound is not None and bound in namespace:
            print(f"{bound} = {namespace[bound]!r}")
    except SystemExit:
        raise
    except BaseException as err:  # KeyboardInterrupt and MemoryError too: the code's failure, shown
        traceback.print_exception(type(err), err, err.__traceback__.tb_next if err.__traceback__ else None)
        show_context(err, opened or [], os.getcwd())
        return 1
    finally:
        if state is not None:
            save_state(state, namespace, definitions)
    return 0


def _bound(statement: ast.stmt) -> str | None:
    """The one name a last assignment binds (`x = …`, `x += …`, `x: int = …`), also as the last statement of a
    `with` or loop body, whose value is shown like a last expression's; None for any other statement."""
    while isinstance(statement, (ast.With, ast.For, ast.While)) and not getattr(statement, "orelse", None):
        statement = statement.body[-1]
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target = statement.targets[0]
    elif isinstance(statement, (ast.AugAssign, ast.AnnAssign)) and getattr(statement, "value", None) is not None:
        target = statement.target
    else:
        return None
    return target.id if isinstance(target, ast.Name) else None


if __name__ == "__main__":
    limit(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    if sys.argv[4] == "ro":
        refuse_writes(os.getcwd())
    sys.exit(run(sys.argv[6], watch_reads(os.getcwd()), int(sys.argv[5]) if sys.argv[5] else None))
