// HTML for the plan preview webview. No "vscode" import: unit tested in Node.

/** The server's answer to workspace/executeCommand "blueprint.plan". */
export interface PlanResult {
  markdown: string;
  plan?: unknown;
}

/** PLAN_COMMAND is the server command that computes a plan preview. */
export const PLAN_COMMAND = 'blueprint.plan';

/** RENDER_COMMAND is the server command that renders a Landscaper blueprint. */
export const RENDER_COMMAND = 'blueprint.render';

/**
 * A PreviewKind is one of the two previews: a Bluelink blueprint's plan
 * and a Landscaper blueprint's render. Both commands answer
 * {"markdown": ...} for [{"uri": ...}].
 */
export interface PreviewKind {
  /** The server command computing it. */
  command: string;
  /** The client command showing it (and the code lens's command). */
  clientCommand: string;
  /** The webview's view type. */
  viewType: string;
  /** "Plan" or "Render": the panel title and heading. */
  title: string;
}

export const PLAN_PREVIEW: PreviewKind = {
  command: PLAN_COMMAND,
  clientCommand: 'blueprint.previewPlan',
  viewType: 'blueprint.planPreview',
  title: 'Plan',
};

export const RENDER_PREVIEW: PreviewKind = {
  command: RENDER_COMMAND,
  clientCommand: 'blueprint.previewRender',
  viewType: 'blueprint.renderPreview',
  title: 'Render',
};

/**
 * previewForLens maps a code lens's server command to the preview that
 * shows its answer: executing the server command directly, as a lens does,
 * would compute the plan and drop it. It returns the preview and the
 * document URI of the lens's argument, or undefined for any other lens.
 */
export function previewForLens(command: string | undefined, args: unknown[] | undefined): { kind: PreviewKind; uri: string } | undefined {
  const kind = [PLAN_PREVIEW, RENDER_PREVIEW].find((k) => k.command === command);
  const arg = args?.[0];
  if (!kind || !arg || typeof arg !== 'object' || typeof (arg as { uri?: unknown }).uri !== 'string') {
    return undefined;
  }
  return { kind, uri: (arg as { uri: string }).uri };
}

/** planArguments builds the executeCommand arguments for a document. */
export function planArguments(uri: string): [{ uri: string }] {
  return [{ uri }];
}

/**
 * parsePlanResult checks the server's answer; anything without a markdown
 * string is reported rather than rendered as "undefined".
 */
export function parsePlanResult(v: unknown, command: string = PLAN_COMMAND): PlanResult {
  if (v && typeof v === 'object' && typeof (v as { markdown?: unknown }).markdown === 'string') {
    return v as PlanResult;
  }
  throw new Error(`unexpected answer to ${command}: ${JSON.stringify(v)?.slice(0, 200)}`);
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);
}

export interface PlanPage {
  /** File name shown in the heading. */
  title: string;
  /** Rendered markdown (trusted: produced by VS Code's markdown renderer). */
  bodyHtml?: string;
  /** Raw markdown, shown preformatted when no renderer is available. */
  markdown?: string;
  /** An error to show instead of a plan. */
  error?: string;
  /** When the plan was computed. */
  updated: Date;
  /** Nonce for the content security policy. */
  nonce: string;
  /** The webview's CSP source (webview.cspSource). */
  cspSource: string;
  /** "Plan" (the default) or "Render". */
  kind?: string;
}

/** planHtml renders the whole webview document. Scripts are not allowed. */
export function planHtml(p: PlanPage): string {
  const kind = p.kind ?? 'Plan';
  let body: string;
  if (p.error !== undefined) {
    body = `<div class="error" role="alert"><strong>Could not compute the ${escapeHtml(kind.toLowerCase())}.</strong><pre>${escapeHtml(p.error)}</pre></div>`;
  } else if (p.bodyHtml !== undefined) {
    body = `<article class="plan markdown-body">${p.bodyHtml}</article>`;
  } else {
    body = `<article class="plan"><pre>${escapeHtml(p.markdown ?? '')}</pre></article>`;
  }
  const time = p.updated.toISOString().replace('T', ' ').replace(/\.\d+Z$/, ' UTC');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${p.cspSource} https: data:; style-src 'nonce-${p.nonce}';">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<title>${escapeHtml(kind)}: ${escapeHtml(p.title)}</title>
<style nonce="${p.nonce}">
  body { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); color: var(--vscode-foreground); padding: 0 1em; }
  header { color: var(--vscode-descriptionForeground); border-bottom: 1px solid var(--vscode-panel-border); margin-bottom: .5em; }
  pre, code { font-family: var(--vscode-editor-font-family); }
  pre { white-space: pre-wrap; }
  table { border-collapse: collapse; }
  th, td { border: 1px solid var(--vscode-panel-border); padding: 2px 6px; text-align: left; }
  .error { color: var(--vscode-errorForeground); }
</style>
</head>
<body>
<header><span class="title">${escapeHtml(kind)} for ${escapeHtml(p.title)}</span> · <span class="updated">updated ${escapeHtml(time)}</span></header>
${body}
</body>
</html>`;
}

/** newNonce returns a random CSP nonce. */
export function newNonce(): string {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  let s = '';
  for (let i = 0; i < 32; i++) {
    s += chars.charAt(Math.floor(Math.random() * chars.length));
  }
  return s;
}
