"""Stage 2, the committed data: the suite's folders, the goldens the reference produced, the
primitive vector families and their boundary cases, the figures drawn from scenes."""
