// `npm run schema:print`: rewrite schema.graphql, the checked-in contract, from the code.
import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { schema } from "../src/schema/index.js";

writeFileSync(new URL("../schema.graphql", import.meta.url), `${printSchema(schema)}\n`);
console.log("schema.graphql written");
process.exit(0);
