"""The exit codes of the `autoagent` command."""

OK = 0
ERROR = 1  # configuration, model or infrastructure failure
USAGE = 2  # bad flags or arguments (click's own code)
NOT_FINISHED = 3  # the run stopped at a limit, on a loop, or on unparseable replies
INTERRUPTED = 130  # Ctrl-C
