// Entry point of the VS Code extension: a thin client that starts
// `blueprint-ls serve` over stdio and forwards settings. All language logic
// lives in the Go binary.

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as vscode from 'vscode';
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  LanguageClientOptions,
  RevealOutputChannelOn,
  ServerOptions,
  State,
} from 'vscode-languageclient/node';
import { PlanPreview } from './planPreview';
import { PLAN_PREVIEW, RENDER_PREVIEW, previewForLens } from './planView';
import { LANGUAGE_IDS, PathContext, RawSettings, SECTION, ServerCommand, needsRestart, resolveServerCommand, serverSettings } from './settings';
import { StatusInfo, statusView } from './status';

let ext: BlueprintExtension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<BlueprintApi> {
  ext = new BlueprintExtension(context);
  await ext.start();
  return ext.api();
}

export async function deactivate(): Promise<void> {
  await ext?.stop();
  ext = undefined;
}

/** BlueprintApi is returned from activate, for tests and other extensions. */
export interface BlueprintApi {
  client(): LanguageClient | undefined;
  serverCommand(): ServerCommand | undefined;
}

function readSettings(): RawSettings {
  const c = vscode.workspace.getConfiguration(SECTION);
  return {
    server: { path: c.get<string>('server.path', ''), args: c.get<string[]>('server.args', []) },
    trace: { server: c.get<string>('trace.server', 'off') },
    providers: { directories: c.get<string[]>('providers.directories', []) },
    diagnostics: { debounce: c.get<number>('diagnostics.debounce'), severity: c.get<Record<string, string>>('diagnostics.severity', {}) },
    inlayHints: { enabled: c.get<boolean>('inlayHints.enabled', true) },
    plan: {
      variables: c.get<Record<string, unknown>>('plan.variables', {}),
      variableFiles: c.get<string[]>('plan.variableFiles', []),
      dataFiles: c.get<string[]>('plan.dataFiles', []),
      stateFile: c.get<string>('plan.stateFile', ''),
    },
  };
}

function pathContext(): PathContext {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  return { workspaceFolder: folder?.uri.fsPath, home: os.homedir() };
}

function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** ensureExecutable restores the executable bit a VSIX may have dropped. */
function ensureExecutable(p: string): void {
  try {
    fs.accessSync(p, fs.constants.X_OK);
  } catch {
    try {
      fs.chmodSync(p, 0o755);
    } catch {
      // Starting the server reports the real problem.
    }
  }
}

