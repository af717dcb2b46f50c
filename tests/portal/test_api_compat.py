"""The schema comparison (common.api_compat): breaking changes named, additions pass. No database, no Django."""

import copy

from hypothesis import given
from hypothesis import strategies as st

from common.api_compat import Break, breaking_changes, named_breaks, unnamed_breaks

PATH = "/api/v1/things/"


def api(*, body=None, answer=None, parameters=(), components=None, answers=None) -> dict:
    """A schema with one operation, ``POST /api/v1/things/``: its parameters, JSON body and 201 answer."""
    operation: dict = {"parameters": list(parameters), "responses": answers or {}}
    if body is not None:
        operation["requestBody"] = {"content": {"application/json": {"schema": body}}, "required": True}
    if answer is not None:
        operation["responses"]["201"] = {"content": {"application/json": {"schema": answer}}}
    return {"openapi": "3.0.3", "paths": {PATH: {"post": operation}}, "components": {"schemas": components or {}}}


def obj(required=(), **properties) -> dict:
    return {"type": "object", "properties": properties, "required": list(required)}


STRING = {"type": "string"}
INTEGER = {"type": "integer"}


def changes(old, new) -> list[str]:
    return [str(change) for change in breaking_changes(old, new)]


def test_an_unchanged_schema_has_no_breaking_change():
    schema = api(body=obj(["name"], name=STRING), answer=obj(["id"], id=INTEGER, name=STRING))
    assert changes(schema, copy.deepcopy(schema)) == []


def test_a_removed_operation_or_path_is_breaking():
    old = api(answer=obj(id=INTEGER))
    new = copy.deepcopy(old)
    new["paths"][PATH]["get"] = new["paths"][PATH].pop("post")
    assert breaking_changes(old, new) == [Break("POST", PATH, "removed")]
    assert changes(old, {"paths": {}}) == [f"POST {PATH} removed"]


def test_a_removed_answer_field_is_breaking_an_added_one_is_not():
    old = api(answer=obj(["id"], id=INTEGER, name=STRING))
    assert changes(old, api(answer=obj(["id"], id=INTEGER))) == [f'POST {PATH} response 201 field "name" removed']
    assert changes(old, api(answer=obj(["id"], id=INTEGER, name=STRING, extra=STRING))) == []


def test_a_new_required_request_field_is_breaking_a_new_optional_one_is_not():
    old = api(body=obj(["name"], name=STRING))
    new_required = api(body=obj(["name", "code"], name=STRING, code=STRING))
    assert changes(old, new_required) == [f'POST {PATH} request field "code" added as required']
    assert changes(old, api(body=obj(["name"], name=STRING, code=STRING))) == []


def test_a_field_that_becomes_required_breaks_requests_one_that_becomes_optional_breaks_answers():
    optional, required = obj(name=STRING), obj(["name"], name=STRING)
    assert changes(api(body=optional), api(body=required)) == [f'POST {PATH} request field "name" became required']
    assert changes(api(body=required), api(body=optional)) == []
    assert changes(api(answer=required), api(answer=optional)) == [
        f'POST {PATH} response 201 field "name" no longer always present'
    ]
    assert changes(api(answer=optional), api(answer=required)) == []


def test_null_no_longer_accepted_in_a_request_or_newly_answered_is_breaking():
    nullable, plain = obj(note={"type": "string", "nullable": True}), obj(note=STRING)
    assert changes(api(body=nullable), api(body=plain)) == [f'POST {PATH} request field "note" no longer accepts null']
    assert changes(api(answer=plain), api(answer=nullable)) == [f'POST {PATH} response 201 field "note" may be null']
    assert changes(api(body=plain), api(body=nullable)) == []
    assert changes(api(answer=nullable), api(answer=plain)) == []


def test_a_removed_enum_value_breaks_requests_a_new_one_breaks_nothing():
    two = {"KindEnum": {"type": "string", "enum": ["a", "b"]}}
    one = {"KindEnum": {"type": "string", "enum": ["a"]}}
    body = obj(["kind"], kind={"$ref": "#/components/schemas/KindEnum"})
    assert changes(api(body=body, components=two), api(body=body, components=one)) == [
        f'POST {PATH} request field "kind" enum value "b" removed'
    ]
    assert changes(api(body=body, components=one), api(body=body, components=two)) == []
    # Answers: a client accepts a value it does not know (docs/api-changelog.md).
    assert changes(api(answer=body, components=one), api(answer=body, components=two)) == []


