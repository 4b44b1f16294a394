#!/usr/bin/env python3
"""Checks the files an operator writes beside this overlay before `kubectl apply -k` (docs/operations.md
"Installing on Kubernetes"): that each file the kustomization generates from exists, that secrets.env holds every
key the base manifests read from the Secret continuum-secrets (non-empty; the vault key 32 bytes of base64), that
realm.json's client secrets are the ones secrets.env gives the engine, the planner reporter and the checkpoint
carrier, that the issuer names realm.json's realm, that Mosquitto's files let the services' login `_continuum` in,
and that the kustomization names your registry and issuer rather than the example ones.

Prints one line per problem and exits 1, or says what it checked and exits 0. Never prints a secret's value.
With --write-realm PUBLIC_URL it first writes realm.json from the repository's realm
(auth/src/main/resources/keycloak/continuum-realm.json): the three client secrets from secrets.env, a fresh random
secret for every other confidential client, no user with a password (the demo users), and the web UI's and the
engine's sign-in redirects on PUBLIC_URL (where people reach the engine, e.g. https://continuum.example.edu).
Usage (from the repository root): deploy/kubernetes/overlays/production/check-inputs.py [--write-realm URL] [OVERLAY_DIR]
"""
import base64
import binascii
import json
import pathlib
import re
import secrets as randomness
import sys

SECRET = "continuum-secrets"
# Keycloak clients whose secret a Continuum service presents, and the continuum-secrets key that service reads it from.
CLIENT_SECRETS = {
    "continuum-engine": "engine-client-secret",
    "continuum-planner-reporter": "planner-reporter-secret",
    "continuum-checkpoint-carrier": "checkpoint-carrier-secret",
}
SERVICES_LOGIN = "_continuum"


def shown(path):
    """A path relative to the working directory when it lies under it (commands in the docs run from the root)."""
    try:
        return str(path.relative_to(pathlib.Path.cwd()))
    except ValueError:
        return str(path)


def generated_files(kustomization):
    """The files the overlay's generators read (entries under `files:` and `envs:`), relative to the overlay."""
    files, inside = [], False
    for line in kustomization.splitlines():
        stripped = line.split("#", 1)[0].rstrip()
        if re.match(r"^\s*(files|envs):\s*$", stripped):
            inside = True
            continue
        item = re.match(r"^\s*-\s+(\S+)\s*$", stripped)
        if inside and item:
            files.append(item.group(1).split("=", 1)[-1])
        elif stripped.strip():
            inside = False
    return files


def secret_keys(base):
    """Every key of continuum-secrets the base manifests read (secretKeyRef name, then key)."""
    keys = set()
    for manifest in sorted(base.glob("*.yaml")):
        text = manifest.read_text()
        for match in re.finditer(r"secretKeyRef:\s*\n\s*name:\s*(\S+)\s*\n\s*key:\s*(\S+)", text):
            if match.group(1) == SECRET:
                keys.add(match.group(2))
    return keys


