"""How the agent acts: its tools (where they come from: plugins, MCP) and how a call runs (the toolbox, approvals,
time limits, effects, the fences around what a tool read)."""
