"""The only writers of league data (``<noun>_<verb>``, keyword-only, one transaction each).

Bad input raises ``games.errors.UserError`` naming the field; a state that forbids the
action (a binding matchday, a series already drawn) raises ``games.errors.StateConflict``.
"""
