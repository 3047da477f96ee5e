# One image for every process of the API; the compose file picks the command.
FROM node:24-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY libs ./libs
COPY apps ./apps
COPY indexer ./indexer
# Production dependencies only: tsx, which runs the TypeScript sources, is one of them.
RUN npm ci --omit=dev --no-audit --no-fund
COPY . .
EXPOSE 8080
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
