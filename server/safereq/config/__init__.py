"""The one configuration model: the project file (``safereq.toml`` / ``[tool.safereq]``), the editor's
``safereq`` settings and the ``SAFEREQ_*`` environment, each validated here and nowhere else.

A leaf below every other package (it imports none of them): the names it cannot know by itself (rule IDs,
word lists) are passed in as a :class:`~.model.Known`. Every unknown or misspelt key is an error that names
the closest valid one (:mod:`.problems`); the checks' ``Config`` (checks/config.py) is built from a validated
:class:`~.model.ProjectFile`, the language server's settings from a validated :class:`~.model.EditorSettings`.
"""

from __future__ import annotations

from .environment import Environment
from .model import (
    CATEGORIES, CorporaSettings, EditorSettings, IndexSettings, KindSpec, Known, LLMConfig, ProjectFile,
)
from .problems import ConfigError, Problem, closest

__all__ = [
    "CATEGORIES", "ConfigError", "CorporaSettings", "EditorSettings", "Environment", "IndexSettings", "KindSpec",
    "Known", "LLMConfig", "Problem", "ProjectFile", "closest",
]
