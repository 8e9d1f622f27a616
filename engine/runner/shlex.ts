// Splits a command line like Python's `shlex.split(s)` (POSIX mode, no comments): the reference's `entrypoint.command`
// is a string, and the runner never uses a shell.
export class ShlexError extends Error {
  override name = 'ShlexError';
}

const WHITESPACE = new Set([' ', '\t', '\r', '\n']);

export function shlexSplit(line: string): string[] {
  const out: string[] = [];
  let token = '';
  let inToken = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i] as string;
    if (WHITESPACE.has(c)) {
      if (inToken) out.push(token);
      token = '';
      inToken = false;
      i++;
    } else if (c === '\\') {
      if (i + 1 >= line.length) throw new ShlexError('No escaped character');
      token += line[i + 1];
      inToken = true;
      i += 2;
    } else if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new ShlexError('No closing quotation');
      token += line.slice(i + 1, end);
      inToken = true;
      i = end + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= line.length) throw new ShlexError('No closing quotation');
        const d = line[i] as string;
        if (d === '"') break;
        // Inside double quotes a backslash escapes only `"` and `\`; otherwise it stays literal.
        if (d === '\\' && i + 1 < line.length && (line[i + 1] === '"' || line[i + 1] === '\\')) {
          token += line[i + 1];
          i += 2;
        } else if (d === '\\' && i + 1 >= line.length) {
          throw new ShlexError('No escaped character');
        } else {
          token += d;
          i++;
        }
      }
      inToken = true;
      i++;
    } else {
      token += c;
      inToken = true;
      i++;
    }
  }
  if (inToken) out.push(token);
  return out;
}

/** Python `repr()` of a string, as the reference's runner messages print commands. */
export function pyRepr(value: string | readonly string[]): string {
  if (typeof value !== 'string') return `[${value.map((v) => pyRepr(v)).join(', ')}]`;
  const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return out + quote;
}
