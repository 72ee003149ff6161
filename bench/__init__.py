"""autoagent's benchmarks: task sets as data (bench/sets/), one library of checks (bench/checks/), one runner
(`python -m bench`), and the summaries of measured runs (bench/summaries/) that the result pages are made from."""
