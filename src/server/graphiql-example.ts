// The operations GraphiQL opens with: write a turn, watch a dialog, read the history back.
export const exampleQuery = /* GraphQL */ `
  # Welcome to dialogql. Write a turn, then read the history back.
  # Watch a dialog live: run WatchDialog with its id here, then write to it from another tab.
  mutation Start {
    createResponse(
      input: { model: "gpt-4o", input: [{ human: { content: "Hello" } }], output: [{ ai: { content: "Hi!" } }] }
    ) {
      ... on Response {
        id
        dialog {
          id
        }
      }
      ... on Error {
        message
        code
      }
    }
  }

  subscription WatchDialog {
    historyDelta(dialogId: "<dialog id>", afterSeq: 0) {
      seq
      previousSeq
      status
      append {
        __typename
        ... on BaseHistoryEvent {
          seq
        }
        ... on HumanEvent {
          content
        }
        ... on AiEvent {
          content
        }
      }
    }
  }

  query Dialogs {
    dialogs(first: 5) {
      edges {
        node {
          id
          title
          history {
            totalMessages
            edges {
              node {
                __typename
                ... on HumanEvent {
                  content
                }
                ... on AiEvent {
                  content
                }
              }
            }
          }
        }
      }
    }
  }
`;
