"""Schemathesis hooks for scripts/schemathesis.sh, loaded through `hooks` in schemathesis.toml.

Four behaviours of the API are documented and intended, yet Schemathesis cannot know them from
the schema, because they depend on state beyond one request (earlier requests, DNS). Each is
excluded here as narrowly as it can be; everything else Schemathesis reports fails the run.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
import time
import urllib.request
from datetime import datetime, timezone
from typing import Any

import schemathesis


def _tolerate_lambda_parse_failures() -> None:
    """Works around a CPython 3.11 bug, not an API behaviour.

    Hypothesis describes a strategy's lambdas (for its reprs) by parsing their source file with
    `ast.parse`. Under CPython 3.11 (the CI's python3) that parse can fail with "SystemError: AST
    constructor recursion depth mismatch" when it runs deep in the stack, as it does while
    Schemathesis builds a nested request body; the run then ends in a "Runtime Error" before any
    request is sent (CI saw it on two runs in a row, so a rerun is no cure). Hypothesis already
    answers "lambda ...: <unknown>" when a lambda's source cannot be read; this gives that same
    answer for the parse failure too. Should the internals move, this does nothing.
    """
    try:
        import inspect

        from hypothesis.internal import lambda_sources
    except Exception:  # noqa: BLE001 - a missed workaround of the tool, never a reason to stop
        return
    describe = getattr(lambda_sources, "_lambda_description", None)
    if describe is None or getattr(describe, "_tolerant", False):
        return

    def tolerant(f: Any, *args: Any, **kwargs: Any) -> str:
        try:
            return describe(f, *args, **kwargs)
        except SystemError:
            try:
                params = str(inspect.signature(getattr(f, "__wrapped_target", f)))[1:-1]
            except (TypeError, ValueError):
                params = ""
            return f"lambda {params}: <unknown>" if params else "lambda: <unknown>"

    tolerant._tolerant = True  # type: ignore[attr-defined]
    lambda_sources._lambda_description = tolerant


_tolerate_lambda_parse_failures()

# 1. Idempotency-Key reused with another request.
#
# README "Pagination, idempotency, rate limits": the first 2xx answer to an Idempotency-Key is
# kept for 24 hours; the same key with another method, path or body answers 400
# `validation_error` by design. Schemathesis draws keys from a small space ("0", "a", ...), so
# most POSTs would reuse a key with another body and be refused before reaching their handler.
# So a key is made specific to its request: the drawn key plus a digest of method, path and
# body. The same drawn key with the same request keeps the same key, so replays (same key, same
# request: the cached answer again) are still exercised; only the by-design refusal is avoided.
# Empty keys (no key) and keys over 255 characters (the documented maximum) are sent as drawn.
IDEMPOTENCY_HEADER = "Idempotency-Key"
IDEMPOTENCY_KEY_MAX = 255
_DIGEST_LENGTH = 16


def _request_digest(case: Any) -> str:
    request = [case.method.upper(), case.formatted_path, case.body if not isinstance(case.body, bytes) else case.body.hex()]
    # Keys in their sending order: the API compares the raw body, where order counts.
    text = json.dumps(request, default=repr)
    return hashlib.sha256(text.encode()).hexdigest()[:_DIGEST_LENGTH]


@schemathesis.hook
def before_call(ctx: Any, case: Any, **kwargs: Any) -> None:
    if case.operation.method.upper() == "POST" and case.operation.path == "/webhook_endpoints":
        _make_room_for_endpoints()
    headers = case.headers or {}
    name = next((key for key in headers if key.lower() == IDEMPOTENCY_HEADER.lower()), None)
    # An empty key counts as none; a key over the maximum is refused as drawn.
    if name is None or not isinstance(headers[name], str) or not 0 < len(headers[name]) <= IDEMPOTENCY_KEY_MAX:
        return
    suffix = "." + _request_digest(case)
    headers[name] = headers[name][: IDEMPOTENCY_KEY_MAX - len(suffix)] + suffix


# Not an exclusion, housekeeping: a workspace holds at most 16 webhook endpoints (a 17th is a
# 409 by design). The fuzz creates far more, and at the cap no create succeeds, so the operations
# on a new endpoint (get, patch, delete, roll_secret, test, deliveries, retry) would only see
# old ones. Before a create (at most once a second) with 10 or more endpoints, those made over
# 10 s ago are deleted (a sequence still following one takes far less), the setup one kept.
_ROOM_LOCK = threading.Lock()
_ROOM_CHECKED = [0.0]
ENDPOINTS_KEPT = 10
ENDPOINT_MIN_AGE_S = 10


def _api(method: str, path: str) -> Any:
    request = urllib.request.Request(
        os.environ["SCHEMATHESIS_BASE_URL"] + path, method=method, headers={"Authorization": "Bearer " + os.environ["SCHEMATHESIS_API_KEY"]}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        body = response.read()
    return json.loads(body) if body else None


def _make_room_for_endpoints() -> None:
    with _ROOM_LOCK:
        if time.monotonic() - _ROOM_CHECKED[0] < 1:
            return
        _ROOM_CHECKED[0] = time.monotonic()
        endpoints = _api("GET", "/webhook_endpoints")["data"]
        if len(endpoints) < ENDPOINTS_KEPT:
            return
        now = datetime.now(timezone.utc)
        for endpoint in endpoints:
            age = now - datetime.fromisoformat(endpoint["created_at"].replace("Z", "+00:00"))
            if endpoint["id"] != os.environ.get("SCHEMATHESIS_WEBHOOK_ID") and age.total_seconds() > ENDPOINT_MIN_AGE_S:
                _api("DELETE", "/webhook_endpoints/" + endpoint["id"])


# 2. A replay answers what the first request got, even when that resource is gone since.
#
# Spec 4.1 and the README: a replay (same key, same request) returns the original 2xx answer
# with `Idempotent-Replayed: true` and runs nothing. The stateful phase may create a tag, delete
# it, then replay the creation: the replayed 201 names the deleted tag, and following the link
# to its PATCH answers 404, which Schemathesis reports as ST302 "Created resource not found".
# Only that failure is dropped, and only for ids that came from a replayed answer.
_REPLAYED_IDS: set[str] = set()
_REPLAYED_LOCK = threading.Lock()
CREATED_RESOURCE_NOT_FOUND = "ST302"


@schemathesis.hook
def after_call(ctx: Any, case: Any, response: Any) -> None:
    if response.headers.get("idempotent-replayed") != ["true"]:
        return
    try:
        body = json.loads(response.content)
    except (TypeError, ValueError):
        return
    if isinstance(body, dict) and isinstance(body.get("id"), str):
        with _REPLAYED_LOCK:
            _REPLAYED_IDS.add(body["id"])


def _names_replayed_resource(case: Any) -> bool:
    with _REPLAYED_LOCK:
        return any(value in _REPLAYED_IDS for value in (case.path_parameters or {}).values())


# 3. POST /agent/messages with the id of a conversation on another channel.
#
# Spec 4.3 rule 2: "A `conversation_id` of a conversation on another channel gives 400 with code
# `validation_error`". Schemathesis may feed a conversation created by POST /conversations on,
# say, the widget channel into `conversation_id` (the stateful phase infers such links); the id
# is schema-valid, the channel is state. Only that message on that operation is dropped.
OTHER_CHANNEL = re.compile(r"conversation conv_\w+ is on the \w+ channel; the agent answers over the API only on api conversations")


def _is_other_channel_refusal(case: Any, error: dict[str, Any]) -> bool:
    message = error.get("message")
    return (
        (case.operation.method.upper(), case.operation.path) == ("POST", "/agent/messages")
        and error.get("code") == "validation_error"
        and isinstance(message, str)
        and OTHER_CHANNEL.fullmatch(message) is not None
    )


# 4. Webhook URLs whose host does not resolve, or resolves to an address the guard refuses.
#
# README "Webhooks", the URL guard: the host of a webhook URL is resolved at registration and
# refused (400 `validation_error`, "url refused: could not resolve host ..." or "url refused:
# resolves to <address>, ...") when it does not resolve or resolves to a loopback, private,
# link-local or metadata address. That depends on DNS, which no schema can state. (The fuzz
# environment may have no DNS at all; schemathesis.toml also offers 127.0.0.1 URLs, which the
# service accepts there, so endpoints do get created.) Only these two messages on these two
# operations and this one check are dropped: a malformed URL or a wrong scheme is a schema
# error and is still checked both ways.
WEBHOOK_URL_OPERATIONS = {("POST", "/webhook_endpoints"), ("PATCH", "/webhook_endpoints/{id}")}
URL_NOT_RESOLVABLE = ("url refused: could not resolve host ", "url refused: resolves to ")
SCHEMA_VALID_REQUEST_REJECTED = "ST202"


def _error(response: Any) -> dict[str, Any]:
    try:
        body = json.loads(response.content)
    except (TypeError, ValueError):
        return {}
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else {}


@schemathesis.hook
def filter_failure(ctx: Any, failure: Any, case: Any, response: Any) -> bool:
    """False drops the failure; everything not matched below is kept."""
    if failure.code == CREATED_RESOURCE_NOT_FOUND and response.status_code == 404:
        return not _names_replayed_resource(case)
    if failure.code != SCHEMA_VALID_REQUEST_REJECTED or response.status_code != 400:
        return True
    error = _error(response)
    if _is_other_channel_refusal(case, error):
        return False
    if (case.operation.method.upper(), case.operation.path) not in WEBHOOK_URL_OPERATIONS:
        return True
    message = error.get("message")
    return not (error.get("code") == "validation_error" and isinstance(message, str) and message.startswith(URL_NOT_RESOLVABLE))
