/**
 * Finds the requirement item that contains a line, from the document text alone, so that the item commands
 * can name an item without a round trip to the server. The rules follow the document conventions
 * (shared spec "requirements-markdown"): an item is an ATX heading whose text starts with an ID, a colon and a
 * title; its body runs to the next heading of the same or a higher level.
 */

/** Upper-case letter/digit segments joined by '-', '_' or '.', starting with a letter. */
const ID_PATTERN = /^[A-Z][A-Z0-9]*(?:[-_.][A-Z0-9]+)*$/;
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?[ \t]*#*[ \t]*$/;
const ITEM_HEADING_TEXT = /^([^\s:]+):/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

export interface ItemHeading {
  id: string;
  level: number;
  line: number;
}

/** An item ID must also contain at least one digit (`SG-1`, not `NOTE`). */
export function isItemId(text: string): boolean {
  return ID_PATTERN.test(text) && /\d/.test(text);
}

/** The item ID a heading line declares, or undefined when the line is not an item heading. */
export function parseItemHeading(line: string): { id: string | undefined; level: number } | undefined {
  const m = HEADING.exec(line);
  if (!m) return undefined;
  const level = m[1].length;
  const text = m[2] ?? '';
  const idMatch = ITEM_HEADING_TEXT.exec(text);
  const id = idMatch && isItemId(idMatch[1]) ? idMatch[1] : undefined;
  return { id, level };
}

/**
 * The innermost item whose body contains `line` (0-based), or undefined. Headings inside fenced code blocks
 * and inside YAML front matter are not headings.
 */
export function itemAtLine(lines: readonly string[], line: number): ItemHeading | undefined {
  const open: { id: string | undefined; level: number; line: number }[] = [];
  let start = 0;
  if (lines.length > 0 && lines[0].trim() === '---') {
    const end = lines.findIndex((l, i) => i > 0 && (l.trim() === '---' || l.trim() === '...'));
    if (end > 0) start = end + 1;
  }
  let fence: string | undefined;
  const last = Math.min(line, lines.length - 1);
  for (let i = start; i <= last; i++) {
    const text = lines[i];
    const f = FENCE.exec(text);
    if (fence) {
      if (f && f[1][0] === fence[0] && f[1].length >= fence.length && text.trim() === f[1]) fence = undefined;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const h = parseItemHeading(text);
    if (!h) continue;
    while (open.length > 0 && open[open.length - 1].level >= h.level) open.pop();
    open.push({ id: h.id, level: h.level, line: i });
  }
  for (let k = open.length - 1; k >= 0; k--) {
    const o = open[k];
    if (o.id !== undefined) return { id: o.id, level: o.level, line: o.line };
  }
  return undefined;
}

/** Convenience for editors: splits the text the way VS Code counts lines. */
export function itemAtPosition(text: string, line: number): ItemHeading | undefined {
  return itemAtLine(text.split(/\r\n|\r|\n/), line);
}
