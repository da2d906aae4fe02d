/**
 * What the status bar says, computed from the client's own state and the server's last safereq/status
 * notification. Kept free of the vscode API so the wording can be unit-tested.
 */
import type { StatusParams } from './protocol';

/** The client's view of the server process. */
export type ClientState = 'starting' | 'running' | 'stopped' | 'notFound' | 'failed';

export interface StatusInput {
  client: ClientState;
  server: StatusParams | undefined;
  /** How the server was launched, for the tooltip. */
  launch: string | undefined;
}

export interface StatusView {
  text: string;
  tooltip: string;
  /** 'error' and 'warning' map to the status bar's error/warning background colours. */
  severity: 'normal' | 'warning' | 'error';
}

const SPIN = '$(sync~spin)';

function indexLine(server: StatusParams | undefined): string {
  if (!server) return 'Index: unknown';
  return server.index ? `Index: ${server.index}` : 'Index: not built';
}

export function statusView(input: StatusInput): StatusView {
  const { client, server, launch } = input;
  const tail = launch ? `\nServer: ${launch}` : '';
  switch (client) {
    case 'notFound':
      return {
        text: '$(warning) safereq: no server',
        tooltip: 'The safereq language server was not found. Click for the log.',
        severity: 'warning',
      };
    case 'failed':
      return { text: '$(error) safereq', tooltip: `The language server failed to start. Click for the log.${tail}`, severity: 'error' };
    case 'stopped':
      return { text: '$(circle-slash) safereq', tooltip: `The language server is stopped.${tail}`, severity: 'normal' };
    case 'starting':
      return { text: `${SPIN} safereq`, tooltip: `Starting the language server…${tail}`, severity: 'normal' };
    case 'running':
      break;
  }
  const msg = server?.message ? `\n${server.message}` : '';
  switch (server?.state) {
    case 'indexing':
      return { text: `${SPIN} safereq: indexing`, tooltip: `Indexing the knowledge base${msg}\n${indexLine(server)}${tail}`, severity: 'normal' };
    case 'error':
      return { text: '$(error) safereq', tooltip: `Server error${msg}\n${indexLine(server)}${tail}`, severity: 'error' };
    case 'ready': {
      if (server.indexProblem) {
        return {
          text: '$(warning) safereq · index damaged',
          tooltip: `Ready; the knowledge base cannot be used: ${server.indexProblem}\nRun "safereq: Index Knowledge Base" to repair it.${tail}`,
          severity: 'warning',
        };
      }
      // `index` may be a long path: the text only says whether there is one, the tooltip says where.
      const idx = server.index ? ' · indexed' : ' · no index';
      return { text: `$(shield) safereq${idx}`, tooltip: `Ready${msg}\n${indexLine(server)}${tail}`, severity: 'normal' };
    }
    default:
      return { text: `${SPIN} safereq`, tooltip: `The server is starting${msg}\n${indexLine(server)}${tail}`, severity: 'normal' };
  }
}
