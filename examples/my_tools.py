"""A sample `--tools-module`: every LangChain tool defined here is offered to the agent.

    autoagent --tools-module examples/my_tools.py "How many words are in 'the quick brown fox'?"

Any `@tool` at module level counts; so do the items of a `TOOLS` list and what a `get_tools()`
function returns (for tools that need setting up first). The docstring is what the model reads,
and the type hints become the argument schema.
"""

from __future__ import annotations

import re
import unicodedata

from langchain_core.tools import tool


@tool(parse_docstring=True)
def word_count(text: str) -> int:
    """Count the words in a text.

    Args:
        text: the text whose words to count
    """
    return len(text.split())


@tool(parse_docstring=True)
def slugify(title: str) -> str:
    """Turn a title into a lowercase, hyphenated file name stem, e.g. "Hello, World!" -> "hello-world".

    Args:
        title: the title to turn into a slug
    """
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-")


# Tools that only read may run without asking for approval; unmarked tools count as side-effecting.
word_count.metadata = {"read_only": True}
slugify.metadata = {"read_only": True}
