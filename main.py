"""Run autoagent from a checkout: `python main.py` opens the REPL, `python main.py "task"` runs one task."""

from autoagent.cli import main

if __name__ == "__main__":
    main()
