"""The build system: the C sources, compilers and flags, object and artifact caches, cross and sanitizer builds."""
