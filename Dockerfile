# payment-sandbox in a container, for merchants' CI:
#   docker build -t payment-sandbox . && docker run -p 4010:4010 payment-sandbox
FROM node:20-bookworm-slim AS build
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json ./
COPY src ./src
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production PAYMENT_SANDBOX_HOST=0.0.0.0 PAYMENT_SANDBOX_PORT=4010
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY bin ./bin
COPY public ./public
COPY scenarios ./scenarios
EXPOSE 4010
HEALTHCHECK --interval=10s --timeout=3s CMD node -e "fetch('http://127.0.0.1:4010/_sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
USER node
ENTRYPOINT ["node", "bin/payment-sandbox.js"]
