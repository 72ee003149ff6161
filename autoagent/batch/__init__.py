"""`autoagent batch`: many tasks from a JSONL file, each in its own workspace, on a local process pool or a Ray
cluster, with results appended to a JSONL file as they finish (so a killed batch resumes where it was)."""
