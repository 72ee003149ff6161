"""Agents that call agents: any agent given to another as a tool (`AutoGPT.as_tool`), or a team of them read from
an agents file (`--agents FILE`). A sub-agent's tokens, cost and time count against every caller's budget, its
side-effecting tools ask the approver of the run that called it, its steps are kept in the calling step
(`Step.sub_run`), and no agent is called while it runs above, nor deeper than MAX_DEPTH.

The parts: calls.py (the call stack of running agents: depth, cycles, the caller's spending and observers),
tool.py (an agent as a LangChain tool), team.py (the agents file)."""
