// Every relative link in the project's Markdown resolves: the file exists in the checkout and, for a link with a
// fragment into Markdown, the target has a heading with that anchor (GitHub's slugs). External links are not fetched
// (the suite is offline); a link to a local path outside the repository would fail here.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');

function markdownFiles(): string[] {
  const tracked = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.md'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  return tracked
    .split('\n')
    .filter((f) => f && !f.includes('node_modules/') && fs.existsSync(path.join(ROOT, f)))
    .sort();
}

/** GitHub's anchor for a heading: lower case, punctuation other than '-' and '_' dropped, spaces to '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

const withoutFences = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');
const withoutCode = (text: string): string => withoutFences(text).replace(/`[^`\n]*`/g, '');

function anchorsOf(file: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutFences(fs.readFileSync(file, 'utf8')).split('\n')) {
    const m = /^#{1,6}\s+(.*)$/.exec(line);
    if (!m) continue;
    const base = slug((m[1] as string).replace(/\[([^\]]*)\]\([^)]*\)/g, '$1'));
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

function linksOf(file: string): string[] {
  const text = withoutCode(fs.readFileSync(file, 'utf8'));
  return [...text.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((m) => m[1] as string);
}

function problemsOf(relative: string): string[] {
  const file = path.join(ROOT, relative);
  const problems: string[] = [];
  for (const link of linksOf(file)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(link)) continue;
    const [target = '', fragment] = link.split('#');
    const resolved = target === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(target));
    if (!resolved.startsWith(ROOT + path.sep)) {
      problems.push(`${link}: leaves the repository`);
      continue;
    }
    if (!fs.existsSync(resolved)) {
      problems.push(`${link}: no such file`);
      continue;
    }
    if (fragment && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment))
      problems.push(`${link}: no heading #${fragment} in ${path.relative(ROOT, resolved)}`);
  }
  return problems;
}

describe('Markdown links', () => {
  const files = markdownFiles();

  it('finds the README and the docs', () => {
    expect(files).toContain('README.md');
    expect(files.filter((f) => f.startsWith('docs/')).length).toBeGreaterThan(5);
  });

  it.each(files)('%s: every relative link resolves', (file) => {
    expect(problemsOf(file)).toEqual([]);
  });

  it('the checker sees a broken file link and a broken anchor', () => {
    const probe = path.join(ROOT, 'docs', `.links-probe-${process.pid}.md`);
    fs.writeFileSync(probe, '# Probe\n\n[a](missing-file.md) [b](../README.md#no-such-heading) [c](#probe) [d](../README.md)\n');
    try {
      expect(problemsOf(path.relative(ROOT, probe))).toEqual([
        'missing-file.md: no such file',
        '../README.md#no-such-heading: no heading #no-such-heading in README.md',
      ]);
    } finally {
      fs.rmSync(probe);
    }
  });

  it('the README stays a guide: at most 400 lines', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(400);
  });
});
