# syntax=docker/dockerfile:1
# The escrow service: one image for every app server of a deployment (see compose.yaml and README "Deploy it").
# Node 24, the maintained LTS (Node 20's support ended in April 2026); the code itself still runs on Node 20.19+.

# ---- build: every dependency, then the web app (Vite), the server's bundle (esbuild) and a new PGlite store's
# template (PGlite's initdb, run here once so that a container never runs it) ----
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime: production dependencies (the server's and the CLI's only: the web app's packages are devDependencies,
# built into web/dist), the builds (the server and CLI bundles in dist/), and the sources they were built from ----
FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# pg_dump and pg_restore for `npm run cli -- backup` on PostgreSQL (Debian's client; compose's backup service uses the
# database image's own, always of the server's version).
RUN apt-get update && apt-get install -y --no-install-recommends postgresql-client && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/app-server ./app-server
COPY --from=build /app/domain ./domain
COPY --from=build /app/projections ./projections
COPY --from=build /app/migrations ./migrations
COPY --from=build /app/contract ./contract
# The bundles newer than every source, whatever times the copies kept: `npm run cli` (and `npm start`) rebuild a
# stale bundle, which the image's user could not write.
RUN touch dist/*.mjs
# The image's own user (uid 1000 in the node image): never root. PGlite's files, the secret key file and the mail
# outbox file (when there is no DATABASE_URL, SECRET_KEY or SMTP_URL) go to the volume.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/ready').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "--expose-gc", "dist/server.mjs"]