def read_env(path):
    values = {}
    for number, line in enumerate(path.read_text().splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "=" not in line:
            raise ValueError(f"line {number} is not KEY=VALUE")
        key, value = line.split("=", 1)
        values[key.strip()] = value
    return values


def literal(kustomization, key):
    match = re.search(r"^\s*-\s*" + re.escape(key) + r"=(\S+)", kustomization, re.MULTILINE)
    return match.group(1) if match else None


def write_realm(overlay, public_url):
    """realm.json for this deployment from the repository's realm and secrets.env (see the module's text)."""
    source = overlay / "../../../../auth/src/main/resources/keycloak/continuum-realm.json"
    realm = json.loads(source.read_text())
    values = read_env(overlay / "secrets.env")
    for client in realm.get("clients", []):
        key = CLIENT_SECRETS.get(client.get("clientId"))
        if key:
            if not values.get(key, "").strip():
                raise ValueError(f"secrets.env has no {key} for client {client['clientId']}")
            client["secret"] = values[key]
        elif client.get("secret"):
            client["secret"] = randomness.token_urlsafe(32)
        if client.get("clientId") in ("continuum-web", "continuum-engine") and client.get("redirectUris"):
            client["redirectUris"] = [public_url.rstrip("/") + "/*"]
    realm["users"] = [u for u in realm.get("users", []) if not u.get("credentials")]
    (overlay / "realm.json").write_text(json.dumps(realm, indent=2) + "\n")


def check(overlay):
    problems, checked = [], []
    kustomization = (overlay / "kustomization.yaml").read_text()
    base = (overlay / "../../base").resolve()

    files = generated_files(kustomization)
    missing = [name for name in files if not (overlay / name).is_file()]
    for name in missing:
        problems.append(f"missing file {shown(overlay / name)}: write it beside the overlay (docs/operations.md"
                        f" \"Installing on Kubernetes\")")
    checked.append(f"{len(files)} files the generators read")

    secrets = {}
    if (overlay / "secrets.env").is_file():
        try:
            secrets = read_env(overlay / "secrets.env")
        except ValueError as e:
            problems.append(f"secrets.env: {e}")
        needed = secret_keys(base)
        for key in sorted(needed):
            if key not in secrets:
                problems.append(f"secrets.env: no {key} (read by the base manifests from {SECRET})")
            elif not secrets[key].strip():
                problems.append(f"secrets.env: {key} is empty")
        for key in sorted(set(secrets) - needed):
            problems.append(f"secrets.env: {key} is read by no manifest (a typo?)")
        vault = secrets.get("vault-key", "").strip()
        if vault:
            try:
                if len(base64.b64decode(vault, validate=True)) != 32:
                    raise binascii.Error()
            except binascii.Error:
                problems.append("secrets.env: vault-key is not base64 of 32 bytes (make one with openssl rand -base64 32)")
        for key, value in secrets.items():
            if value.strip().endswith("-local-secret"):
                problems.append(f"secrets.env: {key} is the repository's local demo value: choose your own")
        checked.append(f"{len(needed)} keys of {SECRET}")

    realm = None
    if (overlay / "realm.json").is_file():
        try:
            realm = json.loads((overlay / "realm.json").read_text())
        except json.JSONDecodeError as e:
            problems.append(f"realm.json is not JSON: {e}")
    if isinstance(realm, dict):
        clients = {c.get("clientId"): c for c in realm.get("clients", [])}
        for client, key in CLIENT_SECRETS.items():
            if client not in clients:
                problems.append(f"realm.json: no client {client} (copy auth/src/main/resources/keycloak/continuum-realm.json)")
            elif key in secrets and clients[client].get("secret") != secrets[key]:
                problems.append(f"realm.json: client {client}'s secret differs from {key} in secrets.env"
                                f" (the service would be refused its tokens)")
        issuer = literal(kustomization, "CONTINUUM_AUTH_ISSUER") or ""
        if realm.get("realm") and not issuer.rstrip("/").endswith("/realms/" + realm["realm"]):
            problems.append(f"kustomization.yaml: CONTINUUM_AUTH_ISSUER {issuer} does not name realm.json's realm"
                            f" {realm['realm']} (…/realms/{realm['realm']})")
        known = [c.get("clientId") for c in realm.get("clients", []) if str(c.get("secret", "")).endswith("-local-secret")]
        if known:
            problems.append(f"realm.json: clients with the repository's local demo secrets ({', '.join(known)}):"
                            f" give each its own (--write-realm does)")
        demo = [u.get("username") for u in realm.get("users", []) if u.get("credentials")]
        if demo:
            problems.append(f"realm.json: users with passwords in the file ({', '.join(demo)}): remove the demo users"
                            f" and let people sign in through your identity provider or set passwords in Keycloak")
        checked.append("realm.json's clients, issuer and users")

    if (overlay / "endpoints.json").is_file():
        try:
            json.loads((overlay / "endpoints.json").read_text())
        except json.JSONDecodeError as e:
            problems.append(f"endpoints.json is not JSON: {e}")
    if (overlay / "continuum.passwd").is_file():
        logins = [line.split(":", 1)[0] for line in (overlay / "continuum.passwd").read_text().splitlines() if ":" in line]
        if SERVICES_LOGIN not in logins:
            problems.append(f"continuum.passwd: no line for {SERVICES_LOGIN} (mosquitto_passwd continuum.passwd"
                            f" {SERVICES_LOGIN}, with secrets.env's mqtt-operator-password)")
    if (overlay / "continuum.acl").is_file():
        if not re.search(r"^user\s+" + SERVICES_LOGIN + r"\s*$", (overlay / "continuum.acl").read_text(), re.MULTILINE):
            problems.append(f"continuum.acl: no 'user {SERVICES_LOGIN}' section (docs/operations.md \"An external MQTT broker\")")

    for line in kustomization.splitlines():
        code = line.split("#", 1)[0]
        if "example.org" in code:
            problems.append(f"kustomization.yaml still names an example: {code.strip()} (your registry, issuer)")
    return problems, checked


def main():
    args = sys.argv[1:]
    public_url = None
    if args[:1] == ["--write-realm"]:
        if len(args) < 2 or not re.match(r"^https?://", args[1]):
            print("--write-realm needs the engine's public URL, e.g. https://continuum.example.edu", file=sys.stderr)
            return 2
        public_url, args = args[1], args[2:]
    overlay = pathlib.Path(args[0] if args else pathlib.Path(__file__).parent).resolve()
    if public_url:
        try:
            write_realm(overlay, public_url)
        except (OSError, ValueError) as e:
            print(f"cannot write realm.json: {e}", file=sys.stderr)
            return 1
        print(f"wrote {shown(overlay / 'realm.json')}")
    problems, checked = check(overlay)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {shown(overlay)}; kubectl apply -k would not give a working deployment", file=sys.stderr)
        return 1
    print(f"inputs complete in {shown(overlay)}: " + "; ".join(checked))
    return 0


if __name__ == "__main__":
    sys.exit(main())
