// The "Blueprint: Preview Plan" and "Blueprint: Preview Render" webviews:
// ask the server for the plan of a Bluelink blueprint (workspace/executeCommand
// "blueprint.plan") or the render of a Landscaper blueprint ("blueprint.render")
// and show the markdown it returns beside the editor; refreshed when the
// document is saved.

import * as path from 'node:path';
import * as vscode from 'vscode';
import { ExecuteCommandRequest, LanguageClient } from 'vscode-languageclient/node';
import { PLAN_PREVIEW, PreviewKind, newNonce, parsePlanResult, planArguments, planHtml } from './planView';
import { LANGUAGE_IDS } from './settings';

const LANGUAGES = new Set(LANGUAGE_IDS);

export class PlanPreview implements vscode.Disposable {
  private readonly panels = new Map<string, vscode.WebviewPanel>();
  private readonly generation = new Map<string, number>();

  constructor(
    private readonly client: () => LanguageClient | undefined,
    private readonly kind: PreviewKind = PLAN_PREVIEW,
  ) {}

  /** show opens (or reveals) the preview for uri, or for the active editor. */
  async show(uri?: vscode.Uri): Promise<void> {
    const target = uri ?? vscode.window.activeTextEditor?.document.uri;
    if (!target) {
      void vscode.window.showWarningMessage(`Open a blueprint to preview its ${this.kind.title.toLowerCase()}.`);
      return;
    }
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === target.toString());
    if (doc && !LANGUAGES.has(doc.languageId)) {
      void vscode.window.showWarningMessage(`${path.basename(target.fsPath)} is not a blueprint.`);
      return;
    }
    const key = target.toString();
    let panel = this.panels.get(key);
    if (panel) {
      panel.reveal(vscode.ViewColumn.Beside, true);
    } else {
      panel = vscode.window.createWebviewPanel(
        this.kind.viewType,
        `${this.kind.title}: ${path.basename(target.path)}`,
        { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
        { enableScripts: false, enableFindWidget: true },
      );
      this.panels.set(key, panel);
      panel.onDidDispose(() => this.panels.delete(key));
    }
    await this.refresh(target, panel);
  }

  /** refreshIfShown recomputes the preview when its document was saved. */
  async refreshIfShown(uri: vscode.Uri): Promise<void> {
    const panel = this.panels.get(uri.toString());
    if (panel) {
      await this.refresh(uri, panel);
    }
  }

  private async refresh(uri: vscode.Uri, panel: vscode.WebviewPanel): Promise<void> {
    const key = uri.toString();
    const gen = (this.generation.get(key) ?? 0) + 1;
    this.generation.set(key, gen);
    const title = path.basename(uri.path);
    const page = { title, kind: this.kind.title, updated: new Date(), nonce: newNonce(), cspSource: panel.webview.cspSource };
    let html: string;
    try {
      const client = this.client();
      if (!client || !client.isRunning()) {
        throw new Error('the blueprint language server is not running (see "Blueprint: Show Output")');
      }
      const answer = await client.sendRequest(ExecuteCommandRequest.type, {
        command: this.kind.command,
        arguments: planArguments(client.code2ProtocolConverter.asUri(uri)),
      });
      const result = parsePlanResult(answer, this.kind.command);
      let bodyHtml: string | undefined;
      try {
        // The built-in markdown extension renders with VS Code's own styles
        // and sanitiser; fall back to preformatted text without it.
        bodyHtml = await vscode.commands.executeCommand<string>('markdown.api.render', result.markdown);
      } catch {
        bodyHtml = undefined;
      }
      html = planHtml({ ...page, bodyHtml: typeof bodyHtml === 'string' ? bodyHtml : undefined, markdown: result.markdown });
    } catch (err) {
      html = planHtml({ ...page, error: err instanceof Error ? err.message : String(err) });
    }
    if (this.generation.get(key) === gen && this.panels.get(key) === panel) {
      panel.webview.html = html;
    }
  }

  dispose(): void {
    for (const p of this.panels.values()) {
      p.dispose();
    }
    this.panels.clear();
  }
}
