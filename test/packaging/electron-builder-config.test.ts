// electron-builder.yml against the schema of the installed electron-builder (app-builder-lib's scheme.json), so a
// typo or a renamed option fails here rather than on the release machine. Nothing is packaged.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const require = createRequire(import.meta.url);

function loadValidator() {
  const schemaFile = require.resolve('app-builder-lib/scheme.json', { paths: [ROOT] });
  const ajv = new Ajv({ strict: false, allErrors: true });
  return ajv.compile(JSON.parse(fs.readFileSync(schemaFile, 'utf8')));
}

const config = YAML.parse(fs.readFileSync(`${ROOT}/electron-builder.yml`, 'utf8'));

describe('electron-builder.yml', () => {
  it('is valid for the installed electron-builder', () => {
    const validate = loadValidator();
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('the schema check would catch an unknown option', () => {
    const validate = loadValidator();
    expect(validate({ ...config, linux: { ...config.linux, targets: ['deb'] } })).toBe(false);
  });

  it('builds AppImage and deb for Linux, dmg for macOS and nsis for Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
    // The deb target refuses to build without a maintainer (package.json has no author e-mail).
    expect(config.linux.maintainer).toMatch(/<.+@.+>/);
  });

  it('rebuilds the native module for Electron at packaging time and keeps it outside the archive', () => {
    expect(config.npmRebuild).toBe(true);
    expect(config.asarUnpack).toContain('**/node_modules/better-sqlite3/**/*.node');
  });

  it('ships with the release fuses locked', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      onlyLoadAppFromAsar: true,
    });
  });
});
