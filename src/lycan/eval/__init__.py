"""Measurement: statistics, metrics, ratings and reports, all from stored records (`lycan.arena` plays games)."""
