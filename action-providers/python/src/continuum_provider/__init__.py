"""Continuum's Python action provider kit: the Action Provider API (Globus ``api_version`` 1.0) with the
semantics of Continuum's Java provider SDK. Write one class, serve it with :func:`serve`.

    from continuum_provider import ActionProvider, describe, serve
"""

from .api import ActionRequest, CallerRejected, InvalidInput, ProblemError, describe
from .auth import Anonymous, JwtVerifier, from_environment
from .engine import ActionContext, ActionEngine, ActionProvider
from .server import ProviderServer, serve
from .store import PostgresActionStore, SqliteActionStore

__all__ = [
    "ActionContext", "ActionEngine", "ActionProvider", "ActionRequest", "Anonymous", "CallerRejected",
    "InvalidInput", "JwtVerifier", "PostgresActionStore", "ProblemError", "ProviderServer", "SqliteActionStore", "describe",
    "from_environment", "serve",
]
