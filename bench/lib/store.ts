// The benchmark process's configuration and store, from its environment, opened once on import
// (a scenario is a process of its own).
import { loadConfig } from "../../src/config.js";
import { openStore } from "../../src/store/store.js";

export const config = loadConfig(process.env);
export const store = await openStore(config);
export const { database, prisma } = store;
export const closeDatabase = () => store.close();