def test_drf_spectacular_nullable_and_blank_enums_are_read_through_their_branches():
    """``oneOf: [KindEnum, BlankEnum, NullEnum]`` is the enum's values, blank and null."""
    components = {
        "KindEnum": {"type": "string", "enum": ["a", "b"]},
        "BlankEnum": {"enum": [""]},
        "NullEnum": {"enum": [None]},
    }
    ref = {"$ref": "#/components/schemas/KindEnum"}
    blank, null = {"$ref": "#/components/schemas/BlankEnum"}, {"$ref": "#/components/schemas/NullEnum"}
    old = api(body=obj(kind={"oneOf": [ref, blank, null]}), components=components)
    new = api(body=obj(kind={"oneOf": [ref, blank]}), components=components)
    assert changes(old, new) == [f'POST {PATH} request field "kind" no longer accepts null']
    narrower = api(body=obj(kind=ref), components=components)
    assert changes(old, narrower) == [
        f'POST {PATH} request field "kind" enum value "" removed',
        f'POST {PATH} request field "kind" no longer accepts null',
    ]
    assert changes(narrower, old) == []


def test_types_narrowed_for_requests_widened_for_answers_are_breaking():
    number, integer = obj(x={"type": "number"}), obj(x=INTEGER)
    assert changes(api(body=number), api(body=integer)) == [f'POST {PATH} request field "x" type number -> integer']
    assert changes(api(body=integer), api(body=number)) == []
    assert changes(api(answer=integer), api(answer=number)) == [
        f'POST {PATH} response 201 field "x" type integer -> number'
    ]
    assert changes(api(answer=number), api(answer=integer)) == []
    assert changes(api(answer=obj(x=STRING)), api(answer=obj(x=INTEGER))) == [
        f'POST {PATH} response 201 field "x" type string -> integer'
    ]


def test_tighter_bounds_and_new_patterns_break_requests():
    old = api(body=obj(code={"type": "string", "maxLength": 10}))
    assert changes(old, api(body=obj(code={"type": "string", "maxLength": 5}))) == [
        f'POST {PATH} request field "code" maxLength 10 -> 5'
    ]
    assert changes(old, api(body=obj(code={"type": "string", "maxLength": 20}))) == []
    assert changes(old, api(body=obj(code={"type": "string", "maxLength": 10, "pattern": "^[A-Z]+$"}))) == [
        f'POST {PATH} request field "code" pattern none -> ^[A-Z]+$'
    ]
    at_least = api(body=obj(age={"type": "integer", "minimum": 1}))
    assert changes(at_least, api(body=obj(age={"type": "integer", "minimum": 5}))) == [
        f'POST {PATH} request field "age" minimum 1 -> 5'
    ]


def test_a_closed_request_body_breaks_clients_that_sent_other_fields():
    closed = {**obj(name=STRING), "additionalProperties": False}
    assert changes(api(body=obj(name=STRING)), api(body=closed)) == [
        f"POST {PATH} request body no longer accepts fields it does not list"
    ]


def test_nested_fields_and_list_items_are_named_by_their_path():
    old = api(answer=obj(results={"type": "array", "items": obj(team=obj(name=STRING, code=STRING))}))
    new = api(answer=obj(results={"type": "array", "items": obj(team=obj(code=STRING))}))
    assert changes(old, new) == [f'POST {PATH} response 201 field "results[].team.name" removed']


def test_parameters_removed_new_required_or_narrowed_are_breaking():
    def query(name, required=False, schema=STRING):
        return {"in": "query", "name": name, "required": required, "schema": schema}

    old = api(parameters=[query("year", schema=INTEGER), query("search")], answer=obj(id=INTEGER))
    new = api(parameters=[query("year", True, {"type": "string", "format": "date"}), query("team", True)])
    new["paths"][PATH]["post"]["responses"] = old["paths"][PATH]["post"]["responses"]
    assert changes(old, new) == [
        f'POST {PATH} query parameter "search" removed',
        f'POST {PATH} query parameter "team" added as required',
        f'POST {PATH} query parameter "year" became required',
        f'POST {PATH} query parameter "year" format none -> date',
        f'POST {PATH} query parameter "year" type integer -> string',
    ]
    optional = api(parameters=[query("year", schema=INTEGER), query("search"), query("page", schema=INTEGER)])
    optional["paths"][PATH]["post"]["responses"] = old["paths"][PATH]["post"]["responses"]
    assert changes(old, optional) == []


def test_a_removed_success_answer_or_media_type_is_breaking_a_removed_error_is_not():
    error = {"400": {"content": {"application/json": {"schema": obj(detail=STRING)}}}}
    old = api(answer=obj(id=INTEGER), answers=copy.deepcopy(error))
    assert changes(old, api(answers={"200": old["paths"][PATH]["post"]["responses"]["201"]})) == [
        f"POST {PATH} response 201 removed"
    ]
    assert changes(old, api(answer=obj(id=INTEGER))) == []
    csv = copy.deepcopy(old)
    csv["paths"][PATH]["post"]["responses"]["201"]["content"] = {"text/csv": {"schema": STRING}}
    assert changes(old, csv) == [f"POST {PATH} response 201 content type application/json removed"]


