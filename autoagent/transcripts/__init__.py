"""Run transcripts: written as JSONL, read back, and kept free of secrets."""
