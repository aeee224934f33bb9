"""Tests of the diagnostics room (pipeline/diagnostics/)."""
