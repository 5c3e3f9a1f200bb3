"""Shared code of the funcspec peer drivers (tools/peers/README.md)."""
