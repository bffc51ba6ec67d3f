"""Lycan: Werewolf for AI agents and people, in natural language."""

__version__ = "0.1.0"
