"""Stage 6, the suite testing itself: negative controls and the misreading catalogue, the
boundary census, mutation testing of the C port, differential fuzzing, and an independent
linear-program oracle."""
