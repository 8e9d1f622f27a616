// Types of build-native.mjs for the TypeScript tests that import it.
export function buildForwarder(out: string): string | null;
