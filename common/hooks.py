"""A question a lower app asks and a higher app answers, registered at start-up (docs/architecture.md).

Dependencies run one way, top to bottom: a lower app never imports a higher one. Where a lower app must still
ask a higher one something (a line-up asks the discipline app who is suspended), it declares a ``Hook`` in its
``hooks.py``; the higher app registers its answer in its ``AppConfig.ready``. A hook has exactly one answer: asked
before any app registered one, it raises (a missing app is a configuration error, never a silent "no").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
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


class Broadcast:
    """A notice a lower app sends to every higher app that keeps rows about it (a merge of two people: each app
    re-points its own rows). Each answering app registers one handler, naming what it covers; sent before every
    app in ``answered_by`` registered, it raises (a missing handler would silently leave rows behind)."""

    def __init__(self, name: str, *, answered_by: tuple[str, ...]) -> None:
        self.name = name
        self.answered_by = tuple(answered_by)
        self._handlers: dict[str, tuple[Callable[..., Any], frozenset[str]]] = {}

    def register(self, app: str, handler: Callable[..., Any], *, covers: Iterable[str] = ()) -> Callable[..., Any]:
        """Install ``app``'s handler (again on a repeated start-up); ``covers`` names what it handles."""
        self._handlers[app] = (handler, frozenset(covers))
        return handler

    @property
    def covered(self) -> frozenset[str]:
        """Everything the registered handlers say they cover."""
        return frozenset().union(*(covers for _, covers in self._handlers.values()))

    def __call__(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        missing = [app for app in self.answered_by if app not in self._handlers]
        if missing:
            raise HookNotAnswered(f"{self.name}: no handler registered by {', '.join(missing)} (AppConfig.ready)")
        return {app: handler(*args, **kwargs) for app, (handler, _) in self._handlers.items()}

    def __repr__(self) -> str:
        return f"<Broadcast {self.name} handled by {', '.join(self.answered_by)}>"
