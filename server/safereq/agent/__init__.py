"""The agentic RAG assistant behind "Derive requirements", "Suggest trace links" and "Suggest rebuttals".

Layers, each a module with one job:

- ``context``: the item and its neighbourhood, read from the workspace (what the request is about).
- ``plan``: the request turned into a schema-validated retrieval plan (standards, clauses, keywords, topic).
- ``knowledge``: the narrow interface the agent needs from the knowledge base, and adapters to it.
- ``documents``: one LlamaIndex document agent per indexed document, and the router that picks documents.
- ``loop``: the hop-bounded planning loop over the clause tree (browse, read, search, stop).
- ``policies``: each decision made offline (deterministic) or by the LLM (validated, with offline fallback).
- ``generate``: the OpenAI-compatible client (structured outputs, timeouts, retries, cancellation).
- ``patterns``: the requirement and rebuttal patterns in ``rules/patterns/`` and how an item fills them.
- ``compose``: suggestions from the evidence (patterns offline, or the LLM) with IDs, ASILs and modals enforced.
- ``verify``: citation checks against the indexed clause text.
- ``render``: suggestions as Markdown items, review blocks and text.
- ``pipeline``: the four tasks (derive, links, rebut, ask) wired from the above.
- ``worker``: the process the language server talks to, so heavy imports never block typing.
- ``runner``: what ``safereq derive|links|rebut|ask`` share.

Nothing here imports LlamaIndex, LanceDB or openai at module level.
"""
