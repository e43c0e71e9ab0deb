"""Variants of the C port (mutants and rewrite operators): made, judged in a worker, cached, classified, reported and reviewed."""
