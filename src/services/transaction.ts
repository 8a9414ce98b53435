import type { prisma } from "../db/prisma.js";

export type Tx = Parameters<Parameters<typeof prisma.$transaction>[0]>[0];

// Writers to one dialog queue on its row lock, and PGlite runs one transaction at a time:
// under load a transaction may wait well past Prisma's 2 s default before it starts.
export const transactionOptions = { maxWait: 30_000, timeout: 30_000 };
