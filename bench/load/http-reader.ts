// Child process: times one GraphQL query against dialogql over HTTP, ITERATIONS times after a
// warm-up, so the client's fetch and JSON parsing run on their own event loop and core rather
// than the server's. Each answer is parsed and checked, as a real client would.
import { emit } from "../lib/report.js";
import { graphql } from "../lib/graphql-client.js";
import { timeEach } from "../lib/stats.js";

const url = process.env.TARGET_URL!;
const query = process.env.QUERY!;
const variables = JSON.parse(process.env.VARIABLES ?? "{}") as Record<string, unknown>;
const iterations = Number(process.env.ITERATIONS);

const samples = await timeEach(iterations, () => graphql(url, query, variables));
emit([{ samples } as never]);
