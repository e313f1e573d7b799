"""Thin adapters from the henge State API to research frameworks."""
