# syntax=docker/dockerfile:1
# One image for every component: `docker run IMAGE gateway|auth|accounts|quotes-transactions|notifications`
# (default `all`: every component in one process on the embedded defaults).

# ---- build: all dependencies, generated code (buf + ts-proto, offline), TypeScript -> dist/ ----
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# grpc-server.js looks for the reflection descriptor set at dist/gen/descriptor.binpb
# (relative to its compiled location); tsc does not copy it, so place it there too.
RUN npm run build \
 && cp gen/descriptor.binpb dist/gen/descriptor.binpb

# ---- prod-deps: production dependencies only ----
FROM node:20-bookworm-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency needs an install script (protobufjs's only prints a version hint).
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

# ---- runtime ----
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Files stay owned by root: the app user can read but not modify its own code.
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/dist ./dist
COPY --from=build /app/gen ./gen
# 1000 is the image's `node` user; numeric so Kubernetes can verify runAsNonRoot.
USER 1000:1000
EXPOSE 8080 50051
ENTRYPOINT ["node", "dist/main.js"]
CMD ["all"]
