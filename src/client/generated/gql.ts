/* eslint-disable */
import * as types from "./graphql.js";
import type { TypedDocumentNode as DocumentNode } from "@graphql-typed-document-node/core";

/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
  "\n  fragment ContentPartFields on ContentPart {\n    __typename\n    ... on TextPart {\n      text\n    }\n    ... on ImageUrlPart {\n      url\n      detail\n    }\n    ... on AudioPart {\n      format\n    }\n    ... on FilePart {\n      fileId\n      filename\n    }\n  }\n": typeof types.ContentPartFieldsFragmentDoc;
  "\n  fragment HistoryEventFields on HistoryEvent {\n    __typename\n    ... on BaseHistoryEvent {\n      id\n      seq\n      type\n      createdAt\n      metadata\n      response {\n        id\n      }\n    }\n    ... on HumanEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on AiEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on SystemEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on ReasoningEvent {\n      content\n      modelName\n    }\n    ... on ToolCallEvent {\n      callId\n      toolName\n      args\n    }\n    ... on ToolResultEvent {\n      callId\n      toolName\n      content\n      isError\n    }\n  }\n": typeof types.HistoryEventFieldsFragmentDoc;
  "\n  fragment ResponseSummary on Response {\n    id\n    status\n    model\n    depth\n    createdAt\n    completedAt\n    error\n    metadata\n    usage {\n      inputTokens\n      outputTokens\n      reasoningTokens\n      totalTokens\n    }\n    previousResponse {\n      id\n    }\n  }\n": typeof types.ResponseSummaryFragmentDoc;
  "\n  fragment DialogSummary on Dialog {\n    id\n    title\n    metadata\n    createdAt\n    updatedAt\n    lastSeq\n    head {\n      id\n      status\n      model\n    }\n  }\n": typeof types.DialogSummaryFragmentDoc;
  "\n  fragment WriteErrorFields on Error {\n    __typename\n    message\n    code\n    ... on ValidationError {\n      fieldErrors {\n        path\n        message\n      }\n    }\n  }\n": typeof types.WriteErrorFieldsFragmentDoc;
  "\n  mutation CreateDialog($input: CreateDialogInput!) {\n    createDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.CreateDialogDocument;
  "\n  mutation UpdateDialog($input: UpdateDialogInput!) {\n    updateDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.UpdateDialogDocument;
  "\n  mutation DeleteDialog($input: DeleteDialogInput!) {\n    deleteDialog(input: $input) {\n      __typename\n      ... on DeleteDialogPayload {\n        id\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.DeleteDialogDocument;
  "\n  mutation CreateResponse($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        dialog {\n          id\n        }\n        input {\n          ...HistoryEventFields\n        }\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.CreateResponseDocument;
  "\n  mutation AppendEvents($input: AppendEventsInput!) {\n    appendEvents(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.AppendEventsDocument;
  "\n  mutation CompleteResponse($input: CompleteResponseInput!) {\n    completeResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.CompleteResponseDocument;
  "\n  mutation InterruptResponse($input: InterruptResponseInput!) {\n    interruptResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n": typeof types.InterruptResponseDocument;
  "\n  query Dialogs($first: Int, $after: String) {\n    dialogs(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...DialogSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.DialogsDocument;
  "\n  query Dialog($id: ID!) {\n    dialog(id: $id) {\n      ...DialogSummary\n      forkedFrom {\n        id\n      }\n      branches {\n        ...ResponseSummary\n      }\n    }\n  }\n": typeof types.DialogDocument;
  "\n  query DialogHistory($dialogId: ID!, $responseId: ID, $types: [HistoryEventType!], $first: Int, $after: String) {\n    dialog(id: $dialogId) {\n      id\n      history(responseId: $responseId, types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n            ... on BaseHistoryEvent {\n              response {\n                ...ResponseSummary\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n": typeof types.DialogHistoryDocument;
  "\n  query DialogLastSeq($id: ID!) {\n    dialog(id: $id) {\n      id\n      lastSeq\n    }\n  }\n": typeof types.DialogLastSeqDocument;
  "\n  query DialogHead($id: ID!) {\n    dialog(id: $id) {\n      id\n      head {\n        ...ResponseSummary\n      }\n    }\n  }\n": typeof types.DialogHeadDocument;
  "\n  query ResponseTip($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n    }\n  }\n": typeof types.ResponseTipDocument;
  "\n  query DialogTree($id: ID!, $first: Int, $after: String) {\n    dialog(id: $id) {\n      id\n      responses(first: $first, after: $after) {\n        edges {\n          node {\n            id\n            status\n            model\n            createdAt\n            previousResponse {\n              id\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n": typeof types.DialogTreeDocument;
  "\n  query Response($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n      children {\n        id\n      }\n      input {\n        ...HistoryEventFields\n      }\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n": typeof types.ResponseDocument;
  "\n  query ResponseContext($id: ID!, $types: [HistoryEventType!], $first: Int, $after: String) {\n    response(id: $id) {\n      id\n      context(types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n          }\n        }\n      }\n    }\n  }\n": typeof types.ResponseContextDocument;
  "\n  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {\n    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {\n      dialogId\n      responseId\n      seq\n      previousSeq\n      status\n      response {\n        ...ResponseSummary\n      }\n      append {\n        ...HistoryEventFields\n      }\n    }\n  }\n": typeof types.HistoryDeltaDocument;
  "\n  subscription ResponseUpdated($responseId: ID!) {\n    responseUpdated(responseId: $responseId) {\n      ...ResponseSummary\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n": typeof types.ResponseUpdatedDocument;
  "\n  mutation WriteTurn($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        id\n        status\n        depth\n        dialog {\n          id\n        }\n        previousResponse {\n          id\n        }\n      }\n      ... on Error {\n        message\n        code\n      }\n      ... on ValidationError {\n        fieldErrors {\n          path\n          message\n        }\n      }\n    }\n  }\n": typeof types.WriteTurnDocument;
};
const documents: Documents = {
  "\n  fragment ContentPartFields on ContentPart {\n    __typename\n    ... on TextPart {\n      text\n    }\n    ... on ImageUrlPart {\n      url\n      detail\n    }\n    ... on AudioPart {\n      format\n    }\n    ... on FilePart {\n      fileId\n      filename\n    }\n  }\n":
    types.ContentPartFieldsFragmentDoc,
  "\n  fragment HistoryEventFields on HistoryEvent {\n    __typename\n    ... on BaseHistoryEvent {\n      id\n      seq\n      type\n      createdAt\n      metadata\n      response {\n        id\n      }\n    }\n    ... on HumanEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on AiEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on SystemEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on ReasoningEvent {\n      content\n      modelName\n    }\n    ... on ToolCallEvent {\n      callId\n      toolName\n      args\n    }\n    ... on ToolResultEvent {\n      callId\n      toolName\n      content\n      isError\n    }\n  }\n":
    types.HistoryEventFieldsFragmentDoc,
  "\n  fragment ResponseSummary on Response {\n    id\n    status\n    model\n    depth\n    createdAt\n    completedAt\n    error\n    metadata\n    usage {\n      inputTokens\n      outputTokens\n      reasoningTokens\n      totalTokens\n    }\n    previousResponse {\n      id\n    }\n  }\n":
    types.ResponseSummaryFragmentDoc,
  "\n  fragment DialogSummary on Dialog {\n    id\n    title\n    metadata\n    createdAt\n    updatedAt\n    lastSeq\n    head {\n      id\n      status\n      model\n    }\n  }\n":
    types.DialogSummaryFragmentDoc,
  "\n  fragment WriteErrorFields on Error {\n    __typename\n    message\n    code\n    ... on ValidationError {\n      fieldErrors {\n        path\n        message\n      }\n    }\n  }\n":
    types.WriteErrorFieldsFragmentDoc,
  "\n  mutation CreateDialog($input: CreateDialogInput!) {\n    createDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.CreateDialogDocument,
  "\n  mutation UpdateDialog($input: UpdateDialogInput!) {\n    updateDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.UpdateDialogDocument,
  "\n  mutation DeleteDialog($input: DeleteDialogInput!) {\n    deleteDialog(input: $input) {\n      __typename\n      ... on DeleteDialogPayload {\n        id\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.DeleteDialogDocument,
  "\n  mutation CreateResponse($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        dialog {\n          id\n        }\n        input {\n          ...HistoryEventFields\n        }\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.CreateResponseDocument,
  "\n  mutation AppendEvents($input: AppendEventsInput!) {\n    appendEvents(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.AppendEventsDocument,
  "\n  mutation CompleteResponse($input: CompleteResponseInput!) {\n    completeResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.CompleteResponseDocument,
  "\n  mutation InterruptResponse($input: InterruptResponseInput!) {\n    interruptResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n":
    types.InterruptResponseDocument,
  "\n  query Dialogs($first: Int, $after: String) {\n    dialogs(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...DialogSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n":
    types.DialogsDocument,
  "\n  query Dialog($id: ID!) {\n    dialog(id: $id) {\n      ...DialogSummary\n      forkedFrom {\n        id\n      }\n      branches {\n        ...ResponseSummary\n      }\n    }\n  }\n":
    types.DialogDocument,
  "\n  query DialogHistory($dialogId: ID!, $responseId: ID, $types: [HistoryEventType!], $first: Int, $after: String) {\n    dialog(id: $dialogId) {\n      id\n      history(responseId: $responseId, types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n            ... on BaseHistoryEvent {\n              response {\n                ...ResponseSummary\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n":
    types.DialogHistoryDocument,
  "\n  query DialogLastSeq($id: ID!) {\n    dialog(id: $id) {\n      id\n      lastSeq\n    }\n  }\n":
    types.DialogLastSeqDocument,
  "\n  query DialogHead($id: ID!) {\n    dialog(id: $id) {\n      id\n      head {\n        ...ResponseSummary\n      }\n    }\n  }\n":
    types.DialogHeadDocument,
  "\n  query ResponseTip($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n    }\n  }\n":
    types.ResponseTipDocument,
  "\n  query DialogTree($id: ID!, $first: Int, $after: String) {\n    dialog(id: $id) {\n      id\n      responses(first: $first, after: $after) {\n        edges {\n          node {\n            id\n            status\n            model\n            createdAt\n            previousResponse {\n              id\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n":
    types.DialogTreeDocument,
  "\n  query Response($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n      children {\n        id\n      }\n      input {\n        ...HistoryEventFields\n      }\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n":
    types.ResponseDocument,
  "\n  query ResponseContext($id: ID!, $types: [HistoryEventType!], $first: Int, $after: String) {\n    response(id: $id) {\n      id\n      context(types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n          }\n        }\n      }\n    }\n  }\n":
    types.ResponseContextDocument,
  "\n  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {\n    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {\n      dialogId\n      responseId\n      seq\n      previousSeq\n      status\n      response {\n        ...ResponseSummary\n      }\n      append {\n        ...HistoryEventFields\n      }\n    }\n  }\n":
    types.HistoryDeltaDocument,
  "\n  subscription ResponseUpdated($responseId: ID!) {\n    responseUpdated(responseId: $responseId) {\n      ...ResponseSummary\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n":
    types.ResponseUpdatedDocument,
  "\n  mutation WriteTurn($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        id\n        status\n        depth\n        dialog {\n          id\n        }\n        previousResponse {\n          id\n        }\n      }\n      ... on Error {\n        message\n        code\n      }\n      ... on ValidationError {\n        fieldErrors {\n          path\n          message\n        }\n      }\n    }\n  }\n":
    types.WriteTurnDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 *
 *
 * @example
 * ```ts
 * const query = graphql(`query GetUser($id: ID!) { user(id: $id) { name } }`);
 * ```
 *
 * The query argument is unknown!
 * Please regenerate the types.
 */
export function graphql(source: string): unknown;

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment ContentPartFields on ContentPart {\n    __typename\n    ... on TextPart {\n      text\n    }\n    ... on ImageUrlPart {\n      url\n      detail\n    }\n    ... on AudioPart {\n      format\n    }\n    ... on FilePart {\n      fileId\n      filename\n    }\n  }\n",
): (typeof documents)["\n  fragment ContentPartFields on ContentPart {\n    __typename\n    ... on TextPart {\n      text\n    }\n    ... on ImageUrlPart {\n      url\n      detail\n    }\n    ... on AudioPart {\n      format\n    }\n    ... on FilePart {\n      fileId\n      filename\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment HistoryEventFields on HistoryEvent {\n    __typename\n    ... on BaseHistoryEvent {\n      id\n      seq\n      type\n      createdAt\n      metadata\n      response {\n        id\n      }\n    }\n    ... on HumanEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on AiEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on SystemEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on ReasoningEvent {\n      content\n      modelName\n    }\n    ... on ToolCallEvent {\n      callId\n      toolName\n      args\n    }\n    ... on ToolResultEvent {\n      callId\n      toolName\n      content\n      isError\n    }\n  }\n",
): (typeof documents)["\n  fragment HistoryEventFields on HistoryEvent {\n    __typename\n    ... on BaseHistoryEvent {\n      id\n      seq\n      type\n      createdAt\n      metadata\n      response {\n        id\n      }\n    }\n    ... on HumanEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on AiEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on SystemEvent {\n      content\n      parts {\n        ...ContentPartFields\n      }\n    }\n    ... on ReasoningEvent {\n      content\n      modelName\n    }\n    ... on ToolCallEvent {\n      callId\n      toolName\n      args\n    }\n    ... on ToolResultEvent {\n      callId\n      toolName\n      content\n      isError\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment ResponseSummary on Response {\n    id\n    status\n    model\n    depth\n    createdAt\n    completedAt\n    error\n    metadata\n    usage {\n      inputTokens\n      outputTokens\n      reasoningTokens\n      totalTokens\n    }\n    previousResponse {\n      id\n    }\n  }\n",
): (typeof documents)["\n  fragment ResponseSummary on Response {\n    id\n    status\n    model\n    depth\n    createdAt\n    completedAt\n    error\n    metadata\n    usage {\n      inputTokens\n      outputTokens\n      reasoningTokens\n      totalTokens\n    }\n    previousResponse {\n      id\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment DialogSummary on Dialog {\n    id\n    title\n    metadata\n    createdAt\n    updatedAt\n    lastSeq\n    head {\n      id\n      status\n      model\n    }\n  }\n",
): (typeof documents)["\n  fragment DialogSummary on Dialog {\n    id\n    title\n    metadata\n    createdAt\n    updatedAt\n    lastSeq\n    head {\n      id\n      status\n      model\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  fragment WriteErrorFields on Error {\n    __typename\n    message\n    code\n    ... on ValidationError {\n      fieldErrors {\n        path\n        message\n      }\n    }\n  }\n",
): (typeof documents)["\n  fragment WriteErrorFields on Error {\n    __typename\n    message\n    code\n    ... on ValidationError {\n      fieldErrors {\n        path\n        message\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateDialog($input: CreateDialogInput!) {\n    createDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation CreateDialog($input: CreateDialogInput!) {\n    createDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation UpdateDialog($input: UpdateDialogInput!) {\n    updateDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation UpdateDialog($input: UpdateDialogInput!) {\n    updateDialog(input: $input) {\n      __typename\n      ... on Dialog {\n        ...DialogSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation DeleteDialog($input: DeleteDialogInput!) {\n    deleteDialog(input: $input) {\n      __typename\n      ... on DeleteDialogPayload {\n        id\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation DeleteDialog($input: DeleteDialogInput!) {\n    deleteDialog(input: $input) {\n      __typename\n      ... on DeleteDialogPayload {\n        id\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CreateResponse($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        dialog {\n          id\n        }\n        input {\n          ...HistoryEventFields\n        }\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation CreateResponse($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        dialog {\n          id\n        }\n        input {\n          ...HistoryEventFields\n        }\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation AppendEvents($input: AppendEventsInput!) {\n    appendEvents(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation AppendEvents($input: AppendEventsInput!) {\n    appendEvents(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation CompleteResponse($input: CompleteResponseInput!) {\n    completeResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation CompleteResponse($input: CompleteResponseInput!) {\n    completeResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation InterruptResponse($input: InterruptResponseInput!) {\n    interruptResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation InterruptResponse($input: InterruptResponseInput!) {\n    interruptResponse(input: $input) {\n      __typename\n      ... on Response {\n        ...ResponseSummary\n        output {\n          ...HistoryEventFields\n        }\n      }\n      ... on Error {\n        ...WriteErrorFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Dialogs($first: Int, $after: String) {\n    dialogs(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...DialogSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n",
): (typeof documents)["\n  query Dialogs($first: Int, $after: String) {\n    dialogs(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          ...DialogSummary\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Dialog($id: ID!) {\n    dialog(id: $id) {\n      ...DialogSummary\n      forkedFrom {\n        id\n      }\n      branches {\n        ...ResponseSummary\n      }\n    }\n  }\n",
): (typeof documents)["\n  query Dialog($id: ID!) {\n    dialog(id: $id) {\n      ...DialogSummary\n      forkedFrom {\n        id\n      }\n      branches {\n        ...ResponseSummary\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DialogHistory($dialogId: ID!, $responseId: ID, $types: [HistoryEventType!], $first: Int, $after: String) {\n    dialog(id: $dialogId) {\n      id\n      history(responseId: $responseId, types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n            ... on BaseHistoryEvent {\n              response {\n                ...ResponseSummary\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query DialogHistory($dialogId: ID!, $responseId: ID, $types: [HistoryEventType!], $first: Int, $after: String) {\n    dialog(id: $dialogId) {\n      id\n      history(responseId: $responseId, types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n            ... on BaseHistoryEvent {\n              response {\n                ...ResponseSummary\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DialogLastSeq($id: ID!) {\n    dialog(id: $id) {\n      id\n      lastSeq\n    }\n  }\n",
): (typeof documents)["\n  query DialogLastSeq($id: ID!) {\n    dialog(id: $id) {\n      id\n      lastSeq\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DialogHead($id: ID!) {\n    dialog(id: $id) {\n      id\n      head {\n        ...ResponseSummary\n      }\n    }\n  }\n",
): (typeof documents)["\n  query DialogHead($id: ID!) {\n    dialog(id: $id) {\n      id\n      head {\n        ...ResponseSummary\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ResponseTip($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n    }\n  }\n",
): (typeof documents)["\n  query ResponseTip($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query DialogTree($id: ID!, $first: Int, $after: String) {\n    dialog(id: $id) {\n      id\n      responses(first: $first, after: $after) {\n        edges {\n          node {\n            id\n            status\n            model\n            createdAt\n            previousResponse {\n              id\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query DialogTree($id: ID!, $first: Int, $after: String) {\n    dialog(id: $id) {\n      id\n      responses(first: $first, after: $after) {\n        edges {\n          node {\n            id\n            status\n            model\n            createdAt\n            previousResponse {\n              id\n            }\n          }\n        }\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query Response($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n      children {\n        id\n      }\n      input {\n        ...HistoryEventFields\n      }\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  query Response($id: ID!) {\n    response(id: $id) {\n      ...ResponseSummary\n      dialog {\n        id\n      }\n      children {\n        id\n      }\n      input {\n        ...HistoryEventFields\n      }\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  query ResponseContext($id: ID!, $types: [HistoryEventType!], $first: Int, $after: String) {\n    response(id: $id) {\n      id\n      context(types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n          }\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  query ResponseContext($id: ID!, $types: [HistoryEventType!], $first: Int, $after: String) {\n    response(id: $id) {\n      id\n      context(types: $types, first: $first, after: $after) {\n        totalMessages\n        totalReasoning\n        totalToolCalls\n        pageInfo {\n          hasNextPage\n          endCursor\n        }\n        edges {\n          node {\n            ...HistoryEventFields\n          }\n        }\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {\n    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {\n      dialogId\n      responseId\n      seq\n      previousSeq\n      status\n      response {\n        ...ResponseSummary\n      }\n      append {\n        ...HistoryEventFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  subscription HistoryDelta($dialogId: ID!, $afterSeq: Int) {\n    historyDelta(dialogId: $dialogId, afterSeq: $afterSeq) {\n      dialogId\n      responseId\n      seq\n      previousSeq\n      status\n      response {\n        ...ResponseSummary\n      }\n      append {\n        ...HistoryEventFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  subscription ResponseUpdated($responseId: ID!) {\n    responseUpdated(responseId: $responseId) {\n      ...ResponseSummary\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n",
): (typeof documents)["\n  subscription ResponseUpdated($responseId: ID!) {\n    responseUpdated(responseId: $responseId) {\n      ...ResponseSummary\n      output {\n        ...HistoryEventFields\n      }\n    }\n  }\n"];
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(
  source: "\n  mutation WriteTurn($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        id\n        status\n        depth\n        dialog {\n          id\n        }\n        previousResponse {\n          id\n        }\n      }\n      ... on Error {\n        message\n        code\n      }\n      ... on ValidationError {\n        fieldErrors {\n          path\n          message\n        }\n      }\n    }\n  }\n",
): (typeof documents)["\n  mutation WriteTurn($input: CreateResponseInput!) {\n    createResponse(input: $input) {\n      __typename\n      ... on Response {\n        id\n        status\n        depth\n        dialog {\n          id\n        }\n        previousResponse {\n          id\n        }\n      }\n      ... on Error {\n        message\n        code\n      }\n      ... on ValidationError {\n        fieldErrors {\n          path\n          message\n        }\n      }\n    }\n  }\n"];

export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}

export type DocumentType<TDocumentNode extends DocumentNode<any, any>> =
  TDocumentNode extends DocumentNode<infer TType, any> ? TType : never;
