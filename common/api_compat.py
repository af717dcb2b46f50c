"""Breaking changes between two OpenAPI 3 schemas (issue 29; the policy is docs/api-changelog.md).

A change breaks a client written from the old schema when the new one accepts less of what the client sends or
answers with what the client did not expect:

- an operation removed; a 2xx answer or a media type removed;
- what a client sends (parameters, request bodies): a parameter or a field removed, a new required one, one that
  became required, a type or format changed, an enum value removed, null no longer accepted, a tighter bound
  (``maxLength``, ``minimum``...), a new or changed ``pattern``, an object that takes no other fields;
- what it receives (answers): a field removed or no longer always present, a value that may now be null, a type
  or format changed, a looser bound or pattern. New enum values in answers are not breaking: a client must
  accept values it does not know (new statuses and kinds appear).

Additions (operations, optional parameters and fields, answers, enum values a client may send) are not breaking.
``oneOf``/``anyOf`` are compared as the union of their branches and ``allOf`` as the merge of its parts, which
covers what drf-spectacular writes (nullable and blank enums, ``allOf`` around a ``$ref``, error unions).

Plain Python, no Django: the schemas are the JSON documents as dicts.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

Schema = Mapping[str, Any]
JSON_TYPES = {str: "string", bool: "boolean", int: "integer", float: "number", list: "array", dict: "object"}
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
# Bounds a sender must stay under (upper) or over (lower).
UPPER_BOUNDS = ("maxLength", "maximum", "maxItems", "maxProperties")
LOWER_BOUNDS = ("minLength", "minimum", "minItems", "minProperties")
FENCED_BLOCK = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
BREAKING_LINE = re.compile(r"^\s*(?:[-*]\s+)?Breaking:\s*(?P<change>.+?)\s*$", re.MULTILINE)


@dataclass(frozen=True, order=True)
class Break:
    """One breaking change of an operation: ``GET /api/v1/people/ response 200 field "name" removed``."""

    method: str
    path: str
    what: str

    def __str__(self) -> str:
        return f"{self.method} {self.path} {self.what}"


@dataclass
class Shape:
    """A schema with its references resolved and its ``allOf``/``oneOf``/``anyOf`` flattened."""

    types: frozenset[str] | None = None  # None: any type
    enum: frozenset[Any] | None = None  # None: any value; null is ``nullable``, never in the set
    nullable: bool = False
    properties: dict[str, Schema] = field(default_factory=dict)
    required: frozenset[str] = frozenset()
    items: Schema | None = None
    extra: Schema | bool = True  # additionalProperties
    bounds: dict[str, Any] = field(default_factory=dict)  # the UPPER/LOWER_BOUNDS, "pattern" and "format"
    refs: tuple[str, ...] = ()  # the components it was read from (to stop on recursive schemas)


def breaking_changes(old: Schema, new: Schema) -> list[Break]:
    """Return the breaking changes from the ``old`` schema to the ``new`` one, sorted."""
    found: set[Break] = set()
    compare = _Comparison(old, new)
    new_paths = new.get("paths", {})
    for path, old_item in old.get("paths", {}).items():
        for method in METHODS:
            if method not in old_item:
                continue
            new_operation = new_paths.get(path, {}).get(method)
            if new_operation is None:
                found.add(Break(method.upper(), path, "removed"))
                continue
            for what in compare.operation(
                _with_path_parameters(old_item, method), _with_path_parameters(new_paths[path], method)
            ):
                found.add(Break(method.upper(), path, what))
    return sorted(found)


def named_breaks(changelog: str) -> set[str]:
    """Return the breaking changes a changelog names, one per line: ``Breaking: <METHOD> <path> <what>``.

    Lines inside fenced code blocks (the changelog's examples) name nothing.
    """
    prose = FENCED_BLOCK.sub("", changelog)
    return {match["change"].strip("`") for match in BREAKING_LINE.finditer(prose)}


def unnamed_breaks(old: Schema, new: Schema, changelog: str) -> list[Break]:
    """Return the breaking changes from ``old`` to ``new`` that ``changelog`` does not name."""
    named = named_breaks(changelog)
    return [change for change in breaking_changes(old, new) if str(change) not in named]


def _with_path_parameters(item: Schema, method: str) -> Schema:
    """The operation with the parameters its path item declares for every method (an operation's own win)."""
    operation = dict(item[method])
    own = {(p.get("in"), p.get("name")) for p in operation.get("parameters", []) if "name" in p}
    shared = [p for p in item.get("parameters", []) if (p.get("in"), p.get("name")) not in own]
    operation["parameters"] = [*shared, *operation.get("parameters", [])]
    return operation


class _Comparison:
    def __init__(self, old: Schema, new: Schema) -> None:
        self.documents = (old, new)

    # --- references ---------------------------------------------------------------------------------------------

    def resolve(self, node: Schema, side: int) -> tuple[Schema, tuple[str, ...]]:
        """Follow ``$ref`` (local ones: ``#/components/...``); return the node and the references followed."""
        refs: tuple[str, ...] = ()
        while isinstance(node, Mapping) and "$ref" in node:
            ref = node["$ref"]
            if ref in refs or not isinstance(ref, str) or not ref.startswith("#/"):
                break
            refs += (ref,)
            target: Any = self.documents[side]
            for part in ref[2:].split("/"):
                target = (
                    target.get(part.replace("~1", "/").replace("~0", "~"), {}) if isinstance(target, Mapping) else {}
                )
            node = target
        return node, refs

    def shape(self, node: Schema, side: int) -> Shape:
        node, refs = self.resolve(node, side)
        shape = Shape(refs=refs)
        if "allOf" in node:
            for part in node["allOf"]:
                self._merge(shape, self.shape(part, side))
        branches = node.get("oneOf") or node.get("anyOf")
        if branches:
            self._merge(shape, self._union([self.shape(branch, side) for branch in branches]))
        self._merge(shape, self._own(node))
        return shape

    @staticmethod
    def _own(node: Schema) -> Shape:
        """The node's own keywords, without its allOf/oneOf/anyOf."""
        kind = node.get("type")
        types = frozenset([kind] if isinstance(kind, str) else kind) if kind is not None else None
        nullable = bool(node.get("nullable")) or (types is not None and "null" in types)
        enum = None
        if "enum" in node:
            values = list(node["enum"])
            nullable = nullable or None in values
            enum = frozenset(_hashable(v) for v in values if v is not None)
            if types is None and enum:  # drf-spectacular's BlankEnum: values without a type
                types = frozenset(JSON_TYPES.get(type(v), "object") for v in values if v is not None)
        return Shape(
            types=types - {"null"} if types is not None else None,
            enum=enum,
            nullable=nullable,
            properties=dict(node.get("properties", {})),
            required=frozenset(node.get("required", [])),
            items=node.get("items"),
            extra=node.get("additionalProperties", True),
            bounds={key: node[key] for key in (*UPPER_BOUNDS, *LOWER_BOUNDS, "pattern", "format") if key in node},
        )

    @staticmethod
    def _merge(into: Shape, part: Shape) -> None:
        """Narrow ``into`` by ``part`` (both hold: allOf, or a node's own keywords beside its branches)."""
        if part.types is not None:
            into.types = part.types if into.types is None else into.types & part.types
        if part.enum is not None:
            into.enum = part.enum if into.enum is None else into.enum & part.enum
        into.nullable = into.nullable or part.nullable
        into.properties = {**into.properties, **part.properties}
        into.required |= part.required
        into.items = part.items if part.items is not None else into.items
        if part.extra is not True:
            into.extra = part.extra
        into.bounds = {**into.bounds, **part.bounds}
        into.refs += part.refs

    @staticmethod
    def _union(branches: list[Shape]) -> Shape:
        """What any of the branches allows (oneOf, anyOf); bounds are only kept when every branch has the same."""
        union = Shape(nullable=any(b.nullable for b in branches))
        non_null = [b for b in branches if not (b.nullable and frozenset() in (b.enum, b.types))]
        if non_null and all(b.types is not None for b in non_null):
            union.types = frozenset().union(*(b.types or frozenset() for b in non_null))
        if non_null and all(b.enum is not None for b in non_null):
            union.enum = frozenset().union(*(b.enum or frozenset() for b in non_null))
        for branch in non_null:
            union.properties = {**branch.properties, **union.properties}
        union.required = frozenset.intersection(*(b.required for b in non_null)) if non_null else frozenset()
        union.items = next((b.items for b in non_null if b.items is not None), None)
        if non_null and all(b.bounds == non_null[0].bounds for b in non_null):
            union.bounds = dict(non_null[0].bounds)
        return union

    # --- operations ---------------------------------------------------------------------------------------------

    def operation(self, old: Schema, new: Schema) -> Iterator[str]:
        yield from self.parameters(old.get("parameters", []), new.get("parameters", []))
        yield from self.request_body(old.get("requestBody"), new.get("requestBody"))
        yield from self.responses(old.get("responses", {}), new.get("responses", {}))

    def parameters(self, old: list[Schema], new: list[Schema]) -> Iterator[str]:
        def by_key(parameters: list[Schema], side: int) -> dict[tuple[str, str], Schema]:
            resolved = (self.resolve(p, side)[0] for p in parameters)
            return {(p["in"], p["name"]): p for p in resolved if "name" in p and "in" in p}

        old_by_key, new_by_key = by_key(old, 0), by_key(new, 1)
        for (where, name), parameter in new_by_key.items():
            label = f'{where} parameter "{name}"'
            before = old_by_key.get((where, name))
            if before is None:
                if parameter.get("required"):
                    yield f"{label} added as required"
                continue
            if parameter.get("required") and not before.get("required"):
                yield f"{label} became required"
            yield from self.schema(before.get("schema", {}), parameter.get("schema", {}), label, "", sending=True)
        for where, name in old_by_key.keys() - new_by_key.keys():
            yield f'{where} parameter "{name}" removed'

    def request_body(self, old: Schema | None, new: Schema | None) -> Iterator[str]:
        old_body = self.resolve(old, 0)[0] if old else None
        new_body = self.resolve(new, 1)[0] if new else None
        if new_body is None:
            if old_body is not None:
                yield "request body removed"
            return
        if old_body is None:
            if new_body.get("required"):
                yield "request body added as required"
            return
        if new_body.get("required") and not old_body.get("required"):
            yield "request body became required"
        new_content = new_body.get("content", {})
        for media, old_media in old_body.get("content", {}).items():
            if media not in new_content:
                yield f"request content type {media} removed"
            else:
                old_schema, new_schema = old_media.get("schema", {}), new_content[media].get("schema", {})
                yield from self.schema(old_schema, new_schema, "request", "", sending=True)

    def responses(self, old: Schema, new: Schema) -> Iterator[str]:
        for status, old_answer in old.items():
            if status not in new:
                if str(status).startswith("2"):
                    yield f"response {status} removed"
                continue
            old_content = self.resolve(old_answer, 0)[0].get("content", {})
            new_content = self.resolve(new[status], 1)[0].get("content", {})
            for media, old_media in old_content.items():
                if media not in new_content:
                    yield f"response {status} content type {media} removed"
                else:
                    old_schema, new_schema = old_media.get("schema", {}), new_content[media].get("schema", {})
                    yield from self.schema(old_schema, new_schema, f"response {status}", "", sending=False)

    # --- schemas: what a client sends, what it receives ---------------------------------------------------------

    def schema(
        self,
        old: Schema,
        new: Schema,
        label: str,
        at: str,
        *,
        sending: bool,
        seen: frozenset[tuple[str, ...]] = frozenset(),
    ) -> Iterator[str]:
        """Compare what a client sends (the new schema must accept all the old one did) or receives (the new one
        must answer only what the old one could)."""
        before, after = self.shape(old, 0), self.shape(new, 1)
        where = _where(label, at)
        key = (*before.refs, "|", *after.refs)
        if before.refs and key in seen:
            return
        seen = seen | {key}
        accepting, produced = (after, before) if sending else (before, after)
        yield from _types(before, after, where, accepting=accepting, sent=produced)
        if sending:
            if before.enum is not None and after.enum is not None:
                for value in sorted(map(json.dumps, before.enum - after.enum)):
                    yield f"{where} enum value {value} removed"
            elif after.enum is not None:
                yield f"{where} now limited to the values {', '.join(sorted(map(json.dumps, after.enum)))}"
            if before.nullable and not after.nullable:
                yield f"{where} no longer accepts null"
            if after.extra is False and before.extra is not False:
                yield f"{where} no longer accepts fields it does not list"
        elif after.nullable and not before.nullable:
            yield f"{where} may be null"
        yield from _bounds(before, after, where, tighter_is_breaking=sending)
        for name in before.properties:
            if name not in after.properties:
                yield f"{_where(label, _join(at, name))} removed"
            elif sending and name in after.required - before.required:
                yield f"{_where(label, _join(at, name))} became required"
            elif not sending and name in before.required - after.required:
                yield f"{_where(label, _join(at, name))} no longer always present"
        if sending:
            for name in after.required - before.required - before.properties.keys():
                yield f"{_where(label, _join(at, name))} added as required"
        children = [
            (before.properties[n], after.properties[n], _join(at, n))
            for n in before.properties
            if n in after.properties
        ]
        if before.items is not None and after.items is not None:
            children.append((before.items, after.items, f"{at}[]"))
        if isinstance(before.extra, Mapping) and isinstance(after.extra, Mapping):
            children.append((before.extra, after.extra, f"{at}{{}}"))
        for old_child, new_child, child_at in children:
            yield from self.schema(old_child, new_child, label, child_at, sending=sending, seen=seen)


def _types(before: Shape, after: Shape, where: str, *, accepting: Shape, sent: Shape) -> Iterator[str]:
    """A type (or format) the receiving side no longer covers: a client's integer where a number is taken is fine."""
    if accepting.types is not None and not _covers(accepting.types, sent.types):
        yield f"{where} type {_names(before.types)} -> {_names(after.types)}"
    old_format, new_format = before.bounds.get("format"), after.bounds.get("format")
    if old_format is not None and new_format is not None and old_format != new_format:
        yield f"{where} format {old_format} -> {new_format}"


def _covers(accepted: frozenset[str], sent: frozenset[str] | None) -> bool:
    if sent is None:
        return False
    return all(kind in accepted or (kind == "integer" and "number" in accepted) for kind in sent)


def _bounds(before: Shape, after: Shape, where: str, *, tighter_is_breaking: bool) -> Iterator[str]:
    """Bounds and patterns: tighter breaks what a client sends, looser what it receives."""
    sender, receiver = (before, after) if tighter_is_breaking else (after, before)
    for key in UPPER_BOUNDS:
        limit, value = receiver.bounds.get(key), sender.bounds.get(key)
        if limit is not None and (value is None or value > limit):
            yield f"{where} {key} {_bound(before, key)} -> {_bound(after, key)}"
    for key in LOWER_BOUNDS:
        limit, value = receiver.bounds.get(key), sender.bounds.get(key)
        if limit is not None and (value is None or value < limit):
            yield f"{where} {key} {_bound(before, key)} -> {_bound(after, key)}"
    limit = receiver.bounds.get("pattern")
    if limit is not None and sender.bounds.get("pattern") != limit:
        yield f"{where} pattern {_bound(before, 'pattern')} -> {_bound(after, 'pattern')}"
    if tighter_is_breaking and "format" in after.bounds and "format" not in before.bounds:
        yield f"{where} format none -> {after.bounds['format']}"


def _bound(shape: Shape, key: str) -> str:
    return str(shape.bounds[key]) if key in shape.bounds else "none"


def _names(types: frozenset[str] | None) -> str:
    return "|".join(sorted(types)) if types is not None else "any"


def _join(at: str, name: str) -> str:
    return f"{at}.{name}" if at else name


def _where(label: str, at: str) -> str:
    """``request body``, ``response 200 field "results[].name"``, ``query parameter "ids" at []``."""
    body = label.startswith(("request", "response"))
    if not at:
        return f"{label} body" if body else label
    return f'{label} field "{at}"' if body else f"{label} at {at}"


def _hashable(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, (list, dict)) else value
