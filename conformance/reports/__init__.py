"""Stage 5, what people read: JSON, JUnit, Markdown and HTML reports, merged per-platform
matrices, trajectory pictures and divergence charts."""
