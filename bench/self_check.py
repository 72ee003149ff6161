"""Can the bundled model tell its own right answers from its wrong ones? For every run of the given records
(bench/success.py's JSON lines) that ended `finished`, the model is asked whether the answer is right, given the
task and what the run's last step printed, and its log-odds of "Yes" over "No" on the next token is the score: the
coach's self-check (autoagent/coach/self_check.py) scored offline, with its templates and its model call.
Prints, per set, the area under the ROC curve (0.5: no better than chance; a check that turns runs `unverified`
below a threshold needs far more) and, with --thresholds, how many right and wrong answers each threshold keeps.

Run: .venv/bin/python bench/self_check.py bench/runs/fresh20-code-*.jsonl [--out scores.jsonl] [--thresholds 0,1,2]
(the bundled model, 2 threads; about 2 s a run here)
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from success import tasks_of


def last_output(trace: Sequence[str]) -> str:
    """What the run's last tool step printed, as its trace line shows it: the first 100 characters written as
    Python writes a string (the form autoagent/coach/self_check.py's `printed` gives the live check)."""
    for line in reversed(trace):
        if line.startswith("action") and " -> " in line:
            return line.split(" -> ", 1)[1].strip("'")
    return ""


class Scorer:
    """The live check's score (autoagent/coach/self_check.py) of a recorded run: the same templates, the same
    model call."""

    def __init__(self, threads: int) -> None:
        from autoagent.llm import weights
        from autoagent.llm.local import ChatLocalLlama
        from autoagent.prompts import PromptTemplateBuilder

        path = weights.ensure_weights(weights.default_chat_model())
        self.llm = ChatLocalLlama(model_path=str(path), n_threads=threads)
        self.prompts = PromptTemplateBuilder()

    def score(self, task: str, output: str, answer: str) -> float:
        from langchain_core.messages import HumanMessage, SystemMessage

        from autoagent.coach.self_check import ANSWER_CHARS

        question = self.prompts.render("self_check", task=task, printed=output, answer=answer[:ANSWER_CHARS])
        system = self.prompts.render("self_check_system")
        return self.llm.yes_log_odds([SystemMessage(system.strip()), HumanMessage(question.strip())])


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
    for path in args.records:
        for line in path.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            suite = record.get("suite") or "main"
            task = {task.name: task for task in tasks_of(suite)}.get(record["task"])
            if record["stop_reason"] != "finished" or task is None:
                continue
            score = scorer.score(task.text, last_output(record["trace"]), record["answer"])
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
