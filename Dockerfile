# dialogql as an image: built with the dev dependencies, run with the production ones only.
#   docker build -t dialogql .
#   docker run -p 4000:4000 -v dialogql-data:/app/data dialogql          (embedded PostgreSQL)
#   docker compose up                                                     (PostgreSQL + Redis)
# test/production-install.test.ts performs this file's last stage (its COPY, npm ci and postinstall steps)
# on a temporary directory, so the recipe is checked where Docker cannot build.

# --- build: install everything, build the Prisma client, the viewer and dist/ ---------------
FROM node:20-bookworm-slim AS build
WORKDIR /app
# The dependencies first, in a layer of their own: an edit to the sources reuses it, and only a
# change to package.json or package-lock.json installs again. (--ignore-scripts: the postinstall
# builds the tree, which is not copied yet.)
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
# What the postinstall does on a development install: prisma generate, vite build, esbuild, then
# the PGlite template.
RUN node scripts/postinstall.mjs

# --- runtime: the built tree and production dependencies, as a non-root user ----------------
FROM node:20-bookworm-slim AS runtime
ENV NODE_ENV=production
WORKDIR /app
# The production dependencies first, in a layer of their own, as in the build stage: an edit to
# the sources changes dist/ but reuses this layer. --omit=optional too: npm otherwise keeps prisma
# and typescript, optional peers of @prisma/client. (--ignore-scripts: the postinstall needs the
# built tree, copied next; no production dependency needs its own install script.)
COPY --from=build /app/package.json /app/package-lock.json ./
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/scripts ./scripts
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
COPY --from=build /app/config ./config
COPY --from=build /app/.env.example ./.env.example
# The postinstall sees no build tools here: it checks the build and makes the PGlite template.
RUN node scripts/postinstall.mjs && mkdir -p /app/data && chown node:node /app/data
USER node
ENV PORT=4000 HOST=0.0.0.0
EXPOSE 4000
VOLUME ["/app/data"]
HEALTHCHECK --interval=15s --timeout=3s --start-period=30s \
  CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "--enable-source-maps", "dist/main.js"]
