"""Retrieval and the loop: the plan, the knowledge source, document agents, the loop and its policies."""
