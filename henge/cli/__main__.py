"""Runs the command line as ``python -m henge.cli``."""

from henge.cli import main

if __name__ == "__main__":
    main()
