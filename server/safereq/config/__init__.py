"""The one configuration model: the project file (``safereq.toml`` / ``[tool.safereq]``), the editor's
``safereq`` settings and the ``SAFEREQ_*`` environment, each validated here and nowhere else.

A leaf below every other package (it imports none of them): the names it cannot know by itself (rule IDs,
word lists) are passed in as a :class:`~.model.Known`. Every unknown or misspelt key is an error that names
the closest valid one (:mod:`.problems`); the checks' ``Config`` (checks/config.py) is built from a validated
:class:`~.model.ProjectFile`, the language server's settings from a validated :class:`~.model.EditorSettings`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .environment import Environment
from .problems import ConfigError, Problem, closest

if TYPE_CHECKING:
    from .model import (
        CATEGORIES, CorporaSettings, EditorSettings, IndexSettings, KindSpec, Known, LLMConfig, ProjectFile,
    )

_MODEL = frozenset({"CATEGORIES", "CorporaSettings", "EditorSettings", "IndexSettings", "KindSpec", "Known",
                    "LLMConfig", "ProjectFile"})

__all__ = [
    "CATEGORIES", "ConfigError", "CorporaSettings", "EditorSettings", "Environment", "IndexSettings", "KindSpec",
    "Known", "LLMConfig", "Problem", "ProjectFile", "closest",
]


def __getattr__(name: str):
    """The pydantic models load on first use: commands that read no project file (``search``, ``index``)
    do not pay for importing pydantic."""
    if name in _MODEL:
        from . import model

        return getattr(model, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
