/**
 * Find All References on an item heading: VS Code's Markdown extension lists the heading itself among the
 * references of a header, and safereq lists it as the item's declaration, so VS Code showed it twice (its
 * de-duplication needs identical ranges; the two providers' ranges differ). When the Markdown extension is
 * active and the request is made on a heading line, the heading comes from it and safereq leaves it out.
 * Free of the vscode API, for unit tests.
 */

export interface Place {
  uri: string;
  line: number;
}

const HEADING = /^ {0,3}#{1,6}[ \t]/;

export function withoutRepeatedHeading<T>(found: T[], at: Place & { lineText: string }, place: (l: T) => Place): T[] {
  if (!HEADING.test(at.lineText)) return found;
  return found.filter((l) => {
    const p = place(l);
    return !(p.uri === at.uri && p.line === at.line);
  });
}
