"""Writing suggestions: the patterns, composing from evidence, the model client, and the result types."""
