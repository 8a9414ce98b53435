// The history every path of the generate scenario carries: turns of ~280 characters (a question
// and its answer), the same whether dialogql keeps them or the client sends them whole.
const filler = "and a few more words, so that the turn is about as long as an ordinary short chat message tends to be";

// `chat` makes each conversation's history its own (chat 0's is the history it always was): the
// Chat Completions door matches a request to the newest stored context equal to its beginning, so
// 16 clients resending one identical history would all continue the same response, in one dialog,
// where /v1/responses' 16 clients each continue a chain of their own (issue 26).
export const chainHistory = (from: number, count: number, chat = 0) =>
  Array.from({ length: count }, (_, i) => [
    {
      role: "user",
      content: `Question ${from + i}${chat ? ` of chat ${chat}` : ""}: what comes after ${from + i}, ${filler}?`,
    },
    { role: "assistant", content: `After ${from + i} comes ${from + i + 1}, ${filler}.` },
  ]).flat();
