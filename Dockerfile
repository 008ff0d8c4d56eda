# The service image: every process of the platform (npm start's standalone by default; the
# scale-out services and the admin CLI by their own command, see infra/compose.yaml).
#
# Build stage: every dependency (TypeScript, node-gyp for better-sqlite3, pip and a C compiler for
# the agent's embedding model), the compiled output, then the dev dependencies pruned away.
FROM node:24-bookworm AS build
WORKDIR /app
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends python3-pip \
  && rm -rf /var/lib/apt/lists/*
COPY . .
RUN npm ci --no-audit --no-fund \
  && mkdir -p models \
  && npm run build \
  && npm prune --omit=dev --no-audit --no-fund

# Runtime stage: Node 24 LTS, production dependencies and compiled output only (no sources of
# tests, no dev dependencies, no compilers), as the unprivileged `node` user.
FROM node:24-bookworm-slim
# libgomp: the embedding model's engine runs on OpenMP.
RUN apt-get update \
  && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends libgomp1 \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /data \
  && chown node:node /data
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080 DATA_DIR=/data
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/packages ./packages
COPY --from=build /app/features ./features
COPY --from=build /app/services ./services
COPY --from=build /app/models ./models
USER node
VOLUME ["/data"]
EXPOSE 8080
# Ready: the engines answer and no consumer lags (GET /readyz, outside /v1, no key).
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8080) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "services/standalone/dist/main.js"]
