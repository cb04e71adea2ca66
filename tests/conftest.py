import os

import matplotlib

matplotlib.use("Agg")
os.environ.setdefault("CARDLAB_TEST", "1")
