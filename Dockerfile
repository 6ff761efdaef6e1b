# syntax=docker/dockerfile:1
# One image for every component: `docker run IMAGE gateway|auth|accounts|quotes-transactions|notifications`
# (default `all`: every component in one process on the embedded defaults).
#
# `npm run check:image` (scripts/check-image.mjs) runs the prod-deps and runtime stages below
# instruction by instruction in a scratch directory and starts every component from the result
# as uid 1000, so keep these stages to WORKDIR, COPY, RUN, ENV, USER, EXPOSE, VOLUME, ENTRYPOINT, CMD.

# ---- build: all dependencies, generated code (buf + ts-proto, offline), TypeScript -> dist/ ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npm run build

# ---- prod-deps: production dependencies only, exactly as locked ----
# better-sqlite3 (the embedded store) has a native addon: its install script fetches the prebuilt
# binary (or compiles it), so install scripts stay on.
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN --mount=type=cache,target=/root/.npm npm ci --omit=dev --no-audit --no-fund

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
