"""Measurement: statistics, metrics, tournaments and reports, all derived from game records."""
