// Per-installation secrets kept in the data directory (mode 0600), never in the database, logs or reports.
import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export function loadOrCreateSecret(dataDir: string, name: string): Buffer {
  const dir = path.join(dataDir, 'secrets');
  const file = path.join(dir, `${name}.key`);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (/^[0-9a-f]{64}$/.test(text)) return Buffer.from(text, 'hex');
    throw new Error(`secret file ${name}.key in the data directory is corrupt; delete it to generate a new one`);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const secret = randomBytes(32);
  try {
    // 'wx' fails if another process created it first; then read theirs so both agree.
    fs.writeFileSync(file, `${secret.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return loadOrCreateSecret(dataDir, name);
    throw error;
  }
}

/** seed(purpose) = hex(HMAC-SHA256(secret, "arena:v1:rng:" + purpose)) (spec §5.8). */
export function createSeeder(secret: Buffer): (purpose: string) => string {
  return (purpose) => createHmac('sha256', secret).update(`arena:v1:rng:${purpose}`, 'utf8').digest('hex');
}
