"""Sub-commands of `autoagent`; `run` is the default one."""
