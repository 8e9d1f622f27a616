// What a spec counts as the page going wrong: uncaught exceptions and console errors (and, with `watchConsole`, any
// HTTP answer of 400 or more). Each spec asserts the list is empty at its end.
import type { Page } from '@playwright/test';

/** Exceptions and console errors, except the browser's own favicon request and lines a spec expects. */
export function watchErrors(page: Page, expected: RegExp[] = []): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    const line = `${message.text()} @ ${message.location().url}`;
    // The browser's own favicon request is not the page's doing (the engine serves no icon).
    if (message.type() === 'error' && !message.location().url.endsWith('/favicon.ico') && !expected.some((re) => re.test(line)))
      errors.push(line);
  });
  return errors;
}

/** Exceptions, every console error, and every HTTP answer of 400 or more. */
export function watchConsole(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400) errors.push(`http ${response.status()}: ${response.url()}`);
  });
  return errors;
}
