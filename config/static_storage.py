"""Hashed, compressed static files whose ES module imports point at the hashed names too,
so a tablet never mixes modules of two deployments (``support_js_module_import_aggregation``
rewrites ``import … from "./api.js"`` like CSS ``url()``)."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True
