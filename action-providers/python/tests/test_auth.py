"""Bearer tokens checked against the issuer's published key set: audience, scope, expiry, issuer, signature."""
import pytest

from conftest import call
from continuum_provider import JwtVerifier, from_environment
from continuum_provider.auth import Anonymous


def signed_in(serve_provider, issuer, **options):
    verifier = JwtVerifier(issuer.url, "continuum-provider-steps", "actions:steps", jwks=issuer.jwks_url, **options)
    return serve_provider(auth=verifier)


def run(server, token, request_id="r", body=None):
    headers = {"Authorization": f"Bearer {token}"} if token is not None else {}
    return call("POST", server.url + "/run", {"request_id": request_id, "body": body or {"mode": "now"}}, headers)


def assert_problem(answer, status, detail_part):
    assert answer.status == status, answer
    assert answer.content_type == "application/problem+json"
    assert answer.json["status"] == status
    assert answer.json["type"] == ("https://continuum.dev/problems/unauthorized" if status == 401
                                   else "https://continuum.dev/problems/forbidden")
    assert detail_part in answer.json["detail"]


def test_a_valid_token_names_the_caller(serve_provider, issuer):
    server = signed_in(serve_provider, issuer)
    answer = run(server, issuer.token("alice"))
    assert answer.status == 202
    assert answer.json["creator_id"] == "alice" and answer.json["manage_by"] == ["alice"]
    action = answer.json["action_id"]
    assert call("GET", f"{server.url}/{action}/status",
                headers={"Authorization": "Bearer " + issuer.token("alice")}).status == 200
    assert call("GET", f"{server.url}/{action}/status",
                headers={"Authorization": "Bearer " + issuer.token("bob")}).status == 403


def test_an_expired_token_is_401(serve_provider, issuer):
    assert_problem(run(signed_in(serve_provider, issuer), issuer.token(expires_in=-120)), 401, "expired")


def test_a_token_for_another_provider_is_401(serve_provider, issuer):
    token = issuer.token(audience="continuum-provider-transfer")
    assert_problem(run(signed_in(serve_provider, issuer), token), 401, "not meant for this provider")


def test_a_token_without_the_scope_is_403(serve_provider, issuer):
    assert_problem(run(signed_in(serve_provider, issuer), issuer.token(scope="openid profile")), 403,
                   "lacks the scope 'actions:steps'")


def test_tokens_that_are_missing_forged_or_from_elsewhere_are_401(serve_provider, issuer):
    server = signed_in(serve_provider, issuer)
    assert_problem(run(server, None), 401, "bearer token is required")
    assert_problem(call("POST", server.url + "/run", {"request_id": "b", "body": {}}, {"Authorization": "Basic eA=="}),
                   401, "Only 'Authorization: Bearer")
    assert_problem(run(server, "not-a-jwt"), 401, "not a well-formed JWT")
    assert_problem(run(server, issuer.token(issuer="http://127.0.0.1:1/realms/other")), 401, "another identity provider")
    assert_problem(run(server, issuer.token(key=issuer.other_key)), 401, "signature does not match")
    assert_problem(run(server, issuer.token(kid="unknown")), 401, "does not publish")
    header, payload, signature = issuer.token().split(".")
    forged = issuer.token(user="mallory").split(".")[1]
    assert_problem(run(server, f"{header}.{forged}.{signature}"), 401, "signature does not match")


def test_every_operation_checks_the_token(serve_provider, issuer):
    server = signed_in(serve_provider, issuer)
    action = run(server, issuer.token(), body={"mode": "never"}).json["action_id"]
    expired = {"Authorization": "Bearer " + issuer.token(expires_in=-120)}
    for method, op in (("GET", "status"), ("GET", "log"), ("POST", "cancel"), ("POST", "release")):
        assert call(method, f"{server.url}/{action}/{op}", headers=expired).status == 401, op
    assert call("GET", server.url + "/").status == 200  # a public description needs no token


def test_keys_are_fetched_once_and_again_for_a_new_key_id(serve_provider, issuer):
    server = signed_in(serve_provider, issuer)
    before = issuer.fetches
    for i in range(3):
        assert run(server, issuer.token(), request_id=f"k{i}").status == 202
    assert issuer.fetches == before + 1


def test_an_unreachable_issuer_is_503_not_401(serve_provider, issuer):
    verifier = JwtVerifier(issuer.url, "continuum-provider-steps", "actions:steps", jwks="http://127.0.0.1:9/certs")
    answer = run(serve_provider(auth=verifier), issuer.token())
    assert answer.status == 503 and answer.content_type == "application/problem+json"
    assert "try again" in answer.json["detail"]


def test_sign_in_from_the_environment(issuer):
    assert isinstance(from_environment("aud", "scope", env={}), Anonymous)
    verifier = from_environment("continuum-provider-steps", "actions:steps", env={
        "CONTINUUM_AUTH_ENABLED": "true", "CONTINUUM_AUTH_ISSUER": issuer.url})
    assert verifier.resolve("Bearer " + issuer.token("carol")) == "carol"
    other = from_environment("x", "y", env={"CONTINUUM_AUTH_ENABLED": "true", "CONTINUUM_AUTH_ISSUER": issuer.url,
                                            "CONTINUUM_PROVIDER_AUDIENCE": "continuum-provider-steps",
                                            "CONTINUUM_PROVIDER_SCOPE": "actions:other"})
    with pytest.raises(Exception) as refused:
        other.resolve("Bearer " + issuer.token())
    assert refused.value.status == 403
