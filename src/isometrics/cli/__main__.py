"""``python -m isometrics.cli``."""

from .app import main

main()
