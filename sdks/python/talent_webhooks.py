"""Verifies Talent's webhook deliveries (the `Talent-Signature` header), by hand (not generated).

    from talent_webhooks import verify
    if not verify(secret, request.headers["Talent-Signature"], raw_body):
        return 400

`v1` is the lowercase hex HMAC-SHA256, keyed with the whole signing secret (`whsec_...`), of
`"{t}.{raw body}"`; during a secret rotation the header carries one `v1` per valid secret, and any
one matching is enough. A `t` more than 300 seconds from the receiver's clock is refused (replay
protection). Compare in constant time, on the raw body bytes, before parsing them.
"""

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
