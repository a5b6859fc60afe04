"""click types for option values a command must be able to read: a bad one is bad usage (exit 2).

Every bad option value exits 2 with one line, on every command and on the quick path alike
(docs/cli.md): a number outside its bounds (`Bounded`: "k: 0; expected 1 to 1,000"), a time or a day
that cannot be read (`Checked` with cli/option_values: "--since: invalid time "banana": ...").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click


def usage_error(message: str) -> click.ClickException:
    """click's usage-error exit (2) with the engine's own one-line wording (no "(see --help)" tail)."""
    error = click.ClickException(message)
    error.exit_code = 2
    return error


class Bounded(click.IntRange):
    """An integer option within bounds, refused in the words every shell uses (limits.out_of_range:
    "k: 5,000; expected 1 to 1,000", as the MCP tools say it), exit 2 as a usage error."""

    def __init__(self, argument: str, low: int | None, high: int | None) -> None:
        super().__init__(low, high)
        self.argument, self.low, self.high = argument, low, high

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        number = click.INT.convert(value, param, ctx)  # not a number: click's own message
        if (self.low is not None and number < self.low) or (self.high is not None and number > self.high):
            from ..limits import out_of_range

            raise usage_error(out_of_range(self.argument, number, self.low, self.high))
        return number


class Checked(click.ParamType):
    """A text option whose value `problem(option, value)` must find readable (cli/option_values);
    the value itself passes unchanged: the library reads it against the workspace's "now"."""

    name = "text"

    def __init__(self, option: str, problem: Callable[[str, str], str | None]) -> None:
        self.option, self.problem = option, problem

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            problem = self.problem(self.option, value)
            if problem is not None:
                raise usage_error(problem)
        return value
