"""Typed answers on the real embedded model: held to the schema by llama.cpp's grammar as it writes, every answer is
a JSON value the schema accepts, finished or not (a property of any run, not one trajectory: the same weights give
other tokens on other CPUs). The coach goes with it, as the CLI gives the embedded model."""

from __future__ import annotations

from pathlib import Path

import pytest

from autoagent import AutoGPT
from autoagent.coach import Coach
from autoagent.llm.local import ChatLocalLlama
from autoagent.tools import default_tools
from autoagent.typed_output import OutputType

pytestmark = [pytest.mark.slow, pytest.mark.timeout(1800)]

TASKS = [  # (task, the schema of its answer)
    ("What is 1234 * 5678 + 17? Give the result as `value`.",
     {"type": "object", "required": ["value"], "properties": {"value": {"type": "integer"}}}),
    ("List the three primary colours of light.",
     {"type": "object", "required": ["colours"],
      "properties": {"colours": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 3}}}),
    ("How many seconds are there in 9 days? Say the number and the unit.",
     {"type": "object", "required": ["number", "unit"],
      "properties": {"number": {"type": "number"}, "unit": {"type": "string"}}}),
]


@pytest.mark.parametrize(("task", "schema"), TASKS, ids=["sum", "colours", "seconds"])
def test_an_answer_held_to_a_schema_is_valid_json_of_it(task: str, schema: dict[str, object], local_weights: Path,
                                                         tmp_path: Path) -> None:
    llm = ChatLocalLlama(model_path=str(local_weights))
    llm.llama().reset()
    agent = AutoGPT(llm, default_tools(tmp_path / "workspace"), compact_thoughts=True, max_thought_steps=5,
                    advisors=[Coach()], output_type=schema)
    result = agent.execute(task)
    print(f"\n[measure] {task[:40]!r}: {result.stop_reason.value}, {len(result.steps)} steps, "
          f"{result.seconds:.1f} s, answer {result.answer!r}")
    OutputType.of(schema).parse(result.answer)  # raises where the answer is not valid JSON of the schema
    assert not result.finished or result.output is not None
