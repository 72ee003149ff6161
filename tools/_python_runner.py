"""Runs one snippet for the python tool: it first lowers its own limits (memory, CPU time, file size, no core
dumps) for good, then runs the code as `__main__` and shows the value of a last expression, as Python's
interactive interpreter does. An error is shown as a traceback of the snippet's own lines.

The tool runs it as `python3 -I -X utf8 -u -c <this file's text> MEMORY_BYTES CPU_SECONDS FILE_BYTES CODE`, maybe
on the system's Python rather than autoagent's: it uses nothing newer than Python 3.8.
"""

from __future__ import annotations

import ast
import linecache
import sys
import traceback

FILENAME = "<snippet>"


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


def run(code: str) -> int:
    """Run `code` in a fresh namespace; the exit status (0, or 1 after an error)."""
    linecache.cache[FILENAME] = (len(code), None, code.splitlines(True), FILENAME)  # tracebacks quote its lines
    try:
        tree = ast.parse(code, FILENAME)
    except SyntaxError as err:
        sys.stderr.write("".join(traceback.format_exception_only(type(err), err)))
        return 1
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    shown = ast.Expression(body=last.value) if isinstance(last, ast.Expr) else None
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    sys.argv = [FILENAME]
    try:
        exec(compile(tree, FILENAME, "exec"), namespace)
        if shown is not None:
            sys.displayhook(eval(compile(shown, FILENAME, "eval"), namespace))
    except SystemExit:
        raise
    except BaseException as err:  # KeyboardInterrupt and MemoryError too: the code's failure, shown
        traceback.print_exception(type(err), err, err.__traceback__.tb_next if err.__traceback__ else None)
        return 1
    return 0


if __name__ == "__main__":
    limit(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
    sys.exit(run(sys.argv[4]))
