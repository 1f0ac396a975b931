"""``python -m alhambra``: the same command line as the ``alhambra`` script."""

from .cli import main

if __name__ == "__main__":
    main()
