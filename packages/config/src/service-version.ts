import { readFileSync } from 'node:fs';

/**
 * The release's one version: the root package.json's `version`, read once. The CLI's --version, the
 * webhook User-Agent, the OpenAPI document's info.version and the traces' service.version all say it.
 * (This file is packages/config/{src,dist/src}/service-version.*: the root is three or four folders up.)
 */
function readServiceVersion(): string {
  for (const up of ['../../../../package.json', '../../../package.json']) {
    try {
      const manifest = JSON.parse(readFileSync(new URL(up, import.meta.url), 'utf8')) as { name?: unknown; version?: unknown };
      if (manifest.name === 'dialog-relay' && typeof manifest.version === 'string') return manifest.version;
    } catch {
      // not this folder
    }
  }
  throw new Error('dialog-relay: the root package.json (name "dialog-relay") was not found beside the packages');
}

export const SERVICE_VERSION: string = readServiceVersion();
