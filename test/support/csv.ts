// Reading the exported CSVs as analysis tools do: the engine's RFC 4180 reader (quoted fields, doubled quotes, CRLF
// or LF) and Python's csv module through python3, both giving the header row as the column names.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { csvRecords } from '../../engine/tournaments/exports/csv-read.js';

export interface Csv {
  header: string[];
  rows: Array<Record<string, string>>;
}

function toCsv(records: string[][]): Csv {
  const [header = [], ...body] = records;
  for (const r of body) if (r.length !== header.length) throw new Error(`row of ${r.length} fields under a header of ${header.length}`);
  return { header, rows: body.map((r) => Object.fromEntries(header.map((h, i) => [h, r[i] as string]))) };
}

export function readCsv(file: string): Csv {
  return toCsv(csvRecords(fs.readFileSync(file, 'utf8')));
}

/** The same file through Python's csv.DictReader (fails the test when a row has a different width than the header). */
export function pythonCsv(file: string): Csv {
  const script = [
    'import csv, json, sys',
    'with open(sys.argv[1], newline="", encoding="utf-8") as f:',
    '    reader = csv.reader(f)',
    '    header = next(reader)',
    '    rows = [r for r in reader]',
    'bad = [len(r) for r in rows if len(r) != len(header)]',
    'if bad: sys.exit("rows of %s fields under a header of %d" % (bad, len(header)))',
    'print(json.dumps({"header": header, "rows": [dict(zip(header, r)) for r in rows]}))',
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, file], { encoding: 'utf8' })) as Csv;
}

/** Python's csv module on CSV text (written to a temporary file). */
export function pythonCsvText(text: string): Csv {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'arena-csv-'));
  try {
    const file = path.join(dir, 'data.csv');
    fs.writeFileSync(file, text);
    return pythonCsv(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
