"""Measurement: statistics, metrics, ratings and reports, all derived from game records (games are played by `lycan.arena`)."""
