# syntax=docker/dockerfile:1
# One image for every component: `docker run IMAGE gateway|auth|accounts|quotes-transactions|notifications`
# (default `all`: every component in one process on the embedded defaults).
#
# `bash scripts/check-image-build.sh` builds every stage with podman (`.ci/run` does, then starts the
# image's components read-only as uid 1000). `npm run check:image` (scripts/check-image.mjs) runs the
# prod-deps and runtime stages instruction by instruction in a scratch directory, taking the build
# stage from this tree, so keep those two stages to WORKDIR, COPY, RUN, ENV, USER, EXPOSE, VOLUME,
# ENTRYPOINT, CMD.

# ---- build: all dependencies, generated code (buf + ts-proto, offline), TypeScript -> dist/ ----
FROM node:20-bookworm-slim AS build
# better-sqlite3's install script compiles its native addon when its prebuilt binary cannot be
# downloaded (a build host without a route to GitHub): node-gyp needs python3, make and g++.
RUN apt-get update \
  && apt-get install -y --no-install-recommends python3 make g++ \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# ---- prod-deps: production dependencies only, exactly as locked ----
# The build stage's tree (better-sqlite3's native addon built once, there) without the dev dependencies.
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
RUN npm prune --omit=dev --no-audit --no-fund

# ---- runtime ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Files stay owned by root: the app user can read but not modify its own code.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/gen ./gen
# The embedded store's data directory (the default DATA_DIR of `all`), the one place uid 1000 writes.
RUN mkdir -p /app/data && chown 1000:1000 /app/data
VOLUME /app/data
# 1000 is the image's `node` user; numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 50051
ENTRYPOINT ["node", "dist/main.js"]
CMD ["all"]
