"""The Python SDK against a running `talent demo` (tests/sdks.sh starts it): an import, a list
walked page by page, a person's results, a real webhook delivery verified with talent_webhooks
(and the standardwebhooks package), and the helpers of talent_helpers: paging, typed exceptions,
a 429 retried after Retry-After, an Idempotency-Key on every POST. Environment: TALENT_URL,
TALENT_KEY, TALENT_ADMIN."""

import http.server
import json
import os
import threading
import unittest
import urllib.request

from talent_api import AuthenticatedClient
from talent_api.api.account import get_me
from talent_api.api.persons import import_person, import_person_batch, list_persons
from talent_api.api.results import get_person_results
from talent_api.api.webhooks import create_webhook, test_webhook
from talent_api.models import (
    AssessmentStatus,
    PersonBatchRequest,
    PersonImported,
    PersonImportRequest,
    PersonPage,
    PersonResults,
    WebhookEndpointCreateRequest,
)
from talent_api.types import UNSET
from standardwebhooks.webhooks import Webhook, WebhookVerificationError
from talent_webhooks import verify, verify_standard
from talent_api.api.persons import get_person
from talent_api.api.results import get_person_report
import httpx
import talent_helpers
from talent_helpers import NotFound, RetryTransport, ValidationError, call, connect, paginate

URL, KEY, ADMIN = os.environ["TALENT_URL"], os.environ["TALENT_KEY"], os.environ["TALENT_ADMIN"]


def client() -> AuthenticatedClient:
    return AuthenticatedClient(base_url=URL, token=KEY)


class Sdk(unittest.TestCase):
    def test_me_import_and_the_same_import_again(self):
        me = get_me.sync(client=client())
        self.assertEqual(me.plan, "business")
        body = PersonImportRequest(email="py.sdk@example.com", first_name="Py", tags=["sdk"])
        first = import_person.sync_detailed(client=client(), body=body, idempotency_key="py-sdk-1")
        self.assertEqual(first.status_code, 201, first.content)
        self.assertIsInstance(first.parsed, PersonImported)
        self.assertEqual(first.parsed.email, "py.sdk@example.com")
        again = import_person.sync_detailed(client=client(), body=body, idempotency_key="py-sdk-1")
        self.assertEqual(again.headers.get("idempotency-replayed"), "true")
        self.assertEqual(again.parsed.id, first.parsed.id)

    def test_a_batch_and_a_list_walked_page_by_page(self):
        persons = [PersonImportRequest(email=f"py.page{i}@example.com", tags=["py-paging"]) for i in range(7)]
        batch = import_person_batch.sync(client=client(), body=PersonBatchRequest(persons=persons))
        self.assertEqual([r.status for r in batch.results], [201] * 7)
        seen, cursor = [], UNSET
        while True:
            page = list_persons.sync(client=client(), tag="py-paging", limit=3, cursor=cursor)
            self.assertIsInstance(page, PersonPage)
            seen += [p.email for p in page.data]
            if not page.pagination.has_more:
                break
            cursor = page.pagination.next_cursor
        self.assertEqual(sorted(seen), sorted(p.email for p in persons))

    def test_results_of_a_demo_person(self):
        page = list_persons.sync(client=client(), assessment_status=AssessmentStatus.COMPLETED, limit=1)
        person = page.data[0]
        results = get_person_results.sync(client=client(), id=person.id)
        self.assertIsInstance(results, PersonResults)
        self.assertTrue(results.has_results)

    def test_a_real_delivery_is_verified_and_a_tampered_one_is_not(self):
        got = {}

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                got["body"] = self.rfile.read(int(self.headers["Content-Length"]))
                got["signature"] = self.headers["Talent-Signature"]
                got["headers"] = {k.lower(): v for k, v in self.headers.items()}
                self.send_response(200)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            url = f"http://127.0.0.1:{server.server_address[1]}/hooks"
            hook = create_webhook.sync(client=client(), body=WebhookEndpointCreateRequest(url=url, events=["*"]))
            result = test_webhook.sync(client=client(), id=hook.id)
            self.assertTrue(result.success)
            self.assertTrue(verify(hook.secret, got["signature"], got["body"]))
            self.assertEqual(json.loads(got["body"])["type"], "ping")
            self.assertFalse(verify(hook.secret, got["signature"], got["body"] + b" "))
            self.assertFalse(verify("whsec_other", got["signature"], got["body"]))
            self.assertFalse(verify(hook.secret, got["signature"], got["body"], now=0))
            # The Standard Webhooks headers: our helper and the standardwebhooks package from PyPI.
            envelope = json.loads(got["body"])
            self.assertEqual(got["headers"]["webhook-id"], envelope["eventId"])
            self.assertEqual(got["headers"]["talent-event-id"], envelope["eventId"])
            self.assertTrue(verify_standard(hook.secret, got["headers"], got["body"]))
            self.assertFalse(verify_standard(hook.secret, got["headers"], got["body"] + b" "))
            self.assertEqual(Webhook(hook.secret).verify(got["body"], got["headers"])["eventId"], envelope["eventId"])
            with self.assertRaises(WebhookVerificationError):
                Webhook(hook.secret).verify(got["body"] + b" ", got["headers"])
        finally:
            server.shutdown()
            server.server_close()


