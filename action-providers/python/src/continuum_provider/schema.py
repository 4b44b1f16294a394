"""Checks a /run body against the provider's ``input_schema``, reporting each error with its JSON pointer.

The kit depends on nothing outside Debian 12's python3-jwt and python3-cryptography, so it checks the JSON
Schema keywords providers use: type, enum, const, required, properties, additionalProperties,
patternProperties, items, prefixItems, minItems, maxItems, uniqueItems, minLength, maxLength, pattern,
minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf, minProperties, maxProperties, allOf,
anyOf, oneOf, not, and local ``$ref`` (``#/$defs/...``). Other keywords are ignored, never refused.
"""

from __future__ import annotations

import re

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "integer": lambda v: (isinstance(v, int) and not isinstance(v, bool)) or (isinstance(v, float) and v.is_integer()),
}


_BOUNDS = (
    ("minimum", lambda v, b: v < b, "at least"),
    ("maximum", lambda v, b: v > b, "at most"),
    ("exclusiveMinimum", lambda v, b: v <= b, "greater than"),
    ("exclusiveMaximum", lambda v, b: v >= b, "less than"),
    ("multipleOf", lambda v, b: (v / b) % 1 != 0, "a multiple of"),
)


def _kind(value):
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__


def _escape(key):
    return str(key).replace("~", "~0").replace("/", "~1")


def validate(schema, value, pointer="/body"):
    """The errors of ``value`` against ``schema``: a list of ``{"pointer", "message"}``, empty when valid."""
    errors = []
    if schema is not None:
        _check(schema, value, pointer, errors, schema)
    return errors


def _resolve(ref, root):
    if not ref.startswith("#"):
        return {}
    node = root
    for part in [p for p in ref[1:].split("/") if p]:
        node = node.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(node, dict) else {}
    return node


def _check(schema, v, at, errors, root):
    if schema is True or schema is None:
        return
    if schema is False:
        errors.append({"pointer": at, "message": "no value is allowed here"})
        return
    if "$ref" in schema:
        _check(_resolve(schema["$ref"], root), v, at, errors, root)
    wanted = schema.get("type")
    if wanted is not None:
        names = wanted if isinstance(wanted, list) else [wanted]
        if not any(_TYPES.get(n, lambda _: True)(v) for n in names):
            errors.append({"pointer": at, "message": f"{_kind(v)} found, {' or '.join(names)} expected"})
            return
    if "enum" in schema and not any(_same(v, e) for e in schema["enum"]):
        errors.append({"pointer": at, "message": f"must be one of {schema['enum']}"})
    if "const" in schema and not _same(v, schema["const"]):
        errors.append({"pointer": at, "message": f"must be {schema['const']!r}"})
    if isinstance(v, str):
        _size(schema, len(v), "minLength", "maxLength", "must be at {} {} characters long", at, errors)
        if "pattern" in schema and not re.search(schema["pattern"], v):
            errors.append({"pointer": at, "message": f"does not match the pattern {schema['pattern']}"})
    if _TYPES["number"](v):
        for keyword, broken, words in _BOUNDS:
            if keyword in schema and broken(v, schema[keyword]):
                errors.append({"pointer": at, "message": f"must be {words} {schema[keyword]}"})
    if isinstance(v, list):
        _size(schema, len(v), "minItems", "maxItems", "must have at {} {} items", at, errors)
        if schema.get("uniqueItems") and len({_canon(i) for i in v}) != len(v):
            errors.append({"pointer": at, "message": "items must be unique"})
        prefix = schema.get("prefixItems", [])
        for i, item in enumerate(v):
            sub = prefix[i] if i < len(prefix) else schema.get("items")
            if sub is not None:
                _check(sub, item, f"{at}/{i}", errors, root)
    if isinstance(v, dict):
        for name in schema.get("required", []):
            if name not in v:
                errors.append({"pointer": f"{at}/{_escape(name)}", "message": "is required"})
        _size(schema, len(v), "minProperties", "maxProperties", "must have at {} {} properties", at, errors)
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = schema.get("additionalProperties", True)
        for key, item in v.items():
            where = f"{at}/{_escape(key)}"
            matched = False
            if key in props:
                matched = True
                _check(props[key], item, where, errors, root)
            for pattern, sub in patterns.items():
                if re.search(pattern, key):
                    matched = True
                    _check(sub, item, where, errors, root)
            if not matched:
                if extra is False:
                    errors.append({"pointer": where, "message": "is not allowed (additionalProperties is false)"})
                elif isinstance(extra, dict):
                    _check(extra, item, where, errors, root)
    for sub in schema.get("allOf", []):
        _check(sub, v, at, errors, root)
    if "anyOf" in schema and not any(not validate_at(s, v, at, root) for s in schema["anyOf"]):
        errors.append({"pointer": at, "message": "matches none of anyOf"})
    if "oneOf" in schema and sum(1 for s in schema["oneOf"] if not validate_at(s, v, at, root)) != 1:
        errors.append({"pointer": at, "message": "must match exactly one of oneOf"})
    if "not" in schema and not validate_at(schema["not"], v, at, root):
        errors.append({"pointer": at, "message": "must not match the schema in not"})


def _size(schema, size, low, high, message, at, errors):
    if low in schema and size < schema[low]:
        errors.append({"pointer": at, "message": message.format("least", schema[low])})
    if high in schema and size > schema[high]:
        errors.append({"pointer": at, "message": message.format("most", schema[high])})


def validate_at(schema, v, at, root):
    errors = []
    _check(schema, v, at, errors, root)
    return errors


def _canon(value):
    import json
    return json.dumps(value, sort_keys=True)


def _same(a, b):
    return _canon(a) == _canon(b) or (_TYPES["number"](a) and _TYPES["number"](b) and a == b)
