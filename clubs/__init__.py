"""Clubs and their players: the people a tournament or a club evening seats."""
