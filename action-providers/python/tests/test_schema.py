"""The input_schema subset the kit checks, each error with its pointer into the /run document."""
from continuum_provider.schema import validate

SCHEMA = {
    "type": "object", "required": ["name", "files"], "additionalProperties": False,
    "$defs": {"path": {"type": "string", "pattern": "^/"}},
    "properties": {
        "name": {"type": "string", "minLength": 2, "maxLength": 5},
        "files": {"type": "array", "minItems": 1, "maxItems": 2, "uniqueItems": True, "items": {"$ref": "#/$defs/path"}},
        "count": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10, "multipleOf": 2},
        "mode": {"enum": ["a", "b"]},
        "opts": {"type": "object", "minProperties": 1, "additionalProperties": {"type": "boolean"}},
        "either": {"oneOf": [{"type": "string"}, {"type": "number"}]},
        "a/b": {"const": 1},
    },
}


def pointers(body):
    return sorted(e["pointer"] for e in validate(SCHEMA, body))


def test_a_valid_body_has_no_errors():
    assert validate(SCHEMA, {"name": "ab", "files": ["/x"], "count": 4, "mode": "a", "opts": {"x": True},
                             "either": 3, "a/b": 1}) == []


def test_each_violation_is_reported_at_its_pointer():
    assert pointers({"files": []}) == ["/body/files", "/body/name"]
    assert pointers({"name": "a", "files": ["x", "x", "/y"], "count": 3.5, "mode": "c", "extra": 1,
                     "opts": {}, "either": [], "a/b": 2}) == [
        "/body/a~1b", "/body/count", "/body/either", "/body/extra", "/body/files", "/body/files",
        "/body/files/0", "/body/files/1", "/body/mode", "/body/name", "/body/opts"]
    assert validate(SCHEMA, {"name": 5, "files": ["/x"]})[0] == {"pointer": "/body/name",
                                                                  "message": "integer found, string expected"}
    assert validate(SCHEMA, {"name": "abc", "files": ["/x"], "count": 10})[0]["message"] == "must be less than 10"


def test_true_is_not_a_number_and_one_point_zero_is_an_integer():
    assert pointers({"name": "ab", "files": ["/x"], "count": True}) == ["/body/count"]
    assert pointers({"name": "ab", "files": ["/x"], "count": 2.0}) == []
