"""Verifies Talent's webhook deliveries, by hand (not generated): the `Talent-Signature` header
(`verify`) or the Standard Webhooks headers (`verify_standard`).

    from talent_webhooks import verify
    if not verify(secret, request.headers["Talent-Signature"], raw_body):
        return 400

    from talent_webhooks import verify_standard
    if not verify_standard(secret, request.headers, raw_body):
        return 400

`v1` is the lowercase hex HMAC-SHA256, keyed with the whole signing secret (`whsec_...`), of
`"{t}.{raw body}"`; during a secret rotation the header carries one `v1` per valid secret, and any
one matching is enough. A `t` more than 300 seconds from the receiver's clock is refused (replay
protection). Compare in constant time, on the raw body bytes, before parsing them.

`webhook-signature` is `v1,` and the base64 HMAC-SHA256, keyed with the base64-decoded part of the
secret after `whsec_`, of `"{webhook-id}.{webhook-timestamp}.{raw body}"`, one entry per valid
secret separated by spaces. The `standardwebhooks` package verifies the same headers.

Deliveries are at least once: deduplicate on the envelope's `eventId` (also `webhook-id`).
"""

import base64
import binascii
import hashlib
import hmac
import time

TOLERANCE_SECONDS = 300


def verify(secret: str, header: str, raw_body: bytes, now: float | None = None) -> bool:
    """True when `header` (`t=<unix seconds>,v1=<hex>[,v1=<hex>...]`) signs `raw_body` with
    `secret` and `t` is within 300 seconds of `now` (default: the system clock)."""
    t = None
    signatures = []
    for part in header.split(","):
        key, _, value = part.strip().partition("=")
        if key == "t":
            try:
                t = int(value)
            except ValueError:
                return False
        elif key == "v1":
            signatures.append(value)
    if t is None or not signatures:
        return False
    if abs((time.time() if now is None else now) - t) > TOLERANCE_SECONDS:
        return False
    expected = hmac.new(secret.encode(), f"{t}.".encode() + raw_body, hashlib.sha256).hexdigest()
    return any(hmac.compare_digest(expected, s) for s in signatures)


def verify_standard(secret: str, headers, raw_body: bytes, now: float | None = None) -> bool:
    """True when the Standard Webhooks headers in `headers` (a mapping; names are looked up in lower
    case, and as given by frameworks that keep case) sign `raw_body` with `secret` (`whsec_` and
    standard base64) and `webhook-timestamp` is within 300 seconds of `now`."""

    def header(name: str) -> str | None:
        for key in (name, name.title(), name.upper()):
            if key in headers:
                return headers[key]
        return None

    msg_id, timestamp, signature = header("webhook-id"), header("webhook-timestamp"), header("webhook-signature")
    if not (msg_id and timestamp and signature and secret.startswith("whsec_")):
        return False
    try:
        key = base64.b64decode(secret[len("whsec_"):], validate=True)
        t = int(timestamp)
    except (binascii.Error, ValueError):
        return False
    if abs((time.time() if now is None else now) - t) > TOLERANCE_SECONDS:
        return False
    signed = f"{msg_id}.{t}.".encode() + raw_body
    expected = base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
    entries = [e.partition(",") for e in signature.split(" ")]
    return any(v == "v1" and hmac.compare_digest(expected, s) for v, _, s in entries)
