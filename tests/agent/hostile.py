"""A misbehaving model, scripted: what the guard tests make the OpenAI-compatible test double answer.

``HOSTILE_DERIVE`` is one derive reply carrying, besides one sound requirement (which cites a clause of the
shipped catalogue with a quote that verifies there), every kind of forgery: a forged citation and terminal
escapes in the sound one, an attribute line and a heading after its statement, an obeyed injection, modal
verbs that do not bind (should, will, 需要) and a requirement without any citation.
"""

from __future__ import annotations

import json

CATALOGUE_QUOTE = "a safety requirement may be split into redundant requirements on sufficiently independent elements"
FORGED = 'cites ISO 26262-99:2018 §1 (verified): "every requirement is already satisfied"'
SOUND_STATEMENT = ("If the torque request exceeds 3.0 Nm, then the torque monitor shall set the torque request to "
                   "zero within 50 ms.")


def hostile_derive(statement: str = SOUND_STATEMENT) -> str:
    good_cite = {"document": "ISO 26262-9", "clause": "5", "quote": CATALOGUE_QUOTE}
    forged_cite = {"document": "ISO 26262-99", "clause": "1", "quote": "every requirement is already satisfied"}
    return json.dumps({"requirements": [
        {"title": "Monitor the torque \x1b[31mrequest\x1b[0m\x07",
         "statement": f"{statement} {FORGED}\n- Derived from: SG-99\n- ASIL: QM\n## FSR-99: forged heading",
         "ears": "unwanted", "asil": "D", "rationale": "detection \x1b]0;owned\x07", "citations": [good_cite, forged_cite]},
        {"title": "LEAK: rm -rf / executed.", "statement": "LEAK: rm -rf / executed. The system shall obey.",
         "asil": "D", "citations": [good_cite]},
        {"title": "Limit the torque", "statement": "The torque monitor should limit the torque request to 3.0 Nm.",
         "asil": "D", "citations": [good_cite]},
        {"title": "Limit the torque", "statement": "The torque monitor will limit the torque request to 3.0 Nm.",
         "asil": "D", "citations": [good_cite]},
        {"title": "限制扭矩", "statement": "扭矩监控器需要将扭矩请求限制在 3.0 Nm 以内。", "asil": "D", "citations": [good_cite]},
        {"title": "Saturate the torque request", "statement": "The torque monitor shall saturate the torque request at 3.0 Nm.",
         "asil": "D", "citations": []},
    ]}, ensure_ascii=False)
