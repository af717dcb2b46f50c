"""A question a lower app asks and a higher app answers, registered at start-up (docs/architecture.md).

Dependencies run one way, top to bottom: a lower app never imports a higher one. Where a lower app must still
ask a higher one something (a line-up asks the discipline app who is suspended), it declares a ``Hook`` in its
``hooks.py``; the higher app registers its answer in its ``AppConfig.ready``. A hook has exactly one answer: asked
before any app registered one, it raises (a missing app is a configuration error, never a silent "no").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class HookNotAnswered(LookupError):
    """A hook asked before the app that answers it registered (is that app in INSTALLED_APPS?)."""


class Hook:
    """One question, answered by one function that a higher app registers (``register``); call it to ask."""

    def __init__(self, name: str, *, answered_by: str) -> None:
        self.name = name
        self.answered_by = answered_by
        self._answer: Callable[..., Any] | None = None

    def register(self, answer: Callable[..., Any]) -> Callable[..., Any]:
        """Install ``answer`` (again on a repeated start-up; returns it, so it can decorate)."""
        self._answer = answer
        return answer

    @property
    def answered(self) -> bool:
        return self._answer is not None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self._answer is None:
            raise HookNotAnswered(f"{self.name}: no answer registered (the {self.answered_by} app's AppConfig.ready)")
        return self._answer(*args, **kwargs)

    def register_attribute(self, module: Any, attribute: str) -> None:
        """Install ``module.attribute``, looked up each time the hook is asked (as an import inside the asking
        function would: a test that replaces the attribute replaces the answer)."""

        def answer(*args: Any, **kwargs: Any) -> Any:
            return getattr(module, attribute)(*args, **kwargs)

        answer.__name__ = answer.__qualname__ = f"{module.__name__}.{attribute}"
        self.register(answer)

    def __repr__(self) -> str:
        return f"<Hook {self.name} answered by {self.answered_by}>"
