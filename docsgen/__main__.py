"""`python -m docsgen`: the same command line as the `docsgen` script."""

from docsgen.cli import entry

if __name__ == "__main__":
    entry()
