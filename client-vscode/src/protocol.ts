/**
 * The names and shapes agreed with the safereq language server. They live in one module so that the client and
 * its tests refer to the same strings, and a rename on either side shows up as one diff here.
 */

/** Configuration section the server pulls (workspace/configuration) and receives on didChangeConfiguration. */
export const CONFIG_SECTION = 'safereq';

/** Settings the client itself consumes; a change restarts the server instead of being forwarded live. */
export const CLIENT_ONLY_SETTINGS = ['safereq.server.path'] as const;

/** Secret-storage key of the LLM API key; it is handed to the server only through its environment. */
export const API_KEY_SECRET = 'safereq.llm.apiKey';
/** Environment variable the server reads the API key from. */
export const API_KEY_ENV = 'SAFEREQ_LLM_API_KEY';

/** Commands the server provides through workspace/executeCommand. */
export const ServerCommand = {
  indexKnowledgeBase: 'safereq.indexKnowledgeBase',
  deriveRequirements: 'safereq.deriveRequirements',
  suggestTraceLinks: 'safereq.suggestTraceLinks',
  suggestRebuttals: 'safereq.suggestRebuttals',
  showTrace: 'safereq.showTrace',
  reviewAccept: 'safereq.review.accept',
  reviewReject: 'safereq.review.reject',
  coverage: 'safereq.coverage',
  writeReport: 'safereq.writeReport',
  acceptFinding: 'safereq.acceptFinding',
  fixAll: 'safereq.fixAll',
} as const;
export type ServerCommandId = (typeof ServerCommand)[keyof typeof ServerCommand];

/**
 * Commands the extension contributes. Their ids differ from the server's on purpose: vscode-languageclient
 * registers every command the server announces under the server's id, so reusing those ids would collide.
 */
export const ClientCommand = {
  indexKnowledgeBase: 'safereq.knowledgeBase.index',
  deriveRequirements: 'safereq.item.deriveRequirements',
  suggestTraceLinks: 'safereq.item.suggestTraceLinks',
  suggestRebuttals: 'safereq.item.suggestRebuttals',
  showTrace: 'safereq.item.showTrace',
  restartServer: 'safereq.server.restart',
  showLog: 'safereq.server.showLog',
  setApiKey: 'safereq.llm.setApiKey',
  clearApiKey: 'safereq.llm.clearApiKey',
  openReport: 'safereq.report.open',
  fixAll: 'safereq.document.fixAll',
  sampleDocument: 'safereq.walkthrough.sampleDocument',
  openWalkthrough: 'safereq.walkthrough.open',
} as const;

/** What safereq.acceptFinding and safereq.fixAll return: whether the edit was applied, and the server's sentence. */
export interface EditResult {
  applied: boolean;
  message: string;
}

export function parseEditResult(value: unknown): EditResult | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  return typeof v.applied === 'boolean' && typeof v.message === 'string' ? { applied: v.applied, message: v.message } : undefined;
}

/** Custom notification with the server's state, shown in the status bar. */
export const STATUS_NOTIFICATION = 'safereq/status';

export type ServerState = 'starting' | 'ready' | 'indexing' | 'error';

export interface StatusParams {
  state: ServerState;
  message: string;
  index: string | null;
  /** Why the index cannot be used (it is damaged), as the server words it; null when it is fine or absent. */
  indexProblem?: string | null;
}

/**
 * What derive / suggest-links / suggest-rebuttals return after the server has proposed its suggestions as a
 * review block: `count` suggestions proposed in the document, and the server's own sentence saying so.
 */
export interface SuggestionSummary {
  mode: string;
  count: number;
  message: string;
}

/** What safereq.review.accept / reject return (from the code lenses on a review block). */
export interface ReviewResult {
  applied: boolean;
  accepted: number;
  rejected: number;
  left: number;
  message: string;
}

/** What showTrace returns. */
export interface TraceResult {
  markdown: string;
}

const SERVER_STATES: readonly string[] = ['starting', 'ready', 'indexing', 'error'];

/** Accepts a safereq/status payload only when it has the agreed shape; anything else is ignored, not trusted. */
export function parseStatus(raw: unknown): StatusParams | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.state !== 'string' || !SERVER_STATES.includes(r.state)) return undefined;
  const message = typeof r.message === 'string' ? r.message : '';
  const index = typeof r.index === 'string' ? r.index : null;
  const status: StatusParams = { state: r.state as ServerState, message, index };
  if (typeof r.indexProblem === 'string' && r.indexProblem.trim()) status.indexProblem = r.indexProblem.trim();
  return status;
}

export function parseSummary(raw: unknown): SuggestionSummary | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.count !== 'number' || !Number.isFinite(r.count)) return undefined;
  return { mode: typeof r.mode === 'string' ? r.mode : '', count: r.count, message: text(r.message) };
}

const text = (v: unknown): string => (typeof v === 'string' ? v.slice(0, 500) : '');
const count = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);

export function parseReviewResult(raw: unknown): ReviewResult | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const r = raw as Record<string, unknown>;
  if (typeof r.applied !== 'boolean' || typeof r.message !== 'string') return undefined;
  return { applied: r.applied, accepted: count(r.accepted), rejected: count(r.rejected), left: count(r.left), message: text(r.message) };
}

/**
 * The sentence shown after a suggestion command: the server's, which says what really happened (proposed
 * for review, nothing to suggest, document changed meanwhile); a plain count when an older server sent none.
 */
export function suggestionMessage(summary: SuggestionSummary, itemId: string, noun: [string, string]): string {
  if (summary.message) return `safereq: ${summary.message}`;
  const mode = summary.mode ? ` (${summary.mode})` : '';
  if (summary.count === 0) return `safereq: ${itemId}: no ${noun[1]} to propose${mode}.`;
  const what = summary.count === 1 ? noun[0] : noun[1];
  return `safereq: ${itemId}: ${summary.count} ${what} proposed for review${mode}.`;
}

export function parseTrace(raw: unknown): TraceResult | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const md = (raw as Record<string, unknown>).markdown;
  return typeof md === 'string' ? { markdown: md } : undefined;
}

/** A short rendering of the index command's result, whose exact shape is the server's business. */
export function summariseIndexResult(result: unknown): string {
  if (typeof result === 'string') return result.slice(0, 200);
  if (typeof result !== 'object' || result === null) return '';
  const r = result as Record<string, unknown>;
  if (typeof r.message === 'string') return r.message.slice(0, 200);
  return Object.entries(r)
    .filter(([, v]) => typeof v === 'number' || (typeof v === 'string' && v.length < 80))
    .slice(0, 4)
    .map(([k, v]) => `${k}: ${String(v)}`)
    .join(', ');
}