def test_a_request_body_that_becomes_required_or_loses_a_media_type_is_breaking():
    old = api(body=obj(name=STRING))
    old["paths"][PATH]["post"]["requestBody"]["required"] = False
    assert changes(old, api(body=obj(name=STRING))) == [f"POST {PATH} request body became required"]
    form = copy.deepcopy(old)
    form["paths"][PATH]["post"]["requestBody"]["content"] = {"multipart/form-data": {"schema": obj(name=STRING)}}
    assert changes(old, form) == [f"POST {PATH} request content type application/json removed"]


def test_components_are_compared_through_refs_and_allof_and_a_renamed_component_is_not_a_change():
    old_components = {"Team": obj(["name"], name=STRING, code=STRING)}
    new_components = {"TeamDetail": obj(["name"], name=STRING)}
    old = api(
        answer=obj(team={"allOf": [{"$ref": "#/components/schemas/Team"}], "readOnly": True}), components=old_components
    )
    renamed = api(answer=obj(team={"$ref": "#/components/schemas/TeamDetail"}), components=new_components)
    assert changes(old, renamed) == [f'POST {PATH} response 201 field "team.code" removed']
    nullable = api(
        answer=obj(team={"allOf": [{"$ref": "#/components/schemas/Team"}], "nullable": True}), components=old_components
    )
    assert changes(old, nullable) == [f'POST {PATH} response 201 field "team" may be null']


def test_recursive_schemas_are_compared_once():
    node = obj(name=STRING, children={"type": "array", "items": {"$ref": "#/components/schemas/Node"}})
    old = api(answer={"$ref": "#/components/schemas/Node"}, components={"Node": node})
    smaller = copy.deepcopy(old)
    del smaller["components"]["schemas"]["Node"]["properties"]["name"]
    assert changes(old, old) == []
    assert changes(old, smaller) == [f'POST {PATH} response 201 field "name" removed']


def test_the_changelog_names_a_break_with_a_breaking_line_outside_code_blocks():
    old = api(answer=obj(id=INTEGER, name=STRING))
    new = api(answer=obj(id=INTEGER))
    line = f'POST {PATH} response 201 field "name" removed'
    assert named_breaks(f"## v1\n\n- Breaking: {line}\n") == {line}
    assert unnamed_breaks(old, new, f"### Breaking\n\n- Breaking: {line}\n") == []
    assert unnamed_breaks(old, new, f"* Breaking: `{line}`") == []
    assert [str(b) for b in unnamed_breaks(old, new, "nothing here")] == [line]
    assert [str(b) for b in unnamed_breaks(old, new, f"```\n- Breaking: {line}\n```\n")] == [line]
    assert [str(b) for b in unnamed_breaks(old, new, f"- Breaking: {line} (and more)")] == [line]


# --- properties: any schema compared with itself or with additions passes; a removal is named ----------------------

scalars = st.sampled_from(
    [STRING, INTEGER, {"type": "number"}, {"type": "boolean"}, {"type": "string", "format": "date"}]
    + [{"type": "string", "enum": ["a", "b"]}, {"type": "string", "nullable": True, "maxLength": 20}]
)
names = st.text(alphabet="abcdefgh_", min_size=1, max_size=6)


def objects(depth=2):
    leaf = (
        scalars
        if depth == 0
        else st.one_of(scalars, objects(depth - 1), objects(depth - 1).map(lambda o: {"type": "array", "items": o}))
    )
    return st.dictionaries(names, leaf, min_size=1, max_size=4).flatmap(
        lambda props: st.lists(st.sampled_from(sorted(props)), unique=True).map(lambda req: obj(req, **props))
    )


def _add_optional_fields(schema: dict, name: str) -> dict:
    """Add an optional field to every object of ``schema`` (an addition at every level)."""
    copied = copy.deepcopy(schema)
    stack = [copied]
    while stack:
        node = stack.pop()
        if node.get("type") == "object":
            node["properties"].setdefault(f"{name}_new", {"type": "string"})
            stack.extend(node["properties"].values())
        elif node.get("type") == "array":
            stack.append(node["items"])
    return copied


@given(body=objects(), answer=objects())
def test_any_schema_compared_with_itself_has_no_breaking_change(body, answer):
    schema = api(body=body, answer=answer)
    assert changes(schema, copy.deepcopy(schema)) == []


@given(body=objects(), answer=objects(), name=names)
def test_optional_fields_added_anywhere_pass(body, answer, name):
    old = api(body=body, answer=answer)
    assert changes(old, api(body=_add_optional_fields(body, name), answer=_add_optional_fields(answer, name))) == []


@given(answer=objects(), data=st.data())
def test_any_answer_field_removed_is_named(answer, data):
    name = data.draw(st.sampled_from(sorted(answer["properties"])))
    smaller = copy.deepcopy(answer)
    del smaller["properties"][name]
    smaller["required"] = [r for r in smaller["required"] if r != name]
    assert changes(api(answer=answer), api(answer=smaller)) == [f'POST {PATH} response 201 field "{name}" removed']
