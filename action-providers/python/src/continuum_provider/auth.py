"""Who calls: bearer tokens checked against the issuer's published keys (JWKS), or anyone when sign-in is off.

As the Java SDK's ``JwtVerifier``: RS256 signature by a key the issuer publishes, ``iss``, ``exp``/``nbf``
(with 30 s of clock skew), ``aud`` containing this provider's client id, and the required scope. 401 for a
token that is missing or not valid for this provider, 403 for a valid token without the scope (RFC 6750
§3.1), 503 when the issuer's keys cannot be fetched (the caller should retry, not sign in again).
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import urllib.request

from .api import CallerRejected

KEY_REFRESH_PAUSE = 30.0


class Anonymous:
    """Sign-in off: every caller is ``local:anonymous``."""

    def resolve(self, authorization):
        return "local:anonymous"


def keycloak_certs(issuer):
    return issuer.rstrip("/") + "/protocol/openid-connect/certs"


def fetch_jwks(url, timeout=10.0):
    with urllib.request.urlopen(url, timeout=timeout) as answer:
        if answer.status != 200:
            raise OSError(f"the issuer's key set at {url} answered HTTP {answer.status}")
        return json.loads(answer.read())


class JwtVerifier:
    """Checks ``Authorization: Bearer <JWT>`` headers; :meth:`resolve` answers the caller's id.

    ``jwks`` is the key set's URL (Keycloak: ``<issuer>/protocol/openid-connect/certs``, the default) or a
    function answering the key set; it is fetched with the first token, and again (at most every 30 s)
    when a token names a key id not loaded yet, so keys the issuer rotates in are picked up.
    """

    def __init__(self, issuer, audience, required_scope=None, jwks=None, leeway=30.0, clock=time.time):
        import jwt  # python3-jwt; imported here so a provider with sign-in off needs only the standard library

        self._jwt = jwt
        self.issuer, self.audience, self.required_scope, self.leeway, self.clock = \
            issuer, audience, required_scope, leeway, clock
        url = jwks or keycloak_certs(issuer)
        self._fetch = url if callable(url) else (lambda: fetch_jwks(url))
        self._keys = {}
        self._fetched_at = float("-inf")
        self._lock = threading.Lock()

    def refresh_keys(self):
        found = {}
        for jwk in self._fetch().get("keys", []):
            if jwk.get("kty") == "RSA" and jwk.get("use") != "enc":
                try:
                    found[jwk.get("kid", "")] = self._jwt.PyJWK(dict(jwk, alg="RS256")).key
                except Exception:  # noqa: BLE001 - a key we cannot read cannot have signed a token we accept
                    pass
        self._keys = found
        self._fetched_at = self.clock()

    def _key(self, kid):
        key = self._keys.get(kid)
        if key is None:
            with self._lock:
                key = self._keys.get(kid)
                if key is None and self.clock() - self._fetched_at > KEY_REFRESH_PAUSE:
                    try:
                        self.refresh_keys()
                    except Exception as e:  # noqa: BLE001
                        raise CallerRejected(503, "The identity provider cannot be reached to check the token;"
                                                  " try again shortly.") from e
                    key = self._keys.get(kid)
        if key is None:
            raise CallerRejected(401, "The token was signed with a key this issuer does not publish.")
        return key

    def resolve(self, authorization):
        jwt = self._jwt
        if not authorization or not authorization.strip():
            raise CallerRejected(401, "A bearer token is required (Authorization: Bearer <token>).")
        if not authorization[:7].lower() == "bearer ":
            raise CallerRejected(401, "Only 'Authorization: Bearer <token>' is accepted.")
        token = authorization[7:].strip()
        try:
            header = jwt.get_unverified_header(token)
        except jwt.PyJWTError:
            raise CallerRejected(401, "The bearer token is not a well-formed JWT.") from None
        if header.get("alg") != "RS256":
            raise CallerRejected(401, "The token's signature algorithm is not accepted (RS256 only).")
        key = self._key(header.get("kid", ""))
        try:
            claims = jwt.decode(token, key, algorithms=["RS256"], audience=self.audience, issuer=self.issuer,
                                leeway=self.leeway, options={"require": ["exp"]})
        except jwt.InvalidSignatureError:
            raise CallerRejected(401, "The token's signature does not match: it was altered or signed by someone else.") from None
        except jwt.ExpiredSignatureError:
            raise CallerRejected(401, "The token has expired.") from None
        except jwt.ImmatureSignatureError:
            raise CallerRejected(401, "The token is not valid yet.") from None
        except jwt.InvalidIssuerError:
            raise CallerRejected(401, "The token was issued by another identity provider.") from None
        except jwt.InvalidAudienceError:
            raise CallerRejected(401, f"The token is not meant for this provider (audience {self.audience}).") from None
        except jwt.MissingRequiredClaimError as e:
            raise CallerRejected(401, f"The token lacks the claim '{e.claim}'.") from None
        except jwt.PyJWTError:
            raise CallerRejected(401, "The bearer token is not a valid signed JWT.") from None
        if self.required_scope and self.required_scope not in str(claims.get("scope", "")).split():
            raise CallerRejected(403, f"The token lacks the scope '{self.required_scope}'.")
        name = claims.get("preferred_username") or claims.get("sub") or ""
        if not isinstance(name, str) or not name.strip():
            raise CallerRejected(401, "The token names no subject.")
        return name


def from_environment(audience, scope, env=None):
    """A standalone provider's sign-in from its environment, as the Java SDK's ``JwtCallerResolver.fromEnvironment``:
    with ``CONTINUUM_AUTH_ENABLED=true``, tokens from ``CONTINUUM_AUTH_ISSUER`` (default the local realm) for
    ``CONTINUUM_PROVIDER_AUDIENCE`` (default ``audience``) with ``CONTINUUM_PROVIDER_SCOPE`` (default ``scope``),
    keys from ``CONTINUUM_AUTH_JWKS_URL`` (default Keycloak's certs of the issuer); otherwise anyone, with a warning.
    """
    env = os.environ if env is None else env
    if env.get("CONTINUUM_AUTH_ENABLED", "false").lower() != "true":
        print("!!! provider authentication is off (CONTINUUM_AUTH_ENABLED is not true): anyone who can reach this"
              " port may call it. Use only on a laptop for development. !!!", file=sys.stderr, flush=True)
        return Anonymous()
    issuer = env.get("CONTINUUM_AUTH_ISSUER", "http://127.0.0.1:8180/realms/continuum")
    required = env.get("CONTINUUM_PROVIDER_SCOPE", scope or "")
    return JwtVerifier(issuer, env.get("CONTINUUM_PROVIDER_AUDIENCE", audience), required.strip() or None,
                       env.get("CONTINUUM_AUTH_JWKS_URL") or keycloak_certs(issuer))
