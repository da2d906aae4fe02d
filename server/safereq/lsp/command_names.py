"""The names of the language server's ``workspace/executeCommand`` commands (client-vscode/src/protocol.ts
uses the same). A leaf: the modules that carry commands out import it, and it imports none of them."""

from __future__ import annotations

SHOW_TRACE = "safereq.showTrace"
INDEX_KNOWLEDGE_BASE = "safereq.indexKnowledgeBase"
DERIVE_REQUIREMENTS = "safereq.deriveRequirements"
SUGGEST_TRACE_LINKS = "safereq.suggestTraceLinks"
SUGGEST_REBUTTALS = "safereq.suggestRebuttals"
MARK_REVIEWED = "safereq.markReviewed"
REVIEW_ACCEPT = "safereq.review.accept"
REVIEW_REJECT = "safereq.review.reject"
COVERAGE = "safereq.coverage"
WRITE_REPORT = "safereq.writeReport"
ACCEPT_FINDING = "safereq.acceptFinding"
FIX_ALL = "safereq.fixAll"
