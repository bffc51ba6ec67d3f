"""`python -m lycan` runs the command line."""

from lycan.cli import main

main()
