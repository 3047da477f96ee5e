# One image for every process of the API; the compose file picks the command.
FROM node:20-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
COPY libs ./libs
COPY apps ./apps
COPY indexer ./indexer
RUN npm ci --no-audit --no-fund
COPY . .
EXPOSE 8080 8081
CMD ["npx", "tsx", "apps/server/src/main.ts"]
