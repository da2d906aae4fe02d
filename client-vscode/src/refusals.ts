/**
 * A request the server refuses on purpose (a rename onto an ID that exists already, a malformed ID) answers
 * with RequestFailed or InvalidParams and a message for the user. For a rename that refusal must be final:
 * VS Code hands a rename whose provider threw to the next provider, the Markdown extension, which rewrites
 * the heading's text (the refused `SG-1` → `SG-2` left `## SG-2` without its title). The controller's
 * middleware shows the message and answers with an empty edit instead, which ends the rename.
 */

const REQUEST_FAILED = -32803;
const INVALID_PARAMS = -32602;

/** The user-facing message of a deliberate refusal, or undefined for any other failure. */
export function refusalMessage(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (code !== REQUEST_FAILED && code !== INVALID_PARAMS) return undefined;
  return typeof message === 'string' && message.trim() ? message.trim() : undefined;
}
