"""`python -m autoagent`: the same command as `autoagent`."""

from .cli import main

main()
