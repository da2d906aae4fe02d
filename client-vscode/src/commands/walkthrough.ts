/**
 * The getting-started walkthrough's one command of its own: a sample requirements document in the first
 * workspace folder, so that a new user sees findings and a quick fix within a minute. An existing file is
 * opened as it is, never overwritten.
 */
import * as vscode from 'vscode';
import { UserError } from '../controller';

export const SAMPLE_NAME = 'safereq-sample.md';

/** A goal, two requirements and a test, with three findings on purpose: "must", "quickly", a missing ASIL. */
export const SAMPLE = `# Lane keeping assist: sample requirements

## SG-1: Avoid unintended steering torque
The steering system shall not apply a steering torque that the driver did not request.

- ASIL: D

### FSR-1: Limit the torque request
The steering arbiter must limit the requested steering torque to 3 Nm.

- ASIL: D
- Derived from: SG-1
- Verified by: TC-1

### FSR-2: Detect an implausible torque request
The steering arbiter shall detect a torque request whose message counter did not change and react quickly.

- Derived from: SG-1
- Verified by: TC-1

## TC-1: Torque limit test
The test shall request 5 Nm and check that at most 3 Nm is applied.
`;

/** The walkthrough's id: the extension's id, '#', the id in package.json's contributes.walkthroughs. */
export const WALKTHROUGH = 'safereq.safereq#gettingStarted';

/** Opens the walkthrough itself (Help > Welcome lists it too, among others). */
export async function openWalkthrough(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH, false);
}

export async function openSampleDocument(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (!folder) throw new UserError('Open a folder first (File > Open Folder…): the sample document is written into it.');
  const uri = vscode.Uri.joinPath(folder.uri, SAMPLE_NAME);
  const exists = await vscode.workspace.fs.stat(uri).then(() => true, () => false);
  if (!exists) await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(SAMPLE));
  await vscode.window.showTextDocument(uri);
}
