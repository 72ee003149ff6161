"""Reading a program whose statements were joined on one line (a model writing a program into a one-line JSON
string): the program it spells, one statement a line. Part of the python tool's runner (_python_runner.py), which
tools/python.py sends to the sandbox as one program with this module's code written in place of its import: like the
runner, it uses nothing newer than Python 3.8."""

from __future__ import annotations

# --- from here on, written into the runner (tools/python.py) ---
import io
import keyword
import tokenize

COMPOUND = frozenset({"if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class",
                      "async"})
CLAUSES = frozenset({"elif", "else", "except", "finally"})
# Keywords that go on with the expression before them (`a if b else c`, `x not in y`, `import a as b`).
GOES_ON = frozenset({"and", "or", "not", "in", "is", "if", "else", "as", "from"})
ENDS = frozenset({"True", "False", "None", "pass", "break", "continue"})  # keywords an expression or statement ends on
_FSTRING_START = getattr(tokenize, "FSTRING_START", None)  # Python 3.12 tokenizes f-strings in parts
_FSTRING_END = getattr(tokenize, "FSTRING_END", None)


def _ends(token: tokenize.TokenInfo) -> bool:
    """Whether a statement may end on this token: a name, a number, a string or a closing bracket."""
    if token.type == tokenize.NAME:
        return not keyword.iskeyword(token.string) or token.string in ENDS
    return token.type in (tokenize.NUMBER, tokenize.STRING, _FSTRING_END) or token.string in (")", "]", "}")


def _ternary(tokens: list[tokenize.TokenInfo], start: int) -> bool:
    """Whether the `if` at `start` is a conditional expression's: an `else` comes before any colon on its line."""
    depth = 0
    for token in tokens[start + 1:]:
        if token.type in (tokenize.NEWLINE, tokenize.NL) and depth == 0:
            return False
        if token.string in ("(", "[", "{"):
            depth += 1
        elif token.string in (")", "]", "}"):
            depth -= 1
        elif depth == 0 and token.string in ("else", ":"):
            return token.string == "else"
    return False


def split_joined(code: str) -> str | None:
    """The program `code` spells when its statements were joined on a line, one statement a line (a compound
    statement's body indented under it); None when no statement was joined, or its tokens cannot be read."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(code).readline))
    except (tokenize.TokenError, SyntaxError):
        return None
    lines = code.splitlines(True)
    breaks = []  # (row, column, indent levels beyond the line's own)
    depth = lambdas = extra = fstrings = 0
    previous, first = None, None  # the last token seen, and the first of the statement it belongs to
    for index, token in enumerate(tokens):
        if token.type == _FSTRING_START:
            fstrings += 1
        elif token.type == _FSTRING_END:
            fstrings -= 1
        elif fstrings:
            continue
        if token.type in (tokenize.NEWLINE, tokenize.NL):
            if depth == 0:
                previous, first, extra, lambdas = None, None, 0, 0
            continue
        if token.type in (tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER):
            continue
        word = token.string if token.type == tokenize.NAME else ""
        if depth == 0 and previous is not None:
            if previous.string == ";" and token.string in COMPOUND:  # `a = 1; for …` may not share a line
                breaks.append((token.start[0], token.start[1], extra))
                first = token
            elif previous.type == tokenize.OP and previous.string == ":":
                extra += 1  # what follows a header's colon is its body
                breaks.append((token.start[0], token.start[1], extra))
                first = token
            elif _ends(previous) and word in CLAUSES and (word != "else" or tokens[index + 1].string == ":"):
                extra = max(extra - 1, 0)
                breaks.append((token.start[0], token.start[1], extra))
                first = token
            elif _ends(previous) and token.type == tokenize.NAME and (
                    word not in GOES_ON or (word == "if" and not _ternary(tokens, index))):
                breaks.append((token.start[0], token.start[1], extra))
                first = token
        if first is None:
            first = token
        if token.string in ("(", "[", "{"):
            depth += 1
        elif token.string in (")", "]", "}"):
            depth = max(depth - 1, 0)
        elif word == "lambda" and depth == 0:
            lambdas += 1
        elif token.string == ":" and depth == 0 and (lambdas or first.string not in COMPOUND):
            lambdas = max(lambdas - 1, 0)
            previous = None  # a lambda's or an annotation's colon neither ends nor opens a statement
            continue
        previous = token
    if not breaks:
        return None
    for row, column, levels in reversed(breaks):
        line = lines[row - 1]
        indent = line[:len(line) - len(line.lstrip())]
        lines[row - 1] = line[:column].rstrip() + "\n" + indent + "    " * levels + line[column:]
    return "".join(lines)
