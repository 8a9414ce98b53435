// The chat's own operations: stop a turn, and name a dialog from its first exchange. Typed by
// codegen like the client's.
import { graphql } from "../../../src/client/generated/index.js";

export const CancelResponseDocument = graphql(`
  mutation CancelResponseFromViewer($responseId: ID!) {
    cancelResponse(responseId: $responseId) {
      __typename
      ... on Response {
        id
        status
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const TitleDialogDocument = graphql(`
  mutation TitleDialogFromViewer($dialogId: ID!, $model: String) {
    titleDialog(dialogId: $dialogId, model: $model) {
      __typename
      ... on Dialog {
        id
        title
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const RecentModelsDocument = graphql(`
  query RecentModels {
    models {
      configured
      defaultModel
    }
    dialogs(first: 50, orderBy: RECENTLY_UPDATED) {
      edges {
        node {
          id
          head {
            id
            model
          }
        }
      }
    }
  }
`);

export const ImportChatsDocument = graphql(`
  mutation ImportChatsFromViewer($input: ImportChatsInput!) {
    importChats(input: $input) {
      __typename
      ... on ImportChatsPayload {
        format
        conversations
        imported
        skipped
        dialogs {
          id
        }
      }
      ... on ValidationError {
        message
        fieldErrors {
          path
          message
        }
      }
      ... on Error {
        code
        message
      }
    }
  }
`);

export const ShareLinksDocument = graphql(`
  query ShareLinks($id: ID!) {
    dialog(id: $id) {
      id
      shareLinks {
        token
        path
        responseId
        expiresAt
      }
    }
  }
`);

export const CreateShareLinkDocument = graphql(`
  mutation CreateShareLinkFromViewer($input: CreateShareLinkInput!) {
    createShareLink(input: $input) {
      __typename
      ... on ShareLink {
        token
        path
      }
      ... on Error {
        message
      }
    }
  }
`);

export const RevokeShareLinkDocument = graphql(`
  mutation RevokeShareLinkFromViewer($token: String!) {
    revokeShareLink(token: $token) {
      __typename
      ... on ShareLink {
        token
        revokedAt
      }
      ... on Error {
        message
      }
    }
  }
`);