def admin(method: str, path: str, body: dict) -> dict:
    request = urllib.request.Request(
        URL + path, method=method, data=json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request) as answer:
        return json.load(answer)


class Helpers(unittest.TestCase):
    def test_paginate_walks_every_page_and_call_returns_the_parsed_answer(self):
        api = self.enterContext(connect(URL, KEY))
        persons = [PersonImportRequest(email=f"py.helpers{i}@example.com", tags=["py-helpers"]) for i in range(5)]
        call(import_person_batch, api, body=PersonBatchRequest(persons=persons))
        emails = sorted(p.email for p in paginate(list_persons, api, tag="py-helpers", limit=2))
        self.assertEqual(emails, sorted(p.email for p in persons))
        one = next(paginate(list_persons, api, tag="py-helpers", limit=1))
        self.assertEqual(call(get_person, api, id=one.id).email, one.email)
        done = next(paginate(list_persons, api, assessment_status=AssessmentStatus.COMPLETED, limit=1))
        self.assertTrue(call(get_person_report, api, id=done.id).startswith(b"%PDF"))

    def test_errors_raise_typed_exceptions_with_the_envelope(self):
        api = self.enterContext(connect(URL, KEY))
        with self.assertRaises(NotFound) as missing:
            call(get_person, api, id="00000000-0000-0000-0000-000000000000")
        self.assertEqual((missing.exception.status, missing.exception.code), (404, "not_found"))
        self.assertTrue(missing.exception.request_id)
        with self.assertRaises(ValidationError) as invalid:
            call(import_person, api, body=PersonImportRequest(email="not an address"))
        self.assertIn("email", [f["field"] for f in invalid.exception.details["fields"]])
        self.assertIsInstance(invalid.exception, talent_helpers.TalentError)

    def test_a_429_is_retried_after_retry_after_and_posts_carry_an_idempotency_key(self):
        # A key of a new organization on the professional plan: 60 requests a minute.
        org = admin("POST", "/admin/v1/organizations", {"companyName": "Retry", "email": "hr@retry.example", "plan": "professional", "subscriptionStatus": "active"})
        user = admin("POST", f"/admin/v1/organizations/{org['id']}/users", {"email": "a@retry.example", "role": "admin"})
        key = admin("POST", f"/admin/v1/users/{user['id']}/api-keys", {"scopes": ["persons:write"]})["key"]
        sent = []

        class Recording(httpx.HTTPTransport):
            def handle_request(self, request):
                sent.append((request.method, request.headers.get("idempotency-key")))
                return super().handle_request(request)

        transport = RetryTransport(Recording(), max_retries=5)
        api = self.enterContext(connect(URL, key, transport=transport))
        for _ in range(64):
            self.assertEqual(call(get_me, api).plan, "professional")
        self.assertGreater(transport.retries, 0, "the budget of 60 was spent and the 429s retried")
        imported = call(import_person, api, body=PersonImportRequest(email="retried@example.com"))
        self.assertEqual(imported.email, "retried@example.com")
        posts = [k for m, k in sent if m == "POST"]
        self.assertTrue(posts and all(posts) and len(set(posts)) == 1, f"one key, kept on retries: {posts}")


if __name__ == "__main__":
    unittest.main()
