"""Going back and forth in the migrations, for the tests that a migration keeps rows."""

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def leaves() -> list[tuple[str, str]]:
    """The latest migration of every app: where ``migrate`` goes forward to."""
    return MigrationExecutor(connection).loader.graph.leaf_nodes()


def migrate(targets):
    """Migrate the test database to ``targets`` (``(app, None)``: before the app's first
    migration) and return the historical models there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps
