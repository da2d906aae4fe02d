/**
 * What vscode-languageclient and the server write to the output channel, re-read for a log output channel,
 * which stamps every entry with its own time and level. Without this the channel showed two time stamps per
 * line ("[info] [Error - 10:08:26 PM] …"), every server line as [info] followed by an empty entry, and a
 * stray `true` (the client passes a boolean where its logger expects data, and prints it). Free of the vscode
 * API, for unit tests; logChannel.ts binds it to the channel.
 */

export type Level = 'info' | 'warn' | 'error';

export interface Entry {
  level: Level;
  text: string;
}

const CLIENT_PREFIX = /^\[(Trace|Debug|Info|Warn|Error)\s*-\s*[^\]]*\]\s?/;
const SERVER_LEVEL = /^(DEBUG|INFO|WARNING|ERROR|CRITICAL) (?=\S)/;
const LEVELS: Record<string, Level> = {
  Trace: 'info', Debug: 'info', Info: 'info', Warn: 'warn', Error: 'error',
  DEBUG: 'info', INFO: 'info', WARNING: 'warn', ERROR: 'error', CRITICAL: 'error',
};

/** One message of the client (appendLine), possibly several lines; undefined when there is nothing to log. */
export function clientEntry(message: string): Entry | undefined {
  const text = message.replace(/\s+$/, '');
  if (!text.trim() || text === 'true' || text === 'false') return undefined;
  const prefix = CLIENT_PREFIX.exec(text);
  if (prefix) {
    const rest = text.slice(prefix[0].length);
    return rest.trim() ? { level: LEVELS[prefix[1]], text: rest } : undefined;
  }
  return serverEntry(text);
}

/** One line of the server's standard error ("INFO safereq.lsp.loading: …"). */
export function serverEntry(line: string): Entry | undefined {
  const text = line.replace(/\s+$/, '');
  if (!text.trim()) return undefined;
  const level = SERVER_LEVEL.exec(text);
  return level ? { level: LEVELS[level[1]], text: text.slice(level[0].length) } : { level: 'info', text };
}

/** Splits a stream of chunks into whole lines; the rest waits for the next chunk. */
export class LineBuffer {
  private rest = '';

  push(chunk: string): string[] {
    const parts = (this.rest + chunk).split(/\r?\n/);
    this.rest = parts.pop() ?? '';
    return parts;
  }

  flush(): string[] {
    const out = this.rest ? [this.rest] : [];
    this.rest = '';
    return out;
  }
}
