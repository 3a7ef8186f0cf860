"""`python -m wkparse` runs the command line."""

from wkparse.cli import main

main()
