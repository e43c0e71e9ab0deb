"""Stage 4, judging: scenarios x columns into cells (the matrix), and for every red cell the
first divergent step, agent and field, with its most likely cause (the diagnosis)."""
