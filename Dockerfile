# One image for both processes; docker-compose picks the command.
FROM node:24-bookworm-slim AS build
WORKDIR /app
# No install-time analytics from any dependency (swagger-ui-dist's scarf; package.json says so too).
ENV SCARF_ANALYTICS=false
COPY . .
RUN npm ci --no-audit --no-fund && node node_modules/typescript/bin/tsc -b && npm prune --omit=dev

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
COPY --from=build /app /app
USER node
EXPOSE 8080
CMD ["node", "apps/api/dist/src/main.js"]
