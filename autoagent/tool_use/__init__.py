"""Using tools: running the model's action, approvals, time limits, fenced text, user and MCP tools."""
