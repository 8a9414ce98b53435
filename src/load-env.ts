// Reads `.env` from the working directory into process.env before the configuration is read
// (import this first). A variable already set in the environment wins over the file, so a
// supervisor or a test can still override one. `.env.example` lists every setting.
import { existsSync } from "node:fs";

const file = process.env.DOTENV_FILE ?? ".env";
if (existsSync(file)) process.loadEnvFile(file);
