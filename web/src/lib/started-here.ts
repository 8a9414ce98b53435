// Dialogs started in this tab, with the model they talk to: once their first exchange ends they are
// given a title. A dialog merely opened here (an agent's) is never renamed by being looked at.
export const startedHere = new Map<string, string | null>();
