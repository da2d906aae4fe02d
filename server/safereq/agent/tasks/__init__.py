"""The assistant's tasks (derive, links, rebut, ask) and the two ways in: the CLI runner and the worker process."""
