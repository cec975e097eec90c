# Talent: the two set-up commands are `make run` and `make test`.
TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/test
export TEST_DATABASE_URL

.PHONY: run test lint fmt build release

## run: serve on the embedded SQLite default with a demo organization; prints an API key.
run:
	cargo run -p talent-app --bin talent -- demo

## test: formatting, clippy, and every test (domain, store on SQLite and PostgreSQL, end-to-end).
test: lint
	cargo test --workspace

lint:
	cargo fmt --all -- --check
	cargo clippy --workspace --all-targets -- -D warnings

fmt:
	cargo fmt --all

build:
	cargo build --workspace

release:
	cargo build --release -p talent-app
