// The web viewer's build: `npm run build:web` writes web/dist, which the dialogql server serves
// at `/`. `npm run dev:web` serves it with hot reload and sends API calls to a server on :4000.
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const api = process.env.DIALOGQL_URL ?? "http://localhost:4000";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        // The libraries in chunks of their own, each under the 500 kB warning: they change less
        // often than the viewer (cached across its releases) and load in parallel with it.
        codeSplitting: {
          groups: [
            {
              name: "markdown",
              test: /node_modules[\\/](react-markdown|remark|micromark|mdast|hast|unified|unist|vfile|lowlight|highlight\.js)/,
            },
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: "vendor", test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    proxy: {
      "/graphql": { target: api, ws: true },
      "/api": { target: api },
    },
  },
});
