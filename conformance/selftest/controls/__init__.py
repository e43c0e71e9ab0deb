"""Negative controls: deliberately wrong ports (builds, patches, careless Python ports) that the gate must catch."""
