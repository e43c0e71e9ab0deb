"""The text clause by clause: the pinned copy checked, and what pins and defends each clause."""
