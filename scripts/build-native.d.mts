// Types of build-native.mjs for the TypeScript tests that import it.
export const FORWARDER_SOURCE: string;
export function buildForwarder(out: string): string | null;
