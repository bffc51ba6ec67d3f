"""Consoles that print outside text as it was written, never as commands to the terminal.

Names, talk, game records, files and models' answers may hold ESC sequences (colours, window
titles), bidi overrides and rich markup. `TerminalConsole` passes every string it renders (printed
lines, table cells, titles) through `visible` before rich sees it, and reads no markup unless a
call asks for it, so that one place guards everything a command prints.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console, HighlighterType, JustifyMethod, OverflowMethod
from rich.style import Style
from rich.text import Text

from lycan.rules.text import for_terminal


def visible(text: str) -> str:
    r"""`text` with every invisible character shown as a code (`lycan.rules.text.for_terminal`), line breaks kept.

    Only `\n` is kept, so a multi-line message still prints as lines; carriage returns, other
    line and paragraph separators, ESC, BEL and bidi controls all become codes such as `\x1b`.
    The result has nothing left to escape, so escaping it again changes nothing.
    """
    if "\n" not in text:
        return for_terminal(text)
    return "\n".join(for_terminal(line) for line in text.split("\n"))


class TerminalConsole(Console):
    """A rich `Console` that shows every string it prints through `visible`, with markup off by default.

    Markup (`[bold]...[/]`) is read only where a call passes `markup=True`; such a call must
    escape the outside text it holds with `rich.markup.escape`. Emoji codes (`:smile:`) and
    highlighting are off, so what is printed is what was written. Strings are escaped, not
    `Text` objects built by hand or `print_json` (pass `ensure_ascii=True` there).
    """

    def __init__(self, **options: Any) -> None:
        for option in ("markup", "emoji", "highlight"):
            options.setdefault(option, False)
        super().__init__(**options)

    def render_str(
        self,
        text: str,
        *,
        style: str | Style = "",
        justify: JustifyMethod | None = None,
        overflow: OverflowMethod | None = None,
        emoji: bool | None = None,
        markup: bool | None = None,
        highlight: bool | None = None,
        highlighter: HighlighterType | None = None,
    ) -> Text:
        """`Console.render_str` of `visible(text)`: no character of `text` reaches the terminal unescaped."""
        return super().render_str(
            visible(text),
            style=style,
            justify=justify,
            overflow=overflow,
            emoji=emoji,
            markup=markup,
            highlight=highlight,
            highlighter=highlighter,
        )


__all__ = ["TerminalConsole", "visible"]
