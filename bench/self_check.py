"""Can the bundled model tell its own right answers from its wrong ones? For every run of the given records
(bench/success.py's JSON lines) that ended `finished`, the model is asked whether the answer is right, given the
task, what the run's last step printed (as its trace line shows it: the first 100 characters) and the answer, and
its log-odds of "Yes" over "No" on the next token is the score (one prompt evaluated, nothing generated). Prints,
per set, the area under the ROC curve (0.5: no better than chance) and, with --thresholds, how many right and wrong
finished answers each threshold keeps. A check that stopped runs below a threshold was measured with it and taken
out (bench/RESULTS.md, twenty-third session).

Run: .venv/bin/python bench/self_check.py bench/runs/fresh20-code-*.jsonl [--out scores.jsonl] [--thresholds 0,1,2]
(the bundled model; about 2 s a run on 2 cores)
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from success import tasks_of

SYSTEM = "You are a careful checker. Reply with one word: Yes or No."
QUESTION = ("Is the proposed answer correct, and does it answer every part of the task exactly as the task asks? "
            "Reply Yes or No.")


def last_output(trace: Sequence[str]) -> str:
    """What the run's last tool step printed, as its trace line shows it (the first 100 characters, written as
    Python writes a string)."""
    for line in reversed(trace):
        if line.startswith("action") and " -> " in line:
            return line.split(" -> ", 1)[1].strip("'")
    return ""


def prompt(task: str, output: str, answer: str) -> str:
    """The question as one ChatML prompt (the bundled Qwen models' chat format), the assistant's turn open."""
    user = f"Task: {task}\n\nWhat the program printed: {output}\n\nProposed answer: {answer}\n\n{QUESTION}"
    return (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n"
            f"<|im_start|>user\n{user}<|im_end|>\n<|im_start|>assistant\n")


class Scorer:
    """The bundled model's log-odds of "Yes" over "No" as the next token after a prompt."""

    def __init__(self, threads: int) -> None:
        import llama_cpp

        from autoagent.llm import weights

        path = weights.ensure_weights(weights.default_chat_model())
        self.llama_cpp = llama_cpp
        self.llm = llama_cpp.Llama(model_path=str(path), n_ctx=4096, n_threads=threads,
                                   n_threads_batch=threads, verbose=False)
        self.yes = [self._token(word) for word in ("Yes", "yes", " Yes")]
        self.no = [self._token(word) for word in ("No", "no", " No")]

    def _token(self, word: str) -> int:
        return int(self.llm.tokenize(word.encode(), add_bos=False)[0])

    def score(self, text: str) -> float:
        tokens = self.llm.tokenize(text.encode(), add_bos=False, special=True)[-4000:]
        self.llm.reset()
        self.llm.eval(tokens)
        logits = self.llama_cpp.llama_get_logits_ith(self.llm._ctx.ctx, -1)  # the last token's row
        return _logsumexp([logits[i] for i in self.yes]) - _logsumexp([logits[i] for i in self.no])


def _logsumexp(values: Sequence[float]) -> float:
    top = max(values)
    return top + math.log(sum(math.exp(value - top) for value in values))


def auc(rows: Sequence[dict[str, Any]]) -> float:
    """The chance that a right answer scores above a wrong one (ties count half); NaN without both kinds."""
    right = [row["score"] for row in rows if row["success"]]
    wrong = [row["score"] for row in rows if not row["success"]]
    if not right or not wrong:
        return float("nan")
    wins = sum((r > w) + 0.5 * (r == w) for r in right for w in wrong)
    return wins / len(right) / len(wrong)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records", nargs="+", type=Path, help="bench/success.py JSON-lines files")
    parser.add_argument("--out", type=Path, help="write one scored line per run here")
    parser.add_argument("--thresholds", default="", help="comma-separated log-odds thresholds to report")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    scorer = Scorer(args.threads)
    rows: list[dict[str, Any]] = []
    texts: dict[str, dict[str, str]] = {}  # per set, each task's text by name: a set's module is read once
    for path in args.records:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            if record["stop_reason"] != "finished":
                continue
            suite = record.get("suite") or "main"
            if suite not in texts:
                texts[suite] = {task.name: task.text for task in tasks_of(suite)}
            text = texts[suite].get(record["task"])
            if text is None:
                continue
            score = scorer.score(prompt(text, last_output(record["trace"]), record["answer"]))
            rows.append({"file": path.name, "suite": suite, "task": record["task"], "success": record["success"],
                         "score": round(score, 4)})
    if args.out:
        args.out.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    by_suite: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for row in rows:
        by_suite[row["suite"]].append(row)
    for suite, group in [*sorted(by_suite.items()), ("all", rows)]:
        right = sum(row["success"] for row in group)
        print(f"{suite}: {len(group)} finished runs, {right} right, {len(group) - right} wrong, "
              f"AUC {auc(group):.2f}")
    for threshold in (float(value) for value in args.thresholds.split(",") if value):
        kept_right = sum(row["success"] and row["score"] >= threshold for row in rows)
        kept_wrong = sum(not row["success"] and row["score"] >= threshold for row in rows)
        print(f"threshold {threshold:g}: keeps {kept_right} right and {kept_wrong} wrong finished answers")


if __name__ == "__main__":
    main()
