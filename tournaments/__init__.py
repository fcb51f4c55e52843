"""Tournaments and club evenings: participants, rounds, tables, sheets and standings."""
