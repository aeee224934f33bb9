"""Tests of the sowinobias room (pipeline/sowinobias/)."""
