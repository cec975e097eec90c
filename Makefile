# Talent: the two set-up commands are `make run` and `make test`.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
export TEST_DATABASE_URL

.PHONY: run test lint fmt build release openapi schemathesis tour guides sdks sdk-test deploy-check openapi-lint bench chaos chaos-quick

## run: serve on the embedded SQLite default with a demo organization; prints an API key.
run:
	cargo run -p talent-app --bin talent -- demo

## test: formatting, clippy, every test (domain, store on SQLite and PostgreSQL, end-to-end; every
## webhook delivery the end-to-end tests receive verified again with PyPI's standardwebhooks),
## schemathesis against the running binary, the README's tour run as written, and two minutes of
## `make chaos`. Chromium and
## chromedriver for the dashboard's browser test are installed with apt when missing
## (tests/browser-deps.sh).
test: lint
	tests/browser-deps.sh
	rm -f target/e2e-standard-webhooks.jsonl
	TALENT_E2E_STANDARD_WEBHOOKS_LOG=$(CURDIR)/target/e2e-standard-webhooks.jsonl cargo test --workspace -- --test-threads 8
	tests/standard-webhooks.sh target/e2e-standard-webhooks.jsonl
	$(MAKE) schemathesis tour guides sdk-test deploy-check chaos-quick BUILD_TALENT="$(TEST_BUILD_TALENT)"
	tests/openapi-lint.sh

## How the targets below build target/debug/talent. `cargo build -p talent-app` resolves the
## features of talent-app's dependencies alone, `cargo test --workspace` those of every member and
## its dev-dependencies: after a test run the first recompiled ~20 crates (2 minutes of a cold
## CI run) and replaced the binary the tests had just used. `make test` builds it the tests' way,
## which is then a no-op.
BUILD_TALENT ?= cargo build -p talent-app --bin talent
TEST_BUILD_TALENT = cargo test --workspace --no-run -q

## guides: runs the sandbox walk of each ATS guide (docs/connectors/) against `talent demo`, as
## written, with a stand-in ATS that records what Talent sends it (needs curl, jq, python3).
guides:
	$(BUILD_TALENT)
	tests/guides.sh target/debug/talent

## tour: runs every shell block of the README's "five-minute tour" against `talent demo`, as
## written (needs curl, jq, python3).
tour:
	$(BUILD_TALENT)
	tests/tour.sh target/debug/talent

## schemathesis: validates docs/openapi.json and runs schemathesis (PyPI) against `talent demo`,
## on SQLite and (with TEST_DATABASE_URL) on PostgreSQL, side by side.
schemathesis:
	$(BUILD_TALENT)
	tests/schemathesis/run.sh target/debug/talent sqlite $(if $(TEST_DATABASE_URL),postgres)

## sdks: regenerates the Python and TypeScript SDKs from docs/openapi.json (sdks/generate.sh;
## openapi-python-client from PyPI, openapi-typescript from npm). Run after `make openapi`.
sdks:
	sdks/generate.sh

## sdk-test: checks that the committed SDKs are current and runs each against `talent demo`.
sdk-test:
	$(BUILD_TALENT)
	tests/sdks.sh target/debug/talent

## deploy-check: checks the Dockerfile's build context and runtime settings, the example systemd
## unit and environment file of docs/deployment.md (no container runtime needed).
deploy-check:
	$(BUILD_TALENT)
	tests/deploy.sh target/debug/talent

## openapi-lint: Redocly's recommended rules on docs/openapi.json, 0 errors and 0 warnings (the CLI
## pinned in tests/lint, from npm).
openapi-lint:
	tests/openapi-lint.sh

## openapi: regenerates docs/openapi.json from the code (a test fails while it is stale).
openapi:
	cargo run -q -p talent-app --bin talent -- openapi > docs/openapi.json

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

fmt:
	cargo fmt --all

build:
	cargo build --workspace

## release: the binary users install (target/dist/talent: release, stripped).
release:
	cargo build --profile dist -p talent-app

## bench: release build, then the scenarios on SQLite and PostgreSQL: the delivery engine (import
## with a live endpoint, a 10,000-delivery backlog, a hanging tenant) and the request path (/me and
## /healthz under wrk beside a bare actix-web reference, the rate limiter, lists, matches, ATS orders and pushes).
## Installs wrk, redis-server and haproxy with apt-get when missing (as root).
## BACKEND=sqlite|postgres|both, BENCH_SCENARIOS=webhooks,requests,limiter,lists,matches,connectors. Figures in docs/performance.md. Not part of `make test` (it
## measures; it does not judge).
bench:
	cargo build --release -p talent-app -p talent-bench
	target/release/talent-bench target/release/talent $(or $(BACKEND),both)

## chaos-quick: `make chaos` for 2 minutes on the debug binaries (part of `make test`).
chaos-quick:
	$(BUILD_TALENT)
	cargo build -q -p talent-bench
	target/debug/talent-bench target/debug/talent chaos --quick

## chaos: three instances behind HAProxy on a PostgreSQL and a Redis of their own, under imports,
## while instances are killed, PostgreSQL stops and Redis restarts; checks that nothing is lost
## (CHAOS=--quick: 2 minutes instead of 10).
chaos:
	cargo build --release -p talent-app -p talent-bench
	target/release/talent-bench target/release/talent chaos $(CHAOS)
