"""The package's version (pyproject.toml's), in a module that imports nothing: the package exports it, and the
hook's cache key reads it without importing the package's __init__ (which imports the hook)."""
__version__ = "0.1.0"
