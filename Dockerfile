# 车管星 · Fleet Star: console, API and JT/T 808 gateway in one image.
#   docker build -t fleet-star .
#   docker run -p 8000:8000 -p 6808:6808 -v fleet-data:/data fleet-star        (embedded database)
#   docker compose up -d                                                        (PostgreSQL + NATS)
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The whole tree before `npm ci`: its postinstall (`max setup`) reads .umirc.ts and src/.
COPY . .
RUN npm ci --no-audit --no-fund
# The console, built once here so the server never builds it at start (CONSOLE_DIR=/app/dist).
RUN npx max build

FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production \
    PORT=8000 \
    HOST=0.0.0.0 \
    JT808_PORT=6808 \
    JT1078_MEDIA_PORT=6078 \
    DATA_DIR=/data \
    CONSOLE_DIR=/app/dist
COPY --from=build /app /app
# /data for the embedded database; dist/ so the server can write its .br/.gz copies beside the build.
RUN mkdir -p /data && chown node:node /data && chown -R node:node /app/dist
USER node
VOLUME ["/data"]
EXPOSE 8000 6808 6078
HEALTHCHECK --interval=30s --timeout=5s --start-period=120s \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||8000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# node itself (not npm) is PID 1's child, so `docker stop` (SIGTERM) closes the server cleanly.
CMD ["node", "--import", "tsx", "server/main.ts"]
