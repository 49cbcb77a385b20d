# syntax=docker/dockerfile:1
# Otklik: one image for the server (API + websocket + jobs) and the built web app (README "Deploying").
#   docker build -t otklik .
#   docker run -p 3000:3000 -v otklik-data:/data -e SECRET_KEY=... otklik
# The server runs its TypeScript through tsx, as `npm start` does; there is no separate server build.

ARG NODE_VERSION=22

# 1. Every workspace's dependencies (dev ones too: vite builds the web app).
FROM node:${NODE_VERSION}-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --no-audit --no-fund

# 2. The web app: apps/web/dist (with .br and .gz copies the server sends as they are).
FROM deps AS build
COPY tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/web apps/web
RUN npm run build

# 3. The server's production dependencies only.
FROM node:${NODE_VERSION}-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/shared/package.json packages/shared/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY e2e/package.json e2e/
RUN npm ci --omit=dev --no-audit --no-fund --workspace apps/server --workspace packages/shared \
  && npm cache clean --force

# 4. Runtime: no compilers, no dev dependencies, not root.
FROM node:${NODE_VERSION}-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY package.json tsconfig.base.json ./
COPY packages/shared packages/shared
COPY apps/server/package.json apps/server/tsconfig.json apps/server/
COPY apps/server/src apps/server/src
COPY scripts/migrate.ts scripts/admin.ts scripts/
COPY --from=build /app/apps/web/dist apps/web/dist
# The embedded database, customers' files and exports live in DATA_DIR: keep it on a volume. With
# several nodes, give them one shared volume (README "Running on PostgreSQL + Redis").
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 3000
# Liveness only (the process answers); readiness (/readyz: database and Redis) is the orchestrator's.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/livez').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM: readiness turns 503, sockets are closed with 1001, requests and jobs finish (SHUTDOWN_TIMEOUT_S).
STOPSIGNAL SIGTERM
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
