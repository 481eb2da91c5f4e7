"""``python -m isometrics.cli``."""

from . import main

main()
