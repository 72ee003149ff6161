"""smolagents' ToolCallingAgent and CodeAgent as peer agents: the same bundled GGUF, the same tasks, autoagent's own
tools, and results in the shape of `autoagent batch`'s, so the same checks judge them.

    python -m bench.peers run --agent smolagents-tools --tasks TASKS.jsonl --out RESULTS.jsonl

Modules: `runner` (project venv: the server, workspaces, time limits, the results file) starts `worker` inside
bench/.venvs/peers (`venv`), which builds the agent from `adapters` and reports one record (`records`) a task.
"""
