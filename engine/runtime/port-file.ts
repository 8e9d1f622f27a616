// Where the engine of a data folder is listening right now: `arena serve` writes this file once it listens and
// removes it on a clean exit (a killed engine leaves it behind; its pid then names no live engine). Only the address,
// never the token, in an owner-only file. Which port the next start takes is the database's (enginePorts).
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writePrivateFile } from './private-files.js';

export const PORT_FILE_NAME = 'engine-port.json';

const PortRecordSchema = z.object({ host: z.string(), port: z.number().int().min(1).max(65_535), pid: z.number().int() });
export type PortRecord = z.infer<typeof PortRecordSchema>;

export function portFilePath(dataDir: string): string {
  return path.join(dataDir, PORT_FILE_NAME);
}

/** The recorded address, or null when there is none or it is unreadable (then a free port is as good). */
export function readPortFile(dataDir: string): PortRecord | null {
  try {
    const parsed = PortRecordSchema.safeParse(JSON.parse(fs.readFileSync(portFilePath(dataDir), 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Written whole under a temporary name and renamed, so a reader never sees half a file. */
export function writePortFile(dataDir: string, record: PortRecord): void {
  const file = portFilePath(dataDir);
  const temporary = `${file}.${process.pid}.tmp`;
  writePrivateFile(temporary, `${JSON.stringify(record)}\n`);
  fs.renameSync(temporary, file);
}

/** Removes the record if it is still this process's (another engine may have taken the folder over since). */
export function removePortFile(dataDir: string, pid: number = process.pid): void {
  if (readPortFile(dataDir)?.pid !== pid) return;
  fs.rmSync(portFilePath(dataDir), { force: true });
}
