# One build, a runtime tree slimmed to what the processes run, and two targets on it: `api` (the
# default, last) and `worker`. Both run either program (docker-compose and the Kubernetes manifests
# pick the command); the targets differ only in their default command and HEALTHCHECK.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# No install-time analytics from any dependency (swagger-ui-dist's scarf; package.json says so too).
ENV SCARF_ANALYTICS=false
COPY . .
RUN npm ci --no-audit --no-fund && node node_modules/typescript/bin/tsc -b && npm prune --omit=dev --no-audit --no-fund
# The runtime tree in /runtime: the manifests, each workspace's built sources (dist/src, never
# dist/test), the data files the reply engine reads (knowledge/, lexicons/), the worker's health
# script and the production node_modules (pruned above). No tests, bench, TypeScript sources or
# the test-only workspaces (testkit, knowledge-eval).
RUN set -eu; mkdir /runtime; cp package.json package-lock.json LICENSE /runtime/; \
    cp -R node_modules /runtime/node_modules; \
    for ws in apps/* packages/*; do \
      case "$ws" in packages/testkit|packages/knowledge-eval) continue;; esac; \
      mkdir -p "/runtime/$ws/dist"; cp "$ws/package.json" "/runtime/$ws/"; \
      cp -R "$ws/dist/src" "/runtime/$ws/dist/src"; \
      if [ -d "$ws/node_modules" ]; then cp -R "$ws/node_modules" "/runtime/$ws/node_modules"; fi; \
    done; \
    cp -R packages/reply-engine/knowledge packages/reply-engine/lexicons /runtime/packages/reply-engine/; \
    mkdir /runtime/scripts; cp scripts/worker-health.mjs /runtime/scripts/

FROM node:24-bookworm-slim AS runtime
# VERSION is the root package.json's (a test holds them equal); SOURCE_URL the repository the image is
# built from: pass --build-arg SOURCE_URL=<its URL> (the project records no public address).
ARG VERSION=0.1.0
ARG SOURCE_URL=
LABEL org.opencontainers.image.title="dialog-relay" \
      org.opencontainers.image.description="Conversation Message API: signed ingress, AI replies, webhook delivery to send_url" \
      org.opencontainers.image.version="${VERSION}" \
      org.opencontainers.image.licenses="Apache-2.0" \
      org.opencontainers.image.source="${SOURCE_URL}"
# SERVICE_NODE_OPTIONS of scripts/node-runtime.mjs (a test holds them equal): a 16 MiB semi-space.
ENV NODE_ENV=production NODE_OPTIONS=--max-semi-space-size=16
WORKDIR /app
COPY --from=build --chown=root:root /runtime /app
USER node
EXPOSE 8080

FROM runtime AS worker
# Liveness from the worker's own progress (its heartbeat file, WORKER_HEARTBEAT_FILE), not Redis.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 CMD ["node", "scripts/worker-health.mjs", "30"]
CMD ["node", "apps/worker/dist/src/main.js"]

FROM runtime AS api
HEALTHCHECK --interval=10s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:8080/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "apps/api/dist/src/main.js"]
