"""Tests of the cda room (pipeline/cda/): its cores, formats, runs, commands and web app."""
