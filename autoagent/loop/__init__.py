"""The loop's parts: judging a finish, loop detection, fitting the context window, budgets and metering."""
