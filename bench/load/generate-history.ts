// The history every path of the generate scenario carries: turns of ~280 characters (a question
// and its answer), the same whether dialogql keeps them or the client sends them whole.
const filler = "and a few more words, so that the turn is about as long as an ordinary short chat message tends to be";

export const chainHistory = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => [
    { role: "user", content: `Question ${from + i}: what comes after ${from + i}, ${filler}?` },
    { role: "assistant", content: `After ${from + i} comes ${from + i + 1}, ${filler}.` },
  ]).flat();
