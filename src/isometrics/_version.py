"""The version of isometrics (one place; the package and the report read it)."""

__version__ = "0.1.0"
