"""Tests of the annotation room (pipeline/annotation/): its cores, formats, runs, commands and web app."""
