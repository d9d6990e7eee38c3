// Status bar text for the server's state. No "vscode" import: unit tested in Node.

export type ServerState = 'starting' | 'running' | 'stopped' | 'failed' | 'missing';

export interface StatusView {
  text: string;
  tooltip: string;
  /** Whether the item should use the error background. */
  error: boolean;
}

export interface StatusInfo {
  state: ServerState;
  command?: string;
  source?: string;
  version?: string;
  message?: string;
}

/** statusView maps the server state to the status bar item's contents. */
export function statusView(s: StatusInfo): StatusView {
  const where = s.command ? `\n${s.command}${s.source ? ` (${s.source})` : ''}` : '';
  const version = s.version ? ` ${s.version}` : '';
  switch (s.state) {
    case 'starting':
      return { text: '$(sync~spin) Blueprint', tooltip: `blueprint-ls: starting${where}`, error: false };
    case 'running':
      return { text: '$(check) Blueprint', tooltip: `blueprint-ls${version}: running${where}\nClick to show the output.`, error: false };
    case 'stopped':
      return { text: '$(circle-slash) Blueprint', tooltip: `blueprint-ls: stopped${where}`, error: false };
    case 'missing':
      return {
        text: '$(error) Blueprint',
        tooltip: 'blueprint-ls not found: set "blueprint.server.path" or put blueprint-ls on PATH.',
        error: true,
      };
    case 'failed':
      return {
        text: '$(error) Blueprint',
        tooltip: `blueprint-ls failed${s.message ? `: ${s.message}` : ''}${where}\nClick to show the output.`,
        error: true,
      };
  }
}
