# syntax=docker/dockerfile:1
# Talent's container image (docs/deployment.md): built from this workspace, multi-stage, runs as
# a non-root user, with a health check. Build and run:
#   docker build --build-arg TALENT_GIT_COMMIT=$(git rev-parse --short=12 HEAD) -t talent .
#   docker run -p 8080:8080 -v talent-data:/var/lib/talent talent
# The defaults serve on SQLite in the volume; set DATABASE_URL=postgres://… (and the variables of
# docs/deployment.md) for PostgreSQL. tests/deploy.sh checks this file's runtime settings.

FROM rust:1.95-slim-trixie AS build
WORKDIR /build
ARG TALENT_GIT_COMMIT=unknown
ENV TALENT_GIT_COMMIT=${TALENT_GIT_COMMIT}
COPY Cargo.toml Cargo.lock ./
COPY crates crates
COPY migrations migrations
RUN --mount=type=cache,target=/usr/local/cargo/registry \
    --mount=type=cache,target=/build/target \
    cargo build --profile dist --locked -p talent-app \
    && cp target/dist/talent /usr/local/bin/talent

FROM debian:trixie-slim
# curl for the health check; ca-certificates for webhooks and SMTP over TLS; fonts-noto-cjk for
# Chinese, Japanese and Korean text in PDF reports.
RUN apt-get update \
    && apt-get install -y --no-install-recommends ca-certificates curl fonts-noto-cjk \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --home-dir /var/lib/talent --create-home talent
COPY --from=build /usr/local/bin/talent /usr/local/bin/talent
USER 10001:10001
WORKDIR /var/lib/talent
ENV TALENT_LISTEN=0.0.0.0:8080
ENV DATABASE_URL=sqlite:///var/lib/talent/talent.db
ENV TALENT_LOG_FORMAT=json
VOLUME ["/var/lib/talent"]
EXPOSE 8080
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
    CMD curl -fsS http://127.0.0.1:8080/healthz || exit 1
ENTRYPOINT ["/usr/local/bin/talent"]
CMD ["serve"]
