"""The loop's parts: a run's lifecycle, judging a finish, loop detection, fitting the context window, budgets and
metering."""