class BlueprintExtension {
  private client: LanguageClient | undefined;
  private command: ServerCommand | undefined;
  private settings: RawSettings;
  private readonly output: vscode.OutputChannel;
  private readonly status: vscode.StatusBarItem;
  private readonly preview: PlanPreview;
  private readonly renderPreview: PlanPreview;
  private statusInfo: StatusInfo = { state: 'stopped' };
  private stopping = false;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.settings = readSettings();
    this.output = vscode.window.createOutputChannel('Blueprint Language Server');
    this.status = vscode.window.createStatusBarItem('blueprint.status', vscode.StatusBarAlignment.Right, 100);
    this.status.name = 'Blueprint Language Server';
    this.status.command = 'blueprint.showOutput';
    this.preview = new PlanPreview(() => this.client, PLAN_PREVIEW);
    this.renderPreview = new PlanPreview(() => this.client, RENDER_PREVIEW);
    context.subscriptions.push(
      this.output,
      this.status,
      this.preview,
      this.renderPreview,
      vscode.commands.registerCommand('blueprint.restartServer', () => this.restart()),
      vscode.commands.registerCommand('blueprint.showOutput', () => this.output.show(true)),
      vscode.commands.registerCommand(PLAN_PREVIEW.clientCommand, (uri?: vscode.Uri) => this.preview.show(uri)),
      vscode.commands.registerCommand(RENDER_PREVIEW.clientCommand, (uri?: vscode.Uri) => this.renderPreview.show(uri)),
      vscode.workspace.onDidChangeConfiguration((e) => this.onConfigurationChanged(e)),
      vscode.workspace.onDidSaveTextDocument((d) => {
        void this.preview.refreshIfShown(d.uri);
        void this.renderPreview.refreshIfShown(d.uri);
      }),
    );
    this.status.show();
  }

  api(): BlueprintApi {
    return { client: () => this.client, serverCommand: () => this.command };
  }

  private setStatus(info: Partial<StatusInfo>): void {
    this.statusInfo = { ...this.statusInfo, ...info };
    const v = statusView(this.statusInfo);
    this.status.text = v.text;
    this.status.tooltip = v.tooltip;
    this.status.backgroundColor = v.error ? new vscode.ThemeColor('statusBarItem.errorBackground') : undefined;
  }

  private serverSettings() {
    return serverSettings(this.settings, pathContext());
  }

  async start(): Promise<void> {
    this.command = resolveServerCommand(this.settings, this.context.extensionPath, pathContext(), {
      platform: process.platform,
      env: process.env,
      isFile,
    });
    if (!this.command) {
      this.setStatus({ state: 'missing', command: undefined, source: undefined });
      const open = 'Open Settings';
      void vscode.window
        .showErrorMessage('blueprint-ls was not found. Set "blueprint.server.path" or put blueprint-ls on PATH.', open)
        .then((choice) => {
          if (choice === open) {
            void vscode.commands.executeCommand('workbench.action.openSettings', 'blueprint.server.path');
          }
        });
      return;
    }
    if (this.command.source === 'bundled' && process.platform !== 'win32') {
      ensureExecutable(this.command.command);
    }
    // No `transport`: with TransportKind.stdio the client appends --stdio,
    // which `blueprint-ls serve` does not take; stdio is the default anyway.
    const serverOptions: ServerOptions = {
      command: this.command.command,
      args: this.command.args,
      options: { env: { ...process.env } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: LANGUAGE_IDS.flatMap((language) => [
        { scheme: 'file', language },
        { scheme: 'untitled', language },
      ]),
      initializationOptions: { [SECTION]: this.serverSettings() },
      outputChannel: this.output,
      revealOutputChannelOn: RevealOutputChannelOn.Never,
      middleware: {
        // The "Preview plan" / "Preview render" lenses name the server's
        // command, whose answer a lens click would drop: open the preview
        // that shows it instead.
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          for (const lens of lenses ?? []) {
            const p = previewForLens(lens.command?.command, lens.command?.arguments);
            if (p && lens.command) {
              lens.command = { ...lens.command, command: p.kind.clientCommand, arguments: [vscode.Uri.parse(p.uri)] };
            }
          }
          return lenses;
        },
        workspace: {
          // Answer workspace/configuration for our section with normalised
          // settings (absolute paths), so every client sends one shape.
          configuration: async (params, token, next) => {
            const answers = await next(params, token);
            if (!Array.isArray(answers)) {
              return answers;
            }
            return params.items.map((item, i) => {
              if (item.section === SECTION) {
                return this.serverSettings();
              }
              if (item.section?.startsWith(SECTION + '.')) {
                const keys = item.section.slice(SECTION.length + 1).split('.');
                let v: unknown = this.serverSettings();
                for (const k of keys) {
                  v = v && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
                }
                return v ?? answers[i];
              }
              return answers[i];
            });
          },
        },
      },
    };
    const client = new LanguageClient(SECTION, 'Blueprint Language Server', serverOptions, clientOptions);
    this.client = client;
    this.setStatus({ state: 'starting', command: this.command.command, source: this.command.source, message: undefined });
    client.onDidChangeState((e) => {
      if (client !== this.client) {
        return;
      }
      if (e.newState === State.Running) {
        this.setStatus({ state: 'running', version: client.initializeResult?.serverInfo?.version });
      } else if (e.newState === State.Starting) {
        this.setStatus({ state: 'starting' });
      } else if (this.stopping) {
        this.setStatus({ state: 'stopped' });
      } else if (this.statusInfo.state !== 'failed') {
        this.setStatus({ state: 'failed', message: 'the server exited (see the output)' });
      }
    });
    try {
      await client.start();
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.setStatus({ state: 'failed', message });
      this.output.appendLine(`blueprint-ls failed to start (${this.command.command}): ${message}`);
      void vscode.window.showErrorMessage(`blueprint-ls failed to start: ${message}`, 'Show Output').then((c) => {
        if (c) {
          this.output.show(true);
        }
      });
    }
  }

  async stop(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.stopping = true;
    try {
      if (client?.isRunning()) {
        await client.stop(5000);
      }
    } catch (err) {
      this.output.appendLine(`blueprint-ls did not stop cleanly: ${String(err)}`);
    } finally {
      this.stopping = false;
    }
    this.setStatus({ state: 'stopped' });
  }

  async restart(): Promise<void> {
    this.output.appendLine('Restarting blueprint-ls…');
    await this.stop();
    await this.start();
  }

  private async onConfigurationChanged(e: vscode.ConfigurationChangeEvent): Promise<void> {
    if (!e.affectsConfiguration(SECTION)) {
      return;
    }
    const before = this.settings;
    this.settings = readSettings();
    if (needsRestart(before, this.settings) || !this.client) {
      await this.restart();
      return;
    }
    if (this.client.isRunning()) {
      await this.client.sendNotification(DidChangeConfigurationNotification.type, {
        settings: { [SECTION]: this.serverSettings() },
      });
    }
  }
}
