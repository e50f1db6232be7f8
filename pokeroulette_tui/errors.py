"""The error a person is shown as one line: a mistake in what they asked the command for.

It sits below every layer (standard library only), so that the command line, the network
glue and the screens raise the same type without importing each other.
"""

from __future__ import annotations


class CliError(Exception):
    """A command-line mistake: printed as one line, exit status 2."""
