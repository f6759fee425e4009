"""The one exception type for bad input: the CLI turns it into a one-line message and exit 2."""


class InputError(ValueError):
    """Bad user input: a malformed or duplicated card, a wrong count, an unknown rule, a bad table."""
