"""Tests of the humans room (pipeline/humans/): its cores, formats, runs, commands and web app."""
