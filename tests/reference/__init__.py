"""Plain-Python references of each game's rules: slow, obvious, independent of the kernels."""
