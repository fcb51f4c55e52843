"""Hashed, compressed static files whose ES module imports point at the hashed names too,
so a tablet never mixes modules of two deployments.

Django's ``support_js_module_import_aggregation`` rewrites module imports in *every*
``*.js`` file, third-party ones included, and follows even an ``import("../htmx")`` written
inside a JSDoc comment (django-htmx's SSE and WebSocket extensions), which makes
``collectstatic`` fail with ``MissingFileError``. Only our own modules are ES modules that
import each other (``static/js/``, served as ``js/…``), so only they are rewritten, and
only their static ``import``/``export … from`` forms — the ones the browser follows.
Third-party files are hashed and compressed as they are.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage

# Where our own ES modules live under STATIC_URL (fnmatch: "*" crosses "/").
OWN_MODULES = "js/*.js"

# A relative specifier ("./x.js", "../x.js") after ``import … from``, ``export … from`` or a
# bare ``import "…";``, the statement closed by a semicolon (as every module of ours is).
MODULE_IMPORTS = (
    (
        r"""(?P<matched>import(?s:(?P<import>[\s\{].*?|\*\s*as\s*\w+))"""
        r"""\s*from\s*['"](?P<url>\.{1,2}/.*?)["']\s*;)""",
        """import%(import)s from "%(url)s";""",
    ),
    (
        r"""(?P<matched>export(?s:(?P<exports>[\s\{].*?))"""
        r"""\s*from\s*["'](?P<url>\.{1,2}/.*?)["']\s*;)""",
        """export%(exports)s from "%(url)s";""",
    ),
    (
        r"""(?P<matched>import\s*['"](?P<url>\.{1,2}/.*?)["']\s*;)""",
        """import"%(url)s";""",
    ),
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = CompressedManifestStaticFilesStorage.patterns + ((OWN_MODULES, MODULE_IMPORTS),)
