"""Plain-Python helpers the pure cores of every app share (no Django)."""
