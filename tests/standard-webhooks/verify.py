"""Verifies every webhook delivery the end-to-end tests received with the `standardwebhooks`
library from PyPI (not with Talent's own verifier): each line of the log is one delivery the
tests' receiver got, as JSON {secret, headers, body, at}; `at` is when it arrived (Unix seconds),
the "now" of the library's timestamp check (the tests move the service's clock).

Usage: python3 verify.py LOG MIN_DELIVERIES
"""
import json
import sys
from datetime import datetime, timezone

from standardwebhooks.webhooks import Webhook


class AtArrival(Webhook):
    """The library's verification, its timestamp tolerance measured from the arrival time."""

    def __init__(self, secret, at):
        super().__init__(secret)
        self.at = at

    def verify(self, data, headers):
        import standardwebhooks.webhooks as module

        real = module.datetime

        class Frozen(datetime):
            @classmethod
            def now(cls, tz=None):
                return datetime.fromtimestamp(self.at, tz or timezone.utc)

        module.datetime = Frozen
        try:
            return super().verify(data, headers)
        finally:
            module.datetime = real


def main():
    path, least = sys.argv[1], int(sys.argv[2])
    n = 0
    with open(path) as f:
        for line in f:
            d = json.loads(line)
            AtArrival(d["secret"], d["at"]).verify(d["body"], d["headers"])
            # A changed body must fail: the check can fail.
            try:
                AtArrival(d["secret"], d["at"]).verify(d["body"] + " ", d["headers"])
            except Exception:
                pass
            else:
                sys.exit(f"a changed body verified: {d['headers']}")
            n += 1
    if n < least:
        sys.exit(f"only {n} deliveries were logged (at least {least} expected)")
    print(f"standardwebhooks: {n} deliveries of the end-to-end tests verified")


if __name__ == "__main__":
    main()
