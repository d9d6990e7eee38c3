// Settings glue between VS Code's configuration and blueprint-ls. This file
// must not import "vscode": it is unit tested in plain Node, with the editor's
// configuration passed in as plain data.

import * as path from 'node:path';

/** LANGUAGE_IDS are the extension's languages: blueprints in YAML, JSON,
 * JSONC and the blueprint language (.bp). */
export const LANGUAGE_IDS: readonly string[] = ['blueprint', 'blueprint-json', 'blueprint-jsonc', 'blueprint-lang'];

/** The configuration section the server reads (workspace/configuration). */
export const SECTION = 'blueprint';

/** The user-facing settings, as read from the `blueprint` section. */
export interface RawSettings {
  server?: { path?: string; args?: string[] };
  trace?: { server?: string };
  providers?: { directories?: string[] };
  diagnostics?: { debounce?: number; severity?: Record<string, string> };
  inlayHints?: { enabled?: boolean };
  plan?: {
    variables?: Record<string, unknown>;
    variableFiles?: string[];
    dataFiles?: string[];
    stateFile?: string;
  };
}

/**
 * ServerSettings is what the server receives for the `blueprint` section: in
 * initializationOptions, in workspace/didChangeConfiguration and as the
 * answer to workspace/configuration. The keys are the server's (see
 * lsp/settings.go); paths are absolute. planVariables, planDataFiles and
 * planStateFile carry the plan preview's other inputs.
 */
export interface ServerSettings {
  providerDirs: string[];
  debounceMs: number;
  inlayHints: boolean;
  severity: Record<string, string>;
  planInputs: string[];
  planVariables: Record<string, unknown>;
  planDataFiles: string[];
  planStateFile: string;
}

export const DEFAULT_DEBOUNCE_MS = 0;

/** Context needed to expand user paths. */
export interface PathContext {
  /** First workspace folder's file system path, if any. */
  workspaceFolder?: string;
  /** The user's home directory. */
  home: string;
}

/**
 * expandPath resolves `~`, `${workspaceFolder}`, `${userHome}` and
 * `${env:NAME}` in a user-supplied path and makes relative paths absolute
 * against the workspace folder. Empty stays empty.
 */
export function expandPath(p: string, ctx: PathContext, env: NodeJS.ProcessEnv = process.env): string {
  let s = p.trim();
  if (s === '') {
    return '';
  }
  s = s.replace(/\$\{(workspaceFolder|workspaceRoot|userHome|env:([A-Za-z_][A-Za-z0-9_]*))\}/g, (m, name: string, envName?: string) => {
    if (envName !== undefined) {
      return env[envName] ?? '';
    }
    if (name === 'userHome') {
      return ctx.home;
    }
    return ctx.workspaceFolder ?? m;
  });
  if (s === '~') {
    s = ctx.home;
  } else if (s.startsWith('~/') || s.startsWith('~\\')) {
    s = path.join(ctx.home, s.slice(2));
  }
  if (!path.isAbsolute(s) && ctx.workspaceFolder) {
    s = path.join(ctx.workspaceFolder, s);
  }
  return path.normalize(s);
}

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string' && x.trim() !== '') : [];
}

/** serverSettings normalises the raw user settings into what the server gets. */
export function serverSettings(raw: RawSettings, ctx: PathContext, env: NodeJS.ProcessEnv = process.env): ServerSettings {
  const debounce = raw.diagnostics?.debounce;
  const vars = raw.plan?.variables;
  const stateFile = typeof raw.plan?.stateFile === 'string' ? raw.plan.stateFile : '';
  const severity: Record<string, string> = {};
  for (const [code, level] of Object.entries(raw.diagnostics?.severity ?? {})) {
    if (typeof level === 'string') {
      severity[code] = level;
    }
  }
  return {
    providerDirs: strings(raw.providers?.directories).map((p) => expandPath(p, ctx, env)),
    debounceMs: typeof debounce === 'number' && Number.isFinite(debounce) && debounce >= 0 ? Math.round(debounce) : DEFAULT_DEBOUNCE_MS,
    inlayHints: raw.inlayHints?.enabled !== false,
    severity,
    planInputs: strings(raw.plan?.variableFiles).map((p) => expandPath(p, ctx, env)),
    planVariables: vars && typeof vars === 'object' && !Array.isArray(vars) ? { ...vars } : {},
    planDataFiles: strings(raw.plan?.dataFiles).map((p) => expandPath(p, ctx, env)),
    planStateFile: expandPath(stateFile, ctx, env),
  };
}

/** Where the server executable came from, shown in the status bar tooltip. */
export type ServerSource = 'setting' | 'bundled' | 'path';

export interface ServerCommand {
  command: string;
  args: string[];
  source: ServerSource;
}

/** Platform facts needed to find the server; injectable for tests. */
export interface Platform {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  isFile: (p: string) => boolean;
}

export function executableName(platform: NodeJS.Platform): string {
  return platform === 'win32' ? 'blueprint-ls.exe' : 'blueprint-ls';
}

/**
 * findOnPath returns the first executable named name on PATH (with PATHEXT
 * on Windows), or undefined.
 */
export function findOnPath(name: string, p: Platform): string | undefined {
  const sep = p.platform === 'win32' ? ';' : ':';
  const join = p.platform === 'win32' ? path.win32.join : path.posix.join;
  const dirs = (p.env.PATH ?? p.env.Path ?? '').split(sep).filter((d) => d !== '');
  const exts = p.platform === 'win32' && !/\.[a-z]+$/i.test(name) ? (p.env.PATHEXT ?? '.EXE').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const candidate = join(dir, name + ext.toLowerCase());
      if (p.isFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * resolveServerCommand picks the server executable: the `server.path`
 * setting, else the binary bundled in the extension's bin/ folder, else
 * blueprint-ls on PATH. It returns undefined when nothing is found, so the
 * caller can tell the user what to set.
 */
export function resolveServerCommand(
  raw: RawSettings,
  extensionPath: string,
  ctx: PathContext,
  p: Platform,
): ServerCommand | undefined {
  const args = ['serve', ...strings(raw.server?.args)];
  const configured = raw.server?.path?.trim() ?? '';
  if (configured !== '') {
    // A bare name ("blueprint-ls-dev") is looked up on PATH; anything with a
    // separator is a path.
    if (!/[\\/]/.test(configured) && !configured.startsWith('~') && !configured.includes('${')) {
      return { command: findOnPath(configured, p) ?? configured, args, source: 'setting' };
    }
    return { command: expandPath(configured, ctx, p.env), args, source: 'setting' };
  }
  const bundled = path.join(extensionPath, 'bin', executableName(p.platform));
  if (p.isFile(bundled)) {
    return { command: bundled, args, source: 'bundled' };
  }
  const onPath = findOnPath(executableName(p.platform), p);
  if (onPath) {
    return { command: onPath, args, source: 'path' };
  }
  return undefined;
}

/** needsRestart reports whether a settings change requires a new server process. */
export function needsRestart(before: RawSettings, after: RawSettings): boolean {
  const key = (r: RawSettings) => JSON.stringify([r.server?.path?.trim() ?? '', strings(r.server?.args)]);
  return key(before) !== key(after);
}
