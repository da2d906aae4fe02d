"""The agentic RAG assistant behind "Derive requirements", "Suggest trace links", "Suggest rebuttals" and ``ask``.

Grouped by what a reader looks for, in the order a suggestion passes through them:

- ``tasks``: the four tasks (``pipeline``: derive, links, rebut, ask; ``derive``, ``rebut`` and ``linking``
  offline) and the two ways in (``runner`` for ``safereq derive|links|rebut|ask``, ``worker`` for the
  language server).
- ``item``: reading the item and its workspace (``context``: the snapshot a request works on; ``reading``:
  conditions, subject, modal verb, negation, response; ``domain``: the element's domain and the
  requirement's nature).
- ``retrieval``: the plan and the loop (``plan``: the schema-validated retrieval plan; ``knowledge``: the
  narrow view of the knowledge base; ``documents``: one document agent per indexed document and the router;
  ``loop``: the hop-bounded loop over the clause tree; ``policies``: each decision offline or by the model).
- ``writing``: turning the item and the evidence into suggestions (``patterns``: the data in
  ``rules/patterns/``; ``analogues``: the siblings' children as the house style; ``refinements`` and
  ``defeaters``: what the item's own words leave open and how it can fail; ``answering``: ``ask`` offline;
  ``compose``: IDs, ASILs and modals enforced, model output composed; ``generate``: the OpenAI-compatible
  client; ``suggestions``: what the assistant hands back).
- ``trust``: what a suggestion must pass (``sanitise``: untrusted text made safe; ``admit``: a model's
  suggestion earns its place; ``selfcheck``: safereq's own checks on a draft; ``citing``: which clauses are
  about what it says; ``verify``: citations checked against the indexed text).
- ``proposing``: showing and placing (``render``: text report and citation wording; ``review``: the review
  block in the document; ``placement``: where a derived requirement goes and in which style).

Nothing here imports LlamaIndex, LanceDB or openai at module level.
"""
