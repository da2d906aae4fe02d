"""The rule families, one module each; the registry imports them by the names in ``registry.FAMILIES``."""
