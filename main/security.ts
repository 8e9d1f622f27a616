// Security rules for every webContents: no navigation away from the app, no new windows, no webviews, no permissions.
import { APP_ORIGIN } from '../engine/contract/channels.js';

export interface PreventableEvent {
  preventDefault(): void;
}

/** Structural subset of Electron's WebContents used here; tests drive it with a small fake. */
export interface WebContentsLike {
  on(event: 'will-navigate' | 'will-redirect', listener: (event: PreventableEvent, url: string) => void): unknown;
  on(event: 'will-attach-webview', listener: (event: PreventableEvent) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

export interface SessionLike {
  setPermissionRequestHandler(
    handler: (webContents: unknown, permission: string, callback: (granted: boolean) => void, details: { requestingUrl?: string }) => void,
  ): void;
  setPermissionCheckHandler(handler: (webContents: unknown, permission: string, requestingOrigin: string) => boolean): void;
}

export type OpenExternal = (url: string) => Promise<void>;

export function isAppUrl(url: string): boolean {
  return url.startsWith(`${APP_ORIGIN}/`);
}

/** The URL to hand to the OS browser, or null: only http(s) ever leaves the app. */
export function externalUrl(url: string): string | null {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

export interface NavigationDecision {
  allow: boolean;
  openExternally: string | null;
}

/** In-app navigation (reload, app://arena/ pages) is fine; anything else is cancelled and web links go to the browser. */
export function decideNavigation(url: string): NavigationDecision {
  if (isAppUrl(url)) return { allow: true, openExternally: null };
  return { allow: false, openExternally: externalUrl(url) };
}

export function hardenWebContents(contents: WebContentsLike, openExternal: OpenExternal): void {
  const guard = (event: PreventableEvent, url: string) => {
    const decision = decideNavigation(url);
    if (decision.allow) return;
    event.preventDefault();
    if (decision.openExternally) void openExternal(decision.openExternally).catch(() => {});
  };
  contents.on('will-navigate', guard);
  // A 302 from some server must not be able to replace the app either.
  contents.on('will-redirect', guard);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const target = externalUrl(url);
    if (target) void openExternal(target).catch(() => {});
    return { action: 'deny' };
  });
}

/**
 * The app needs no camera, microphone, notifications, geolocation…: everything is refused except writing
 * (sanitized) text to the clipboard from our own pages, which the copy buttons for invites rely on.
 */
export function permissionAllowed(permission: string, origin: string | undefined): boolean {
  if (origin === undefined) return false;
  const fromApp = origin === APP_ORIGIN || isAppUrl(origin);
  return fromApp && permission === 'clipboard-sanitized-write';
}

export function denyAllPermissions(session: SessionLike): void {
  session.setPermissionRequestHandler((_webContents, permission, callback, details) =>
    callback(permissionAllowed(permission, details?.requestingUrl)),
  );
  session.setPermissionCheckHandler((_webContents, permission, requestingOrigin) => permissionAllowed(permission, requestingOrigin));
}

export interface AppLike {
  on(event: 'web-contents-created', listener: (event: unknown, contents: WebContentsLike) => void): unknown;
}

/** Applies the rules to every webContents ever created (windows, devtools, anything), not just the main window. */
export function installSecurity(app: AppLike, openExternal: OpenExternal): void {
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, openExternal));
}
