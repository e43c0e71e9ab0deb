"""The boundary census of the reference, and the SMT tools that put vector data inside each decision's rounding band."""
