"""Differential fuzzing: seeded random scenes run on ports against the reference, shrunk when they diverge."""
