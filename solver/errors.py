"""The one exception type for bad input: the CLI turns it into a one-line message and exit 2."""


class InputError(ValueError):
    """Bad user input: a malformed or duplicated card, a wrong count, an unknown rule, a bad table."""


def shown(value: object, limit: int = 40) -> str:
    """A value quoted for a message, cut short when it is long (an argument may be huge).

    >>> shown("As")
    "'As'"
    >>> shown("x" * 1000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (1,000 characters)"
    """
    text = value if isinstance(value, str) else repr(value)
    if len(text) <= limit:
        return repr(value) if isinstance(value, str) else text
    return f"'{text[:limit]}…' ({len(text):,} characters)"
