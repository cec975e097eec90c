"""The Python SDK against a running `talent demo` (tests/sdks.sh starts it): an import, a list
walked page by page, a person's results, and a real webhook delivery verified with
talent_webhooks. Environment: TALENT_URL, TALENT_KEY, TALENT_ADMIN."""

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
    WebhookEndpointCreateRequestEventsItemType1,
)
from talent_api.types import UNSET
from standardwebhooks.webhooks import Webhook, WebhookVerificationError
from talent_webhooks import verify, verify_standard

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
            hook = create_webhook.sync(client=client(), body=WebhookEndpointCreateRequest(url=url, events=[WebhookEndpointCreateRequestEventsItemType1.VALUE_0]))
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


if __name__ == "__main__":
    unittest.main()
