# One image for every process of the API; the compose file picks the command.

# Stage 1: the web client (apps/web), built with the dev dependencies (Vite) that the image leaves out.
FROM node:24-bookworm-slim AS web
WORKDIR /app
COPY . .
RUN npm ci --no-audit --no-fund && npm run build

FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY libs ./libs
COPY apps ./apps
COPY indexer ./indexer
COPY clients ./clients
# Production dependencies only: tsx, which runs the TypeScript sources, is one of them.
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
# The built page, served at / by apps/server.
COPY --from=web /app/apps/web/dist ./apps/web/dist
EXPOSE 8080
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
