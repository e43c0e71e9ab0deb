"""Stage 1, the contract a port must meet: scenario files (strict YAML, schema, generators,
expectations) expanded into exact scenes, the driver that steps them, and the canonical state
hash.  Nothing here knows about runners, goldens or reports."""
