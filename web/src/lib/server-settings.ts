// What the server says about itself in the page's <head> (src/server/web-viewer.ts). A page without
// it (the Vite dev server's) is a development server's, where everything is on.

const meta = (name: string) => document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;

/** Whether /graphql serves GraphiQL (off in production, where it answers 403). */
export const graphiqlServed = meta("dialogql-graphiql") !== "off";
