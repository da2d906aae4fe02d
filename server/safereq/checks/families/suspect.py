"""``trace/suspect-link``: a link whose target changed since the linking item was last reviewed against it.

The comparison itself is :mod:`safereq.impact.suspect`'s (the review file, snapshots and fingerprints);
this module turns suspect links into findings on the link, naming what changed with old and new values, and
keeps the parents' snapshots between checks so that a keystroke re-fingerprints only the edited item.
"""

from __future__ import annotations

from ...impact.snapshot import describe, keys_for
from ...impact.suspect import VERIFICATION, SnapshotCache, suspects
from ..context import CheckContext
from ..findings import Finding, Related
from ..registry import linked_check

RULE = "trace/suspect-link"


@linked_check(RULE)
def suspect_link(ctx: CheckContext, paths: list[str]) -> list[Finding]:
    review = ctx.review
    if review is None or not review.recorded:
        return []
    ws = ctx.workspace
    cache: SnapshotCache = ctx.keep.setdefault(RULE, SnapshotCache(keys_for(ctx.config.impact_keys)))
    items = [item for path in paths for item in ws.documents[path].items]
    out = []
    for s in suspects(ws, review, cache, items):
        tl = s.link
        if tl.key == VERIFICATION:  # the requirement holding the link changed; its test is what to look at
            message = (f"{tl.parent.id} changed since its verification {tl.child.id} was last reviewed "
                       f"against it: {describe(s.changed)}")
            related = Related(tl.child.path, tl.child.heading_span, f"{tl.child.id}, to review")
        else:
            message = f"{tl.parent.id} changed since {tl.child.id} was last reviewed against it: {describe(s.changed)}"
            related = Related(tl.parent.path, tl.parent.heading_span, f"{tl.parent.id} as it is now")
        out.append(ctx.finding(RULE, tl.holder.path, tl.link.span, message, related=[related]))
    if len(cache) > 4 * max(1, sum(len(d.items) for d in ws.documents.values())):
        cache.prune(ws.items())
    return out
