"""Tests of the embeddings room (pipeline/embeddings/)."""
