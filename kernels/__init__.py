"""cardlab's numba kernels.

Arrays and scalars in, arrays out. Kernels never read files, mutable globals or Python objects; the
analysis package compiles rules and strategies into small numpy arrays and passes them in.
"""
