"""orca-conformance: a hash-matrix conformance suite for ports of the ORCA crowd solver."""

__version__ = "0.1.0"
