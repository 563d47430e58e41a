# Multi-stage build on the current Node LTS. Build stage compiles TypeScript; the runtime stage
# has production dependencies and the compiled output only, and runs as the unprivileged user.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --ignore-scripts: `prepare` would build before the sources are copied.
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json nest-cli.json ./
COPY src ./src
COPY generated ./generated
COPY sandbox ./sandbox
COPY migrations ./migrations
COPY scripts/build.mjs ./scripts/
RUN npm run build

FROM node:24-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
# --omit=optional: the embedded PostgreSQL's binaries (optional dependencies, ~60 MB) are for a
# development machine; production reaches its PostgreSQL by DATABASE_URL.
RUN npm ci --omit=dev --omit=optional --ignore-scripts && npm cache clean --force
COPY --from=build /app/dist ./dist
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=3s --start-period=20s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/health/ready').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
# The heap cap keeps RSS under 300 MB at saturation (BENCHMARKS.md); same flags as `npm start`.
CMD ["node", "--max-old-space-size=192", "--max-semi-space-size=16", "dist/src/main.js"]
