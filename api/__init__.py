"""The public REST API, version 1 (../shared/spec/api.md): one module per resource."""
