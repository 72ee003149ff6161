"""The prompt templates the model reads, shipped as package data (en/ and zh/)."""
