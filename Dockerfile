# payment-sandbox in a container, for merchants' CI:
#   docker build -t payment-sandbox .
#   docker run --rm -p 4010:4010 payment-sandbox
#   docker run --rm -p 4010:4010 -v sandbox-data:/data payment-sandbox --db /data/sandbox.sqlite \
#     --public-url http://localhost:4010 --notification-url http://host.docker.internal:3000/webhooks
# Options are the CLI's flags (after the image name) or PAYMENT_SANDBOX_* variables.
FROM node:24-bookworm-slim AS build
# better-sqlite3 compiles from source when no prebuilt binary can be downloaded.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
COPY scripts ./scripts
COPY docs ./docs
COPY README.md CONTRIBUTING.md ./
# `npm ci` builds dist/ through `prepare`; npm can print an error and still exit 0, so the
# step also fails when the build output is missing.
RUN npm ci --no-audit --no-fund \
 && test -f dist/cli.js && test -f dist/index.js \
 && npm prune --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/better-sqlite3/deps node_modules/better-sqlite3/src node_modules/better-sqlite3/build/Release/obj* \
      node_modules/better-sqlite3/build/Release/.deps node_modules/better-sqlite3/build/deps

FROM node:24-bookworm-slim
WORKDIR /app
# NODE_COMPILE_CACHE: V8's compiled code of the bundle, made at build time (warm-cache.mjs below),
# so a container starts without compiling it again.
ENV NODE_ENV=production PAYMENT_SANDBOX_HOST=0.0.0.0 PAYMENT_SANDBOX_PORT=4010 NODE_COMPILE_CACHE=/app/.compile-cache
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json LICENSE README.md ./
COPY bin ./bin
COPY public ./public
COPY scenarios ./scenarios
COPY fixtures ./fixtures
COPY examples/webhook-handlers ./examples/webhook-handlers
COPY docker/healthcheck.mjs docker/warm-cache.mjs ./docker/
RUN node docker/warm-cache.mjs
# The data volume: run with `--db /data/sandbox.sqlite` to keep data across restarts.
RUN mkdir -p /data && chown node:node /data
VOLUME /data
EXPOSE 4010
# Finds the port the sandbox listens on, so it stays right with --port or PAYMENT_SANDBOX_PORT.
# Every second, so the container is healthy about a second after the sandbox answers (the
# check costs one short `node` process; --start-interval would limit that to the start period,
# but podman 4 refuses the flag).
HEALTHCHECK --interval=1s --timeout=5s --start-period=10s --retries=3 CMD ["node", "docker/healthcheck.mjs"]
USER node
ENTRYPOINT ["node", "bin/payment-sandbox.js"]
